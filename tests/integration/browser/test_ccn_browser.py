"""Commands & Colors: Napoleonics played to victory in two browsers (issue 16, "Done when"): each
player signs up on the page and follows the mailed link, the first creates a game of the
digest's example scenario on the create page and the second joins it from the lobby; then they
play the whole game through the game page's order form until a side has its victory banners.

Every order is chosen by the engine's own random player on the database state (ccn_oracle.py,
as the API test does) and entered in the form as a person does: the kind in `#order-kind`, the
payload picked in `#choice-<kind>` when the form lists it, else written into the kind's JSON
payload box. Along the way: both boards show own and enemy blocks, a page shows its own hand
and never a card of the other hand that nothing public shows, the waiting page follows the
game without a reload (its polling), an order refused by the engine shows its CCN rule id, and
at the end both pages show the result and the log verifies. Screenshots of the boards go to
artifacts/screenshots/.

Speed: the page polls every 5 s, and the worker applies an order after the page's answer came
(the answer says "will be applied in a moment"). The first handovers to the other seat wait for
that page's own polling; otherwise a prompted page that is not at the head yet is refreshed at
once with the same GET its polling sends (`htmx.ajax` on `#live`), so that a whole game of a few
hundred orders fits the budget.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Locator, Page, expect

from games.core.rng import Rng
from pbem.play.models import Game
from tests.integration.browser.ccn_oracle import (
    RULESET,
    SCENARIO,
    Oracle,
    Order,
    card_not_in_hand,
    hand,
    head_seq,
    log_position,
    refusal,
    secret_of,
)
from tests.integration.browser.conftest import SCREENSHOTS, WAIT_MS, OpenContext, Screenshots
from tests.integration.browser.test_two_players import (
    ANSWER,
    NO_RELOAD,
    answered,
    choose_and_wait,
    mailed_link,
    offers,
    sign_up,
)
from tests.integration.conftest import Worker
from tests.integration.it_helpers import report
from tests.integration.mail_fixtures import SmtpSink

pytestmark = [pytest.mark.integration, pytest.mark.browser]

SEED = 16
MAX_ORDERS = 1500  # the engine's player ends the example in about 280 orders (the fuzz's mean)
POLLED_HANDOVERS = 3  # the first handovers to the other page wait for its own polling
CHECK_EVERY = 40  # orders between the checks of hands and blocks
SHOTS_AT = (60, 180)  # orders after which both boards are photographed
HEAD_WAIT_S = 30.0
POLL_MS = 5_000  # the page's polling interval (templates/web/game.html)
REFRESH = """() => htmx.ajax('GET', document.querySelector('#live').getAttribute('hx-get'),
    {source: '#live', target: '#live', swap: 'innerHTML'})"""


def create_game(page: Page, site: str) -> str:
    """The create form: the C&C ruleset, the example scenario, the creator as the top side
    (the French); returns the new game's id."""
    page.goto(f"{site}/games/new")
    choose_and_wait(page, "#ruleset-select", RULESET)
    choose_and_wait(page, "#scenario-select-get", SCENARIO)
    expect(page.locator("#create-form input[name=scenario]")).to_have_value(SCENARIO)
    page.locator("#title-input").fill("The Ford of Santa Clara in two browsers")
    page.locator("#seat-select").select_option("top")
    page.locator("#create-submit").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}/$"), timeout=WAIT_MS)
    return urlsplit(page.url).path.split("/")[2]


def at_head(page: Page, game_id: str, role: str, nudge: bool) -> None:
    """Wait until `page` shows the head (its log lists the newest event): by its own polling,
    or, with `nudge`, by the same request sent at once."""
    position = log_position(game_id, role)
    if position == 0:
        return
    newest = page.locator(f"#log li[data-seq='{position}']")
    if nudge and newest.count() == 0:
        page.evaluate(REFRESH)
    expect(newest).to_have_count(1, timeout=WAIT_MS)


def head_after(game_id: str, before: int) -> int:
    """Wait until the worker applied the order just sent (the head moved past `before`)."""
    deadline = time.monotonic() + HEAD_WAIT_S
    while time.monotonic() < deadline:
        now = head_seq(game_id)
        if now > before:
            return now
        time.sleep(0.05)
    raise AssertionError(f"the head stayed at {before} for {HEAD_WAIT_S} s")


