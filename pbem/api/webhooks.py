"""Webhook subscriptions of the calling user (notifications by HMAC-signed POST): subscribe,
list (never with the secret) and delete."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pbem.api.exceptions import ErrorOutputSerializer
from pbem.api.games import request_user
from pbem.notify.services import WebhookNotFound, webhook_delete, webhook_subscribe, webhooks_of
from pbem.play.errors import say

WEBHOOK_ID = OpenApiParameter("webhook_id", OpenApiTypes.INT, OpenApiParameter.PATH)
ID_MAX = 2**63 - 1


class WebhookOutputSerializer(serializers.Serializer[Any]):
    """An endpoint as its owner sees it later: everything but the secret."""

    id = serializers.IntegerField()
    url = serializers.CharField()
    events = serializers.ListField(
        child=serializers.CharField(), help_text="the kinds it gets; empty = every kind"
    )
    active = serializers.BooleanField(
        help_text="false once disabled (a permanent failure, or too many in a row)"
    )
    failures = serializers.IntegerField(help_text="failed deliveries in a row")
    created_at = serializers.DateTimeField()


class WebhookListApi(APIView):
    """Your webhook endpoints, oldest first; the secrets are never shown again."""

    @extend_schema(
        operation_id="webhooks_list",
        description="Your webhook endpoints, oldest first; the secrets are never shown again.",
        responses={200: WebhookOutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        rows = webhooks_of(user=request_user(request))
        return Response(WebhookOutputSerializer(rows, many=True).data)


class WebhookCreateApi(APIView):
    """Subscribe to notifications by webhook; the secret signs every delivery (HMAC-SHA256 over
    `timestamp.body`) and is shown only in this answer."""

    class InputSerializer(serializers.Serializer[Any]):
        url = serializers.URLField(max_length=500)
        secret = serializers.CharField(max_length=200, required=False, allow_blank=True)
        events = serializers.ListField(
            child=serializers.CharField(max_length=40), required=False, default=list
        )

    class OutputSerializer(serializers.Serializer[Any]):
        id = serializers.IntegerField()
        url = serializers.CharField()
        secret = serializers.CharField()
        events = serializers.ListField(child=serializers.CharField())
        active = serializers.BooleanField()

    @extend_schema(
        operation_id="webhook_create",
        description=(
            "Subscribe to notifications by webhook; the secret signs every delivery (HMAC-SHA256"
            " over `timestamp.body`) and is shown only in this answer."
        ),
        request=InputSerializer,
        responses={201: OutputSerializer, 400: ErrorOutputSerializer},
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        endpoint = webhook_subscribe(
            user=request_user(request),
            url=data.validated_data["url"],
            secret=data.validated_data.get("secret", ""),
            events=data.validated_data.get("events", []),
        )
        return Response(self.OutputSerializer(endpoint).data, status=status.HTTP_201_CREATED)


class WebhookListCreateApi(WebhookListApi, WebhookCreateApi):
    """`/webhooks` answers GET (WebhookListApi) and POST (WebhookCreateApi)."""


class WebhookDeleteApi(APIView):
    """Delete one of your webhook endpoints; someone else's, or an unknown id, is 404."""

    @extend_schema(
        operation_id="webhooks_destroy",
        parameters=[WEBHOOK_ID],
        responses={204: None, 404: ErrorOutputSerializer},
    )
    def delete(self, request: Request, webhook_id: str) -> Response:
        user = request_user(request)
        try:
            pk = int(webhook_id)
        except ValueError:
            raise WebhookNotFound(
                say(gettext_lazy("you have no webhook {webhook}"), webhook=repr(webhook_id[:40]))
            ) from None
        if not 1 <= pk <= ID_MAX:
            raise WebhookNotFound(say(gettext_lazy("you have no webhook {webhook}"), webhook=pk))
        webhook_delete(user=user, endpoint_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
