"""The one-way seam from play to the apps that react to it (notify): play sends, never imports them.

Play sends these Django signals; an app that wants to react connects its receivers in its
`AppConfig.ready()` (notify does in `pbem.notify.apps`). Play imports no such app, so the
dependency runs one way: notify -> play. Every signal is sent with `sender=Game` and keyword
arguments only; receivers take `sender, **kwargs`.

Two kinds of hooks, as today's callers need them:

- Part of the caller's transaction (`send`): a receiver runs inside it, and a receiver's error
  rolls it back. `EVENT_APPENDED` runs inside `event_append`'s transaction, so the outbox rows of
  an event commit or roll back with the event (notify plans them in a savepoint and logs its own
  failures, so a notification never blocks the game). `REMINDER_DUE` runs inside the reminders
  sweep's transaction with the reminder's record: a failed reminder is not recorded as sent.
- Announcements (`announce`): the change is done; a receiver's error is logged and never undoes
  it or stops the other receivers.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import Signal

from pbem.play.models import Game

logger = logging.getLogger(__name__)

# kwargs: event (Event), prompted_before, prompted_after (sorted role lists around the event),
# finished (bool). Sent inside the event's transaction.
EVENT_APPENDED = Signal()
# kwargs: game, roles (the prompted roles whose deadline is near). Sent inside the sweep's
# transaction that records the reminder for the game's head.
REMINDER_DUE = Signal()
# kwargs: game. The game has started (every seat taken and accepted). Announcement.
GAME_STARTED = Signal()
# kwargs: seat (a seat offered to a user other than the creator). Announcement.
SEAT_INVITED = Signal()
# kwargs: seat (freed again), invitee (the user who declined). Announcement.
INVITATION_DECLINED = Signal()
# kwargs: game, changed_by (user id). The creator changed the time per turn or the missed-turn
# policy. Announcement.
DEADLINE_CHANGED = Signal()


def send(signal: Signal, **kwargs: Any) -> None:
    """Call the receivers inside the caller's transaction; an error propagates."""
    signal.send(sender=Game, **kwargs)


def announce(signal: Signal, **kwargs: Any) -> None:
    """Call every receiver; an error is logged and never reaches the caller."""
    for receiver, result in signal.send_robust(sender=Game, **kwargs):
        if isinstance(result, Exception):
            logger.error(
                "hook receiver %r failed",
                getattr(receiver, "__qualname__", receiver),
                exc_info=(type(result), result, result.__traceback__),
            )
