"""The board beside the view in words: the ruleset's own renderer, if its registry entry names
one (games.registry.board_renderer, the B1 hook), drawn ONLY from the seat's view. A ruleset
without one gets the generic page (no board); a renderer that fails costs the board, never the
page."""

from __future__ import annotations

import logging
from collections.abc import Callable

from games import registry
from games.core.protocol import JSON

logger = logging.getLogger(__name__)
Renderer = Callable[[JSON], str]


def renderer_for(ruleset_id: str) -> Renderer | None:
    find = getattr(registry, "board_renderer", None)  # the hook may be absent (older engines)
    if find is None:
        return None
    try:
        found = find(ruleset_id)
    except (LookupError, ImportError):
        logger.warning("board renderer of %s cannot be loaded", ruleset_id, exc_info=True)
        return None
    return found if callable(found) else None


def board_svg(ruleset_id: str, view: JSON) -> str:
    """The SVG of the board as `view` shows it, or "" when there is none."""
    render = renderer_for(ruleset_id)
    if render is None:
        return ""
    try:
        return str(render(view))
    except Exception:  # a drawing bug must not take the page down
        logger.exception("board renderer of %s failed", ruleset_id)
        return ""
