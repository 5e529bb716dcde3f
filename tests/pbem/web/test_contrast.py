"""WCAG AA contrast (issue 15, point 7) of the colours the pages and the Napoleon's Triumph board
actually use: each pair is read from the style sheet (pbem/web/static/web/pbem.css) or the board's
STYLE by selector and property, so changing a colour there re-runs the arithmetic. Text needs
4.5:1 (WCAG 2.1, 1.4.3; the board's labels are small text), the focus outline 3:1 against the page
(1.4.11, non-text)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.napoleons_triumph.board_svg import STYLE
from tests.support.contrast import contrast, declared

CSS = (Path(__file__).resolve().parents[3] / "pbem/web/static/web/pbem.css").read_text("utf-8")
TEXT, NON_TEXT = 4.5, 3.0


def test_the_arithmetic_matches_wcag_figures() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the known just-fail
    assert contrast("#fff", "#fff") == pytest.approx(1.0)


PAGE_PAIRS = [  # (what, foreground (selector, property), background (selector, property), minimum)
    ("body text", ("body", "color"), ("body", "background"), TEXT),
    ("links", ("a", "color"), ("body", "background"), TEXT),
    ("muted text", (".help", "color"), ("body", "background"), TEXT),
    ("errors", (".error", "color"), ("body", "background"), TEXT),
    ("row waiting for me", ("body", "color"), ("tr.waiting-for-me", "background"), TEXT),
    ("button", ("button", "color"), ("button", "background"), TEXT),
    ("secondary button", ("button.secondary", "color"), ("button.secondary", "background"), TEXT),
    (
        "rule id of a refusal",
        ("#order-errors code.rule", "color"),
        ("#order-errors code.rule", "background"),
        TEXT,
    ),
    ("report", ("#report", "color"), ("#report", "background"), TEXT),
    ("focus outline", ("a:focus", "outline"), ("body", "background"), NON_TEXT),
]


@pytest.mark.parametrize(
    ("what", "fg", "bg", "minimum"), PAGE_PAIRS, ids=[p[0] for p in PAGE_PAIRS]
)
def test_page_colours_pass_aa(
    what: str, fg: tuple[str, str], bg: tuple[str, str], minimum: float
) -> None:
    front = declared(CSS, *fg)
    colour = re.search(r"#[0-9a-fA-F]{3,6}\b", front)
    assert colour, front
    ratio = contrast(colour.group(0), declared(CSS, *bg))
    assert ratio >= minimum, f"{what}: {ratio:.2f}:1"


BOARD_TEXT = [(".num", "fill"), (".name", "fill"), (".cap", "fill"), (".penalty", "fill")]
BOARD_GROUNDS = [(".cell", "fill"), (".locale.hill .cell", "fill"), (".locale:hover .cell", "fill")]
BOARD_PAIRS = [(t, g) for t in BOARD_TEXT for g in BOARD_GROUNDS] + [
    ((".block.enemy text", "fill"), (".block.enemy.F rect", "fill")),
    ((".block.enemy text", "fill"), (".block.enemy.AL rect", "fill")),
]


@pytest.mark.parametrize(
    ("fg", "bg"), BOARD_PAIRS, ids=[f"{f[0]} on {b[0]}" for f, b in BOARD_PAIRS]
)
def test_board_labels_pass_aa(fg: tuple[str, str], bg: tuple[str, str]) -> None:
    ratio = contrast(declared(STYLE, *fg), declared(STYLE, *bg))
    assert ratio >= TEXT, f"{fg[0]} on {bg[0]}: {ratio:.2f}:1"


def test_own_blocks_use_the_default_dark_text() -> None:
    """Own blocks' labels have no fill of their own (SVG text defaults to black) on light fills."""
    with pytest.raises(AssertionError):
        declared(STYLE, ".block.own text", "fill")
    for fill in (
        declared(STYLE, ".block.own.F rect", "fill"),
        declared(STYLE, ".block.own.AL rect", "fill"),
    ):
        assert contrast("#000000", fill) >= TEXT
