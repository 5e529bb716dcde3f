"""The resolution context: the state being built by one event, its log, its dice, and the
geometric facts it may use (digest 4.1-4.3).

A step of the turn machine asks for every geometric fact it needs with `need` BEFORE it rolls a
die or changes anything. A fact the umpire has confirmed (or corrected) for this step is in
`flow["facts"]`; a missing one is proposed by the geometry aid. With `auto_geometry` every
proposal is accepted at once (digest 4.1); otherwise `need` raises `NeedFacts` with the
proposals, the runner puts the step back as it was and prompts `@umpire` (V-06, V-14). When the
umpire has answered, the step runs again from its start, with the event's own dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from games.core.i18n import T
from games.core.protocol import JSON, LogEntry
from games.core.rng import Rng
from games.valour_fortitude.state import GameState

# the kinds of value a fact has (what a correction must give)
BOOL, COUNT, COVER, OFFSET, INCHES = "bool", "count", "cover", "offset", "inches"
COVER_CLASSES = ("none", "soft", "hard")


@dataclass(frozen=True, slots=True)
class Fact:
    """One geometric fact proposed to the umpire: what it is, the proposed value, its kind,
    the rule of the step table it serves and how it was measured."""

    text: str
    value: JSON
    kind: str
    rule: str
    note: str = ""

    def to_json(self, key: str) -> dict[str, JSON]:
        return {
            "key": key,
            "fact": self.text,
            "value": self.value,
            "kind": self.kind,
            "rule": self.rule,
            "note": self.note,
        }


class NeedFacts(Exception):
    """The step needs facts the umpire has not ruled on yet."""

    def __init__(self, proposals: list[dict[str, JSON]]) -> None:
        super().__init__(f"{len(proposals)} fact(s) for the umpire")
        self.proposals = proposals


@dataclass
class Ctx:
    game: GameState
    flow: dict[str, JSON]
    rng: Rng
    log: list[LogEntry] = field(default_factory=list)
    actor: str = ""  # the role whose action is applied (rules.apply)

    # --- facts ---
    def facts(self) -> dict[str, JSON]:
        found = self.flow.setdefault("facts", {})
        assert isinstance(found, dict)
        return found

    def need(self, wanted: Mapping[str, Callable[[], Fact]]) -> dict[str, JSON]:
        """The values of the facts `wanted` (key -> how to propose it), all ruled on."""
        known = self.facts()
        missing = {k: make() for k, make in wanted.items() if k not in known}
        if missing:
            if self.flow.get("auto_geometry"):
                for key, fact in missing.items():
                    known[key] = fact.value
            else:
                raise NeedFacts([f.to_json(k) for k, f in missing.items()])
        return {k: known[k] for k in wanted}

    # --- log ---
    def say(self, text: str, audience: frozenset[str] | None = None, data: JSON = None) -> None:
        if audience is None and self.flow.get("visibility") == "umpire_filtered":
            # 4.6: a line may name units the other side cannot see; it is for the side whose
            # turn it is and the role that acted (the umpire reads every line)
            audience = frozenset(r for r in (self.game.turn.active_side, self.actor) if r)
        self.log.append(LogEntry(text, audience, data))

    # --- dice (digest 0: every roll logged with its purpose, faces, modifier and outcome) ---
    def roll(self, n: int) -> list[int]:
        return [self.rng.d6() for _ in range(n)]

    def test(self, purpose: str, n: int, modifier: int, need: int) -> bool:
        """`n` dice, each `modifier`ed, each must reach `need` (natural 6 passes, natural 1
        fails, VF-3): True when all pass."""
        faces = self.roll(n)
        passed = all(passes(f, modifier, need) for f in faces)
        self.say(
            T(
                "{purpose}: dice {faces}, modifier {modifier}, each needs {need}+: {outcome}",
                purpose=purpose,
                faces=" ".join(str(f) for f in faces),
                modifier=f"{modifier:+d}",
                need=need,
                outcome=T("passed") if passed else T("failed"),
            ),
            data={"roll": {"purpose": purpose, "faces": list[JSON](faces), "modifier": modifier}},
        )
        return passed


def passes(face: int, modifier: int, need: int) -> bool:
    """VF-3: a natural 6 always succeeds, a natural 1 always fails."""
    if face == 6:
        return True
    if face == 1:
        return False
    return face + modifier >= need
