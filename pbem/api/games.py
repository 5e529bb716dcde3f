"""Games: create, list, detail, join a seat, the seat's view, the seat's log; the rulesets.

The views parse, call and serialise: who may read what (reader role, private games, log
audiences, numbering) is decided in pbem.play.selectors."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.core.protocol import SCENARIO_DOCUMENT
from pbem.api.etags import (
    IF_NONE_MATCH,
    NOT_MODIFIED,
    SEAT_CACHE,
    not_modified,
    seat_etag,
    tagged,
)
from pbem.api.exceptions import ErrorOutputSerializer
from pbem.api.openapi import CHOICES_SCHEMA, JSON_SCHEMA_SCHEMA
from pbem.api.openapi import view_schema as engine_view_schema
from pbem.play.errors import say
from pbem.play.models import Game
from pbem.play.rulesets import enabled, ruleset_get
from pbem.play.selectors import (
    can_read_game,
    events_for,
    game_find,
    games_for,
    may_read_game,
    numbering_for,
    reader_position,
    reader_roles,
    roles_of,
    view_for,
)
from pbem.play.services.games import MAX_UMPIRES, game_create, seat_join

GAME_ID = OpenApiParameter(
    "game_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The game's id."
)
ROLE_QUERY = OpenApiParameter(
    "role",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    description="One of your roles; may be left out when you hold exactly one.",
)
ERRORS: dict[int, Any] = {
    400: ErrorOutputSerializer,
    403: ErrorOutputSerializer,
    404: ErrorOutputSerializer,
}


# --- helpers shared by the API modules ------------------------------------------------------


def request_user(request: Request) -> User:
    """The authenticated caller (IsAuthenticated runs first, so this is a real user)."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied(gettext_lazy("authentication required"))
    return user


def game_get(game_id: str, *, head: bool = False) -> Game:
    """The game with this id, its seats and their users; with `head`, its head state joined in
    the same query (for the order path). 404 for an unknown id and for a malformed one."""
    try:
        pk = uuid.UUID(str(game_id))
    except ValueError:
        raise NotFound(gettext_lazy("no such game")) from None
    game = game_find(pk, head=head)
    if game is None:
        raise NotFound(gettext_lazy("no such game"))
    return game


def seat_tag(game: Game, user: User, requested: str | None, what: str, **params: object) -> str:
    """The ETag of `what` read by `user` as `requested` (pbem.api.etags.seat_etag)."""
    role, position = reader_position(game, user, requested)
    return seat_etag(game, role, position, roles_of(game, user), {"what": what, **params})


def seat_teams(game: Game) -> dict[str, str | None]:
    """role -> its team (its side: public, like the seat; team play, chapter 19)."""
    try:
        infos = ruleset_get(game.ruleset_id).roles(game.scenario, game.options)
    except ValueError:  # SetupError: a ruleset that no longer takes the options: no teams
        return {}
    return {r.id: r.team for r in infos}


