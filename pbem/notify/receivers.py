"""notify's receivers of play's hooks (pbem.play.hooks), connected by `NotifyConfig.ready()`.

Each receiver hands a hook's keyword arguments to the service that writes the outbox rows.
`EVENT_APPENDED` and `REMINDER_DUE` run inside play's transaction, so the rows commit or roll
back with the event or the reminder's record; the others are announcements of a change already
made (play logs a receiver's failure and goes on).
"""

from __future__ import annotations

from typing import Any

from pbem.notify import services
from pbem.play import hooks


def on_event_appended(sender: object, **kwargs: Any) -> None:
    services.notifications_plan(
        event=kwargs["event"],
        prompted_before=kwargs["prompted_before"],
        prompted_after=kwargs["prompted_after"],
        finished=kwargs["finished"],
    )


def on_reminder_due(sender: object, **kwargs: Any) -> None:
    services.notify_deadline_soon(game=kwargs["game"], roles=kwargs["roles"])


def on_game_started(sender: object, **kwargs: Any) -> None:
    services.notify_game_started(game=kwargs["game"])


def on_seat_invited(sender: object, **kwargs: Any) -> None:
    services.notify_invitation(seat=kwargs["seat"])


def on_invitation_declined(sender: object, **kwargs: Any) -> None:
    services.notify_invitation_declined(seat=kwargs["seat"], invitee=kwargs["invitee"])


def on_deadline_changed(sender: object, **kwargs: Any) -> None:
    services.notify_deadline_changed(game=kwargs["game"], changed_by=kwargs["changed_by"])


RECEIVERS = (
    (hooks.EVENT_APPENDED, on_event_appended),
    (hooks.REMINDER_DUE, on_reminder_due),
    (hooks.GAME_STARTED, on_game_started),
    (hooks.SEAT_INVITED, on_seat_invited),
    (hooks.INVITATION_DECLINED, on_invitation_declined),
    (hooks.DEADLINE_CHANGED, on_deadline_changed),
)


def connect() -> None:
    """Connect every receiver once (a second call changes nothing)."""
    for signal, receiver in RECEIVERS:
        signal.connect(receiver, dispatch_uid=f"pbem.notify.receivers.{receiver.__name__}")
