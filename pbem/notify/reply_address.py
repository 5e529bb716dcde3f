"""Signed reply addresses: the address a player answers a turn report (or a digest) to.

An order sent by email is addressed to `play+s<seat pk>.<key version>.<mac>@<MAIL_DOMAIN>` (one
seat of one game) or `play+u<user pk>.<key version>.<mac>@<MAIL_DOMAIN>` (a user's digest). The
mac is an HMAC of what the address stands for under a key derived from SECRET_KEY, so the
addresses need no table: nobody can make up the address of someone else's seat, and the server
checks one by recomputing it. The mac binds the seat's pk, its game and its role, so an address
stops working when the seat is given to another game or role.

Keys are numbered (`PBEM["REPLY_KEY_VERSION"]` signs new addresses, versions from
`PBEM["REPLY_KEY_OLDEST"]` up to it are accepted): raising both expires every address sent
before, raising only the first rotates the key while old reports can still be answered. Key `v`
is HMAC-SHA256(SECRET_KEY, "pbem.reply-address.v<v>"); the mac is the HMAC-SHA256 of
"seat:<pk>:<game>:<role>" (or "user:<pk>") under it, cut to 20 lowercase base32 characters
(100 bits), as mail systems may change the case of an address.

`address_read` only parses (and raises `BadAddress` with a code: `not_ours`, `malformed`,
`expired_key`); `seat_mac_ok`/`user_mac_ok` check the mac against what the caller looked up
(in constant time), and a mismatch is the caller's `forged`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Literal

from django.conf import settings

from pbem.conf import pbem_settings
from pbem.notify.transports.email import mail_domain

MAC_CHARS = 20  # base32 characters: 100 bits
MAX_ADDRESS_CHARS = 320  # RFC 3696: 64 for the local part, @, 255 for the domain
MAX_LOCAL_CHARS = 64  # RFC 5321

BadCode = Literal["not_ours", "malformed", "expired_key", "forged"]

# s<pk>.<key version>.<mac>, canonical numbers only (no sign, no leading zero)
_TOKEN = re.compile(
    r"([su])(0|[1-9][0-9]{0,17})\.([1-9][0-9]{0,5})\.([a-z2-7]{" + str(MAC_CHARS) + "})"
)


class BadAddress(Exception):
    """An address that is not a valid reply address; `code` says why."""

    def __init__(self, code: BadCode, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code: BadCode = code
        self.detail = detail


@dataclass(frozen=True)
class ReplyTarget:
    """What a reply address names (its mac not yet checked)."""

    kind: Literal["seat", "user"]
    pk: int
    key_version: int
    mac: str


def _key(version: int) -> bytes:
    label = f"pbem.reply-address.v{version}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), label, hashlib.sha256).digest()


def _mac(version: int, message: str) -> str:
    digest = hmac.new(_key(version), message.encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode("ascii")[:MAC_CHARS].lower()


def _seat_message(seat_pk: int, game_id: object, role: str) -> str:
    return f"seat:{seat_pk}:{str(game_id).lower()}:{role}"


def _user_message(user_pk: int) -> str:
    return f"user:{user_pk}"


def _prefix() -> str:
    return str(pbem_settings.REPLY_LOCAL_PART).lower()


def _address(kind: str, pk: int, message: str) -> str:
    if pk < 0:
        raise ValueError(f"a reply address needs a pk >= 0, not {pk}")
    version = int(pbem_settings.REPLY_KEY_VERSION)
    local = f"{_prefix()}+{kind}{pk}.{version}.{_mac(version, message)}"
    if len(local) > MAX_LOCAL_CHARS:
        raise ValueError(f"PBEM REPLY_LOCAL_PART is too long: {local!r} over 64 characters")
    return f"{local}@{mail_domain().lower()}"


def seat_address(*, game_id: object, role: str, seat_pk: int) -> str:
    """The address that takes orders for one seat (its pk, game and role signed)."""
    return _address("s", seat_pk, _seat_message(seat_pk, game_id, role))


def user_address(*, user_pk: int) -> str:
    """The address that takes a user's orders for several games (replies to a digest)."""
    return _address("u", user_pk, _user_message(user_pk))


def _addr_spec(text: str) -> str:
    """The addr-spec of `addr`, `<addr>` or `Name <addr>`, lowercased."""
    text = text.strip()
    if text.endswith(">") and "<" in text:
        text = text[text.rindex("<") + 1 : -1].strip()
    return text.lower()


def address_read(address: str) -> ReplyTarget:
    """The target a reply address names; BadAddress(`not_ours`) for another domain or
    local-part prefix, (`malformed`) for anything unreadable or signed with a key newer than
    the current one, (`expired_key`) for a key older than REPLY_KEY_OLDEST. Any case."""
    if not isinstance(address, str) or len(address) > MAX_ADDRESS_CHARS:
        raise BadAddress("malformed", "not an address of at most 320 characters")
    spec = _addr_spec(address)
    local, at, domain = spec.rpartition("@")
    if not at or not local or not domain:
        raise BadAddress("malformed", "no local part and domain")
    if domain != mail_domain().lower():
        raise BadAddress("not_ours", f"domain {domain!r}")
    prefix, plus, token = local.partition("+")
    if prefix != _prefix() or not plus:
        raise BadAddress("not_ours", "not a reply address")
    match = _TOKEN.fullmatch(token)
    if match is None:
        raise BadAddress("malformed", "not a reply token")
    letter, pk, version_text, mac = match.groups()
    version = int(version_text)
    if version > int(pbem_settings.REPLY_KEY_VERSION):
        raise BadAddress("malformed", f"unknown key version {version}")
    if version < int(pbem_settings.REPLY_KEY_OLDEST):
        raise BadAddress("expired_key", f"key version {version} has expired")
    kind: Literal["seat", "user"] = "seat" if letter == "s" else "user"
    return ReplyTarget(kind=kind, pk=int(pk), key_version=version, mac=mac)


def _mac_ok(target: ReplyTarget, message: str) -> bool:
    version = target.key_version
    if not pbem_settings.REPLY_KEY_OLDEST <= version <= pbem_settings.REPLY_KEY_VERSION:
        return False
    given = target.mac.lower().encode("utf-8", "replace")
    return hmac.compare_digest(_mac(version, message).encode("ascii"), given)


def seat_mac_ok(t: ReplyTarget, *, game_id: object, role: str) -> bool:
    """Whether the address was signed for this seat pk, game and role (constant time)."""
    return t.kind == "seat" and _mac_ok(t, _seat_message(t.pk, game_id, role))


def user_mac_ok(t: ReplyTarget) -> bool:
    """Whether the address was signed for this user pk (constant time)."""
    return t.kind == "user" and _mac_ok(t, _user_message(t.pk))
