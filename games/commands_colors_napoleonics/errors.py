"""The errors of the Commands & Colors: Napoleonics data: a problem names its place (a YAML path
such as ``units[3].hex``) and the digest rule or section that refuses it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# The gaps of digest 7.1 a refusal may name, with a few words each (for the messages).
GAPS: dict[str, str] = {
    "GAP-1": "artillery ranged dice table",
    "GAP-2": "national unit reference cards",
    "GAP-3": "scenario booklet maps",
    "GAP-4": "board picture: row lengths and section lines",
    "GAP-5": "card images",
    "GAP-6": "terrain tile effects chart",
    "GAP-7": "number of square-track slots",
    "GAP-8": "LOS and retire-and-reform figures",
    "GAP-9": "leader identities per scenario",
    "GAP-10": "expansion unit types",
    "GAP-11": "optional tactician cards",
    "GAP-12": "English rulebook text",
}


@dataclass(frozen=True, slots=True)
class Problem:
    path: str  # YAML path, "" for the whole file
    rule: str  # digest rule id ("CCN-29", "GAP-2") or section ("§8.2")
    message: str

    def __str__(self) -> str:
        return f"{self.path or '(file)'}: {self.rule}: {self.message}"


class DataError(ValueError):
    """A data file refused: every problem found, each with its place and rule."""

    def __init__(self, source: str, problems: Sequence[Problem]) -> None:
        if not problems:
            raise ValueError("a DataError carries at least one problem")
        self.source = source
        self.problems: tuple[Problem, ...] = tuple(problems)
        shown = "\n".join(f"  {p}" for p in self.problems)
        super().__init__(f"{source}: {len(self.problems)} problem(s)\n{shown}")


class BoardError(DataError):
    """A board profile (digest 8.1, 2.1, 2.2) refused."""


class NationsError(DataError):
    """A `ccn-nations/1` file (digest 8.3) refused."""


class ScenarioError(DataError):
    """A `ccn-scenario/1` file (digest 8.2) refused."""


class UnknownValueError(LookupError):
    """A value the engine needs is unknown (null in the data, a gap of digest 7.1): the engine
    refuses rather than guess (digest 8.3)."""

    def __init__(self, gap: str, what: str) -> None:
        self.gap = gap
        self.what = what
        topic = GAPS.get(gap, "unknown data")
        super().__init__(
            f"{what} is unknown ({gap}: {topic}); the engine refuses rather than guess"
        )
