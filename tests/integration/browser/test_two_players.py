"""Two players, two browsers (issue 15, "Tests in a real browser"): each signs up on the page and
follows the link the server mailed, the first creates a Napoleon's Triumph game (1 December 2
on the small board) and the second joins it from the lobby; they play the set-up with the text
box and turns up to an attack and the defender's decisions, each page updated by its own
polling (never reloaded: a mark set in each window survives to the end); a broken set-up is
refused with the engine's rule id; the first player switches the pages to German.

The players type what the engine (the oracle, nt_oracle.py) chooses on the database state, as
the player by mail does; everything reaches the server through the pages. Screenshots of the
lobby and the board go to artifacts/screenshots/.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from games.core.rng import Rng
from pbem.play.models import Game
from tests.integration.browser.conftest import WAIT_MS, OpenContext, Screenshots
from tests.integration.browser.nt_oracle import (
    DEFENDER_KINDS,
    Order,
    Steering,
    broken_setup,
    prompted,
)
from tests.integration.conftest import Worker
from tests.integration.it_helpers import report
from tests.integration.mail_fixtures import SmtpSink, SunkMessage

pytestmark = [pytest.mark.integration, pytest.mark.browser]

PASSWORD = "Correct-Horse-7-Battery"
MAX_ORDERS = 40  # the steered play reaches an attack's end within a dozen orders
SEED = 20261126
LINK = re.compile(r"https?://[^\s<>\"']+")
NO_RELOAD = "window.pbemTestMark"  # set once per page; a reload would drop it


def _mail_text(message: SunkMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    return body.get_content() if body is not None else ""


def mailed_link(sink: SmtpSink) -> Callable[[str], str]:
    """The activation link of the mail the server sent to an address (the SMTP sink's copy)."""

    def link(email: str) -> str:
        mail = sink.wait_for(lambda m: email in m.envelope_to, timeout=60)
        links = LINK.findall(_mail_text(mail))
        pages: list[str] = [u for u in links if urlsplit(u).path.rstrip("/") == "/accounts/verify"]
        assert pages, f"the verification mail links no page to activate the account: {links}"
        return pages[0]

    return link


def sign_up(
    page: Page, site: str, name: str, shots: Screenshots, activation_link: Callable[[str], str]
) -> None:
    """Sign up on the page, open the activation link the server sent (`activation_link` of the
    address finds it) and activate the account (which signs the player in)."""
    email = f"{name}@players.example"
    page.goto(f"{site}/accounts/signup/")
    form = page.locator("#signup-form")
    form.locator("input[name=username]").fill(name)
    form.locator("input[name=email]").fill(email)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator("#signup-sent")).to_contain_text(email, timeout=WAIT_MS)
    page.goto(activation_link(email))
    shots.take(page, f"activate-{name}")
    page.locator("#verify-form button[type=submit]").click()
    expect(page.locator("#logout-form")).to_contain_text(name, timeout=WAIT_MS)


def choose_and_wait(page: Page, select: str, value: str) -> None:
    """Pick `value` in one of the create page's selects, which fetches the page for it (htmx)
    and swaps it in: wait until the form marked before the pick is gone."""
    page.locator("#create-form").evaluate("form => { form.dataset.stale = 'yes'; }")
    page.locator(select).select_option(value)
    expect(page.locator("#create-form[data-stale]")).to_have_count(0, timeout=WAIT_MS)
    expect(page.locator(select)).to_have_value(value, timeout=WAIT_MS)


def create_game(page: Page, site: str, seat: str) -> str:
    """The create form: Napoleon's Triumph, DEC2, the small board, the creator in `seat`;
    returns the new game's id (from the page it lands on)."""
    page.goto(f"{site}/games/new")
    choose_and_wait(page, "#ruleset-select", "napoleons_triumph")
    choose_and_wait(page, "#scenario-select-get", "DEC2")
    expect(page.locator("#create-form input[name=scenario]")).to_have_value("DEC2", timeout=WAIT_MS)
    page.locator("#title-input").fill("Austerlitz in two browsers")
    page.locator("#seat-select").select_option(seat)
    page.locator("#options-json").fill('{"board": "austerlitz"}')
    page.locator("#create-submit").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}/$"), timeout=WAIT_MS)
    return urlsplit(page.url).path.split("/")[2]


def events_shown(page: Page) -> int:
    return page.locator("#log li[data-seq]").count()


ANSWER = ".notice:not([data-seen]), #order-errors code.rule:not([data-seen])"