def options_out(options: object) -> dict[str, Any]:
    """A game's options as described: a scenario document (up to 256 KiB) as its size and
    sha256 only; the whole text is in the set-up event (seq 1) of the log."""
    out = dict(options) if isinstance(options, dict) else {}
    document = out.get(SCENARIO_DOCUMENT)
    if isinstance(document, str):
        raw = document.encode()
        out[SCENARIO_DOCUMENT] = {"bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}
    return out


def game_out(game: Game, user: User) -> dict[str, Any]:
    """The public description of a game plus the caller's roles in it. Never the seed. For a
    private game (`spectators` false) and a caller who is not a member (only in the `?open=1`
    listing: the detail is 403), only what taking an open seat needs: which seats are open, not
    who holds the others nor how far the game is (`redacted`)."""
    seats = sorted(game.seats.all(), key=lambda s: s.role)
    mine = [s.role for s in seats if s.user_id == user.pk]
    active = [str(r) for r in game.active_roles]
    redacted = not can_read_game(game, user)
    teams = seat_teams(game)
    started = all(s.user_id is not None and s.accepted_at is not None for s in seats)
    return {
        "id": game.pk,
        "ruleset": game.ruleset_id,
        "scenario": game.scenario,
        "options": options_out(game.options),
        "title": game.title,
        "spectators": game.spectators,
        "hot_seat": game.hot_seat,
        "status": game.status,
        "started": started,
        "redacted": redacted,
        # counted as the caller sees the log: a side's secret events are not counted for others
        "head_seq": None
        if redacted
        else numbering_for(game, reader_roles(game, user)).role_seq(game.head_seq),
        "seed_commitment": None if redacted else game.seed_commitment,
        "seats": [
            {
                "role": s.role,
                "team": teams.get(s.role),
                "username": s.user.username if s.user is not None and not redacted else None,
                "pending": s.pending and not redacted,
                "open": s.user_id is None,
            }
            for s in seats
        ],
        "active_roles": [] if redacted else active,
        "your_roles": mine,
        # an invitation not accepted yet is nobody's turn: its orders are refused
        "your_turn": game.status == Game.Status.ACTIVE
        and any(s.role in active for s in seats if s.user_id == user.pk and not s.pending),
        "created_at": game.created_at,
    }


class SeatOutputSerializer(serializers.Serializer[Any]):
    role = serializers.CharField()
    team = serializers.CharField(allow_null=True, help_text="the seat's team (its side)")
    username = serializers.CharField(allow_null=True, help_text="null: open, or not shown to you")
    pending = serializers.BooleanField(help_text="invited, not accepted yet")
    open = serializers.BooleanField(help_text="nobody holds it: anyone may join")


class GameOutputSerializer(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    ruleset = serializers.CharField()
    scenario = serializers.CharField()
    options = serializers.DictField(
        help_text="the game's options; a scenario document is shown as its size and sha256 "
        "(the text is in the set-up event, seq 1)"
    )
    title = serializers.CharField(allow_blank=True)
    spectators = serializers.BooleanField()
    hot_seat = serializers.BooleanField(help_text="may one user hold several seats")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    started = serializers.BooleanField(
        help_text="every seat taken and accepted: the deadline clock runs only from then"
    )
    redacted = serializers.BooleanField(
        help_text="a private game you are not a member of: only its open seats are shown"
    )
    head_seq = serializers.IntegerField(allow_null=True)
    seed_commitment = serializers.CharField(
        allow_null=True, help_text="sha256 of the secret seed (hex)"
    )
    seats = SeatOutputSerializer(many=True)
    active_roles = serializers.ListField(child=serializers.CharField())
    your_roles = serializers.ListField(child=serializers.CharField())
    your_turn = serializers.BooleanField()
    created_at = serializers.DateTimeField()


def games_out(games: Iterable[Game], user: User) -> list[dict[str, Any]]:
    return [game_out(g, user) for g in games]


# --- the endpoints ---------------------------------------------------------------------------


class GameListApi(APIView):
    """The games in which you hold a seat (with `?open=1`, also games with a free seat)."""

    class FilterSerializer(serializers.Serializer[Any]):
        open = serializers.BooleanField(required=False, default=False)

    OutputSerializer = GameOutputSerializer

    @extend_schema(
        operation_id="games_list",
        parameters=[FilterSerializer],
        responses={200: GameOutputSerializer(many=True), 400: ErrorOutputSerializer},
    )
    def get(self, request: Request) -> Response:
        user = request_user(request)
        query = GameListApi.FilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        games = games_for(user, open_seats=query.validated_data["open"])
        return Response(GameListApi.OutputSerializer(games_out(games, user), many=True).data)


class GameCreateApi(APIView):
    """Create a game; seats name users, or null for an open seat. The creator need not play.
    A seat named for another user is an invitation (they are notified and accept or decline);
    the game starts, and its clock runs, once every seat is taken and accepted."""

    @extend_schema_serializer(component_name="GameCreate")
    class InputSerializer(serializers.Serializer[Any]):
        ruleset = serializers.CharField(max_length=40)
        scenario = serializers.CharField(max_length=80)
        options = serializers.DictField(required=False, default=dict)
        title = serializers.CharField(max_length=120, required=False, default="", allow_blank=True)
        spectators = serializers.BooleanField(
            required=False,
            default=True,
            help_text="may users without a seat read the public view and log (default true); "
            "false makes the game private: its detail, view, log, verification and clock are "
            "403 to non-members",
        )
        hot_seat = serializers.BooleanField(
            required=False,
            default=False,
            help_text="may one user hold several seats (default false)",
        )
        seats = serializers.DictField(
            child=serializers.CharField(allow_null=True, max_length=150),
            help_text="role -> username, or null for an open seat others may join; a seat named "
            "for another user is an invitation they accept or decline (your own is accepted)",
        )
        co_umpires = serializers.ListField(
            child=serializers.CharField(allow_null=True, max_length=150),
            required=False,
            default=list,
            max_length=MAX_UMPIRES,
            help_text="further umpire seats beside seats['@umpire'] (a game has at most "
            f"{MAX_UMPIRES} umpires): usernames (invitations) or null (open umpire seats); "
            "every umpire sees all and may answer the umpire's prompts",
        )

    OutputSerializer = GameOutputSerializer

    @extend_schema(
        operation_id="games_create",
        request=InputSerializer,
        responses={201: GameOutputSerializer, 400: ErrorOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        user = request_user(request)
        data = GameCreateApi.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        names = {n for n in [*v["seats"].values(), *v["co_umpires"]] if n is not None}
        users = {u.username: u for u in User.objects.filter(username__in=names)}
        unknown = sorted(names - set(users))
        if unknown:
            listed = ", ".join(unknown)
            unknown_users = say(gettext_lazy("unknown users: {users}"), users=listed)
            raise ValidationError({"seats": [unknown_users]})
        seats = {role: users[n] if n is not None else None for role, n in v["seats"].items()}
        game = game_create(
            ruleset_id=v["ruleset"],
            scenario=v["scenario"],
            options=v["options"],
            seats=seats,
            creator=user,
            title=v["title"],
            spectators=v["spectators"],
            hot_seat=v["hot_seat"],
            co_umpires=[users[n] if n is not None else None for n in v["co_umpires"]],
        )
        out = GameCreateApi.OutputSerializer(game_out(game_get(str(game.pk)), user)).data
        return Response(out, status=status.HTTP_201_CREATED)


class GameListCreateApi(GameListApi, GameCreateApi):
    """`/games` answers GET (GameListApi) and POST (GameCreateApi)."""


class GameDetailApi(APIView):
    OutputSerializer = GameOutputSerializer

    @extend_schema(parameters=[GAME_ID], responses={200: GameOutputSerializer, **ERRORS})
    def get(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = game_get(game_id)
        may_read_game(game, user)
        return Response(self.OutputSerializer(game_out(game, user)).data)


class SeatJoinApi(APIView):
    """Take an open seat (accepted at once; the last seat taken starts the game). Without hot
    seat, 409 `one_seat_per_user` when you hold or are invited to another seat of the game."""

    OutputSerializer = GameOutputSerializer

    @extend_schema(
        request=None,
        parameters=[GAME_ID, OpenApiParameter("role", OpenApiTypes.STR, OpenApiParameter.PATH)],
        responses={200: GameOutputSerializer, 409: ErrorOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, game_id: str, role: str) -> Response:
        user = request_user(request)
        game = game_get(game_id)
        seat_join(game=game, role=role, user=user)
        return Response(self.OutputSerializer(game_out(game_get(game_id), user)).data)


@extend_schema_field(JSON_SCHEMA_SCHEMA)
class PayloadSchemaField(serializers.JSONField):
    """An action kind's payload schema (JSON Schema draft 2020-12)."""


@extend_schema_field(CHOICES_SCHEMA)
class ChoicesField(serializers.JSONField):
    """The legal choices of an action kind: `payloads` and `complete`, plus per-field hints."""


@extend_schema_field(engine_view_schema())
class EngineViewField(serializers.JSONField):
    """The engine's view for the seat, typed by the engines' own view schemas."""


@extend_schema_serializer(component_name="ActionSpec")
class ActionSpecOutputSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    schema = PayloadSchemaField(help_text="JSON Schema (draft 2020-12) of the payload")
    choices = ChoicesField(allow_null=True, help_text="null when the engine cannot list them")
    any_time = serializers.BooleanField(help_text="allowed whether or not the seat is prompted")


@extend_schema_serializer(component_name="Prompt")
class PromptOutputSerializer(serializers.Serializer[Any]):
    text = serializers.CharField()
    kinds = serializers.DictField(
        child=serializers.CharField(allow_blank=True), help_text="action kind -> what it takes"
    )
    actions = ActionSpecOutputSerializer(many=True, help_text="the prompted actions")


@extend_schema_serializer(component_name="GameResult")
class GameResultSerializer(serializers.Serializer[Any]):
    winners = serializers.ListField(
        child=serializers.CharField(), help_text="the winning roles; empty for a draw"
    )
    summary = serializers.CharField(help_text="how the game ended, in the engine's words")


class GameViewApi(APIView):
    """The game as one of your seats may see it (the engine's `view`), with its prompt, every
    action the seat may take now (`actions`: schemas and legal choices; the any-time ones too)
    and, once the game is over, its `result` (winners and how it ended)."""

    class FilterSerializer(serializers.Serializer[Any]):
        role = serializers.CharField(required=False, max_length=60)

    @extend_schema_serializer(component_name="GameView")
    class OutputSerializer(serializers.Serializer[Any]):
        role = serializers.CharField()
        seq = serializers.IntegerField()
        view = EngineViewField()
        prompt = PromptOutputSerializer(allow_null=True, help_text="null when not prompted")
        actions = ActionSpecOutputSerializer(many=True)
        result = GameResultSerializer(allow_null=True, help_text="null until the game is over")

    @extend_schema(
        parameters=[GAME_ID, ROLE_QUERY, IF_NONE_MATCH],
        responses={200: OutputSerializer, 304: NOT_MODIFIED, **ERRORS},
    )
    def get(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = game_get(game_id)
        query = self.FilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        role = query.validated_data.get("role")
        etag = seat_tag(game, user, role, "view")
        cached = not_modified(request, etag, SEAT_CACHE)
        if cached is not None:
            return cached
        seat_view = view_for(game, user, role)
        return tagged(Response(self.OutputSerializer(seat_view).data), etag, SEAT_CACHE)


class GameEventsApi(APIView):
    """The log after `after`, as one of your seats may read it."""

    class FilterSerializer(serializers.Serializer[Any]):
        after = serializers.IntegerField(
            required=False, default=0, min_value=0, max_value=2**31 - 1
        )
        role = serializers.CharField(required=False, max_length=60)

    @extend_schema_serializer(component_name="GameEvent")
    class OutputSerializer(serializers.Serializer[Any]):
        seq = serializers.IntegerField()
        kind = serializers.CharField()
        role = serializers.CharField()
        created_at = serializers.DateTimeField()
        lines = serializers.ListField(child=serializers.CharField(allow_blank=True))
        payload = serializers.JSONField(
            allow_null=True, help_text="only for your own orders and the platform's events"
        )

    @extend_schema(
        parameters=[GAME_ID, FilterSerializer, IF_NONE_MATCH],
        responses={200: OutputSerializer(many=True), 304: NOT_MODIFIED, **ERRORS},
    )
    def get(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = game_get(game_id)
        query = self.FilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        v = query.validated_data
        etag = seat_tag(game, user, v.get("role"), "events", after=v["after"])
        cached = not_modified(request, etag, SEAT_CACHE)
        if cached is not None:
            return cached
        # `after` and every `seq` count only the events the reader's role may know exist
        events = events_for(game, user, v.get("role"), v["after"])
        body = self.OutputSerializer(events, many=True).data
        return tagged(Response(body), etag, SEAT_CACHE)


class RoleOutputSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    team = serializers.CharField(allow_null=True)


class ScenarioOutputSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    roles = RoleOutputSerializer(many=True)


class RulesetListApi(APIView):
    """The rulesets this server offers, with their scenarios and roles (default options)."""

    @extend_schema_serializer(component_name="Ruleset")
    class OutputSerializer(serializers.Serializer[Any]):
        id = serializers.CharField()
        title = serializers.CharField()
        version = serializers.IntegerField()
        scenarios = ScenarioOutputSerializer(many=True)

    @extend_schema(responses={200: OutputSerializer(many=True)})
    def get(self, request: Request) -> Response:
        out = []
        for rid in enabled():
            ruleset = ruleset_get(rid)
            scenarios = [
                {
                    "id": sc,
                    "roles": [
                        {"id": r.id, "name": r.name, "team": r.team} for r in ruleset.roles(sc, {})
                    ],
                }
                for sc in ruleset.scenarios()
            ]
            out.append(
                {
                    "id": rid,
                    "title": ruleset.title,
                    "version": ruleset.version,
                    "scenarios": scenarios,
                }
            )
        return Response(self.OutputSerializer(out, many=True).data)


__all__ = [
    "GameCreateApi",
    "GameDetailApi",
    "GameEventsApi",
    "GameListApi",
    "GameListCreateApi",
    "GameViewApi",
    "RulesetListApi",
    "SeatJoinApi",
    "game_get",
    "game_out",
    "request_user",
]
