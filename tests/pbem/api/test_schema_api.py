"""The OpenAPI schema and the docs page."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from rest_framework.test import APIClient

PATHS = {
    "/api/v1/games": {"get", "post"},
    "/api/v1/games/{game_id}": {"get"},
    "/api/v1/games/{game_id}/seats/{role}/join": {"post"},
    "/api/v1/games/{game_id}/view": {"get"},
    "/api/v1/games/{game_id}/events": {"get"},
    "/api/v1/games/{game_id}/actions": {"post"},
    "/api/v1/intakes/{intake_id}": {"get"},
    "/api/v1/rulesets": {"get"},
    "/api/v1/webhooks": {"post"},
    "/api/v1/games/{game_id}/verify": {"get"},
    "/api/v1/games/{game_id}/deadline": {"get", "patch"},
    "/api/v1/games/{game_id}/pause": {"post", "delete"},
    "/api/v1/games/{game_id}/resume": {"post"},
    "/api/v1/games/{game_id}/seats/{role}/substitute": {"put"},
    "/api/v1/absences": {"get", "post"},
    "/api/v1/absences/{absence_id}": {"delete"},
}


def test_the_schema_is_an_openapi_document_with_every_path(db: None) -> None:
    response = APIClient().get("/api/schema/", {"format": "json"})

    assert response.status_code == 200
    doc = response.json()
    assert doc["openapi"].startswith("3.")
    for path, methods in PATHS.items():
        assert path in doc["paths"], path
        assert set(doc["paths"][path]) >= methods, path
    actions = doc["paths"]["/api/v1/games/{game_id}/actions"]["post"]
    assert {"201", "202", "400", "403", "404", "409", "422"} <= set(actions["responses"])
    assert "OrderSubmitRequest" in doc["components"]["schemas"]
    assert "Game" in str(doc["components"]["schemas"])


def test_the_docs_page_answers(db: None) -> None:
    response = APIClient().get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()


def test_the_docs_page_loads_swagger_ui_from_our_static_files(db: None) -> None:
    """No CDN: the page works offline and its Swagger UI version is pinned (sidecar)."""
    page = APIClient().get("/api/docs/").content.decode()

    assert "cdn.jsdelivr.net" not in page
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