def answered(page: Page, send: Callable[[], None]) -> None:
    """Send an order by `send` and wait for the server's answer to it: a notice (accepted) or
    the refusal's rule ids, which only an order's answer shows; those already on the page are
    marked first (a refresh that finds nothing new leaves them)."""
    page.evaluate(
        "s => document.querySelectorAll(s).forEach(e => { e.dataset.seen = '1'; })", ANSWER
    )
    send()
    expect(page.locator(ANSWER).first).to_be_visible(timeout=WAIT_MS)


def send_text(page: Page, text: str) -> None:
    """Type `text` into the order form's text box, send it and wait for the answer."""
    page.locator("#order-text").fill(text)
    answered(page, page.locator("#order-submit").click)


def play(page: Page, order: Order) -> None:
    """Send one order, see it accepted, and wait until this page lists a new event of the log
    (the worker applied it; the page learns it from its polling); the text box is empty again."""
    before = events_shown(page)
    send_text(page, order.text)
    expect(page.locator("#order-errors code.rule")).to_have_count(0)
    expect(page.locator("#log li[data-seq]")).not_to_have_count(before, timeout=WAIT_MS)
    expect(page.locator("#order-text")).to_have_value("")  # the answer replaced what was sent


def resign_and_see_the_end(
    loser: Page, pages: dict[str, Page], shots: Screenshots, step: str
) -> None:
    """`loser` resigns by the form; every page shows the game over and its result without a
    reload (each was marked with NO_RELOAD)."""
    loser.locator("#order-text").fill("")
    loser.locator("#order-kind").select_option("resign")
    loser.locator("#choice-resign").select_option(index=1)
    loser.locator("#order-submit").click()
    for role, page in pages.items():
        status = page.locator("#status")
        expect(status).to_have_attribute("data-status", "finished", timeout=WAIT_MS)
        expect(status.locator("strong")).not_to_be_empty(timeout=WAIT_MS)
        assert page.evaluate(NO_RELOAD) is True, f"the {role} page was reloaded"
        shots.take(page, f"{step}-{role}")


def offers(page: Page, kind: str) -> None:
    """Wait until the page's order form offers `kind` (the prompt reached this page)."""
    option = page.locator(f"#order-form select[name=kind] option[value='{kind}']")
    expect(option).to_have_count(1, timeout=WAIT_MS)


