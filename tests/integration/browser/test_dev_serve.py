"""The first command of the README, `./dev serve`, played in two browsers (issue 15, "Done when":
a new user plays a whole game in two browser windows from `./dev serve`, with no API call).

The test runs `./dev serve` itself, as a new user does: the embedded default (a fresh SQLite file
under a temporary PBEM_DATA_DIR, Celery eager, the console mail backend printing to the
terminal, runserver with DEBUG serving the static files), on a free port, without the SMTP
listener. Two players sign up with the link the terminal shows, the first creates a Napoleon's
Triumph game and the second joins it from the lobby; both set up and play a few orders by the
text box (after the set-ups with the keyboard alone), each page following the other's moves by
its own polling; then the French resign from the form, both pages show the result without a
reload, and the page's verify link answers ok.

The orders are chosen by the engine on that server's database (dev_oracle.py, a program run on
the same embedded default); the pages learn nothing from it.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.integration.browser.conftest import WAIT_MS, OpenContext, Screenshots
from tests.integration.browser.nt_oracle import Order
from tests.integration.browser.test_two_players import (
    NO_RELOAD,
    answered,
    create_game,
    events_shown,
    offers,
    play,
    resign_and_see_the_end,
    sign_up,
)
from tests.integration.conftest import ROOT, ProcessGroup
from tests.integration.it_helpers import report

pytestmark = [pytest.mark.integration, pytest.mark.browser]

START_SECONDS = 900  # a fresh venv check, migrate and the demo game on a busy 2-core machine
MORE_ORDERS = 4  # after both set-ups
# what the tests' own environment sets and the embedded default must not see
NOT_PASSED = ("DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE", "PBEM_SITE_URL")


class DevServe(ProcessGroup):
    """`./dev serve` in its own process group on a free port and a fresh data directory, its
    terminal output in a log file (the console mail backend prints the mails there)."""

    def __init__(self, data_dir: Path) -> None:
        self.log = data_dir / "dev-serve.log"
        self.proc: subprocess.Popen[bytes] | None = None
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://localhost:{self.port}"
        self.env = {
            k: v for k, v in os.environ.items() if k not in NOT_PASSED and not k.startswith("PBEM_")
        }
        self.env.update(PBEM_DATA_DIR=str(data_dir), PORT=str(self.port), PBEM_SMTPD_PORT="0")

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["./dev", "serve"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2):
                return True
        except OSError:
            return False

    def wait_up(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        while not self.answers():
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise AssertionError(f"./dev serve ended ({self.proc.returncode}):\n{self.tail()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"./dev serve did not answer:\n{self.tail()}")
            time.sleep(0.2)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture
def dev_serve(tmp_path: Path) -> Iterator[DevServe]:
    server = DevServe(tmp_path)
    server.start()
    try:
        server.wait_up()
        yield server
    finally:
        server.stop()


def terminal_link(server: DevServe, email: str, after: int) -> str:
    """The activation link of the mail to `email` that the console backend printed after offset
    `after` of the terminal output."""
    deadline = time.monotonic() + WAIT_MS / 1000
    pattern = re.compile(re.escape(server.url) + r"/accounts/verify/\S+")
    while time.monotonic() < deadline:
        printed = server.output()[after:]
        at = printed.find(f"To: {email}")
        found = pattern.search(printed, at) if at >= 0 else None
        if found:
            return found.group(0)
        time.sleep(0.2)
    raise AssertionError(f"no activation link for {email} in the terminal:\n{server.tail()}")


def printed_link(server: DevServe) -> Callable[[str], str]:
    """The activation link the terminal shows for an address, from what it prints from now."""
    printed = len(server.output())
    return lambda email: terminal_link(server, email, printed)


def play_by_keyboard(page: Page, order: Order) -> None:
    """Send one order with the keyboard alone (issue 15, point 7): the text typed into the text
    box, Tab until the send button has the focus, Enter; then wait for the new log line."""
    before = events_shown(page)
    expect(page.locator("#order-text")).to_have_value("")  # nothing left of an earlier order
    page.locator("#order-text").focus()
    page.keyboard.insert_text(order.text)
    for _ in range(12):
        if page.evaluate("document.activeElement && document.activeElement.id") == "order-submit":
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab from the text box never reaches the send button")
    answered(page, lambda: page.keyboard.press("Enter"))
    expect(page.locator("#order-errors code.rule")).to_have_count(0)
    expect(page.locator("#log li[data-seq]")).not_to_have_count(before, timeout=WAIT_MS)


def oracle(server: DevServe, game_id: str, seed: int) -> dict[str, object]:
    """What the engine, on the server's own database, prompts and would order (dev_oracle.py)."""
    done = subprocess.run(  # noqa: S603  (a fixed argv, no user input)
        [sys.executable, "-m", "tests.integration.browser.dev_oracle", game_id, str(seed)],
        cwd=ROOT,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def test_a_new_user_plays_a_whole_game_from_dev_serve(
    dev_serve: DevServe,
    open_context: OpenContext,
    shots: Screenshots,
    capsys: pytest.CaptureFixture[str],
) -> None:
    started = time.monotonic()
    site = dev_serve.url
    pages = {"allied": open_context("allied"), "french": open_context("french")}
    allied, french = pages["allied"], pages["french"]
    sign_up(allied, site, "clara", shots, printed_link(dev_serve))
    sign_up(french, site, "dmitri", shots, printed_link(dev_serve))

    game_id = create_game(allied, site, seat="allied")
    french.goto(f"{site}/")
    row = french.locator(f"#open-games tr.game[data-game='{game_id}']")
    expect(row).to_be_visible(timeout=WAIT_MS)
    row.locator(f"#join-{game_id}-french button").click()
    expect(french).to_have_url(re.compile(f"/games/{game_id}/$"), timeout=WAIT_MS)
    allied.goto(f"{site}/games/{game_id}/")
    for page in pages.values():  # from here on, no page is loaded again
        page.evaluate(f"{NO_RELOAD} = true")

    enemy_blocks = allied.locator("#board g.block.enemy")
    kinds: list[str] = []
    for seed in range(1, 100):
        answer = oracle(dev_serve, game_id, seed)
        order = answer["order"]
        assert isinstance(order, dict), answer
        page = pages[str(order["role"])]
        offers(page, str(order["kind"]))
        sent = Order(str(order["role"]), str(order["kind"]), str(order["text"]))
        if "french_setup" in kinds:  # after the set-ups, with the keyboard alone
            play_by_keyboard(page, sent)
        else:
            play(page, sent)
        kinds.append(str(order["kind"]))
        if order["kind"] == "french_setup":  # the Allied page shows the French without a reload
            expect(enemy_blocks.first).to_be_visible(timeout=WAIT_MS)
        if "french_setup" in kinds and len(kinds) >= kinds.index("french_setup") + MORE_ORDERS:
            break
    assert {"allied_setup", "french_setup"} <= set(kinds), kinds
    for role, page in pages.items():
        shots.take(page, f"dev-serve-board-{role}")

    resign_and_see_the_end(french, pages, shots, "dev-serve-over")
    french.locator("#verify-link").click()
    expect(french.locator("body")).to_contain_text(re.compile(r'"ok":\s*true'), timeout=WAIT_MS)
    assert urlsplit(french.url).path == f"/api/v1/games/{game_id}/verify"
    report(
        capsys,
        f"./dev serve game: {len(kinds) + 1} orders ({' '.join(kinds)} resign),"
        f" {time.monotonic() - started:.1f} s after the server answered",
    )
