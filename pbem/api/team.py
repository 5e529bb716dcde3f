"""Team play (Napoleon's Triumph chapter 19; digest napoleons-triumph-team.md 3.8): a seat's
inbox and outbox of written orders, the public commitments and the post-game archive, and the
team conference's chat.

Every answer is a projection of the engine's `team` section of the reader's own view
(`selectors.view_for`), so it holds nothing the engine does not show that role (table 3.5.1:
an order reaches its recipient's inbox only at his team's next turn, NT-TEAM-22; nobody else
reads it before the game is over, NT-TEAM-23, -26). The seat answers carry the seat ETag of
pbem.api.etags: it moves only with events the reader may know of (L6). A game without team play
is a 404.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.core.protocol import JSON
from pbem.api.etags import IF_NONE_MATCH, NOT_MODIFIED, SEAT_CACHE, not_modified, tagged
from pbem.api.exceptions import ErrorOutputSerializer
from pbem.api.games import GAME_ID, ROLE_QUERY, game_get, request_user, seat_tag
from pbem.api.orders import IDEMPOTENCY_KEY, OrderSubmitApi, StrictCharField, order_answer
from pbem.play.errors import ServiceError
from pbem.play.models import Game
from pbem.play.selectors import SeatView, view_for

CHAT_KIND = "chat_message"  # NT-TEAM-6, -13: the engine opens and closes it with the conferences
CHAT_MAX = 4000  # as the engine schema of chat_message
ERRORS: dict[int, Any] = {
    400: ErrorOutputSerializer,
    403: ErrorOutputSerializer,
    404: ErrorOutputSerializer,
}


class GameNotOver(ServiceError):
    status = 409
    code = "game_not_over"


def team_section(seat_view: SeatView) -> dict[str, JSON]:
    """The engine view's `team` section; 404 for a game without team play."""
    view = seat_view.view
    team = view.get("team") if isinstance(view, dict) else None
    if not isinstance(team, dict):
        raise NotFound(gettext_lazy("this game has no team play"))
    return team


def _list(section: dict[str, JSON], key: str) -> list[JSON]:
    value = section.get(key)
    return list(value) if isinstance(value, list) else []


