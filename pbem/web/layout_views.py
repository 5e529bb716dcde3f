"""The layout editor: a staff page where a game owner drags the locale points of a shipped board
(over a photo of their own board, which stays in the browser) and checks them.

`layout_edit` shows the board's map drawn from its committed layout with a handle per locale;
`layout_check` takes the moved points as JSON, recomputes the cells
(`games.napoleons_triumph.layout.layout_from_points`), checks them (`check`) and answers the
problems, the figures, the map redrawn and the layout file's text, which the page offers as a
download for the owner to commit. The server never writes a file: a board is named by its id
(one of the shipped boards), never by a path, and nothing a request sends names a server file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.http import require_GET, require_POST

from games.napoleons_triumph.board import SHIPPED, Board, board_named
from games.napoleons_triumph.board_svg import render_map
from games.napoleons_triumph.layout import (
    HEIGHT,
    WIDTH,
    Layout,
    approach_edges,
    check,
    layout_for,
    layout_from_points,
    layout_path_name,
    layout_yaml,
)
from games.napoleons_triumph.layout_cells import Point
from pbem.web.language import localized

CHECK_MAX_BYTES = 64 * 1024  # a point per locale: a few kilobytes even for the largest board

View = Callable[..., HttpResponseBase]


class BadPoints(ValueError):
    """The posted points are unusable; the message says why (shown to the owner)."""


def staff_only(view: View) -> View:
    """Anonymous readers go to the login page; signed-in readers who are not staff get 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), reverse("web:login"))
        if not request.user.is_staff:
            message = _("Only staff may edit a board's layout.")
            if request.method == "POST":
                return JsonResponse({"error": message}, status=403)
            return render(request, "web/forbidden.html", {"message": message}, status=403)
        return view(request, *args, **kwargs)

    return wrapper


def _board_and_layout(board_name: str) -> tuple[Board, Layout]:
    """A shipped board with a committed layout, else 404 (the name is only compared, never
    used as a path)."""
    if board_name not in SHIPPED:
        raise Http404(_("No such board."))
    layout = layout_for(board_name)
    if layout is None:
        raise Http404(_("This board has no layout yet."))
    return board_named(board_name), layout


@require_GET
@staff_only
def layout_index(request: HttpRequest) -> HttpResponseBase:
    """The staff menu's entry: the editor of the first shipped board with a layout."""
    for name in SHIPPED:
        if layout_for(name) is not None:
            return redirect(reverse("web:layout-edit", args=[name]))
    raise Http404(_("No board has a layout yet."))


@localized
@require_GET
@staff_only
def layout_edit(request: HttpRequest, board_name: str) -> HttpResponse:
    board, layout = _board_and_layout(board_name)
    handles = [
        {
            "locale": lid,
            "name": board.locales[lid].name or board.locales[lid].key.replace("_", " "),
            "x": f"{layout.points[lid][0]:g}",
            "y": f"{layout.points[lid][1]:g}",
        }
        for lid in sorted(board.locales)
    ]
    editor = {
        "board": board.name,
        "width": WIDTH,
        "height": HEIGHT,
        "filename": layout_path_name(board.name),
        "approaches": [[a, b] for _aid, a, b in approach_edges(board)],
        "check_url": reverse("web:layout-check", args=[board.name]),
    }
    return render(
        request,
        "web/layout_edit.html",
        {
            "board_name": board.name,
            "boards": SHIPPED,
            "map_svg": render_map(board.name, layout),
            "handles": handles,
            "editor": editor,
            "width": WIDTH,
            "height": HEIGHT,
        },
    )


def _no_constant(name: str) -> object:
    raise BadPoints(_("The points must be plain numbers (not %(name)s).") % {"name": name})


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise BadPoints(_("Locale %(key)s is given twice.") % {"key": key[:10]})
        out[key] = value
    return out


def _coordinate(value: object, limit: float, lid: int) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise BadPoints(_("Locale %(locale)s: the coordinates must be numbers.") % {"locale": lid})
    if not 0 <= value <= limit:
        raise BadPoints(
            _("Locale %(locale)s lies outside the map (0 to %(width)s by 0 to %(height)s).")
            % {"locale": lid, "width": f"{WIDTH:g}", "height": f"{HEIGHT:g}"}
        )
    return float(value)


def parse_points(body: bytes, board: Board) -> dict[int, Point]:
    """`{"points": {"<locale>": [x, y], ...}}` with every locale of `board` exactly once and each
    point inside the map, else BadPoints."""
    if len(body) > CHECK_MAX_BYTES:
        raise BadPoints(_("The request is too large."))
    try:
        doc = json.loads(
            body.decode("utf-8"), object_pairs_hook=_unique_keys, parse_constant=_no_constant
        )
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise BadPoints(_("The request is not valid JSON.")) from None
    raw = doc.get("points") if isinstance(doc, dict) else None
    if not isinstance(raw, dict):
        raise BadPoints(_('Send {"points": {"<locale>": [x, y], ...}}.'))
    points: dict[int, Point] = {}
    for key, value in raw.items():
        lid = int(key) if key.isascii() and key.isdigit() and len(key) <= 6 else None
        if lid is None or lid not in board.locales:
            raise BadPoints(_("There is no locale %(key)s on this board.") % {"key": key[:10]})
        if lid in points:
            raise BadPoints(_("Locale %(key)s is given twice.") % {"key": lid})
        if not isinstance(value, list) or len(value) != 2:
            raise BadPoints(_("Locale %(locale)s: give its point as [x, y].") % {"locale": lid})
        points[lid] = (_coordinate(value[0], WIDTH, lid), _coordinate(value[1], HEIGHT, lid))
    missing = sorted(set(board.locales) - set(points))
    if missing:
        shown = ", ".join(str(lid) for lid in missing[:20]) + (" …" if len(missing) > 20 else "")
        raise BadPoints(_("These locales have no point: %(locales)s.") % {"locales": shown})
    return points


def _answer(board: Board, points: dict[int, Point]) -> dict[str, Any]:
    layout = layout_from_points(board, points)
    problems, figures = check(layout, board)
    return {
        "problems": problems,
        "figures": asdict(figures),
        "yaml": layout_yaml(layout),
        "filename": layout_path_name(board.name),
        "svg": render_map(board.name, layout),
    }


@localized
@require_POST
@csrf_protect
@staff_only
def layout_check(request: HttpRequest, board_name: str) -> JsonResponse:
    board, _layout = _board_and_layout(board_name)
    length = request.META.get("CONTENT_LENGTH") or "0"
    if length.isdigit() and int(length) > CHECK_MAX_BYTES:  # refused before it is read
        return JsonResponse({"error": _("The request is too large.")}, status=400)
    try:
        points = parse_points(request.body, board)
    except BadPoints as e:
        return JsonResponse({"error": str(e)}, status=400)
    return JsonResponse(_answer(board, points))
