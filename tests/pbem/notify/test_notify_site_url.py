"""Links use the configured site URL: PBEM_SITE_URL (settings.PBEM["SITE_URL"])
starts every link in a mail, a webhook body and pbem_demo's output; `./dev serve` sets it to
http://localhost:${PORT:-8000} when it is unset."""

from __future__ import annotations

import json
import os
import subprocess
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.core.management import call_command
from pytest_django.fixtures import Settings

from pbem.notify.models import Notification
from pbem.notify.services import message_build, notification_deliver
from pbem.notify.transports.webhook import payload_of
from pbem.play.models import Game
from tests.pbem.notify.nf_helpers import play

ROOT = Path(__file__).resolve().parents[3]
SITE = "http://localhost:8931"


@pytest.fixture
def site_8931(settings: Settings) -> None:
    settings.PBEM = {**settings.PBEM, "SITE_URL": SITE + "/"}  # a trailing slash is dropped


@pytest.mark.django_db
def test_mail_links_use_the_site_url(site_8931: None, game: Game, bob: User) -> None:
    play(game, 1)
    n = Notification.objects.get(channel="email", user=bob)

    assert notification_deliver(notification_id=n.pk) == "sent"

    (sent,) = mail.outbox
    assert isinstance(sent, EmailMultiAlternatives)
    html = str(sent.alternatives[0][0])
    link = f"{SITE}/api/v1/games/{game.pk}/view"
    assert f"See the game: {link}" in sent.body
    assert f'href="{link}"' in html
    for part in (sent.body, html, sent.subject):
        assert ":8000" not in part


@pytest.mark.django_db
def test_webhook_bodies_use_the_site_url(site_8931: None, game: Game, bob: User) -> None:
    play(game, 1)
    n = Notification.objects.get(channel="email", user=bob)

    body = json.dumps(payload_of(message_build(n)))

    assert f'"view_url": "{SITE}/api/v1/games/{game.pk}/view"' in body
    assert ":8000" not in body


@pytest.mark.django_db
def test_pbem_demo_prints_the_site_url(site_8931: None) -> None:
    out = StringIO()
    call_command("pbem_demo", "--seed", "4", stdout=out)
    lines = out.getvalue().splitlines()

    game = Game.objects.get(title="Demo")
    assert f"  {SITE}/api/v1/games/{game.pk}/view" in lines
    assert f"  {SITE}/api/v1/games" in lines
    assert not [line for line in lines if ":8000" in line]


def _dev_serve(tmp_path: Path, **env: str) -> list[str]:
    """Run `./dev serve`'s own function with a stand-in `python` on PATH that records its
    arguments and PBEM_SITE_URL instead of migrating and serving. The SMTP listener starts in the
    background: the stand-in runserver records itself only once the listener has (a condition
    with a 30 s bound), so the order of the record is fixed."""
    fake = tmp_path / "python"
    fake.write_text(
        "#!/bin/sh\n"
        'case "$*" in *runserver*) if [ "${PBEM_SMTPD_PORT:-2525}" != 0 ]; then i=0;'
        ' while [ $i -lt 600 ] && ! grep -q pbem_smtpd "$RECORD" 2>/dev/null;'
        " do sleep 0.05; i=$((i+1)); done; fi;; esac\n"
        'echo "$PBEM_SITE_URL $*" >>"$RECORD"\n'
    )
    fake.chmod(0o755)
    record = tmp_path / "record"
    script = (
        'banner() { :; }; setup_venv() { :; }; eval "$(sed -n "/^cmd_serve() {/,/^}/p" dev)"; '
        "cmd_serve"
    )
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PBEM_SITE_URL", "PORT", "PBEM_SMTPD_PORT")
    }
    run_env = {**base, "PATH": f"{tmp_path}:{os.environ['PATH']}", "RECORD": str(record), **env}
    subprocess.run(  # noqa: S603
        ["/bin/bash", "-c", script],
        cwd=ROOT,
        env=run_env,
        check=True,
        capture_output=True,
        timeout=30,
    )
    return record.read_text().splitlines()


def test_dev_serve_sets_the_site_url_from_its_port(tmp_path: Path) -> None:
    calls = _dev_serve(tmp_path, PORT="8931")

    assert calls == [
        f"{SITE} manage.py migrate",
        f"{SITE} manage.py pbem_demo --if-missing",
        f"{SITE} manage.py pbem_smtpd --host 127.0.0.1 --port 2525",
        f"{SITE} manage.py runserver 0.0.0.0:8931",
    ]


def test_dev_serve_leaves_the_smtp_listener_out_on_port_0(tmp_path: Path) -> None:
    calls = _dev_serve(tmp_path, PBEM_SMTPD_PORT="0")

    assert not [c for c in calls if "pbem_smtpd" in c]
    assert calls[-1] == "http://localhost:8000 manage.py runserver 0.0.0.0:8000"


def test_dev_serve_keeps_a_site_url_that_is_set(tmp_path: Path) -> None:
    calls = _dev_serve(tmp_path, PBEM_SITE_URL="https://pbem.example.org")

    assert calls[-1] == "https://pbem.example.org manage.py runserver 0.0.0.0:8000"
    assert all(c.startswith("https://pbem.example.org ") for c in calls)


def test_dev_serve_defaults_to_port_8000(tmp_path: Path) -> None:
    calls = _dev_serve(tmp_path)

    assert calls[-1] == "http://localhost:8000 manage.py runserver 0.0.0.0:8000"
