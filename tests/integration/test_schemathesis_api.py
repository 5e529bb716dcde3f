"""Schemathesis over the OpenAPI schema the server publishes at /api/schema/: every operation,
generated requests (valid and invalid), sent over HTTP to the live server with a real token,
against PostgreSQL, Redis and the worker. Not one answer may be a server error (5xx).

Generated cases use a real game's id (and a real intake's) as well as generated ids, so the
generator reaches past the 404 into the validation of bodies, roles and orders.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.core.result import Ok

from games.core.rng import Rng
from tests.integration.it_helpers import choose, create_game, submit, users

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def cast(http_for: Any) -> dict[str, Any]:
    """A game between two users with one applied order, and the first user's token."""
    allied, french = users("st", 2)
    http = http_for(allied)
    game_id = create_game(http, allied, french)
    action = choose(game_id, "allied", Rng(11))
    assert action is not None
    intake = submit(http, game_id, action).json()["intake"]["id"]
    token = Token.objects.get(user=User.objects.get(pk=allied.pk)).key
    return {"game_id": game_id, "intake_id": intake, "token": token}


def _operations(base: str) -> list[Any]:
    schema = schemathesis.openapi.from_url(f"{base}/api/schema/")
    operations = []
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), f"the published schema has an invalid operation: {result}"
        operations.append(result.ok())
    return operations


def test_no_server_errors(
    running_worker: Any,
    web: str,
    cast: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each operation gets valid (positive) and invalid (negative) generated requests with the
    real game's ids, and valid ones with generated ids; any 5xx fails the test."""
    status: Counter[int] = Counter()
    failures: list[str] = []
    unsatisfiable: list[str] = []
    auth = {"Authorization": f"Token {cast['token']}"}
    operations = _operations(web)

    for op in operations:
        names = {p.name for p in op.iter_parameters() if p.location == "path"}
        real = {n: cast[n] for n in ("game_id", "intake_id") if n in names}
        runs = [(GenerationMode.POSITIVE, real), (GenerationMode.NEGATIVE, real)]
        if real:
            runs.append((GenerationMode.POSITIVE, {}))
        for mode, fixed in runs:
            strategy = op.as_strategy(mode, path_parameters=fixed or None)

            @given(case=strategy)
            @hypothesis_settings(
                max_examples=25,
                deadline=None,
                suppress_health_check=list(HealthCheck),
                database=None,
            )
            def run(case: Any) -> None:
                response = case.call(base_url=web, headers=auth)
                status[response.status_code] += 1
                if response.status_code >= 500:
                    failures.append(
                        f"{case.method} {case.formatted_path} -> {response.status_code}: "
                        f"{response.text[:300]}"
                    )

            try:
                run()
            except Unsatisfiable:  # e.g. no invalid request exists when every input is fixed
                unsatisfiable.append(f"{op.label} {mode.value}")

    with capsys.disabled():
        print(  # noqa: T201
            f"\n[integration] schemathesis: {len(operations)} operations, "
            f"{sum(status.values())} requests, answers by status {dict(sorted(status.items()))}; "
            f"no case could be generated for {unsatisfiable}"
        )
    assert not failures, failures[:5]
    assert sum(status.values()) > 100
    assert any(code in status for code in (200, 201, 202))
    assert any(code in status for code in (400, 409, 422))


def test_no_server_errors_in_stateful_sequences(
    running_worker: Any,
    web: str,
    cast: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Stateful: schemathesis follows the document's OpenAPI links (a created game's id into
    every `/games/{game_id}/...` operation, an order's intake id into `/intakes/{intake_id}`;
    pbem.api.openapi_links) and runs random sequences of linked calls; any 5xx fails."""
    schema = schemathesis.openapi.from_url(f"{web}/api/schema/")
    links = sum(
        len(response.get("links", {}))
        for operations in schema.raw_schema["paths"].values()
        for operation in operations.values()
        if isinstance(operation, dict)
        for response in operation.get("responses", {}).values()
    )
    assert links > 10, "the published document has no links to follow"
    status: Counter[int] = Counter()
    transitions: Counter[str] = Counter()
    failures: list[str] = []
    auth = {"Authorization": f"Token {cast['token']}"}
    base = web

    class Machine(schema.as_state_machine()):  # type: ignore[misc]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"base_url": base, "headers": auth}

        def after_call(self, response: Any, case: Any) -> None:
            status[response.status_code] += 1
            transitions[f"{case.method} {case.path}"] += 1
            if response.status_code >= 500:
                failures.append(
                    f"{case.method} {case.formatted_path} -> {response.status_code}: "
                    f"{response.text[:300]}"
                )

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            pass  # the property here is "no 5xx" (after_call); conformance is not asserted

    Machine.run(
        settings=hypothesis_settings(
            max_examples=40,
            stateful_step_count=6,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
    )
    with capsys.disabled():
        print(  # noqa: T201
            f"\n[integration] schemathesis stateful: {sum(status.values())} requests over "
            f"{len(transitions)} operations, {links} links, answers by status "
            f"{dict(sorted(status.items()))}"
        )
    assert not failures, failures[:5]
    assert any(200 <= code < 300 for code in status)
