"""The browser stack works before any page is tested: Debian's chromium starts under Playwright
and reads what the gunicorn-served app answers, its static files included."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.integration.browser.conftest import WAIT_MS, OpenContext, Screenshots

pytestmark = [pytest.mark.integration, pytest.mark.browser]


def test_chromium_reads_healthz_and_the_api_docs(
    site: str, open_context: OpenContext, shots: Screenshots
) -> None:
    page = open_context("visitor")
    response = page.goto(f"{site}/healthz")
    assert response is not None
    assert response.status == 200
    assert json.loads(page.locator("body").inner_text()) == {"ok": True}
    # Swagger UI is drawn by JavaScript from our own static files (no CDN) and the schema URL
    response = page.goto(f"{site}/api/docs/")
    assert response is not None
    assert response.status == 200
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("pbem API", timeout=WAIT_MS)
    expect(page.locator(".opblock").first).to_be_visible(timeout=WAIT_MS)
    shots.take(page, "api-docs")
