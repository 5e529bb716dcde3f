"""The browser tests (issue 15): Debian's `chromium` driven by Playwright (sync API, through
pytest-playwright's `browser` and `new_context` fixtures) against the real parts of
tests/integration/conftest.py: gunicorn, the Celery worker, Redis and PostgreSQL.

They live under tests/integration/ so that they inherit its fixtures and run with the rest of the
integration stage (`pytest -m integration tests/integration`); each module is marked `integration`
and `browser` (`-m browser` picks them alone).

- Playwright never downloads a browser here: `browser_type_launch_args` launches the `chromium`
  found on PATH (`./dev test` installs Debian's package with apt-get), headless, one browser for
  the session; each test opens its own contexts (one per player).
- `site` is a gunicorn of its own, as production runs it: static files collected first (WhiteNoise
  serves STATIC_ROOT), its mail going to the SMTP sink (tests/integration/mail_fixtures.py), so a
  test can read a verification link a page sent.
- Screenshots go to artifacts/screenshots/ (git-ignored; CI keeps it as an artefact): at the
  steps a test names, and of every open page when a test fails.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.integration.conftest import (
    ROOT,
    RedisServer,
    WebServer,
    _database_url,
    _server_env,
)
from tests.integration.mail_fixtures import SmtpSink, sink_env

SCREENSHOTS = ROOT / "artifacts" / "screenshots"
WAIT_MS = 30_000  # each step's deadline for Playwright's auto-waiting expectations
NAVIGATION_MS = 60_000  # a page load on a busy 2-core CI machine

expect.set_options(timeout=WAIT_MS)


# --- the browser --------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    """pytest-playwright's launch options: Debian's chromium by path, headless; as root it needs
    --no-sandbox (the sandbox refuses to run as root)."""
    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail(
            "chromium is not installed: ./dev test installs Debian's package with apt-get"
            " (Playwright must not download a browser of its own)"
        )
    args = ["--disable-dev-shm-usage"]  # containers' /dev/shm is small
    if os.geteuid() == 0:
        args.append("--no-sandbox")
    return {"executable_path": executable, "headless": True, "args": args}


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the item, so that fixtures can tell a failed test."""
    report = yield
    setattr(item, f"browser_report_{report.when}", report)
    return report


# --- screenshots --------------------------------------------------------------------------------


class Screenshots:
    """Full-page screenshots of one test under artifacts/screenshots/, numbered in the order
    taken: `<test>-<nn>-<step>.png`."""

    def __init__(self, test_name: str) -> None:
        self.prefix = re.sub(r"[^A-Za-z0-9_.-]+", "-", test_name).strip("-")
        self.pages: list[tuple[str, Page]] = []
        self.taken: list[Path] = []

    def watch(self, name: str, page: Page) -> Page:
        """Remember `page` (as `name`) for the screenshots taken when the test fails."""
        self.pages.append((name, page))
        return page

    def take(self, page: Page, step: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", step).strip("-")
        path = SCREENSHOTS / f"{self.prefix}-{len(self.taken) + 1:02d}-{slug}.png"
        page.screenshot(path=str(path), full_page=True)
        self.taken.append(path)
        return path

    def on_failure(self) -> None:
        for name, page in self.pages:
            if not page.is_closed():
                try:
                    self.take(page, f"FAILED-{name}")
                except Exception as error:  # a best effort: the test's own failure matters
                    sys.stderr.write(f"no failure screenshot of {name}: {error}\n")


def _failed(request: pytest.FixtureRequest) -> bool:
    return any(
        getattr(getattr(request.node, f"browser_report_{when}", None), "failed", False)
        for when in ("setup", "call")
    )


@pytest.fixture
def shots(
    request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> Iterator[Screenshots]:
    """The test's screenshots (their paths are printed into the CI log at the end)."""
    taken = Screenshots(request.node.name)
    yield taken
    if _failed(request):
        taken.on_failure()  # pages still open (those of `open_context` were taken already)
    if taken.taken:
        paths = " ".join(str(p.relative_to(ROOT)) for p in taken.taken)
        with capsys.disabled():
            print(f"\n[browser] screenshots: {paths}")  # noqa: T201  (for the CI log)


# --- the server the browsers talk to ------------------------------------------------------------


def _collect_static(env: dict[str, str]) -> None:
    """`manage.py collectstatic` into the server's STATIC_ROOT, as the deployment does before it
    starts gunicorn (WhiteNoise serves STATIC_ROOT when DEBUG is off)."""
    done = subprocess.run(  # a fixed argv, no user input
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0:
        raise AssertionError(f"collectstatic failed:\n{done.stdout}\n{done.stderr}")


@pytest.fixture(scope="session")
def site_server(
    django_db_setup: None,
    django_db_blocker: Any,
    redis_server: RedisServer,
    smtp_sink_server: SmtpSink,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[WebServer]:
    """gunicorn as `web_server` starts it, on an environment of its own: mail to the sink,
    static files collected into a temporary PBEM_DATA_DIR, links in mails to this server."""
    with django_db_blocker.unblock():
        url = _database_url()
    base = tmp_path_factory.mktemp("browser-site")
    env = _server_env(url, "django.core.mail.backends.smtp.EmailBackend")
    env.update(sink_env(smtp_sink_server.port))
    env["PBEM_DATA_DIR"] = str(base)
    _collect_static(env)
    server = WebServer(env, base / "gunicorn.log")
    server.env["PBEM_SITE_URL"] = server.url  # links in mails point at this server
    server.start()
    yield server
    server.stop()


@pytest.fixture
def site(site_server: WebServer, transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> str:
    """The base URL of the browsers' gunicorn (the test's rows are committed: it sees them).

    Playwright's sync API runs an event loop in this thread, and Django refuses ORM calls from a
    thread with a running loop; the tests' own database reads (the oracle) are synchronous, so
    this process allows them. Set here, after the server processes took their environment, so
    that they never see it."""
    if site_server.proc is None or site_server.proc.poll() is not None:
        site_server.start()
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    return site_server.url


class OpenContext(Protocol):
    """`open_context(name, locale=...)`: a new browser context with one page."""

    def __call__(self, name: str, locale: str = "en-US") -> Page: ...


@pytest.fixture
def open_context(
    browser: Browser, shots: Screenshots, request: pytest.FixtureRequest
) -> Generator[OpenContext, None, None]:
    """A function that opens a browser context (a player's own cookies and language) with one
    page, watched for failure screenshots; the contexts close at the end of the test."""
    contexts: list[BrowserContext] = []

    def open_one(name: str, locale: str = "en-US") -> Page:
        context = browser.new_context(
            locale=locale, viewport={"width": 1280, "height": 900}, timezone_id="Europe/Vienna"
        )
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(NAVIGATION_MS)
        contexts.append(context)
        return shots.watch(name, context.new_page())

    yield open_one
    if _failed(request):
        shots.on_failure()  # before the pages close
    for context in contexts:
        context.close()