def enter(page: Page, order: Order) -> str:
    """Fill the form with `order`: the listed choice, else the JSON payload box. Returns how."""
    kind = page.locator("#order-kind")
    kind.select_option(order.kind)
    fieldset = page.locator(f"#kind-{order.kind}")
    if order.listed:
        fieldset.locator(f"#choice-{order.kind}").select_option(order.value)
        return "choice"
    details = fieldset.locator("details")
    assert details.count() == 1, f"the form has no payload box for {order.kind}: {order.value}"
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    fieldset.locator(f"#payload-{order.kind}").fill(order.value)
    return "json"


COUNT_ANSWERS = """() => {
  window.ccnAnswers = {answered: 0, swapped: 0, notice: false, refused: false};
  const post = e => e.detail.requestConfig && e.detail.requestConfig.verb === "post";
  document.addEventListener("htmx:afterRequest", e => {
    if (!post(e)) { return; }
    const html = e.detail.xhr ? e.detail.xhr.responseText : "";
    window.ccnAnswers.answered += 1;
    window.ccnAnswers.notice = html.includes('class="notice"');
    window.ccnAnswers.refused = html.includes('class="rule"');
  });
  document.addEventListener("htmx:afterSwap", e => {
    if (post(e)) { window.ccnAnswers.swapped += 1; } });
}"""


def answers(page: Page) -> dict[str, int | bool]:
    """The order answers the page received and swapped in; what the last one said."""
    seen: dict[str, int | bool] = page.evaluate("() => window.ccnAnswers")
    return seen


def play(page: Page, order: Order, game_id: str, displaced: list[Order]) -> str:
    """Send one order by the form and see it accepted: the server's answer (a notice, no rule
    id) arrives and is swapped in; its notice may be gone already when the page's polling
    swapped the live part again right after (counted in `displaced`); the worker applies it.
    Returns how it was entered."""
    how = enter(page, order)
    before = head_seq(game_id)
    counted = answers(page)
    page.evaluate(
        "s => document.querySelectorAll(s).forEach(e => { e.dataset.seen = '1'; })", ANSWER
    )
    page.locator("#order-submit").click()
    page.wait_for_function(f"() => window.ccnAnswers.answered > {counted['answered']}")
    now = answers(page)
    assert int(now["swapped"]) > int(counted["swapped"]), f"the answer to {order} was not shown"
    assert now["notice"], f"the answer to {order} has no notice"
    errors = page.locator("#order-errors code.rule")
    assert not now["refused"], f"{order} refused: {errors.all_inner_texts()}"
    if not page.locator(ANSWER).first.is_visible():
        displaced.append(order)
    head_after(game_id, before)
    return how


def shot(shots: Screenshots, target: Page | Locator, step: str) -> None:
    """A screenshot of the window (a page) or of one element (the board), named and listed as
    `Screenshots.take` names and lists its full-page ones (which grow long with the log)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{shots.prefix}-{len(shots.taken) + 1:02d}-{step}.png"
    target.screenshot(path=str(path))
    shots.taken.append(path)


def see_blocks(pages: dict[str, Page]) -> None:
    """Each board draws its own blocks and the enemy's."""
    for role, page in pages.items():
        for rel in ("own", "enemy"):
            blocks = page.locator(f"#board g.block.{rel}")
            assert blocks.count() > 0, f"the {role} board shows no {rel} block"


def hand_is_secret(page: Page, game_id: str, role: str) -> None:
    """The page shows its own hand and no card of the other hand that nothing public shows:
    no code anywhere in the page, no name on the board or in the words."""
    for code in set(hand(game_id, role)):
        expect(page.locator(f"#board g.card[data-card='{code}']")).not_to_have_count(0)
    secret = secret_of(game_id, role)
    html = page.content()
    for code in secret.codes:
        found = re.search(rf"(?<![A-Z_]){code}(?![A-Z_])", html)
        assert found is None, f"{role} sees {code}: {html[found.start() - 300 : found.end()]}"
    drawn = page.locator("#board").inner_html() + page.locator("#report").inner_text()
    for name in secret.names:
        assert name not in drawn, f"{role} sees the card {name!r} of the other hand"


def refused_with_rule(page: Page, game_id: str, role: str) -> list[str]:
    """Play a card this seat does not hold, written in the kind's field: the engine refuses it
    and the page shows the CCN rule id it names."""
    card = card_not_in_hand(game_id, role)
    rules = refusal(game_id, role, "play_card", {"card": card})
    assert rules, f"the engine accepts {card} from {role}"
    assert all(r.startswith("CCN-") for r in rules), rules
    page.locator("#order-kind").select_option("play_card")
    page.locator("#kind-play_card input[name='play_card.card']").fill(card)
    answered(page, page.locator("#order-submit").click)
    shown = page.locator("#order-errors code.rule")
    expect(shown.first).to_be_visible(timeout=WAIT_MS)
    assert shown.all_inner_texts() == rules
    page.locator("#kind-play_card input[name='play_card.card']").fill("")
    return rules


