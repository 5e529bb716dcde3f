"""Bench-only URLconf for bench/order_path.py: the real routes plus a bare DRF endpoint.

The bare endpoint is the baseline of the order-path benchmark: the same DRF
stack as the real API (the default authentication and permission classes from settings: token
auth, IsAuthenticated), the same JSON body parsed, and one row inserted into `bench_row` in the
same database, answered with 201. It lives here, never in pbem/urls.py.
"""

from __future__ import annotations

import json

from django.db import connection
from django.urls import path
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pbem.urls import urlpatterns as pbem_urlpatterns

BARE_PATH = "bench/bare"
TABLE = "bench_row"


def bench_table_create() -> None:
    """The one-table schema of the baseline (raw SQL: it is not a model of the project)."""
    if connection.vendor == "postgresql":
        ddl = (
            f"CREATE TABLE IF NOT EXISTS {TABLE} (id bigserial PRIMARY KEY, user_id integer NOT "
            "NULL, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())"
        )
    else:
        ddl = (
            f"CREATE TABLE IF NOT EXISTS {TABLE} (id integer PRIMARY KEY AUTOINCREMENT, user_id "
            "integer NOT NULL, body text NOT NULL, created_at text NOT NULL DEFAULT "
            "CURRENT_TIMESTAMP)"
        )
    with connection.cursor() as cur:
        cur.execute(ddl)


class BareInsertApi(APIView):
    """Parse the body, insert one row, answer 201: the least a DRF write endpoint does."""

    def post(self, request: Request) -> Response:
        body = json.dumps(request.data)
        with connection.cursor() as cur:
            cur.execute(
                f"INSERT INTO {TABLE} (user_id, body) VALUES (%s, %s) RETURNING id",  # noqa: S608
                [request.user.pk, body],
            )
            row = cur.fetchone()
        return Response({"id": row[0] if row else None}, status=status.HTTP_201_CREATED)


urlpatterns = [*pbem_urlpatterns, path(BARE_PATH, BareInsertApi.as_view(), name="bench-bare")]
