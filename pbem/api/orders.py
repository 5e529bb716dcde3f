"""Orders: submit an action for one of your seats, and read an intake's outcome."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ErrorDetail, NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.core.protocol import JSON, Rejection
from pbem.api.exceptions import ErrorOutputSerializer
from pbem.api.games import GAME_ID, game_get, request_user
from pbem.api.openapi import register_order_request
from pbem.conf import pbem_settings
from pbem.play.errors import OrderRejected, say
from pbem.play.models import Event, Game, OrderIntake
from pbem.play.selectors import acting_role, numbering_for
from pbem.play.services.orders import intake_note, order_submit

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "A retried request with the same key and the same order gets the first answer again;"
        " the same key with another order is a 422 `idempotency_key_reused`."
    ),
)
KEY_MAX = 120


class IntakeOutputSerializer(serializers.Serializer[Any]):
    id = serializers.UUIDField()
    game = serializers.UUIDField(source="game_id")
    role = serializers.CharField()
    kind = serializers.CharField()
    status = serializers.ChoiceField(choices=OrderIntake.Status.choices)
    errors = serializers.ListField(child=serializers.DictField())  # type: ignore[assignment]
    event_seq = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    note = serializers.SerializerMethodField(
        help_text="Why a `received` order waits (the server's work queue is down or behind); "
        "null otherwise."
    )

    def get_event_seq(self, intake: OrderIntake) -> int | None:
        return None if intake.event is None else role_seq(intake.game, intake.role, intake.event)

    def get_note(self, intake: OrderIntake) -> str | None:
        return intake_note(intake)

    def to_representation(self, instance: Any) -> dict[str, Any]:
        """What the declared fields give (a test holds them equal), written out: DRF's generic
        walk over copied fields cost 0.3 ms of each order's answer (bench/order_path.py)."""
        intake: OrderIntake = instance
        return {
            "id": str(intake.pk),
            "game": str(intake.game_id),
            "role": str(intake.role),
            "kind": str(intake.kind),
            "status": str(intake.status),
            "errors": [{str(k): v for k, v in e.items()} for e in intake.errors],
            "event_seq": self.get_event_seq(intake),
            "created_at": _DATETIME.to_representation(intake.created_at),
            "note": self.get_note(intake),
        }


_DATETIME = serializers.DateTimeField()  # unbound: only its representation is used


def role_seq(game: Game, role: str, event: Event) -> int:
    """An order's event numbered as its own role reads the log: the global seq counts the events
    hidden from that role (another seat's written order, a side's standing instruction), so it
    is never shown (pbem.play.selectors numbering)."""
    return numbering_for(game, [role]).role_seq(event.seq)


class StrictCharField(serializers.CharField):
    """A string field that refuses numbers and booleans instead of coercing them (400)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class EventOutputSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    kind = serializers.CharField()


class StrictSerializer(serializers.Serializer[Any]):
    """A body with fields the serializer does not know is a 400 naming each (`unknown_field`)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(str(k) for k in data if k not in self.fields)
            if unknown:
                allowed = ", ".join(self.fields)
                errors = {
                    k: [ErrorDetail(f"unknown field {k!r} (allowed: {allowed})", "unknown_field")]
                    for k in unknown
                }
                raise ValidationError(errors)
        return super().to_internal_value(data)


