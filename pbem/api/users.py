"""Sign-up over HTTP: `POST /users` and `POST /users/verify`.

Both are open to anonymous clients and limited per client address (PBEM_SIGNUP_RATE, default
20/hour, then 429). The service is pbem.play.services.accounts.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.validators import UnicodeUsernameValidator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from pbem.api.exceptions import ErrorOutputSerializer
from pbem.play.services.accounts import (
    VERIFY_PATH,
    SignupRejected,
    signup_request,
    signup_verify,
    site_url,
)

LIMITED: dict[int, Any] = {
    400: ErrorOutputSerializer,
    429: ErrorOutputSerializer,  # PBEM_SIGNUP_RATE
    503: ErrorOutputSerializer,  # the mail could not be sent, or the database is unavailable
}
SIGNUP_ANSWER = (
    "check your mailbox: we sent a link to confirm the address (if the address has an account "
    "already, its owner got a note instead)"
)


@extend_schema_serializer(component_name="Signup")
class SignupInputSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text="letters, digits and @/./+/-/_ only; shown to other players",
    )
    email = serializers.EmailField(max_length=254)
    password = serializers.CharField(
        max_length=128,
        write_only=True,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text="checked by the server's password validators",
    )


class SignupOutputSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()


@extend_schema_serializer(component_name="SignupVerify")
class SignupVerifyInputSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(max_length=500, help_text="the token from the mail")


class SignupVerifiedOutputSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    token = serializers.CharField(help_text="your API token: `Authorization: Token <token>`")


class SignupVerifyHowOutputSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    url = serializers.CharField()
    token = serializers.CharField(allow_null=True)


class UserSignupApi(APIView):
    """Sign up: creates an inactive account and mails a verification link. The answer is the
    same whether or not the address has an account already (202); a taken username is 400."""

    authentication_classes: tuple[Any, ...] = ()  # anonymous
    permission_classes = (AllowAny,)
    throttle_classes = (ScopedRateThrottle,)  # per client address
    throttle_scope = "signup"

    @extend_schema(
        operation_id="users_signup",
        auth=[],
        request=SignupInputSerializer,
        responses={202: SignupOutputSerializer, **LIMITED},
    )
    def post(self, request: Request) -> Response:
        data = SignupInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            signup_request(username=v["username"], email=v["email"], password=v["password"])
        except SignupRejected as e:
            raise ValidationError({e.field: e.messages}) from None
        return Response({"detail": SIGNUP_ANSWER}, status=status.HTTP_202_ACCEPTED)


class UserVerifyApi(APIView):
    """Confirm the address with the mailed token: the account is activated and the answer holds
    its API token. The token works once. GET (the mailed link) only explains what to POST, so a
    mail scanner following the link activates nothing."""

    authentication_classes: tuple[Any, ...] = ()  # anonymous
    permission_classes = (AllowAny,)
    throttle_classes = (ScopedRateThrottle,)  # per client address
    throttle_scope = "signup"

    @extend_schema(
        operation_id="users_verify_how",
        auth=[],
        parameters=[OpenApiParameter("token", OpenApiTypes.STR, OpenApiParameter.QUERY)],
        responses={200: SignupVerifyHowOutputSerializer, 429: ErrorOutputSerializer},
    )
    def get(self, request: Request) -> Response:
        token = request.query_params.get("token")
        out = {
            "detail": 'POST {"token": "..."} as JSON to this URL to activate your account',
            "url": f"{site_url()}{VERIFY_PATH}",
            "token": token[:500] if token else None,
        }
        return Response(SignupVerifyHowOutputSerializer(out).data)

    @extend_schema(
        operation_id="users_verify",
        auth=[],
        request=SignupVerifyInputSerializer,
        responses={200: SignupVerifiedOutputSerializer, **LIMITED},
    )
    def post(self, request: Request) -> Response:
        data = SignupVerifyInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        verified = signup_verify(token=data.validated_data["token"])
        out = {"username": verified.user.username, "token": verified.token}
        return Response(SignupVerifiedOutputSerializer(out).data)


__all__ = ["UserSignupApi", "UserVerifyApi"]
