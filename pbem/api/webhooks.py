"""Webhook subscriptions of the calling user (notifications by HMAC-signed POST)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pbem.api.exceptions import ErrorOutputSerializer
from pbem.api.games import request_user
from pbem.notify.services import webhook_subscribe


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