def test_ccn_example_played_to_victory_in_two_browsers(
    site: str,
    mail_worker: Worker,
    smtp_sink: SmtpSink,
    open_context: OpenContext,
    shots: Screenshots,
    capsys: pytest.CaptureFixture[str],
) -> None:
    started = time.monotonic()
    pages = {"top": open_context("top"), "bottom": open_context("bottom")}
    sign_up(pages["top"], site, "clara", shots, mailed_link(smtp_sink))
    sign_up(pages["bottom"], site, "duarte", shots, mailed_link(smtp_sink))

    # the first creates the game, the second joins it from the lobby's open games
    game_id = create_game(pages["top"], site)
    bottom = pages["bottom"]
    bottom.goto(f"{site}/")
    row = bottom.locator(f"#open-games tr.game[data-game='{game_id}']")
    expect(row).to_be_visible(timeout=WAIT_MS)
    row.locator(f"#join-{game_id}-bottom button").click()
    expect(bottom).to_have_url(re.compile(f"/games/{game_id}/$"), timeout=WAIT_MS)
    assert Game.objects.get(pk=game_id).status == Game.Status.ACTIVE
    pages["top"].goto(f"{site}/games/{game_id}/")
    for role, page in pages.items():  # from here on, no page is loaded again
        page.evaluate(f"{NO_RELOAD} = true")
        page.evaluate(COUNT_ANSWERS)
        expect(page.locator("#board svg")).to_be_visible()
        hand_is_secret(page, game_id, role)
    see_blocks(pages)
    for role, page in pages.items():
        shot(shots, page.locator("#board"), f"board-start-{role}")
    setup_s = time.monotonic() - started

    oracle = Oracle(game_id, Rng(SEED))
    order = oracle.choose()
    assert order is not None
    assert order.kind == "play_card", order
    offers(pages[order.role], "play_card")
    rules = refused_with_rule(pages[order.role], game_id, order.role)
    shots.take(pages[order.role], "refused")

    # the whole game, each order entered in the prompted seat's page
    ways = {"choice": 0, "json": 0}
    by_json: Counter[str] = Counter()  # kinds whose payload the form did not list
    handovers = 0
    displaced: list[Order] = []
    last_role = order.role
    while order is not None:
        assert len(oracle.played) < MAX_ORDERS, f"no victory within {MAX_ORDERS} orders"
        page = pages[order.role]
        handover = order.role != last_role
        handovers += handover
        at_head(page, game_id, order.role, nudge=not handover or handovers > POLLED_HANDOVERS)
        offers(page, order.kind)
        how = play(page, order, game_id, displaced)
        ways[how] += 1
        if how == "json":
            by_json[order.kind] += 1
        oracle.record(order)
        last_role = order.role
        n = len(oracle.played)
        if n % CHECK_EVERY == 0:
            hand_is_secret(page, game_id, order.role)
            see_blocks({order.role: page})
        if n in SHOTS_AT:
            shot(shots, page.locator("#board"), f"board-{n}-{order.role}")
        order = oracle.choose()

    # the end: both pages show the result (the other by its polling), the log verifies
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    for role, page in pages.items():
        status = page.locator("#status")
        expect(status).to_have_attribute("data-status", "finished", timeout=WAIT_MS + POLL_MS)
        expect(status.locator("strong")).not_to_be_empty()
        assert page.evaluate(NO_RELOAD) is True, f"the {role} page was reloaded"
        page.evaluate("window.scrollTo(0, 0)")
        shot(shots, page, f"game-over-{role}")
    result = pages["top"].locator("#status strong").inner_text()
    verified = pages["bottom"].request.get(f"{site}/api/v1/games/{game_id}/verify")
    assert verified.ok, verified.text()
    assert verified.json()["ok"] is True
    seconds = time.monotonic() - started
    report(
        capsys,
        f"C&C in the browser: {len(oracle.played)} orders ({ways['choice']} picked from the"
        f" listed choices, {ways['json']} in the JSON payload box:"
        f" {' '.join(f'{k} {n}' for k, n in sorted(by_json.items())) or '-'}),"
        f" {handovers} handovers,"
        f" {len(displaced)} notices displaced by the polling,"
        f" refused with {' '.join(rules)}; result: {result};"
        f" {seconds:.1f} s ({setup_s:.1f} s sign-up and create)",
    )
