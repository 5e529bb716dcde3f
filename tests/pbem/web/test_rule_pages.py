"""A refusal's rule id links to the rule's text (the registry's rules-text hook): the rule page
shows the digest's text with its section and source, escaped, its references linked; ids
without a text (form errors such as NT-0, unknown ids, unknown rulesets) are plain and 404."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.registry import rule_text
from pbem.play.models import Game

pytestmark = pytest.mark.django_db


def test_the_rule_page_shows_the_text_section_and_source(client: Client) -> None:
    answer = client.get("/rules/napoleons_triumph/NT-10/")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "<strong>Capacity</strong> is the greatest number" in html
    assert "3.2 The board" in html
    assert "napoleons-triumph.md sha256:" in html
    assert '<a href="/rules/napoleons_triumph/NT-55/">NT-55</a>' in html  # references linked
    team = client.get("/rules/napoleons_triumph/NT-TEAM-18/")
    assert team.status_code == 200
    assert "NT-TEAM-18" in team.content.decode()


@pytest.mark.parametrize(
    "path",
    [
        "/rules/napoleons_triumph/NT-0/",  # a form error, not a rule of the game
        "/rules/napoleons_triumph/NT-9999/",
        "/rules/napoleons_triumph/nt-10/",
        "/rules/napoleons_triumph/..%2F..%2Fsettings/",
        "/rules/no_such_ruleset/NT-10/",
        "/rules/napoleons_triumph/" + "NT-" + "1" * 300 + "/",
    ],
)
def test_what_has_no_text_is_a_404(client: Client, path: str) -> None:
    assert client.get(path).status_code == 404


def test_the_text_is_escaped(monkeypatch: pytest.MonkeyPatch, client: Client) -> None:
    from games.core.rule_text import RuleText
    from pbem.web import rule_views

    forged = RuleText("NT-10", "3.2", "", "<script>alert(1)</script> **bold** `code`")
    monkeypatch.setattr(rule_views, "rule_text", lambda ruleset, rule: forged)
    html = client.get("/rules/napoleons_triumph/NT-10/").content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;" in html
    assert "<strong>bold</strong>" in html
    assert "<code>code</code>" in html


def test_a_refusal_on_the_game_page_links_its_rule(game: Game, alice_client: Client) -> None:
    answer = alice_client.post(
        f"/games/{game.pk}/order",
        {"role": "allied", "kind": "allied_setup", "payload-allied_setup": '{"corps": []}'},
    )
    assert answer.status_code == 422
    html = answer.content.decode()
    links = re.findall(r'<a href="(/rules/napoleons_triumph/[^"]+)"[^>]*><code class="rule">', html)
    assert links == ["/rules/napoleons_triumph/NT-21/"]
    assert rule_text("napoleons_triumph", "NT-21") is not None


def test_a_form_error_is_not_linked(game: Game, alice_client: Client) -> None:
    answer = alice_client.post(
        f"/games/{game.pk}/order",
        {"role": "allied", "kind": "set_defense_plan", "set_defense_plan.scope": "{nope"},
    )
    html = answer.content.decode()
    assert '<code class="rule">' in html
    assert "/rules/" not in html[html.index('id="order-errors"') :].split("</div>")[0]


def test_staff_find_the_layout_editor_in_the_menu(alice: User, alice_client: Client) -> None:
    assert "/staff/layout/" not in alice_client.get("/").content.decode()
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    html = alice_client.get("/").content.decode()
    assert 'href="/staff/layout/"' in html
    answer = alice_client.get("/staff/layout/")
    assert answer.status_code == 302
    assert alice_client.get(answer["Location"]).status_code == 200