def test_two_players_sign_up_join_and_fight_in_two_browsers(
    site: str,
    mail_worker: Worker,
    smtp_sink: SmtpSink,
    open_context: OpenContext,
    shots: Screenshots,
    capsys: pytest.CaptureFixture[str],
) -> None:
    started = time.monotonic()
    pages = {"allied": open_context("allied"), "french": open_context("french")}
    allied, french = pages["allied"], pages["french"]
    sign_up(allied, site, "anna", shots, mailed_link(smtp_sink))
    sign_up(french, site, "bruno", shots, mailed_link(smtp_sink))

    # the first creates the game; the second finds it among the open games and joins
    game_id = create_game(allied, site, seat="allied")
    french.goto(f"{site}/")
    row = french.locator(f"#open-games tr.game[data-game='{game_id}']")
    expect(row).to_be_visible(timeout=WAIT_MS)
    shots.take(french, "lobby-open-game")
    row.locator(f"#join-{game_id}-french button").click()
    expect(french).to_have_url(re.compile(f"/games/{game_id}/$"), timeout=WAIT_MS)
    assert Game.objects.get(pk=game_id).status == Game.Status.ACTIVE
    allied.goto(f"{site}/")
    mine = allied.locator(f"#my-games tr.game.waiting-for-me[data-game='{game_id}']")
    expect(mine).to_be_visible(timeout=WAIT_MS)
    shots.take(allied, "lobby-my-game")
    allied.locator(f"#my-games tr.game[data-game='{game_id}'] a").first.click()
    expect(allied).to_have_url(re.compile(f"/games/{game_id}/$"), timeout=WAIT_MS)
    for page in pages.values():  # from here on, no page is loaded again
        page.evaluate(f"{NO_RELOAD} = true")

    # the set-up: a broken one first, refused with the engine's rule id
    steer = Steering(game_id, Rng(SEED))
    assert prompted(game_id) == ["allied"]
    offers(allied, "allied_setup")
    setup = steer.choose("allied")
    broken, rules = broken_setup(game_id, "allied", setup.text)
    send_text(allied, broken)
    refused = allied.locator("#order-errors code.rule")
    expect(refused.first).to_be_visible(timeout=WAIT_MS)
    assert set(refused.all_inner_texts()) == rules
    shots.take(allied, "setup-refused")

    # then the whole game up to an attack and the defender's decisions, by the text box
    enemy_blocks = allied.locator("#board g.block.enemy")
    assert enemy_blocks.count() == 0  # the French are not on the board before their set-up
    order: Order | None = setup
    while order is not None and len(steer.played) < MAX_ORDERS:
        page = pages[order.role]
        offers(page, order.kind)
        play(page, order)
        steer.record(order)
        if order.kind == "french_setup":  # the Allied page shows the French without a reload
            expect(enemy_blocks.first).to_be_visible(timeout=WAIT_MS)
            shots.take(allied, "board-after-setup")
        if order.kind == "threaten":  # the defender's page is asked without a reload
            defender = "french" if order.role == "allied" else "allied"
            offers(pages[defender], "defend")
            shots.take(pages[defender], "board-threatened")
        if steer.attacked and order.kind == "end_turn":
            break
        roles = prompted(game_id)
        assert roles, f"nobody is prompted after {order}"
        order = steer.choose(roles[0])
    kinds = [o.kind for o in steer.played]
    assert "declare_attack" in kinds, f"no attack within {MAX_ORDERS} orders: {kinds}"
    attack = kinds.index("declare_attack")
    attacker = steer.played[attack].role
    defended = [o for o in steer.played[: attack + 1] if o.kind == "defend"]
    assert defended, kinds
    assert defended[-1].role != attacker
    after = [o for o in steer.played[attack + 1 :] if o.role != attacker]
    assert any(o.kind in DEFENDER_KINDS for o in after), kinds
    for role, page in pages.items():
        assert page.evaluate(NO_RELOAD) is True, f"the {role} page was reloaded"
        shots.take(page, f"board-{role}")

    # German, by the language switch; the choice sticks (the profile keeps it)
    with translation.override("de"):
        heading = translation.gettext("Your decision")
    assert heading != "Your decision", "no German catalog for the pages (locale/de)"
    allied.locator("#language-select").select_option("de")
    allied.locator("#language-form button[type=submit]").click()
    expect(allied.locator("html")).to_have_attribute("lang", "de", timeout=WAIT_MS)
    expect(allied.locator("#prompt-heading")).to_have_text(heading, timeout=WAIT_MS)
    shots.take(allied, "board-german")
    allied.goto(f"{site}/")
    expect(allied.locator("html")).to_have_attribute("lang", "de", timeout=WAIT_MS)
    shots.take(allied, "lobby-german")
    allied.goto(f"{site}/games/{game_id}/")
    allied.evaluate(f"{NO_RELOAD} = true")

    # a half-typed order and the board's zoom survive the refresh when the other side plays
    actor = prompted(game_id)[0]
    watcher = "french" if actor == "allied" else "allied"
    watching = pages[watcher]
    watching.locator("#board-zoom button[data-zoom='1']").click()
    expect(watching.locator("#board svg")).to_have_attribute("style", re.compile(r"width: 150%"))
    watching.locator("#order-text").fill("a draft not sent yet")
    order = steer.choose(actor)
    assert order is not None, f"no order with a text form for {actor}"
    seen = events_shown(watching)
    play(pages[actor], order)
    steer.record(order)
    expect(watching.locator("#log li[data-seq]")).not_to_have_count(seen, timeout=WAIT_MS)
    expect(watching.locator("#order-text")).to_have_value("a draft not sent yet")
    expect(watching.locator("#board svg")).to_have_attribute("style", re.compile(r"width: 150%"))
    shots.take(watching, "draft-kept-zoomed")
    watching.locator("#order-text").fill("")

    # the end: the Allies resign by the form; both pages show the result without a reload,
    # and the log verifies
    resign_and_see_the_end(allied, pages, shots, "game-over")
    assert Game.objects.get(pk=game_id).status == Game.Status.FINISHED
    verified = french.request.get(f"{site}/api/v1/games/{game_id}/verify")
    assert verified.ok, verified.text()
    assert verified.json()["ok"] is True
    kinds = [o.kind for o in steer.played] + ["resign"]
    report(
        capsys,
        f"browser game: {len(kinds)} orders by the text box ({' '.join(kinds)}),"
        f" {time.monotonic() - started:.1f} s",
    )
