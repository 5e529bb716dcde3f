"""How deep arrays and objects nest in a JSON text, without parsing it: one linear pass over the
special characters, brackets inside strings not counted (no recursion, no regex backtracking).
Every reader of client JSON (the API's parser, the web forms) bounds depth with it before
`json.loads`, which would recurse once per level."""

from __future__ import annotations

import re

_SPECIAL = re.compile(r'[\\"\[\]{}]')


def nests_deeper(text: str, limit: int) -> bool:
    """Whether arrays/objects in `text` nest deeper than `limit` levels."""
    depth = 0
    in_string = False
    escaped_at = -1
    for match in _SPECIAL.finditer(text):
        pos = match.start()
        if pos == escaped_at:
            continue  # the character after a backslash in a string
        char = text[pos]
        if in_string:
            if char == "\\":
                escaped_at = pos + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False
