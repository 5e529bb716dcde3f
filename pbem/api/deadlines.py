"""Deadlines: a game's clock, its settings, pausing by common consent, a seat's
substitute, and the caller's declared absences. The work is done by pbem.play.services
(deadlines, absences, pause); these views only check who may ask, parse the input and shape the
answer."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pbem.api.exceptions import ErrorOutputSerializer
from pbem.api.games import ERRORS, GAME_ID, game_get, request_user
from pbem.api.orders import StrictCharField
from pbem.play.errors import say
from pbem.play.models import Absence, Game, MissedTurnPolicy, PauseRequest, Seat
from pbem.play.selectors import may_act, may_read_clock
from pbem.play.services.absences import (
    ABSENCE_FIRST_DAY,
    ABSENCE_LAST_DAY,
    absence_cancel,
    absence_declare,
)
from pbem.play.services.deadlines import deadline_settings_set, seat_substitute_set
from pbem.play.services.pause import pause_request, pause_resume, pause_withdraw

ROLE_PATH = OpenApiParameter("role", OpenApiTypes.STR, OpenApiParameter.PATH)
ABSENCE_ID = OpenApiParameter("absence_id", OpenApiTypes.INT, OpenApiParameter.PATH)
CONFLICT: dict[int, Any] = {409: ErrorOutputSerializer}
# Absences are whole days within the service's bounds (they keep the clock arithmetic inside
# what `datetime` can represent); checked here too, to name the field in the 400.
DAY_MIN, DAY_MAX = ABSENCE_FIRST_DAY, ABSENCE_LAST_DAY
ID_MAX = 2**63 - 1


# --- helpers ------------------------------------------------------------------------------------


def deadline_out(game: Game) -> dict[str, Any]:
    """The clock as a player sees it, read fresh from the database."""
    game = game_get(str(game.pk))
    seated = {s.user.username for s in game.seats.all() if s.user is not None}
    asked = (
        set(PauseRequest.objects.filter(game=game).values_list("user__username", flat=True))
        & seated
    )
    return {
        "game": game.pk,
        "status": game.status,
        "turn_hours": game.turn_hours,
        "missed_turn_policy": game.missed_turn_policy,
        "deadline_at": game.deadline_at,
        "deadline_roles": [str(r) for r in game.deadline_roles or []],
        "paused_at": game.paused_at,
        "paused_remaining_seconds": game.paused_remaining_seconds,
        "pause_requested_by": sorted(asked),
        "pause_waiting_for": sorted(seated - asked) if asked else [],
    }


class DeadlineOutputSerializer(serializers.Serializer[Any]):
    game = serializers.UUIDField()
    # a CharField: a second ChoiceField over Game.Status (GameOutput has one) makes
    # drf-spectacular warn about an enum name collision; ENUM_NAME_OVERRIDES would fix it there
    status = serializers.CharField(help_text="active, paused or finished")
    turn_hours = serializers.IntegerField(help_text="time per turn in hours; 0 = no deadline")
    missed_turn_policy = serializers.ChoiceField(choices=MissedTurnPolicy.choices)
    deadline_at = serializers.DateTimeField(
        allow_null=True, help_text="when the prompted players' time runs out; null = no clock"
    )
    deadline_roles = serializers.ListField(
        child=serializers.CharField(), help_text="the roles the clock runs for"
    )
    paused_at = serializers.DateTimeField(allow_null=True)
    paused_remaining_seconds = serializers.IntegerField(
        allow_null=True, help_text="present time left on the clock when the game was paused"
    )
    pause_requested_by = serializers.ListField(
        child=serializers.CharField(), help_text="seated players who asked for a pause"
    )
    pause_waiting_for = serializers.ListField(
        child=serializers.CharField(),
        help_text="seated players who have not asked yet (empty when nobody asked)",
    )


class PauseOutputSerializer(DeadlineOutputSerializer):
    paused = serializers.BooleanField(help_text="true once every seated player has asked")


class SubstituteOutputSerializer(serializers.Serializer[Any]):
    game = serializers.UUIDField(source="game_id")
    role = serializers.CharField()
    username = serializers.CharField(source="user.username")
    substitute = serializers.CharField(source="substitute.username", allow_null=True)


class AbsenceOutputSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(help_text="inclusive")
    tz = serializers.CharField()
    created_at = serializers.DateTimeField()


# --- the game's clock ---------------------------------------------------------------------------


class DeadlineDetailApi(APIView):
    """The game's clock: time per turn, missed-turn policy, the deadline, and any pause."""

    @extend_schema(
        operation_id="games_deadline_retrieve",
        parameters=[GAME_ID],
        responses={200: DeadlineOutputSerializer, **ERRORS},
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = game_get(game_id)
        may_read_clock(game, request_user(request))
        return Response(DeadlineOutputSerializer(deadline_out(game)).data)


@extend_schema_serializer(component_name="DeadlineSettings")
class DeadlineSettingsInputSerializer(serializers.Serializer[Any]):
    turn_hours = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=24 * 365,
        help_text=(
            "time per turn in hours (0 = no deadline); moves the running deadline at once to the"
            " turn's start + the new time (never closer than an hour from now)"
        ),
    )
    missed_turn_policy = serializers.ChoiceField(choices=MissedTurnPolicy.choices, required=False)


