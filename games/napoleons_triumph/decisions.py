"""The decisions the engine waits for (`state.Pending`, digest 4.3), one table entry each.

An entry holds everything one decision kind needs, each a reference to the function that does it:
the action kinds that answer it with their rules handler and their legal options (`rules`,
`choices`), the documented deadline default (digest 4.7), the answer a standing instruction gives
(digest 4.5; the attacker's decisions have none), the random player's answer, and the plain-text
orders that answer it (`text`). `rules`, `choices`, `text` and `randomplay` read this table; none
of them branches on a decision's name. An incomplete entry is refused when the module is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from games.core.i18n import T
from games.core.protocol import JSON
from games.core.rng import Rng
from games.napoleons_triumph import attack
from games.napoleons_triumph import choices_answers as O
from games.napoleons_triumph import policies as D
from games.napoleons_triumph import random_answers as R
from games.napoleons_triumph.attack.defense import lead_defense
from games.napoleons_triumph.choices_answers import Options
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.policies import Answer, Plan
from games.napoleons_triumph.state import Attack, Pending

__all__ = [
    "DECISIONS",
    "Decision",
    "Handler",
    "Reply",
    "default_answer",
    "random_answer",
    "standing_answer",
    "text_kind",
]

Handler = Callable[[Ctx, str, dict[str, JSON]], None]  # applies an action of one kind (rules)
Default = Callable[[Ctx, Pending, Attack], Answer]
Standing = Callable[[Ctx, Pending, Attack, Plan], Answer | None]
RandomAnswer = Callable[[Ctx, Pending, Attack, Rng], Answer | None]  # None: the default answer


@dataclass(frozen=True, slots=True)
class Reply:
    """One action kind that answers a decision: what it does and its legal payloads."""

    handler: Handler
    options: Options


@dataclass(frozen=True, slots=True)
class Decision:
    kind: str  # Pending.kind
    answers: Mapping[str, Reply]  # action kind -> reply, in the order prompts list them
    default: Default  # the deadline default (digest 4.7), always legal
    standing: Standing | None  # from the side's standing instruction; None: never pre-declared
    random: RandomAnswer
    text: Mapping[str, str]  # a text order's first words (text.ORDERS) -> the action kind it gives
    random_default: bool = True  # the random player gives the default a quarter of the time

    def __post_init__(self) -> None:
        missing = [
            name
            for name, part in (("default", self.default), ("random", self.random))
            if not callable(part)
        ]
        if not self.answers:
            missing.append("answers")
        if not self.text:
            missing.append("text")
        for kind, reply in self.answers.items():
            if not (callable(reply.handler) and callable(reply.options)):
                missing.append(f"answers[{kind!r}]")
        if self.standing is not None and not callable(self.standing):
            missing.append("standing")
        strays = sorted(set(self.text.values()) - set(self.answers))
        if missing or strays:
            raise TypeError(
                f"decision {self.kind!r} is incomplete: missing {missing}, "
                f"text orders give kinds that do not answer it: {strays}"
            )


def _replies(**answers: tuple[Handler, Options]) -> dict[str, Reply]:
    return {kind: Reply(h, o) for kind, (h, o) in answers.items()}


_TABLE = (
    # (2) defend or vacate, (4) the defense's leading units: NT-71..NT-75
    Decision(
        "defend",
        _replies(
            defend=(attack.defend, O.options_defend), vacate=(attack.vacate, O.options_vacate)
        ),
        default=D.default_defend,
        standing=D.standing_defend,
        random=R.random_defend,
        text={"defend": "defend", "vacate": "vacate"},
    ),
    # (11) the loser's retreat plan: NT-105..NT-108
    Decision(
        "retreat",
        _replies(retreat_plan=(attack.answer_retreat, O.options_retreat_plan)),
        default=D.default_retreat,
        standing=D.standing_retreat,
        random=R.random_retreat,
        text={"retreat": "retreat_plan"},
    ),
    # after a vacate the attacker declares and moves in: NT-75
    Decision(
        "after_vacate",
        _replies(declare_after_vacate=(attack.declare_after_vacate, O.options_after_vacate)),
        default=D.default_after_vacate,
        standing=None,
        random=R.random_after_vacate,
        text={
            "attack": "declare_after_vacate",
            "advance": "declare_after_vacate",
            "no advance": "declare_after_vacate",
        },
    ),
    # (3) feint: NT-76, NT-77
    Decision(
        "feint",
        _replies(
            declare_feint=(attack.declare_feint, O.options_declare_feint),
            no_feint=(attack.no_feint, O.options_no_feint),
        ),
        default=D.default_feint,
        standing=None,
        random=R.random_feint,
        text={"feint": "declare_feint", "no feint": "no_feint"},
        random_default=False,  # the default feint is a feint: feints stay rare
    ),
    # (3) the defender's reserve holds the approach after a feint: NT-78
    Decision(
        "feint_hold",
        _replies(feint_hold=(attack.hold, O.options_hold)),
        default=D.default_hold,
        standing=D.standing_hold,
        random=R.random_hold,
        text={"hold": "feint_hold"},
    ),
    # (11) the winning defender's reserve holds the approach: NT-95
    Decision(
        "hold",
        _replies(hold=(attack.hold, O.options_hold)),
        default=D.default_hold,
        standing=D.standing_hold,
        random=R.random_hold,
        text={"hold": "hold"},
    ),
    # (4) team play: the defense leading units after the S2 bundle was discarded, chosen by
    # the seat that now holds the authority: NT-79, NT-TEAM-41, NT-TEAM-43
    Decision(
        "defense_leading",
        _replies(lead_defense=(lead_defense, O.options_lead_defense)),
        default=D.default_defense_leading,
        standing=D.standing_defense_leading,
        random=R.random_defense_leading,
        text={"lead": "lead_defense"},
    ),
    # (5) the attack declaration: NT-81..NT-85
    Decision(
        "declare",
        _replies(declare_attack=(attack.declare_attack, O.options_declare_attack)),
        default=D.default_declare,
        standing=None,
        random=R.random_declare,
        text={"attack": "declare_attack"},
    ),
    # (7) the counter-attack: NT-88
    Decision(
        "counter",
        _replies(counter=(attack.counter, O.options_counter)),
        default=D.default_counter,
        standing=D.standing_counter,
        random=R.random_counter,
        text={"counter": "counter", "no counter": "counter"},
    ),
    # (9) the odd loss point of an even split: NT-90, NT-91
    Decision(
        "odd_loss",
        _replies(place_odd_loss=(attack.place_odd_loss, O.options_odd_loss)),
        default=D.default_odd_loss,
        standing=D.standing_odd_loss,
        random=R.random_odd_loss,
        text={"odd loss": "place_odd_loss"},
    ),
    # (10) the chooser spreads the rest of a side's losses
    Decision(
        "assign_losses",
        _replies(assign_losses=(attack.assign_losses, O.options_assign_losses)),
        default=D.default_assign_losses,
        standing=D.standing_assign_losses,
        random=R.random_assign_losses,
        text={"losses": "assign_losses", "loss": "assign_losses"},
    ),
    # (11) the unit that stays of each attacking corps that falls back: NT-95
    Decision(
        "anchor",
        _replies(choose_anchor=(attack.choose_anchor, O.options_anchor)),
        default=D.default_anchor,
        standing=None,
        random=R.random_anchor,
        text={"anchor": "choose_anchor"},
    ),
)

DECISIONS: Mapping[str, Decision] = {d.kind: d for d in _TABLE}
if len(DECISIONS) != len(_TABLE):
    raise TypeError("two entries of the decision table have the same kind")


def _attack(ctx: Ctx) -> Attack:
    atk = ctx.state.attack
    assert atk is not None
    return atk


def default_answer(ctx: Ctx, pending: Pending) -> Answer:
    """The documented default for every pending decision (digest 4.3 table, 4.7)."""
    atk = _attack(ctx)
    decision = DECISIONS.get(pending.kind)
    if decision is None:
        raise Illegal("NT-0", T("no default for a {kind} decision", kind=repr(pending.kind)))
    return decision.default(ctx, pending, atk)


def standing_answer(ctx: Ctx, pending: Pending, owner: str | None = None) -> Answer | None:
    """The answer a stored instruction gives to this decision, or None (ask the player);
    `owner` as in policies.plan_for."""
    found = D.plan_for(ctx, pending, owner)
    decision = DECISIONS.get(pending.kind)
    if found is None or decision is None or decision.standing is None:
        return None
    return decision.standing(ctx, pending, *found)


def random_answer(ctx: Ctx, side: str, rng: Rng) -> Answer:
    """A random answer to the open attack decision, or its default answer."""
    pending = ctx.state.pending
    assert pending is not None
    atk = _attack(ctx)
    decision = DECISIONS[pending.kind]
    if decision.random_default and rng.chance(1, 4):
        return decision.default(ctx, pending, atk)
    answer = decision.random(ctx, pending, atk, rng)
    return decision.default(ctx, pending, atk) if answer is None else answer


def text_kind(pending: Pending | None, order: str, otherwise: str) -> str:
    """The action kind the text order `order` gives while `pending` is open (else `otherwise`)."""
    decision = None if pending is None else DECISIONS.get(pending.kind)
    return otherwise if decision is None else decision.text.get(order, otherwise)