class _SeatRead(APIView):
    """GET as one of the caller's seats (`?role=`), answered from its view, with the seat ETag."""

    what = ""

    class FilterSerializer(serializers.Serializer[Any]):
        role = serializers.CharField(required=False, max_length=60)

    def body(self, seat_view: SeatView, section: dict[str, JSON]) -> dict[str, Any]:
        raise NotImplementedError

    def get(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = game_get(game_id)
        query = self.FilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        role = query.validated_data.get("role")
        etag = seat_tag(game, user, role, self.what)
        cached = not_modified(request, etag, SEAT_CACHE)
        if cached is not None:
            return cached
        seat_view = view_for(game, user, role)
        body = self.body(seat_view, team_section(seat_view))
        return tagged(Response(body), etag, SEAT_CACHE)


# --- written orders ----------------------------------------------------------------------------


def inbox_item(slot: JSON) -> dict[str, JSON]:
    """Digest 3.8: an inbox item names no other seat and no time; a null slot has `order` null."""
    assert isinstance(slot, dict)
    order = slot.get("order")
    words = order if isinstance(order, dict) else {}
    return {
        "turn_written": slot.get("turn"),
        "turn_readable": slot.get("readable_from_turn"),
        "order": order,
        "text": words.get("text_en"),
        "text_de": words.get("text_de"),
    }


class InboxItemSerializer(serializers.Serializer[Any]):
    turn_written = serializers.IntegerField()
    turn_readable = serializers.IntegerField()
    order = serializers.JSONField(allow_null=True, help_text="null: no order this turn")
    text = serializers.CharField(allow_null=True)
    text_de = serializers.CharField(allow_null=True)


class TeamInboxApi(_SeatRead):
    """The written orders delivered to this seat: each from the start of its team's turn after
    the one it was written in (NT-TEAM-22), empty slots included ("no written order")."""

    what = "team.inbox"

    @extend_schema_serializer(component_name="TeamInbox")
    class OutputSerializer(serializers.Serializer[Any]):
        role = serializers.CharField()
        orders = InboxItemSerializer(many=True)

    def body(self, seat_view: SeatView, section: dict[str, JSON]) -> dict[str, Any]:
        return {"role": seat_view.role, "orders": [inbox_item(s) for s in _list(section, "inbox")]}

    @extend_schema(
        operation_id="team_inbox",
        parameters=[GAME_ID, ROLE_QUERY, IF_NONE_MATCH],
        responses={200: OutputSerializer, 304: NOT_MODIFIED, **ERRORS},
    )
    def get(self, request: Request, game_id: str) -> Response:
        return super().get(request, game_id)


class TeamOutboxApi(_SeatRead):
    """The commander-in-chief's own drafts and sealed orders (NT-TEAM-23); every other seat gets
    the same empty shape."""

    what = "team.outbox"

    @extend_schema_serializer(component_name="TeamOutbox")
    class OutputSerializer(serializers.Serializer[Any]):
        role = serializers.CharField()
        drafts = serializers.DictField(help_text="recipient -> the draft of this turn")
        sent = serializers.ListField(child=serializers.DictField())

    def body(self, seat_view: SeatView, section: dict[str, JSON]) -> dict[str, Any]:
        drafts = section.get("drafts")
        return {
            "role": seat_view.role,
            "drafts": drafts if isinstance(drafts, dict) else {},
            "sent": _list(section, "sent"),
        }

    @extend_schema(
        operation_id="team_outbox",
        parameters=[GAME_ID, ROLE_QUERY, IF_NONE_MATCH],
        responses={200: OutputSerializer, 304: NOT_MODIFIED, **ERRORS},
    )
    def get(self, request: Request, game_id: str) -> Response:
        return super().get(request, game_id)


class CommitmentGroupSerializer(serializers.Serializer[Any]):
    side = serializers.CharField()
    turn = serializers.IntegerField()
    digests = serializers.ListField(child=serializers.CharField(), help_text="64 hex digits each")


class CommitmentsApi(_SeatRead):
    """3.4.5: the public commitments of every sealed team turn, one 64-hex digest per
    subordinate (empty slots included), grouped by side and turn."""

    what = "orders.commitments"

    @extend_schema_serializer(component_name="OrderCommitments")
    class OutputSerializer(serializers.Serializer[Any]):
        commitments = CommitmentGroupSerializer(many=True)

    def body(self, seat_view: SeatView, section: dict[str, JSON]) -> dict[str, Any]:
        groups: dict[tuple[str, int], list[str]] = {}
        for c in _list(section, "commitments"):
            turn = c.get("turn") if isinstance(c, dict) else None
            if isinstance(c, dict) and isinstance(turn, int):
                groups.setdefault((str(c.get("side")), turn), []).append(str(c.get("digest")))
        return {
            "commitments": [
                {"side": side, "turn": turn, "digests": digests}
                for (side, turn), digests in sorted(
                    groups.items(), key=lambda g: (g[0][1], g[0][0])
                )
            ]
        }

    @extend_schema(
        operation_id="orders_commitments",
        parameters=[GAME_ID, ROLE_QUERY, IF_NONE_MATCH],
        responses={200: OutputSerializer, 304: NOT_MODIFIED, **ERRORS},
    )
    def get(self, request: Request, game_id: str) -> Response:
        return super().get(request, game_id)


class ArchiveApi(_SeatRead):
    """NT-TEAM-26: after the game every written order of both teams, with its nonce and
    commitment so that anyone can recompute 3.4.5; before, 409 `game_not_over`."""

    what = "orders.archive"

    @extend_schema_serializer(component_name="OrderArchive")
    class OutputSerializer(serializers.Serializer[Any]):
        orders = serializers.ListField(child=serializers.DictField())

    def body(self, seat_view: SeatView, section: dict[str, JSON]) -> dict[str, Any]:
        if "archive" not in section:
            raise GameNotOver(
                gettext_lazy("NT-TEAM-26: the written orders are archived when the game is over")
            )
        return {"orders": _list(section, "archive")}

    @extend_schema(
        operation_id="orders_archive",
        parameters=[GAME_ID, ROLE_QUERY, IF_NONE_MATCH],
        responses={200: OutputSerializer, 304: NOT_MODIFIED, 409: ErrorOutputSerializer, **ERRORS},
    )
    def get(self, request: Request, game_id: str) -> Response:
        return super().get(request, game_id)


# --- the conference's chat ---------------------------------------------------------------------


class ConferenceMessagesApi(_SeatRead):
    """GET: the conference transcript as this seat may read it (NT-TEAM-12) and whether its
    team's chat is open now. POST: say something in it; outside a conference the order path
    refuses it naming NT-TEAM-13 (409: not this seat's turn to talk)."""

    what = "team.conference"

    @extend_schema_serializer(component_name="ConferenceMessages")
    class OutputSerializer(serializers.Serializer[Any]):
        role = serializers.CharField()
        open = serializers.BooleanField(help_text="may this seat talk now (NT-TEAM-13)")
        messages = serializers.ListField(child=serializers.DictField())

    @extend_schema_serializer(component_name="ConferenceMessage")
    class InputSerializer(serializers.Serializer[Any]):
        role = StrictCharField(required=False, max_length=60)
        text = StrictCharField(max_length=CHAT_MAX)

    def body(self, seat_view: SeatView, section: dict[str, JSON]) -> dict[str, Any]:
        kinds = {str(a.get("kind")) for a in seat_view.actions}
        return {
            "role": seat_view.role,
            "open": CHAT_KIND in kinds,
            "messages": _list(section, "chat"),
        }

    @extend_schema(
        operation_id="team_conference_messages_list",
        parameters=[GAME_ID, ROLE_QUERY, IF_NONE_MATCH],
        responses={200: OutputSerializer, 304: NOT_MODIFIED, **ERRORS},
    )
    def get(self, request: Request, game_id: str) -> Response:
        return super().get(request, game_id)

    @extend_schema(
        operation_id="team_conference_messages_create",
        request=InputSerializer,
        parameters=[GAME_ID, IDEMPOTENCY_KEY],
        responses={
            201: OrderSubmitApi.OutputSerializer,
            202: OrderSubmitApi.OutputSerializer,
            409: ErrorOutputSerializer,
            422: ErrorOutputSerializer,
            **ERRORS,
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = game_get(game_id, head=True)
        _team_game(game)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        return order_answer(request, game, user, v.get("role"), CHAT_KIND, {"text": v["text"]})


def _team_game(game: Game) -> None:
    """404 unless the game plays with teams (its options say so: no view is needed)."""
    options = game.options if isinstance(game.options, dict) else {}
    if options.get("team_play") is not True:
        raise NotFound(gettext_lazy("this game has no team play"))


__all__ = [
    "ArchiveApi",
    "CommitmentsApi",
    "ConferenceMessagesApi",
    "TeamInboxApi",
    "TeamOutboxApi",
]