DEADLINE_SET_DOC = """The creator sets the time per turn and the missed-turn policy.

A new `turn_hours` applies to the running turn at once: its deadline becomes the turn's start +
the new time per turn (declared absences still stop the clock), but never less than an hour from
now (setting `PBEM["DEADLINE_CHANGE_GRACE_MINUTES"]`); a paused game's remaining time moves by the
same difference. `0` stops the clock; from `0` a full clock starts now. When a value changed, the
other seated players get a `deadline_changed` notification."""


class DeadlineSettingsSetApi(APIView):
    __doc__ = DEADLINE_SET_DOC

    @extend_schema(
        operation_id="games_deadline_update",
        description=DEADLINE_SET_DOC,
        parameters=[GAME_ID],
        request=DeadlineSettingsInputSerializer,
        responses={200: DeadlineOutputSerializer, **ERRORS},
    )
    def patch(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = game_get(game_id)
        data = DeadlineSettingsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        game = deadline_settings_set(
            game=game,
            user=user,
            turn_hours=v.get("turn_hours"),
            missed_turn_policy=v.get("missed_turn_policy"),
        )
        return Response(DeadlineOutputSerializer(deadline_out(game)).data)


class DeadlineApi(DeadlineDetailApi, DeadlineSettingsSetApi):
    """`/games/{id}/deadline` answers GET (DeadlineDetailApi) and PATCH (DeadlineSettingsSetApi)."""


# --- pause and resume ---------------------------------------------------------------------------


class PauseRequestApi(APIView):
    """Ask to pause the game; it pauses (and its clock stops) when every seated player asked."""

    @extend_schema(
        operation_id="games_pause_request",
        parameters=[GAME_ID],
        request=None,
        responses={200: PauseOutputSerializer, **ERRORS, **CONFLICT},
    )
    def post(self, request: Request, game_id: str) -> Response:
        game = game_get(game_id)
        paused = pause_request(game=game, user=request_user(request))
        return Response(PauseOutputSerializer({**deadline_out(game), "paused": paused}).data)


class PauseWithdrawApi(APIView):
    """Withdraw your request to pause (a no-op when you had not asked)."""

    @extend_schema(
        operation_id="games_pause_withdraw",
        parameters=[GAME_ID],
        request=None,
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = game_get(game_id)
        may_act(game, user)
        pause_withdraw(game=game, user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PauseApi(PauseRequestApi, PauseWithdrawApi):
    """`/games/{id}/pause` answers POST (PauseRequestApi) and DELETE (PauseWithdrawApi)."""


class PauseResumeApi(APIView):
    """Any seated player resumes a paused game; its clock restarts with the time that was left."""

    @extend_schema(
        operation_id="games_resume",
        parameters=[GAME_ID],
        request=None,
        responses={200: DeadlineOutputSerializer, **ERRORS, **CONFLICT},
    )
    def post(self, request: Request, game_id: str) -> Response:
        game = game_get(game_id)
        game = pause_resume(game=game, user=request_user(request))
        return Response(DeadlineOutputSerializer(deadline_out(game)).data)


# --- a seat's substitute ------------------------------------------------------------------------


@extend_schema_serializer(component_name="SeatSubstitute")
class SubstituteInputSerializer(serializers.Serializer[Any]):
    username = StrictCharField(
        max_length=150,
        allow_null=True,
        help_text="who takes the seat over at a missed deadline (policy substitute); null clears",
    )


class SeatSubstituteSetApi(APIView):
    """The holder of a seat names (or clears) its substitute."""

    @extend_schema(
        operation_id="games_seat_substitute_set",
        parameters=[GAME_ID, ROLE_PATH],
        request=SubstituteInputSerializer,
        responses={200: SubstituteOutputSerializer, **ERRORS},
    )
    def put(self, request: Request, game_id: str, role: str) -> Response:
        user = request_user(request)
        game = game_get(game_id)
        data = SubstituteInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        name = data.validated_data["username"]
        substitute = None
        if name is not None:
            substitute = User.objects.filter(username=name).first()
            if substitute is None:
                raise ValidationError(
                    {"username": [say(gettext_lazy("no user named {name}"), name=repr(name))]}
                )
        seat = seat_substitute_set(game=game, user=user, role=role, substitute=substitute)
        seat = Seat.objects.select_related("user", "substitute").get(pk=seat.pk)
        return Response(SubstituteOutputSerializer(seat).data)


# --- absences -----------------------------------------------------------------------------------


class AbsenceListApi(APIView):
    """Your declared absences, earliest first."""

    @extend_schema(
        operation_id="absences_list",
        responses={200: AbsenceOutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        rows = Absence.objects.filter(user=request_user(request)).order_by("starts_on", "pk")
        return Response(AbsenceOutputSerializer(rows, many=True).data)


@extend_schema_serializer(component_name="AbsenceDeclare")
class AbsenceDeclareInputSerializer(serializers.Serializer[Any]):
    starts_on = serializers.DateField(help_text="first local day away (YYYY-MM-DD)")
    ends_on = serializers.DateField(help_text="last local day away, inclusive")
    tz = StrictCharField(
        max_length=64, required=False, default="UTC", help_text="IANA time zone, e.g. Europe/Paris"
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        for name in ("starts_on", "ends_on"):
            if not DAY_MIN <= attrs[name] <= DAY_MAX:
                between = gettext_lazy("must be between {low} and {high}")
                raise ValidationError({name: [say(between, low=DAY_MIN, high=DAY_MAX)]})
        return attrs


class AbsenceDeclareApi(APIView):
    """Declare an absence in advance: whole local days during which your deadline clocks stop."""

    @extend_schema(
        operation_id="absences_create",
        request=AbsenceDeclareInputSerializer,
        responses={201: AbsenceOutputSerializer, 400: ErrorOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        data = AbsenceDeclareInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        absence = absence_declare(
            user=request_user(request), starts_on=v["starts_on"], ends_on=v["ends_on"], tz=v["tz"]
        )
        absence.refresh_from_db()
        return Response(AbsenceOutputSerializer(absence).data, status=status.HTTP_201_CREATED)


class AbsenceListDeclareApi(AbsenceListApi, AbsenceDeclareApi):
    """`/absences` answers GET (AbsenceListApi) and POST (AbsenceDeclareApi)."""


class AbsenceCancelApi(APIView):
    """Withdraw one of your absences; someone else's, or an unknown id, is 404."""

    @extend_schema(
        operation_id="absences_destroy",
        parameters=[ABSENCE_ID],
        responses={204: None, 404: ErrorOutputSerializer},
    )
    def delete(self, request: Request, absence_id: str) -> Response:
        user = request_user(request)
        try:
            pk = int(absence_id)
        except ValueError:
            raise NotFound(gettext_lazy("no such absence of yours")) from None
        if not 1 <= pk <= ID_MAX:
            raise NotFound(gettext_lazy("no such absence of yours"))
        absence_cancel(user=user, absence_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


__all__ = [
    "AbsenceCancelApi",
    "AbsenceDeclareApi",
    "AbsenceListApi",
    "AbsenceListDeclareApi",
    "DeadlineApi",
    "DeadlineDetailApi",
    "DeadlineSettingsSetApi",
    "PauseApi",
    "PauseRequestApi",
    "PauseResumeApi",
    "PauseWithdrawApi",
    "SeatSubstituteSetApi",
]
