"""GET /api/v1/games/{id}/verify: the replay check over REST; the seed only once finished."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from pbem.play.models import Game


def test_verify_replays_the_log_and_keeps_the_seed_while_the_game_runs(
    api: Any, alice_client: APIClient, bob_client: APIClient, game: dict[str, Any]
) -> None:
    api.play({"allied": alice_client, "french": bob_client}, game["id"], 4)

    out = alice_client.get(f"/api/v1/games/{game['id']}/verify").json()

    assert out["ok"] is True
    assert out["events_checked"] == 5
    assert out["commitment_ok"] is True
    assert out["seed"] is None
    assert out["seed_commitment"] == game["seed_commitment"]


def test_verify_shows_the_seed_of_a_finished_game(
    alice_client: APIClient, mallory_client: APIClient, game: dict[str, Any]
) -> None:
    Game.objects.filter(pk=game["id"]).update(status=Game.Status.FINISHED)
    seed = bytes(Game.objects.get(pk=game["id"]).seed).hex()

    out = mallory_client.get(f"/api/v1/games/{game['id']}/verify").json()

    assert out["ok"] is True
    assert out["seed"] == seed


def test_verify_of_an_unknown_game_is_404(alice_client: APIClient) -> None:
    response = alice_client.get("/api/v1/games/00000000-0000-0000-0000-000000000000/verify")
    assert response.status_code == 404


def test_verify_is_rate_limited_per_user(
    alice_client: APIClient, game: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"verify": "2/hour"})
    cache.clear()
    url = f"/api/v1/games/{game['id']}/verify"

    codes = [alice_client.get(url).status_code for _ in range(3)]

    assert codes == [200, 200, 429]
