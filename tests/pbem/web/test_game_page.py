"""The game page renders only from the seat's view: each seat sees its own pieces and never an
enemy unit id or a hidden face, and the page of a seat is byte-identical for two states that
differ only in what the seat may not see (the engine's perturb_hidden, as in
tests/engines/napoleons_triumph/test_report.py). Private games are 403 to outsiders, as in the
API. The live part answers 304 while the seat's position is unchanged."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.core.protocol import OBSERVER
from games.core.rng import Rng
from games.napoleons_triumph.checks import CHECKS
from games.napoleons_triumph.invariants import perturb_hidden
from games.napoleons_triumph.state import GameState
from pbem.play.models import Event, Game
from pbem.play.services.log import state_at as stored_state
from pbem.play.services.orders import order_submit
from pbem.web import seat_page as seat_page_module
from tests.pbem.web.conftest import client_of, new_game, play_random

FIXED_TOKEN = "f" * 64


def state_at(game: Game, seq: int) -> GameState:
    state = stored_state(game, seq)
    assert isinstance(state, GameState)
    return state


@pytest.fixture(autouse=True)
def _fixed_csrf(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same CSRF token in every render, so two renders can be compared byte for byte."""
    monkeypatch.setattr("django.template.context_processors.get_token", lambda request: FIXED_TOKEN)


def mentions(html: str, uid: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])", html) is not None


def page(client: Client, game: Game, role: str | None = None) -> str:
    url = f"/games/{game.pk}/" + (f"?role={role}" if role else "")
    answer = client.get(url)
    assert answer.status_code == 200, answer.content[:2000]
    return answer.content.decode()


def test_each_seat_sees_its_own_pieces_and_no_enemy_id(
    game: Game, alice_client: Client, bob_client: Client, client: Client
) -> None:
    play_random(game, 2)  # both armies set up: the first turn
    state = state_at(game, game.head_seq)
    for role, reader in (("allied", alice_client), ("french", bob_client), (OBSERVER, client)):
        html = page(reader, game)
        side = state.roles.get(role)
        own = [u.id for u in state.units.values() if u.side == side and u.where == "map"]
        if side is not None:
            assert own, role
            assert all(mentions(html, uid) for uid in own), role
        for uid in CHECKS.hidden_ids(state, role):
            assert not mentions(html, uid), (role, uid)
        for secret in CHECKS.secrets(state):
            assert secret not in html
        for needle in ('id="board"', 'id="report"', 'id="log"', 'id="live"'):
            assert needle in html


@pytest.mark.parametrize("seed", [3, 11])
def test_a_seats_page_does_not_depend_on_what_it_may_not_see(
    seed: int, game: Game, alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    readers = {"allied": client_of(alice), "french": client_of(bob)}
    enemy = {"allied": "french", "french": "allied"}
    rng = Rng(seed)
    checked = 0
    seen_by_owner = 0  # the perturbation is real: the side whose pieces changed sees it
    for _ in range(5):
        play_random(game, 6, seed=seed + checked)
        if not game.active_roles:
            break
        state = state_at(game, game.head_seq)
        for role, reader in readers.items():
            plain = page(reader, game)
            owner_plain = page(readers[enemy[role]], game)
            for _n in range(2):
                other = perturb_hidden(state, state.roles[role], rng)
                with monkeypatch.context() as m:
                    m.setattr(seat_page_module, "state_at", lambda g, seq, o=other: o)
                    assert page(reader, game) == plain, (role, game.head_seq)
                    seen_by_owner += page(readers[enemy[role]], game) != owner_plain
            checked += 1
    assert checked >= 4
    assert seen_by_owner > 0


def test_private_games_and_unknown_ids(
    alice: User, bob: User, mallory_client: Client, client: Client
) -> None:
    private = new_game(alice, bob, spectators=False)
    assert mallory_client.get(f"/games/{private.pk}/").status_code == 403
    assert mallory_client.get(f"/games/{private.pk}/live").status_code == 403
    assert client.get(f"/games/{private.pk}/").status_code == 403
    assert client_of(alice).get(f"/games/{private.pk}/").status_code == 200
    assert client.get("/games/00000000-0000-0000-0000-000000000000/").status_code == 404
    assert client.get("/games/not-a-uuid/").status_code == 404
    public = new_game(alice, bob)
    html = page(mallory_client, public)
    assert "spectator" in html
    assert 'id="order-form"' not in html
    # a seat she does not hold: 403, as the API
    assert mallory_client.get(f"/games/{public.pk}/?role=allied").status_code == 403


def test_the_live_part_answers_304_until_the_seat_may_know_more(
    game: Game, alice_client: Client, bob_client: Client, alice: User
) -> None:
    url = f"/games/{game.pk}/live"
    first = bob_client.get(url)
    assert first.status_code == 200
    tag = first["ETag"]
    assert bob_client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    alice_tag = alice_client.get(url)["ETag"]
    # alice files a standing instruction: her secret, so bob's page has nothing new
    secret = order_submit(
        game=game,
        user=alice,
        role="allied",
        kind="set_defense_plan",
        payload={"scope": {"default": True}, "on_threat": {"mode": "defend"}},
        source="web",
    )
    assert secret.event is not None
    game.refresh_from_db()
    assert bob_client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert alice_client.get(url, HTTP_IF_NONE_MATCH=alice_tag).status_code == 200
    play_random(game, 1)  # the Allied set-up: public
    changed = bob_client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200
    assert changed["ETag"] != tag
    assert 'id="report"' in changed.content.decode()


def test_the_log_is_numbered_as_the_seat_reads_it(
    game: Game, alice: User, bob_client: Client
) -> None:
    order_submit(
        game=game,
        user=alice,
        role="allied",
        kind="set_defense_plan",
        payload={"scope": {"default": True}, "on_threat": {"mode": "defend"}},
        source="web",
    )
    play_random(game, 2)
    assert Event.objects.filter(game=game).count() == 4
    html = page(bob_client, game)
    log = html[html.index('id="log"') :]
    numbers = [int(n) for n in re.findall(r'data-seq="(\d+)"', log)]
    assert numbers == [3, 2, 1]  # newest first, the hidden event neither listed nor counted
    assert "set_defense_plan" not in log
    assert "Turn 2" in log
    assert "Turn 1" in log
