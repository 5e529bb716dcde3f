"""The live part of a game page answers 304 while nothing its reader may know of has changed.

The tag names what the fragment is drawn from: the game, the ruleset's version, the reader's
role and own seats, the reader's *numbering position* (how many events that role may know
exist: `pbem.play.selectors.reader_position`, as the API's `pbem.api.etags.seat_etag`; an event
hidden from the role moves nothing), plus the public facts the page shows besides the log
(status, deadline, pause, who sits where) and the page's language and time zone. It is computed
from one numbering query, before any view."""

from __future__ import annotations

import hashlib
import json

from django.http import HttpRequest
from django.utils import timezone, translation

from pbem.play.models import Game, PauseRequest
from pbem.play.selectors import numbering_for

EPOCH = 1  # raise when the fragment's markup changes: every open page refetches


def live_etag(game: Game, role: str, mine: list[str], user_id: int | None) -> str:
    position = numbering_for(game, [role]).role_seq(game.head_seq)
    seats = sorted((s.role, s.user_id, s.accepted_at is not None) for s in game.seats.all())
    asked = sorted(PauseRequest.objects.filter(game=game).values_list("user_id", flat=True))
    parts = {
        "epoch": EPOCH,
        "game": str(game.pk),
        "ruleset": [game.ruleset_id, game.ruleset_version],
        "role": role,
        "mine": sorted(mine),
        "reader": user_id,
        "position": position,
        "status": game.status,
        "deadline": [str(game.deadline_at), str(game.paused_at), game.turn_hours],
        "seats": seats,
        "pause": asked,
        "lang": translation.get_language(),
        "tz": str(timezone.get_current_timezone()),
    }
    canonical = json.dumps(parts, sort_keys=True, separators=(",", ":"))
    return 'W/"' + hashlib.sha256(canonical.encode("utf-8")).hexdigest() + '"'


def etag_matches(request: HttpRequest, etag: str) -> bool:
    """Does the request's If-None-Match name `etag` (weak comparison, RFC 9110 8.8.3.2)?"""
    header = request.headers.get("If-None-Match", "")
    wanted = etag.removeprefix("W/")
    tags = {t.strip().removeprefix("W/") for t in header.split(",")}
    return "*" in tags or wanted in tags
