"""What the Valour & Fortitude data and checks report: a `Problem` names its place (a path such as
``brigades[1].units[0].elite``), the digest rule that refuses it and a sentence; an unknown
value (`Unknown`) names the gap of digest section 8 that makes it unknown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# The gaps of digest section 8 a value or refusal may name; GAP-15 is this package's addition
# (README.md, "Gaps"), proposed for the digest.
GAPS: dict[str, str] = {
    "GAP-1": "an empty fate deck",
    "GAP-2": "hill elevation, crests and reverse slopes",
    "GAP-3": "the 'dense target' of Masse",
    "GAP-4": "the timing of the Unnachgiebig extra charge",
    "GAP-5": "the special rule 'Lanzen' is never defined",
    "GAP-6": "Sir John Moore as a melee supporter",
    "GAP-7": "the Bavarian list has no elite upgrade and no general options",
    "GAP-8": "allies from lists other than the Allied list",
    "GAP-9": "the deployment order of the starter scenario",
    "GAP-10": "base sizes other than the infantry example",
    "GAP-11": "the missing diagrams",
    "GAP-12": "how artillery limbers and unlimbers",
    "GAP-13": "the turn limit of the starter scenario",
    "GAP-14": "pursuit after a melee",
    "GAP-15": "the Union 'Glattrohrartillerie' row has empty ranged, melee and morale cells",
}


@dataclass(frozen=True, slots=True)
class Problem:
    path: str  # where: a dotted path into the checked document, "" for the whole of it
    rule: str  # the digest rule that refuses it ("VF-231", "GAP-7") or "format"
    message: str

    def __str__(self) -> str:
        return f"{self.path or '(document)'}: {self.rule}: {self.message}"


@dataclass(frozen=True, slots=True)
class Unknown:
    """A value the rulebook does not give: never guessed, refused by its gap id when needed."""

    gap: str


class DataError(ValueError):
    """A data file or document refused: every problem found, each with its place and rule."""

    def __init__(self, source: str, problems: Sequence[Problem]) -> None:
        if not problems:
            raise ValueError("a DataError carries at least one problem")
        self.source = source
        self.problems: tuple[Problem, ...] = tuple(problems)
        shown = "\n".join(f"  {p}" for p in self.problems[:20])
        super().__init__(f"{source}: {len(self.problems)} problem(s)\n{shown}")


class UnknownValueError(LookupError):
    """A value needed now is unknown (digest section 8): the error names the gap and the value."""

    def __init__(self, gap: str, what: str) -> None:
        self.gap = gap
        self.what = what
        super().__init__(f"{what} is unknown ({gap}: {GAPS.get(gap, 'see the digest')})")
