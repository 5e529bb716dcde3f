"""ETags and 304s (RFC 9110 8.8.3, 13.1.2).

Two kinds of validator:

- `content_etag`: the hash of a public body (a board): the same body, the same tag.
- `seat_etag`: the tag of an answer read as one seat. It names the game, the ruleset version,
  the reader's role, the caller's own seats and the reader's *numbering position* (how many
  events that role may know exist, `selectors.reader_position`), plus the request's own
  parameters. An event that role may not know of (another seat's written order, a side's
  standing instruction) moves no position and so changes no tag; every event it may know of
  changes it (digest L6, NT-TEAM-T44). What a seat reads is a function of that position (the
  engine's views are equal with and without the events hidden from it: the leak properties),
  so a 304 is answered from one numbering query, before any view is computed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from pbem.play.models import Game

EPOCH = 1  # raise when the shape of a seat's answers changes: every client refetches

IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="An ETag from an earlier answer: 304 if it is still current.",
)
NOT_MODIFIED = OpenApiResponse(description="unchanged since the ETag sent in If-None-Match")
SEAT_CACHE = "private, no-cache"  # the caller's own view: stored only by them, always revalidated


def _tag(parts: object) -> str:
    canonical = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return '"' + hashlib.sha256(canonical.encode("utf-8")).hexdigest() + '"'


def content_etag(body: object) -> str:
    return _tag(body)


def seat_etag(
    game: Game, role: str, position: int, mine: Sequence[str], params: Mapping[str, object]
) -> str:
    return _tag(
        {
            "epoch": EPOCH,
            "game": str(game.pk),
            "ruleset": [game.ruleset_id, game.ruleset_version],
            "role": role,
            "position": position,
            "mine": sorted(mine),
            "params": dict(params),
        }
    )


def etag_matches(request: Request, etag: str) -> bool:
    header = request.headers.get("If-None-Match", "")
    tags = {t.strip().removeprefix("W/") for t in header.split(",")}
    return "*" in tags or etag in tags


def not_modified(request: Request, etag: str, cache_control: str) -> Response | None:
    """A 304 when the client holds `etag` already, else None."""
    if not etag_matches(request, etag):
        return None
    headers = {"ETag": etag, "Cache-Control": cache_control}
    return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)


def tagged(response: Response, etag: str, cache_control: str) -> Response:
    response["ETag"] = etag
    response["Cache-Control"] = cache_control
    return response
