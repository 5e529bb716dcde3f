"""WCAG 2.1 contrast for the tests of the pages' and boards' colours: relative luminance, the
contrast ratio, and a colour read from a style sheet by selector and property (so a test checks
the colours the drawing really uses)."""

from __future__ import annotations

import re


def _hex(colour: str) -> tuple[float, float, float]:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    assert re.fullmatch(r"[0-9a-fA-F]{6}", digits), colour
    r, g, b = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b


def luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance."""

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in _hex(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def declared(sheet: str, selector: str, prop: str) -> str:
    """The value of `prop` in the rule whose selector list contains `selector` exactly; a
    `var(--x)` is resolved from :root."""
    bare = re.sub(r"/\*.*?\*/", "", sheet, flags=re.S)
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", bare):
        names = [s.strip() for s in selectors.split(",")]
        if selector not in names:
            continue
        found = re.search(rf"(?:^|[;\s]){re.escape(prop)}\s*:\s*([^;]+)", body)
        if found:
            value = found.group(1).strip()
            var = re.fullmatch(r"var\((--[\w-]+)\)", value)
            return declared(sheet, ":root", var.group(1)) if var else value
    raise AssertionError(f"no {prop} for {selector!r}")
