"""The lobby: my games with those waiting for me first, whose turn by role name, the deadline
in my time zone; open games to join; creating a game with the engine's refusal next to the
field; joining a seat; "/" still answers the rulesets to a client asking for JSON only."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from django.contrib.auth.models import User
from django.test import Client

from pbem.play.models import Game, Seat
from pbem.play.rulesets import enabled
from pbem.web.models import Profile
from tests.pbem.web.conftest import new_game


def rows(html: str) -> list[tuple[str, bool]]:
    """(game id, waiting for me) of each lobby row, in page order."""
    found = re.findall(r'<tr class="game( waiting-for-me)?" data-game="([0-9a-f-]+)"', html)
    return [(gid, bool(waiting)) for waiting, gid in found]


def test_games_waiting_for_me_come_first(alice: User, bob: User, bob_client: Client) -> None:
    waiting = new_game(alice, bob, title="older, waiting for bob")
    Game.objects.filter(pk=waiting.pk).update(active_roles=["french"])
    other = new_game(alice, bob, title="newer, the Allies' turn")  # the Allies set up first
    html = bob_client.get("/").content.decode()
    listed = rows(html)
    assert listed[:2] == [(str(waiting.pk), True), (str(other.pk), False)]
    # whose turn, by the role's name
    assert "Allied army" in html
    assert "French army" in html


def test_the_deadline_in_my_time_zone(alice: User, bob: User, alice_client: Client) -> None:
    g = new_game(alice, bob)
    Game.objects.filter(pk=g.pk).update(deadline_at=datetime(2031, 1, 15, 12, 0, tzinfo=UTC))
    assert "2031-01-15 12:00 UTC" in alice_client.get("/").content.decode()
    Profile.objects.create(user=alice, time_zone="Asia/Tokyo")
    html = alice_client.get("/").content.decode()
    assert "2031-01-15 21:00 JST" in html
    assert "12:00 UTC" not in html


def test_create_a_game_and_join_it(alice: User, bob: User, alice_client: Client) -> None:
    form = alice_client.get("/games/new")
    assert form.status_code == 200
    assert b'id="create-form"' in form.content
    made = alice_client.post(
        "/games/new",
        {
            "ruleset": "napoleons_triumph",
            "scenario": "DEC2",
            "title": "Austerlitz for two",
            "seat": "allied",
            "spectators": "on",
            "options_json": '{"board": "austerlitz"}',
        },
    )
    assert made.status_code == 302
    game = Game.objects.get(title="Austerlitz for two")
    assert made["Location"] == f"/games/{game.pk}/"
    assert game.options == {"board": "austerlitz"}
    seats = {s.role: s.user_id for s in game.seats.all()}
    assert seats == {"allied": alice.pk, "french": None}
    # bob sees it among the open games and joins the free seat
    bob_client = Client()
    bob_client.force_login(bob)
    html = bob_client.get("/").content.decode()
    assert f'action="/games/{game.pk}/join/french"' in html
    joined = bob_client.post(f"/games/{game.pk}/join/french")
    assert joined.status_code == 302
    assert Seat.objects.get(game=game, role="french").user_id == bob.pk
    # the seat is taken now: another joiner is told, nothing changes
    carol = User.objects.create_user("carol", "carol@example.org", "pw")
    carol_client = Client()
    carol_client.force_login(carol)
    refused = carol_client.post(f"/games/{game.pk}/join/french", follow=True)
    assert refused.status_code == 200
    assert b"already taken" in refused.content
    assert Seat.objects.get(game=game, role="french").user_id == bob.pk


def test_a_refused_option_shows_the_engines_message(alice_client: Client) -> None:
    before = Game.objects.count()
    answer = alice_client.post(
        "/games/new",
        {
            "ruleset": "napoleons_triumph",
            "scenario": "DEC2",
            "options_json": '{"no_such_option": 1}',
        },
    )
    assert answer.status_code == 400
    html = answer.content.decode()
    box = html.index('name="options_json"')
    message = html.index("NT-19", box)  # the engine's rule, after the JSON box it concerns
    assert message < html.index('id="create-submit"')
    assert Game.objects.count() == before
    not_json = alice_client.post(
        "/games/new",
        {"ruleset": "napoleons_triumph", "scenario": "DEC2", "options_json": "{oops"},
    )
    assert not_json.status_code == 400
    assert b"not valid JSON" in not_json.content
    assert Game.objects.count() == before


def test_invitations_are_accepted_from_the_lobby(alice: User, bob: User) -> None:
    from pbem.play.services.games import game_create

    g = game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options={"board": "austerlitz"},
        seats={"allied": alice, "french": bob},
        creator=alice,
    )
    bob_client = Client()
    bob_client.force_login(bob)
    html = bob_client.get("/").content.decode()
    assert f'action="/games/{g.pk}/accept/french"' in html
    assert bob_client.post(f"/games/{g.pk}/accept/french").status_code == 302
    assert Seat.objects.get(game=g, role="french").accepted_at is not None


def test_the_root_still_answers_json_to_json_clients(client: Client, db: None) -> None:
    answer = client.get("/", HTTP_ACCEPT="application/json")
    assert answer.status_code == 200
    assert answer.json() == {"rulesets": enabled()}  # the rulesets this server offers
    assert "napoleons_triumph" in enabled()
    page = client.get("/", HTTP_ACCEPT="text/html,application/xhtml+xml")
    assert page["Content-Type"].startswith("text/html")
