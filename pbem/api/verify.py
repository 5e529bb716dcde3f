"""Auditable dice over REST: replay a game from its seed and report the check."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from pbem.api.games import ERRORS, GAME_ID, game_get, request_user
from pbem.play.models import Game
from pbem.play.selectors import may_read_game, numbering_for, reader_roles
from pbem.play.services.verify import game_verify, seed_reveal


class VerifyOutputSerializer(serializers.Serializer[Any]):
    game_id = serializers.UUIDField()
    ok = serializers.BooleanField()
    events_checked = serializers.IntegerField()
    first_mismatch = serializers.IntegerField(allow_null=True)
    commitment_ok = serializers.BooleanField()
    snapshots_checked = serializers.IntegerField(
        allow_null=True, help_text="null when it would count events you may not see"
    )
    seconds = serializers.FloatField()
    messages = serializers.ListField(child=serializers.CharField())
    seed_commitment = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="hex; null until the game is finished")


def _running_messages(ok: bool) -> list[str]:
    if ok:
        return []
    return ["the log does not replay; the operator's `manage.py pbem_verify` shows where"]


class GameVerifyApi(APIView):
    """Replay the whole log from the game's secret seed and check every event's state hash, the
    head, the snapshots and that sha256(seed) is the commitment published at creation. Any
    signed-in user may ask (the report names no hidden fact), but of a private game (created
    with `"spectators": false`) only its members; the seed is shown only once the game is
    finished. Limited per user (PBEM_VERIFY_RATE, default 60/hour; then 429)."""

    OutputSerializer = VerifyOutputSerializer
    throttle_classes = (ScopedRateThrottle,)  # a replay of the whole log per call
    throttle_scope = "verify"

    @extend_schema(parameters=[GAME_ID], responses={200: OutputSerializer, **ERRORS})
    def get(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = game_get(game_id)
        may_read_game(game, user)  # a private game: 403 for non-members
        report = game_verify(game=game)
        # counted as the caller sees the log: a side's secret events are not counted for others
        numbering = numbering_for(game, reader_roles(game, user))
        mismatch = report.first_mismatch
        finished = game.status == Game.Status.FINISHED
        out = {
            "game_id": report.game_id,
            "ok": report.ok,
            "events_checked": numbering.role_seq(report.events_checked),
            "first_mismatch": None if mismatch is None else numbering.role_seq(mismatch),
            "commitment_ok": report.commitment_ok,
            # while the game runs both would number or count events some roles cannot see
            # (snapshots follow seqs): shown once it is over, like the seed
            "snapshots_checked": report.snapshots_checked if finished else None,
            "seconds": round(report.seconds, 4),
            "messages": report.messages if finished else _running_messages(report.ok),
            "seed_commitment": game.seed_commitment,
            "seed": seed_reveal(game),
        }
        return Response(self.OutputSerializer(out).data)
