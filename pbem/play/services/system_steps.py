"""The system's own step: a draw or dice roll the engine performs itself.

When the engine prompts the system role (`games.core.protocol.SYSTEM`) no player acts, so a worker
does (`play.system_step`, enqueued by the stuck-turns sweep): it applies the prompt's kind with an
empty payload, the engine drawing any randomness from the event's seeded generator, and appends
the event exactly once (compare-and-set on the head plus the unique `source_ref`
`.system@<after_seq>`). Napoleon's Triumph never prompts the system.
"""

from __future__ import annotations

import logging
from uuid import UUID

from games.core.protocol import SYSTEM, Action
from pbem.play.models import Event, Game
from pbem.play.rulesets import ruleset_get
from pbem.play.services.commit import action_commit
from pbem.play.services.log import state_at

logger = logging.getLogger(__name__)


def system_step_apply(*, game_id: UUID | str, after_seq: int) -> Event | None:
    """Perform the system's prompted step of an active game still at head `after_seq`: its
    prompt's kind (the first in sorted order when it offers several) with an empty payload.
    Returns the event, or None when there is nothing to do (the game moved on, is not active,
    does not wait on the system, the engine refuses the step, or another worker won)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or game.head_seq != after_seq:
        return None
    ruleset = ruleset_get(game.ruleset_id)
    state = state_at(game, after_seq)
    prompt = ruleset.prompts(state).get(SYSTEM)
    if prompt is None or not prompt.kinds:
        return None
    commit = action_commit(
        game=game,
        action=Action(SYSTEM, sorted(prompt.kinds)[0], {}),
        source="worker",
        source_ref=f".system@{after_seq}",
        at_seq=after_seq,
    )
    if commit.rejections:
        logger.warning(
            "game %s at %s: the engine refuses its own step (%s)",
            game.pk,
            after_seq,
            "; ".join(f"{r.rule}: {r.message}" for r in commit.rejections),
        )
        return None
    return None if commit.existed else commit.event  # None: another worker won
