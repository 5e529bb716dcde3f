"""Fixtures every pbem test may use."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import override_settings


@pytest.fixture
def broker_mode(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """As with a broker whose messages do not arrive (no worker has run yet): accepted orders
    stay `received` (202)."""
    from pbem.play import publisher
    from pbem.play.services import orders

    monkeypatch.setattr(orders, "_enqueue", lambda intake_id: None)
    # the notices' messages go nowhere either (no broker here: a real send would fail and mark
    # the broker down)
    monkeypatch.setattr(publisher, "_publisher", publisher.Publisher(lambda name, args: None))
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        yield
