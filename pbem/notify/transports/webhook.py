"""Signed webhooks: a JSON POST with `X-PBEM-Signature: sha256=<hex>`, the HMAC-SHA256 of
f"{timestamp}.{body}" under the endpoint's secret, `X-PBEM-Timestamp` and `X-PBEM-Delivery`
(an opaque id, the same for every retry of one delivery, for receivers to deduplicate; the body's
`seq` is in the recipient role's numbering). Standard library only (urllib), with a timeout,
no redirects, and private, loopback and link-local addresses refused unless
`PBEM_ALLOW_PRIVATE_WEBHOOKS` is set (healthchecks' INTEGRATIONS_ALLOW_PRIVATE_IPS): the name is
checked before the request and the connected peer's address again on connect (DNS rebinding).

Receivers verify with: hmac.compare_digest(header, "sha256=" + hmac_sha256(secret,
f"{X-PBEM-Timestamp}.{raw_body}")) and should refuse old timestamps.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import ipaddress
import json
import socket
import time
import urllib.error
import urllib.request
from email.message import Message as HttpHeaders
from typing import IO
from urllib.parse import urlsplit

from pbem.conf import pbem_settings
from pbem.notify.transports.base import Message, Transport, TransportError

SCHEMES = {"http", "https"}


def private_allowed() -> bool:
    return bool(pbem_settings.ALLOW_PRIVATE_WEBHOOKS)


def ip_is_private(raw: str) -> bool:
    ip = ipaddress.ip_address(raw.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_reserved
        or ip.is_multicast
        or ip.is_unspecified
    )


def host_of(url: str) -> str:
    """The host of an http(s) URL; TransportError(permanent) for anything else."""
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise TransportError(f"not an http(s) URL: {url!r}", permanent=True)
    return parts.hostname


def host_check(host: str, *, resolve: bool = True) -> None:
    """Refuse a private/loopback/link-local host unless allowed. With `resolve`, every address
    the name resolves to must be public; without, only IP literals and `localhost` are checked."""
    if private_allowed():
        return
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        raise TransportError(f"webhook host {host} is not public", permanent=True)
    try:
        literal = ip_is_private(host)
    except ValueError:
        literal = None
    if literal is not None:
        if literal:
            raise TransportError(f"webhook address {host} is not public", permanent=True)
        return
    if not resolve:
        return
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as e:
        raise TransportError(f"cannot resolve {host}: {e}") from e
    for info in infos:
        if ip_is_private(str(info[4][0])):
            raise TransportError(f"webhook host {host} resolves to a private address", True)


def signature(secret: str, timestamp: str, body: str) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp}.{body}".encode(), hashlib.sha256)
    return "sha256=" + digest.hexdigest()


def payload_of(message: Message) -> dict[str, object]:
    return {
        "kind": message.kind,
        "game": message.game_id,
        "seq": message.seq,
        "role": message.role,
        "text": message.text,
        "view_url": message.view_url,
    }


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect could point at a private address: treat every 3xx as the answer."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: HttpHeaders,
        newurl: str,
    ) -> urllib.request.Request | None:
        return None


class PrivatePeer(OSError):
    """The connection reached a private address (DNS changed after `host_check`: rebinding)."""


def peer_check(sock: socket.socket) -> None:
    """Check the address actually connected to, after the name was resolved for the connection
    itself: closes the gap between `host_check`'s lookup and urllib's own (DNS rebinding)."""
    if private_allowed():
        return
    peer = str(sock.getpeername()[0])
    if ip_is_private(peer):
        sock.close()
        raise PrivatePeer(f"connected to the private address {peer}")


class _CheckedHTTPConnection(http.client.HTTPConnection):
    def connect(self) -> None:
        super().connect()
        peer_check(self.sock)


class _CheckedHTTPSConnection(http.client.HTTPSConnection):
    def connect(self) -> None:
        super().connect()  # TCP and the TLS handshake; nothing of the request is sent yet
        peer_check(self.sock)


class _CheckedHTTPHandler(urllib.request.HTTPHandler):
    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_CheckedHTTPConnection, req)


class _CheckedHTTPSHandler(urllib.request.HTTPSHandler):
    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_CheckedHTTPSConnection, req, context=getattr(self, "_context", None))


def post(url: str, body: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST and return the HTTP status; TransportError on a network failure (permanent when the
    connection reached a private address)."""
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)  # noqa: S310
    opener = urllib.request.build_opener(_NoRedirect, _CheckedHTTPHandler, _CheckedHTTPSHandler)
    try:
        with opener.open(request, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as e:
        return int(e.code)
    except urllib.error.URLError as e:
        if isinstance(e.reason, PrivatePeer):
            raise TransportError(f"webhook refused: {e.reason}", permanent=True) from e
        raise TransportError(f"webhook not reached: {e}") from e
    except PrivatePeer as e:
        raise TransportError(f"webhook refused: {e}", permanent=True) from e
    except (TimeoutError, OSError) as e:
        raise TransportError(f"webhook not reached: {e}") from e


class WebhookTransport(Transport):
    channel = "webhook"

    def deliver(self, message: Message) -> None:
        endpoint = self.notification.endpoint
        if endpoint is None or not endpoint.active:
            raise TransportError("the webhook endpoint is gone or disabled", permanent=True)
        host_check(host_of(endpoint.url))
        body = json.dumps(payload_of(message), separators=(",", ":"), sort_keys=True)
        timestamp = str(int(time.time()))
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "pbem-webhooks/1",
            "X-PBEM-Timestamp": timestamp,
            "X-PBEM-Signature": signature(endpoint.secret, timestamp, body),
            "X-PBEM-Delivery": message.delivery_id,
        }
        timeout = float(pbem_settings.WEBHOOK_TIMEOUT)
        status = post(endpoint.url, body.encode(), headers, timeout)
        if 200 <= status < 300:
            return
        raise TransportError(f"webhook answered HTTP {status}", permanent=status == 410)
