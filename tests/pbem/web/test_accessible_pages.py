"""Accessibility basics the pages keep: every form control has a label (or an aria-label),
every form an id; the board is described by the view in words; the pages' own static files
(CSS, script, htmx itself) are served from this project, no CDN."""

from __future__ import annotations

from html.parser import HTMLParser

from django.contrib.staticfiles import finders
from django.test import Client

from pbem.play.models import Game
from tests.pbem.web.conftest import play_random


class Controls(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.labels: set[str] = set()
        self.controls: list[dict[str, str | None]] = []
        self.forms: list[dict[str, str | None]] = []
        self.scripts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "label" and a.get("for"):
            self.labels.add(str(a["for"]))
        elif tag == "form":
            self.forms.append(a)
        elif tag == "script" and a.get("src"):
            self.scripts.append(str(a["src"]))
        elif tag in ("select", "textarea") or (
            tag == "input" and a.get("type") not in ("hidden", "submit", "button")
        ):
            self.controls.append({"tag": tag, **a})


def check(html: str) -> Controls:
    parsed = Controls()
    parsed.feed(html)
    for control in parsed.controls:
        labelled = control.get("id") in parsed.labels or control.get("aria-label")
        assert labelled, control
    assert all(form.get("id") for form in parsed.forms), parsed.forms
    assert all(src.startswith("/static/") for src in parsed.scripts), parsed.scripts
    return parsed


def test_every_control_is_labelled(game: Game, alice_client: Client, client: Client) -> None:
    play_random(game, 2)
    urls = ["/", "/games/new", "/accounts/profile/", f"/games/{game.pk}/"]
    for url in urls:
        answer = alice_client.get(url)
        assert answer.status_code == 200, url
        parsed = check(answer.content.decode())
        assert parsed.controls, url
    for url in ("/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"):
        check(client.get(url).content.decode())


def test_the_board_is_described_by_the_view_in_words(game: Game, alice_client: Client) -> None:
    html = alice_client.get(f"/games/{game.pk}/").content.decode()
    board = html[html.index('<div id="board"') :]
    tag = board[: board.index(">")]
    if "<svg" in board[: board.index("</div>")]:  # a ruleset with a board renderer
        assert 'aria-describedby="report"' in tag
    assert '<pre id="report"' in html


def test_static_files_come_with_the_project() -> None:
    for path in ("web/pbem.css", "web/pbem.js", "django_htmx/htmx-2.min.js"):
        assert finders.find(path), path
