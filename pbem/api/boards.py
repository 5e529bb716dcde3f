"""The boards of a ruleset over the API: enough to draw the map and check
adjacency without reading the engine.

`GET /api/v1/rulesets/{ruleset_id}/boards` lists the board ids; `GET .../boards/{board}` gives one
board's description (the engine's `board_json`). Both are public, static data: no seat is needed,
the answer carries a strong ETag (sha256 of its canonical JSON) and `Cache-Control: public,
max-age=3600`, and a request whose `If-None-Match` matches gets 304 with no body. An unknown
ruleset or board is a 404 in the error shape that names no more than a short identifier.

A ruleset offers boards by having two methods: `boards() -> Sequence[str]` and
`board_json(board_id) -> Mapping` (KeyError for an unknown id); a ruleset without them has none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pbem.api.etags import IF_NONE_MATCH, NOT_MODIFIED, content_etag, not_modified, tagged
from pbem.api.exceptions import ErrorOutputSerializer
from pbem.play.rulesets import UnknownRuleset, ruleset_get

MAX_AGE = 3600
MAX_SHOWN = 40  # the longest identifier an error message repeats

RULESET_ID = OpenApiParameter(
    "ruleset_id", OpenApiTypes.STR, OpenApiParameter.PATH, description="The ruleset's id."
)
BOARD_ID = OpenApiParameter(
    "board", OpenApiTypes.STR, OpenApiParameter.PATH, description="The board's id."
)


# --- the answer's shape (for the OpenAPI schema) ------------------------------------------------


class _Renaming(serializers.Serializer[Any]):
    """Fields whose JSON names are Python keywords or Serializer attributes (`from`, `class`,
    `label`) are declared under another name and renamed here."""

    RENAMES: ClassVar[Mapping[str, str]] = MappingProxyType({})

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        return {self.RENAMES.get(k, k): f for k, f in fields.items()}


class ApproachSideSerializer(serializers.Serializer[Any]):
    locale = serializers.IntegerField()
    width = serializers.ChoiceField(choices=["narrow", "wide"])
    penalties = serializers.ListField(
        child=serializers.ChoiceField(choices=["I", "C", "A"]),
        help_text="symbols printed inside this locale at the approach (NT-9)",
    )
    obstructed = serializers.BooleanField()


class LocaleSerializer(_Renaming):
    RENAMES: ClassVar[Mapping[str, str]] = MappingProxyType({"label_": "label"})

    id = serializers.IntegerField()
    key = serializers.CharField()
    name = serializers.CharField(allow_null=True, help_text="the printed toponym, if any")
    label_ = serializers.CharField(allow_null=True)
    capacity = serializers.IntegerField()
    hill = serializers.BooleanField()
    stars = serializers.ListField(child=serializers.CharField())
    setup = serializers.ListField(child=serializers.CharField(), help_text="commander ids")
    santon = serializers.BooleanField()
    side_home = serializers.CharField(allow_null=True)
    terrain = serializers.CharField(allow_null=True)
    xy = serializers.ListField(
        child=serializers.FloatField(), allow_null=True, help_text="position, where known"
    )
    src = serializers.CharField(allow_null=True, help_text="where the data comes from")
    approaches = serializers.ListField(child=serializers.CharField())
    neighbours = serializers.ListField(child=serializers.IntegerField())
    passable_neighbours = serializers.ListField(child=serializers.IntegerField())
    strands = serializers.ListField(child=serializers.IntegerField())


class ApproachSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    a = serializers.IntegerField()
    b = serializers.IntegerField()
    width = serializers.ChoiceField(choices=["narrow", "wide", "per_side"])
    impassable = serializers.BooleanField()
    a_side = ApproachSideSerializer()
    b_side = ApproachSideSerializer()
    roads = serializers.ListField(child=serializers.CharField())


class CrossingSerializer(_Renaming):
    RENAMES: ClassVar[Mapping[str, str]] = MappingProxyType({"from_": "from"})

    approach = serializers.CharField()
    from_ = serializers.IntegerField()
    to = serializers.IntegerField()
    strand_from = serializers.IntegerField()
    strand_to = serializers.IntegerField()


class RoadSerializer(_Renaming):
    RENAMES: ClassVar[Mapping[str, str]] = MappingProxyType({"road_class": "class"})

    id = serializers.CharField()
    road_class = serializers.ChoiceField(choices=["main", "local"])
    toponym = serializers.CharField(allow_null=True)
    crossings = CrossingSerializer(many=True)


class EntrySerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    side = serializers.CharField()
    locale = serializers.IntegerField()
    strand = serializers.IntegerField()
    road_class = serializers.CharField()
    main_road_entry = serializers.BooleanField()


class ToponymSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    aliases = serializers.ListField(child=serializers.CharField())
    kind = serializers.CharField(allow_null=True)
    locales = serializers.ListField(child=serializers.IntegerField())
    src = serializers.CharField(allow_null=True)


class CommanderSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    side = serializers.CharField()
    setup_locale = serializers.IntegerField(allow_null=True)
    reinforcement = serializers.BooleanField()
    min_units = serializers.IntegerField()


class RoundSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    day = serializers.IntegerField()
    hour = serializers.IntegerField(allow_null=True)
    night = serializers.BooleanField()


class BoardScenarioSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    allied_start = serializers.CharField()
    starting_morale = serializers.DictField(child=serializers.IntegerField())
    reinforcement_rounds = serializers.DictField(child=serializers.IntegerField())
    rounds = RoundSerializer(many=True)


class ArmyRowSerializer(serializers.Serializer[Any]):
    type = serializers.CharField()
    strength = serializers.IntegerField()
    count = serializers.IntegerField()


class BoardOutputSerializer(serializers.Serializer[Any]):
    format = serializers.CharField(help_text="nt-board-json/1")
    id = serializers.CharField()
    name = serializers.CharField()
    meta = serializers.DictField(help_text="title, version, coordinates, penalty codes, source")
    locales = LocaleSerializer(many=True)
    approaches = ApproachSerializer(many=True)
    roads = RoadSerializer(many=True)
    entries = EntrySerializer(many=True)
    toponyms = ToponymSerializer(many=True)
    commanders = CommanderSerializer(many=True)
    scenarios = BoardScenarioSerializer(many=True)
    army = serializers.DictField(
        child=ArmyRowSerializer(many=True), help_text="side -> counts per face"
    )
    santon = serializers.IntegerField(allow_null=True)


class BoardListOutputSerializer(serializers.Serializer[Any]):
    ruleset = serializers.CharField()
    boards = serializers.ListField(child=serializers.CharField())


# --- helpers --------------------------------------------------------------------------------


def _shown(value: str) -> str:
    return repr(value) if len(value) <= MAX_SHOWN and value.isprintable() else "(this id)"


def _board_api(ruleset_id: str) -> tuple[Callable[[], Sequence[str]], Callable[[str], Any]]:
    try:
        ruleset = ruleset_get(ruleset_id)
    except UnknownRuleset:
        raise NotFound(f"unknown ruleset {_shown(ruleset_id)}") from None
    boards = getattr(ruleset, "boards", None)
    board_json = getattr(ruleset, "board_json", None)
    if not callable(boards) or not callable(board_json):
        return (lambda: ()), (lambda _: None)
    return boards, board_json


def cached(request: Request, body: object) -> Response:
    """200 with the body, or 304 when the client holds it already; with ETag and Cache-Control."""
    etag, cache = content_etag(body), f"public, max-age={MAX_AGE}"
    return not_modified(request, etag, cache) or tagged(Response(body), etag, cache)


# --- views ----------------------------------------------------------------------------------


class BoardListApi(APIView):
    """The ids of the boards a game of this ruleset may name in its option `board`."""

    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="ruleset_boards_list",
        parameters=[RULESET_ID, IF_NONE_MATCH],
        responses={
            200: BoardListOutputSerializer,
            304: NOT_MODIFIED,
            404: ErrorOutputSerializer,
        },
    )
    def get(self, request: Request, ruleset_id: str) -> Response:
        boards, _ = _board_api(ruleset_id)
        return cached(request, {"ruleset": ruleset_id, "boards": list(boards())})


class BoardDetailApi(APIView):
    """One board: locales, approaches (widths, symbols, roads), roads, entries, toponyms,
    commanders, scenarios and the order of battle as counts."""

    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="ruleset_board_detail",
        parameters=[RULESET_ID, BOARD_ID, IF_NONE_MATCH],
        responses={
            200: BoardOutputSerializer,
            304: NOT_MODIFIED,
            404: ErrorOutputSerializer,
        },
    )
    def get(self, request: Request, ruleset_id: str, board: str) -> Response:
        boards, board_json = _board_api(ruleset_id)
        if board not in boards():
            raise NotFound(f"unknown board {_shown(board)} for ruleset {_shown(ruleset_id)}")
        return cached(request, board_json(board))


__all__ = ["BoardDetailApi", "BoardListApi"]
