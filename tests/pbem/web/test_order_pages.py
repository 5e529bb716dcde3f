"""Orders from the page: the form submits a legal order (applied, the page says so), an illegal
one shows its rule id in #order-errors and changes nothing; the text box submits the engine's
notation; nobody acts for a seat they do not hold; garbage never gets a 500."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.core.protocol import random_legal_action
from games.core.rng import Rng
from games.napoleons_triumph.state import GameState
from pbem.play.models import Event, Game, OrderIntake
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import state_at
from tests.pbem.web.conftest import client_of, new_game, play_random
from tests.support.nt_text import action_text


def head(game: Game) -> int:
    game.refresh_from_db()
    return game.head_seq


def first_choice(html: str, kind: str) -> str:
    """The value of the first legal choice the page offers for `kind`."""
    select = html[html.index(f'name="choice-{kind}"') :]
    found = re.search(r'<option value="(\{[^"]*)"', select)
    assert found, kind
    return html_lib.unescape(found.group(1))


def rules_shown(html: str) -> list[str]:
    errors = html[
        html.index('id="order-errors"') : html.index("</div>", html.index('id="order-errors"'))
    ]
    return re.findall(r'<code class="rule">([^<]+)</code>', errors)


def test_a_legal_order_from_the_form_is_applied(game: Game, alice_client: Client) -> None:
    url = f"/games/{game.pk}/"
    html = alice_client.get(url).content.decode()
    assert 'id="order-form"' in html
    assert '<select id="order-kind" name="kind">' in html
    payload = first_choice(html, "allied_setup")
    before = head(game)
    answer = alice_client.post(
        f"/games/{game.pk}/order",
        {"role": "allied", "kind": "allied_setup", "choice-allied_setup": payload},
    )
    assert answer.status_code == 303
    assert head(game) == before + 1
    assert Event.objects.get(game=game, seq=before + 1).kind == "allied_setup"
    after = alice_client.get(answer["Location"]).content.decode()
    assert "Your order is applied (event 2)." in after


def test_an_illegal_order_shows_its_rule_and_changes_nothing(
    game: Game, alice_client: Client
) -> None:
    before = head(game)
    answer = alice_client.post(
        f"/games/{game.pk}/order",
        {"role": "allied", "kind": "allied_setup", "payload-allied_setup": '{"corps": []}'},
    )
    assert answer.status_code == 422
    assert rules_shown(answer.content.decode()) == ["NT-21"]
    assert head(game) == before
    wrong_time = alice_client.post(
        f"/games/{game.pk}/order", {"role": "allied", "kind": "end_turn"}
    )
    assert wrong_time.status_code == 422
    assert rules_shown(wrong_time.content.decode()) == ["NT-19"]
    assert head(game) == before
    # with htmx the refusal comes in the live part (200: htmx swaps only 2xx answers)
    swapped = alice_client.post(
        f"/games/{game.pk}/order",
        {"role": "allied", "kind": "end_turn"},
        HTTP_HX_REQUEST="true",
    )
    assert swapped.status_code == 200
    assert rules_shown(swapped.content.decode()) == ["NT-19"]
    assert "<html" not in swapped.content.decode()


def test_fields_generated_from_the_schema(game: Game, bob: User, alice_client: Client) -> None:
    play_random(game, 2)
    bob_client = client_of(bob)
    before = head(game)
    # the Allies' turn: alice gives up a command by ending her turn through the kind alone
    done = alice_client.post(f"/games/{game.pk}/order", {"role": "allied", "kind": "end_turn"})
    assert done.status_code == 303
    assert head(game) == before + 1
    # a field that is not a whole number is named, nothing is sent
    html = bob_client.get(f"/games/{game.pk}/").content.decode()
    assert 'name="set_defense_plan.scope"' in html
    bad = bob_client.post(
        f"/games/{game.pk}/order",
        {"role": "french", "kind": "set_defense_plan", "set_defense_plan.scope": "{nope"},
    )
    assert bad.status_code == 400
    assert rules_shown(bad.content.decode()) == ["form"]
    assert head(game) == before + 1


def test_the_text_box(game: Game, alice_client: Client) -> None:
    play_random(game, 2)
    before = head(game)
    garbage = alice_client.post(
        f"/games/{game.pk}/order", {"role": "allied", "text": "fly to the moon"}
    )
    assert garbage.status_code == 422
    assert rules_shown(garbage.content.decode())
    assert head(game) == before
    ended = alice_client.post(f"/games/{game.pk}/order", {"role": "allied", "text": "end turn"})
    assert ended.status_code == 303
    assert head(game) == before + 1
    assert Event.objects.get(game=game, seq=before + 1).kind == "end_turn"


def test_nobody_acts_for_a_seat_they_do_not_hold(
    game: Game, bob_client: Client, mallory_client: Client
) -> None:
    before = head(game)
    for reader in (bob_client, mallory_client):
        for body in (
            {"role": "allied", "kind": "allied_setup", "payload-allied_setup": '{"corps": []}'},
            {"role": "allied", "text": "end turn"},
        ):
            answer = reader.post(f"/games/{game.pk}/order", body)
            assert answer.status_code == 403
            assert head(game) == before
    private = new_game(game.seats.get(role="allied").user, None, spectators=False)
    assert mallory_client.post(f"/games/{private.pk}/order", {"kind": "x"}).status_code == 403
    anonymous = Client().post(f"/games/{game.pk}/order", {"role": "allied", "kind": "end_turn"})
    assert anonymous.status_code == 302  # to the login page
    assert head(game) == before


GARBAGE: list[dict[str, str]] = [
    {},
    {"role": "allied"},
    {"role": "allied", "kind": "x" * 5000},
    {"role": "allied", "kind": "allied_setup", "choice-allied_setup": "[[[["},
    {"role": "allied", "kind": "allied_setup", "choice-allied_setup": "[" * 5000 + "]" * 5000},
    {"role": "allied", "kind": "allied_setup", "payload-allied_setup": "null"},
    {"role": "allied", "kind": "allied_setup", "payload-allied_setup": '"text"'},
    {"role": "allied", "kind": "allied_setup", "allied_setup.corps": "12"},
    {"role": "allied", "text": "\x00\x01" * 100},
    {"role": "allied", "text": "x" * 30000},
    {"role": "@observer", "kind": "end_turn"},
    {"role": "r" * 500, "kind": "end_turn"},
]


@pytest.mark.parametrize("body", GARBAGE)
def test_garbage_orders_never_500(game: Game, alice_client: Client, body: dict[str, str]) -> None:
    before = head(game)
    answer = alice_client.post(f"/games/{game.pk}/order", body)
    assert 400 <= answer.status_code < 500, answer.status_code
    assert head(game) == before


def test_garbage_elsewhere_never_500(game: Game, alice_client: Client) -> None:
    posts = [
        (f"/games/{game.pk}/pause", {"action": "explode"}),
        (f"/games/{game.pk}/join/" + "r" * 300, {}),
        (f"/games/{game.pk}/join/french", {}),
        ("/games/new", {"ruleset": "nope", "scenario": "?", "seat": "x" * 300}),
        ("/games/new", {"ruleset": "napoleons_triumph", "scenario": "DEC2", "options_json": "[1]"}),
        ("/games/new", {"ruleset": "napoleons_triumph", "scenario": "DEC2", "seat": "nobody"}),
        ("/accounts/profile/", {"form": "nope"}),
        ("/accounts/profile/", {"form": "profile", "time_zone": "Mars/Olympus"}),
        ("/accounts/verify/", {"token": "x" * 10000}),
        ("/accounts/email/confirm/", {"token": "garbage"}),
        ("/accounts/signup/", {"username": "\x00", "email": "no", "password": ""}),
        ("/i18n/language", {"language": "xx", "next": "http://evil.example/"}),
    ]
    for url, body in posts:
        answer = alice_client.post(url, body)
        assert answer.status_code < 500, (url, answer.status_code)
    assert alice_client.get(f"/games/{game.pk}/live?role=" + "x" * 300).status_code == 403


def test_json_nested_deeper_than_the_api_allows_is_refused_by_name(
    game: Game, alice_client: Client
) -> None:
    """The web's JSON boxes keep the API's depth bound (PBEM MAX_JSON_DEPTH, 32), checked before
    parsing: 33 levels are refused with the field named, 32 are read (and judged by the rules)."""
    before = head(game)
    deep = "[" * 33 + "]" * 33
    answer = alice_client.post(
        f"/games/{game.pk}/order",
        {"role": "allied", "kind": "allied_setup", "payload-allied_setup": deep},
    )
    assert answer.status_code == 400
    assert "nested deeper than 32 levels" in answer.content.decode()
    assert head(game) == before
    shallow = alice_client.post(
        f"/games/{game.pk}/order",
        {"role": "allied", "kind": "allied_setup", "payload-allied_setup": "[" * 32 + "]" * 32},
    )
    assert "nested deeper" not in shallow.content.decode()


def test_the_orders_of_a_text_are_applied_one_after_the_other(
    game: Game, alice_client: Client, broker_mode: None
) -> None:
    """With a worker, the text box's orders are each applied before the next is sent (the next
    is read and checked at the head the one before made, as a mail's lines are); the last one
    goes to the worker as any order."""
    play_random(game, 2)
    game.refresh_from_db()
    state = state_at(game, game.head_seq)
    assert isinstance(state, GameState)
    ruleset = ruleset_get(game.ruleset_id)
    rng = Rng(7)
    first = None
    for _ in range(200):
        action = random_legal_action(ruleset, state, "allied", rng)
        assert action is not None
        text = action_text(state, "allied", action)
        if text is not None and action.kind != "end_turn":
            first = text
            break
    assert first is not None
    before = head(game)
    answer = alice_client.post(
        f"/games/{game.pk}/order", {"role": "allied", "text": f"{first}\nend turn"}
    )
    assert answer.status_code == 303
    intakes = list(
        OrderIntake.objects.filter(game=game, head_seq__gte=before).order_by(
            "head_seq", "created_at"
        )
    )
    assert [i.status for i in intakes[-2:]] == [
        OrderIntake.Status.APPLIED,
        OrderIntake.Status.RECEIVED,
    ]
    assert head(game) == before + 1  # the first is in the log; the second waits for the worker