class OrderSubmitApi(APIView):
    """Submit one action. 201 with the event when it was applied at once (no broker: eager),
    202 with the intake while a worker applies it. 400 for a malformed body (unknown fields, a
    payload off its kind's schema: `invalid_payload`), 413 over `PBEM_MAX_ORDER_BYTES`, 422 for
    an unknown kind (`unknown_kind`, whoever's turn it is), an illegal order (`order_rejected`
    with the rules it breaks) or a reused Idempotency-Key (`idempotency_key_reused`)."""

    @property
    def max_body_bytes(self) -> int:  # read by pbem.api.parsers.BoundedJSONParser
        return int(pbem_settings.MAX_ORDER_BYTES)

    @extend_schema_serializer(component_name="OrderSubmit")
    class InputSerializer(StrictSerializer):
        role = StrictCharField(required=False, max_length=60)
        kind = StrictCharField(max_length=40)
        payload = serializers.JSONField(allow_null=True)

    @extend_schema_serializer(component_name="OrderSubmitResult")
    class OutputSerializer(serializers.Serializer[Any]):
        intake = IntakeOutputSerializer()
        event = EventOutputSerializer(allow_null=True, help_text="set once the order is applied")

    @extend_schema(
        request=InputSerializer,
        parameters=[GAME_ID, IDEMPOTENCY_KEY],
        responses={
            201: OutputSerializer,
            202: OutputSerializer,
            400: ErrorOutputSerializer,
            403: ErrorOutputSerializer,
            404: ErrorOutputSerializer,
            409: ErrorOutputSerializer,
            413: ErrorOutputSerializer,
            422: ErrorOutputSerializer,
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        user = request_user(request)
        game = game_get(game_id, head=True)  # the pre-check reads the head state loaded here
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        return order_answer(request, game, user, v.get("role"), v["kind"], v["payload"])


def order_answer(
    request: Request, game: Game, user: User, role: str | None, kind: str, payload: JSON
) -> Response:
    """Submit one action of `user` for `role` (pbem.play.services.orders.order_submit) and answer
    as POST games/<g>/actions does: 201 applied at once (eager), 202 accepted for a worker, the
    order path's 4xx otherwise. `game` comes with its head state (`game_get(head=True)`)."""
    key = request.headers.get("Idempotency-Key", "").strip()
    if len(key) > KEY_MAX:
        at_most = gettext_lazy("the Idempotency-Key header has at most {n} characters")
        message = str(say(at_most, n=KEY_MAX))
        raise ValidationError([ErrorDetail(message, "idempotency_key_too_long")])
    acting = acting_role(game, user, role)
    intake = order_submit(
        game=game,
        user=user,
        role=acting,
        kind=kind,
        payload=payload,
        source="api",
        idempotency_key=key,
    )
    eager = settings.CELERY_TASK_ALWAYS_EAGER
    if eager and intake.status == OrderIntake.Status.REJECTED:  # the eager worker refused it
        rejections = [
            Rejection(str(e.get("rule", "")), str(e.get("message", "")), str(e.get("path", "")))
            for e in intake.errors
            if isinstance(e, dict)
        ]
        raise OrderRejected(rejections, str(intake.pk))  # the handler's 422 shape
    event = intake.event
    applied = None if event is None else {"seq": role_seq(game, acting, event), "kind": event.kind}
    # eager: applied at once (201); with a broker always 202, for a retry with the same
    # Idempotency-Key too, whatever the worker decided since (it shows in the intake)
    code = status.HTTP_201_CREATED if eager and event is not None else status.HTTP_202_ACCEPTED
    body = {"intake": IntakeOutputSerializer(intake).data, "event": applied}  # OutputSerializer's
    return Response(body, status=code)


# the OpenAPI document types the order body as one alternative per action kind
register_order_request(OrderSubmitApi.InputSerializer)


class IntakeDetailApi(APIView):
    """An order's outcome; only the user who submitted it may read it."""

    OutputSerializer = IntakeOutputSerializer

    @extend_schema(
        parameters=[OpenApiParameter("intake_id", OpenApiTypes.UUID, OpenApiParameter.PATH)],
        responses={200: IntakeOutputSerializer, 404: ErrorOutputSerializer},
    )
    def get(self, request: Request, intake_id: str) -> Response:
        user = request_user(request)
        try:
            pk = uuid.UUID(str(intake_id))
        except ValueError:
            raise NotFound(gettext_lazy("no such intake")) from None
        intake = (
            OrderIntake.objects.select_related("event", "game").filter(pk=pk, user=user).first()
        )
        if intake is None:
            raise NotFound(gettext_lazy("no such intake"))
        return Response(self.OutputSerializer(intake).data)
