"""How engines wrap a long line of a report, and how the platform wraps it again once translated
(pbem.play.engine_text): after ", " or "; ", never inside a name, the continuation lines indented
`INDENT` deeper than the line."""

from __future__ import annotations

import re

WIDTH = 100  # the report width
INDENT = 4  # a continuation line's extra indentation
BREAK = re.compile(r"(?<=[,;]) ")


def wrap(line: str, width: int = WIDTH) -> list[str]:
    """`line` cut after ", " or "; " into lines of at most `width` characters where it can be;
    the continuation lines are indented under the text."""
    if len(line) <= width:
        return [line]
    indent = " " * (len(line) - len(line.lstrip()) + INDENT)
    out: list[str] = []
    current = ""
    for chunk in BREAK.split(line):
        candidate = f"{current} {chunk}" if current else chunk
        if current and len(candidate) > width:
            out.append(current)
            candidate = indent + chunk
        current = candidate
    out.append(current)
    return out
