"""Invitations: a seat named for you by another user is offered, not imposed.

`GET /invitations` lists the seats offered to you; `POST /games/{id}/seats/{role}/accept` takes
one (the last acceptance starts the game and its clock); `.../decline` frees it and tells the
game's creator. Only the invited user may answer (403 `not_invited`).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pbem.api.exceptions import ErrorOutputSerializer
from pbem.api.games import ERRORS, GAME_ID, GameOutputSerializer, game_get, game_out, request_user
from pbem.play.models import Seat
from pbem.play.services.games import invitations_pending, seat_accept, seat_decline

ROLE_PATH = OpenApiParameter("role", OpenApiTypes.STR, OpenApiParameter.PATH)
CONFLICT: dict[int, Any] = {409: ErrorOutputSerializer}


def invitation_out(seat: Seat) -> dict[str, Any]:
    game = seat.game
    return {
        "game": game.pk,
        "role": seat.role,
        "title": game.title,
        "ruleset": game.ruleset_id,
        "scenario": game.scenario,
        "invited_by": game.created_by.username if game.created_by is not None else None,
        "invited_at": seat.joined_at,
        "turn_hours": game.turn_hours,
    }


@extend_schema_serializer(component_name="Invitation")
class InvitationOutputSerializer(serializers.Serializer[Any]):
    game = serializers.UUIDField()
    role = serializers.CharField()
    title = serializers.CharField(allow_blank=True)
    ruleset = serializers.CharField()
    scenario = serializers.CharField()
    invited_by = serializers.CharField(allow_null=True)
    invited_at = serializers.DateTimeField(allow_null=True)
    turn_hours = serializers.IntegerField(help_text="time per turn in hours; 0 = no deadline")


class InvitationListApi(APIView):
    """The seats offered to you that you have not answered yet (games not over), newest first."""

    @extend_schema(
        operation_id="invitations_list",
        responses={200: InvitationOutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        rows = [invitation_out(s) for s in invitations_pending(request_user(request))]
        return Response(InvitationOutputSerializer(rows, many=True).data)


class SeatAcceptApi(APIView):
    """Accept the seat you are invited to (again: nothing changes). When every seat is taken and
    accepted the game starts: its deadline clock runs from now and the first player is told."""

    @extend_schema(
        operation_id="games_seat_accept",
        request=None,
        parameters=[GAME_ID, ROLE_PATH],
        responses={200: GameOutputSerializer, **ERRORS, **CONFLICT},
    )
    def post(self, request: Request, game_id: str, role: str) -> Response:
        user = request_user(request)
        seat_accept(game=game_get(game_id), role=role, user=user)
        return Response(GameOutputSerializer(game_out(game_get(game_id), user)).data)


class SeatDeclineApi(APIView):
    """Decline the seat you are invited to: it is open again and the creator is told. 409
    `already_accepted` once you accepted it."""

    @extend_schema(
        operation_id="games_seat_decline",
        request=None,
        parameters=[GAME_ID, ROLE_PATH],
        responses={200: GameOutputSerializer, **ERRORS, **CONFLICT},
    )
    def post(self, request: Request, game_id: str, role: str) -> Response:
        user = request_user(request)
        seat_decline(game=game_get(game_id), role=role, user=user)
        return Response(GameOutputSerializer(game_out(game_get(game_id), user)).data)


__all__ = ["InvitationListApi", "SeatAcceptApi", "SeatDeclineApi"]
