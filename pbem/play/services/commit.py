"""One way to turn an action into the log's next event, whatever sent it: a player's order, a
missed deadline, the system's own step (and umpire rulings to come).

`action_commit` validates the action at the head, applies it with the event's seeded generator and
appends it with compare-and-set on the game's head, exactly once per `source_ref` (a unique
column): a duplicate delivery finds the event already there and returns it. With `at_seq` the
action is meant for that head only (a deadline or a system step of that head): a game that has
moved on commits nothing. Without it (an order) a lost race is retried at the new head, up to
`TRIES` times. `checked_at` names a head at which this engine version already validated the very
same action (the order's pre-check at submission): the state there is the same, so the validation
is not repeated. Event 1 is written by `log.setup_append`, from the engine's set-up.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError

from games.core.protocol import Action, Rejection
from games.core.rng import Rng
from pbem.play.errors import StaleHead
from pbem.play.models import Event, Game
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import dice_key, event_append, state_at

TRIES = 3


@dataclass(frozen=True)
class Commit:
    """What became of an action: its event (new, or appended before under the same source_ref),
    the engine's rejections at the head, or neither (the game moved on, or stayed busy)."""

    event: Event | None = None
    rejections: tuple[Rejection, ...] = ()
    existed: bool = False  # the event was appended before, by an earlier delivery


def action_commit(
    *,
    game: Game,
    action: Action,
    source: str,
    source_ref: str,
    actor_id: int | None = None,
    at_seq: int | None = None,
    checked_at: int | None = None,
) -> Commit:
    """Validate `action` at the head and append it as the next event, exactly once per
    `source_ref` (see the module's text)."""
    ruleset = ruleset_get(game.ruleset_id)
    for _ in range(1 if at_seq is not None else TRIES):
        game.refresh_from_db()
        done = Event.objects.filter(game=game, source_ref=source_ref).first()
        if done is not None:
            return Commit(event=done, existed=True)
        head = game.head_seq
        if at_seq is not None and head != at_seq:
            return Commit()  # meant for a head the game has left
        state = state_at(game, head)
        if head != checked_at:
            rejections = tuple(ruleset.validate(state, action))
            if rejections:
                return Commit(rejections=rejections)
        key = dice_key(game, action, ruleset.private_kinds())
        step = ruleset.apply(state, action, Rng.for_event(bytes(game.seed), key))
        try:
            event = event_append(
                game=game,
                after_seq=head,
                action=action,
                step=step,
                source=source,
                source_ref=source_ref,
                actor_id=actor_id,
                rng_key=key,
            )
        except (StaleHead, IntegrityError):
            continue  # somebody appended first: look again at the new head
        return Commit(event=event)
    return Commit()
