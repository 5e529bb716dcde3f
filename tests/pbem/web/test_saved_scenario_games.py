"""A game from a scenario saved in the C&C scenario editor (issue 16): the create page offers the
reader's own saved scenarios and the shared ones; the game carries the document in its set-up
event (option `scenario_document`), so editing or deleting the saved scenario later changes no
game; another user's private scenario cannot be named; the API describes the document by size
and sha256."""

from __future__ import annotations

import hashlib

import pytest
import yaml
from django.contrib.auth.models import User
from django.test import Client

from games.core.protocol import SCENARIO_DOCUMENT
from pbem.play.models import Event, Game
from pbem.web.ccn_scenario_edit import example_text
from pbem.web.models import CcnScenario
from tests.pbem.api.conftest import client_for
from tests.pbem.web.conftest import client_of

pytestmark = pytest.mark.django_db
CCN = "commands_colors_napoleonics"


def _saved(owner: User, *, shareable: bool = False) -> CcnScenario:
    doc = yaml.safe_load(example_text())
    doc["id"] = "my-ford"
    doc["title"] = "My ford"
    text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
    return CcnScenario.objects.create(owner=owner, title="My ford", text=text, shareable=shareable)


def _create(client: Client, scenario: str, title: str) -> object:
    return client.post(
        "/games/new",
        {"ruleset": CCN, "scenario": scenario, "title": title, "seat": "top", "spectators": "on"},
    )


def test_a_saved_scenario_is_played_as_a_game(alice: User, bob: User, alice_client: Client) -> None:
    saved = _saved(alice)
    form = alice_client.get(f"/games/new?ruleset={CCN}").content.decode()
    assert f'<option value="saved:{saved.pk}">My ford (saved)</option>' in form
    made = _create(alice_client, f"saved:{saved.pk}", "From my booklet")
    assert made.status_code == 302, made.content.decode()[:1500]  # type: ignore[attr-defined]
    game = Game.objects.get(title="From my booklet")
    assert game.scenario == "my-ford"
    assert game.options[SCENARIO_DOCUMENT] == saved.text
    setup = Event.objects.get(game=game, seq=1)
    assert isinstance(setup.payload, dict)
    held = setup.payload["options"][SCENARIO_DOCUMENT]
    assert held == saved.text  # the log holds the scenario it is played with
    saved.delete()  # a later deletion changes no game
    page = alice_client.get(f"/games/{game.pk}/")
    assert page.status_code == 200
    assert "My ford" in page.content.decode()
    detail = client_for(alice).get(f"/api/v1/games/{game.pk}").json()
    raw = game.options[SCENARIO_DOCUMENT].encode()
    described = {"bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}
    assert detail["options"][SCENARIO_DOCUMENT] == described


def test_another_users_private_scenario_cannot_be_named(alice: User, bob: User) -> None:
    private = _saved(alice)
    bob_client = client_of(bob)
    assert f"saved:{private.pk}" not in bob_client.get(f"/games/new?ruleset={CCN}").content.decode()
    refused = _create(bob_client, f"saved:{private.pk}", "Stolen")
    assert refused.status_code == 400  # type: ignore[attr-defined]
    assert not Game.objects.filter(title="Stolen").exists()
    shared = _saved(alice, shareable=True)
    form = bob_client.get(f"/games/new?ruleset={CCN}").content.decode()
    assert f'<option value="saved:{shared.pk}">My ford (alice) (saved)</option>' in form
    assert _create(bob_client, f"saved:{shared.pk}", "Shared").status_code == 302  # type: ignore[attr-defined]


def test_an_api_client_sends_its_own_document(alice: User) -> None:
    """Over the API the document goes in the options; the engine refuses a mismatched id and a
    ruleset that takes no documents refuses the option, each by its rule (400, nothing made)."""
    text = _saved(alice).text
    api = client_for(alice)
    body = {
        "ruleset": CCN,
        "scenario": "my-ford",
        "options": {SCENARIO_DOCUMENT: text},
        "seats": {"top": alice.username, "bottom": None},
    }
    made = api.post("/api/v1/games", body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["scenario"] == "my-ford"
    wrong = api.post("/api/v1/games", {**body, "scenario": "other-id"}, format="json")
    assert wrong.status_code == 400
    assert "§8.2" in wrong.content.decode()
    nt = {"ruleset": "napoleons_triumph", "scenario": "x", "options": {SCENARIO_DOCUMENT: text}}
    refused = api.post("/api/v1/games", {**nt, "seats": {"allied": None}}, format="json")
    assert refused.status_code == 400, refused.content
    assert Game.objects.count() == 1
