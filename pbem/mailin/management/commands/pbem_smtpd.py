"""`manage.py pbem_smtpd [--host 127.0.0.1] [--port N]`: the SMTP listener for orders by email.

Each message to one of our reply addresses is stored as an InboundMessage and processed by the
`mailin.inbound_process` task (pbem.mailin.smtpd). The port defaults to the variable
PBEM_SMTPD_PORT, else 2525; `--port 0` binds a free port. When the listener is ready it prints
exactly one line, `pbem_smtpd listening on <host>:<port>` (the bound port), which scripts and
tests wait for; it runs until SIGTERM or SIGINT, then stops the listener and exits 0.
"""

from __future__ import annotations

import os
import signal
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from pbem.mailin.smtpd import server_start

DEFAULT_PORT = 2525
STOP_SIGNALS = {signal.SIGTERM, signal.SIGINT}


def default_port() -> int:
    """PBEM_SMTPD_PORT when set, else 2525; a bad value is a clear error."""
    raw = os.environ.get("PBEM_SMTPD_PORT", "").strip()
    if not raw:
        return DEFAULT_PORT
    try:
        port = int(raw)
    except ValueError:
        raise CommandError(f"PBEM_SMTPD_PORT must be a port number, got {raw!r}") from None
    return port


class Command(BaseCommand):
    help = "Run the SMTP listener that stores inbound mail to our reply addresses."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="address to bind (127.0.0.1)")
        parser.add_argument(
            "--port",
            type=int,
            default=None,
            help=f"port to bind (PBEM_SMTPD_PORT, else {DEFAULT_PORT}; 0 picks a free one)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        host = str(options["host"])
        port = default_port() if options["port"] is None else int(options["port"])
        if not 0 <= port <= 65535:
            raise CommandError(f"the port must be between 0 and 65535, got {port}")
        # SIGTERM and SIGINT are blocked before the listener's threads start (they inherit the
        # mask) and taken with sigwait: no handler runs between bytecodes, so none can race.
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            try:
                controller = server_start(host, port)
            except OSError as e:
                raise CommandError(f"cannot listen on {host}:{port}: {e}") from None
            try:
                print(f"pbem_smtpd listening on {host}:{controller.port}", flush=True)
                signal.sigwait(STOP_SIGNALS)
            finally:
                controller.stop()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        print("pbem_smtpd stopped", flush=True)
