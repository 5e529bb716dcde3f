"""Valour & Fortitude armies over REST: `POST /vf/armies/check` checks a player's army document
against the list it names (games.valour_fortitude.army_check: VF-230..VF-240, VF-T38) and
answers its cost and every problem, each with its place in the document and its rule. A check
is an answer, not a refusal: 200 with `ok` false when the army breaks a rule; 400 only for a
request that carries no army."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.valour_fortitude.army_check import army_report
from pbem.api.exceptions import ErrorOutputSerializer
from pbem.api.games import request_user


class ArmyCheckInputSerializer(serializers.Serializer[Any]):
    army = serializers.JSONField(
        help_text="the army document (armies.py: army_list, points_limit, cinc, brigades) as "
        "JSON, or its YAML text as a string"
    )


class ArmyProblemSerializer(serializers.Serializer[Any]):
    path = serializers.CharField(help_text='where, e.g. "brigades[0].units[2].elite[1]"')
    rule = serializers.CharField(help_text='the rule, e.g. "VF-233", or "format"')
    message = serializers.CharField()


class ArmyCheckOutputSerializer(serializers.Serializer[Any]):
    ok = serializers.BooleanField()
    army_list = serializers.CharField(allow_null=True)
    points = serializers.IntegerField(allow_null=True, help_text="the army's cost (VF-230)")
    problems = ArmyProblemSerializer(many=True)


class ArmyCheckApi(APIView):
    """Check an army against its list: cost and every problem (points, brigade sizes, upgrades,
    options, generals), each naming the list entry and the rule."""

    @extend_schema(
        operation_id="vf_army_check",
        request=ArmyCheckInputSerializer,
        responses={200: ArmyCheckOutputSerializer, 400: ErrorOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        request_user(request)  # signed in, as every other call
        data = ArmyCheckInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        report = army_report(data.validated_data["army"])  # a text over its bound: "format"
        out = {
            "ok": report.ok,
            "army_list": report.army_list,
            "points": report.points,
            "problems": [
                {"path": p.path, "rule": p.rule, "message": p.message} for p in report.problems
            ],
        }
        return Response(ArmyCheckOutputSerializer(out).data)
