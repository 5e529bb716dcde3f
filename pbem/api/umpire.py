"""The umpire's queue: `GET /umpire/queue` lists the games waiting for the caller's ruling (the
engine prompts the umpire seat the caller holds), the nearest deadline first. Rulings and
corrections are sent as actions (`POST /games/{id}/actions` with the kinds `.ruling` and
`.correction`, role `@umpire`: games.core.umpire)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pbem.api.games import request_user
from pbem.play.selectors import umpire_queue


@extend_schema_serializer(component_name="UmpireQueueItem")
class UmpireQueueItemSerializer(serializers.Serializer[Any]):
    game = serializers.UUIDField(source="pk")
    title = serializers.CharField(allow_blank=True)
    ruleset = serializers.CharField(source="ruleset_id")
    scenario = serializers.CharField()
    head_seq = serializers.IntegerField()
    deadline_at = serializers.DateTimeField(allow_null=True)


class UmpireQueueApi(APIView):
    @extend_schema(responses={200: UmpireQueueItemSerializer(many=True)})
    def get(self, request: Request) -> Response:
        games = umpire_queue(request_user(request))
        return Response(UmpireQueueItemSerializer(games, many=True).data)
