"""Signed reply addresses: what one address names, and every way a changed one is refused."""

from __future__ import annotations

import re
import uuid

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from pytest_django.fixtures import Settings

from pbem.notify.reply_address import (
    BadAddress,
    ReplyTarget,
    address_read,
    seat_address,
    seat_mac_ok,
    user_address,
    user_mac_ok,
)

GAME = uuid.UUID("3f2c1a9e-8d7b-4c6a-9e5f-0a1b2c3d4e5f")
OTHER_GAME = uuid.UUID("00000000-0000-4000-8000-000000000001")


@pytest.fixture(autouse=True)
def _domain(settings: Settings) -> None:
    settings.PBEM = {**getattr(settings, "PBEM", {}), "MAIL_DOMAIN": "Turns.Example.org"}


def _pbem(settings: Settings, **keys: object) -> None:
    settings.PBEM = {**settings.PBEM, **keys}


def _code(address: str) -> str:
    with pytest.raises(BadAddress) as caught:
        address_read(address)
    return caught.value.code


def test_a_seat_address_names_its_seat_and_checks_against_game_and_role() -> None:
    address = seat_address(game_id=GAME, role="AL", seat_pk=42)
    assert re.fullmatch(r"play\+s42\.1\.[a-z2-7]{20}@turns\.example\.org", address)
    assert len(address.split("@")[0]) < 64
    target = address_read(address)
    assert target.kind == "seat"
    assert target.pk == 42
    assert target.key_version == 1
    assert seat_mac_ok(target, game_id=GAME, role="AL")
    assert seat_mac_ok(target, game_id=str(GAME), role="AL")  # a UUID or its text
    assert not user_mac_ok(target)  # a seat's mac is never a user's


def test_a_user_address_round_trips() -> None:
    address = user_address(user_pk=7)
    assert re.fullmatch(r"play\+u7\.1\.[a-z2-7]{20}@turns\.example\.org", address)
    target = address_read(address)
    assert (target.kind, target.pk) == ("user", 7)
    assert user_mac_ok(target)
    assert not seat_mac_ok(target, game_id=GAME, role="AL")
    assert not user_mac_ok(ReplyTarget("user", 8, 1, target.mac))


def test_reading_ignores_case_and_accepts_a_display_name() -> None:
    address = seat_address(game_id=GAME, role="F", seat_pk=3)
    for form in (address.upper(), f'"Play, Austerlitz" <{address.title()}>', f"  <{address}> "):
        target = address_read(form)
        assert seat_mac_ok(target, game_id=GAME, role="F"), form


def test_another_seat_game_or_role_is_refused() -> None:
    target = address_read(seat_address(game_id=GAME, role="AL", seat_pk=42))
    assert not seat_mac_ok(target, game_id=OTHER_GAME, role="AL")
    assert not seat_mac_ok(target, game_id=GAME, role="F")
    moved = ReplyTarget("seat", 43, target.key_version, target.mac)
    assert not seat_mac_ok(moved, game_id=GAME, role="AL")


def _with_token(address: str, token: str) -> str:
    local, domain = address.split("@")
    return f"{local.split('+')[0]}+{token}@{domain}"


def test_an_edited_address_is_refused() -> None:
    address = seat_address(game_id=GAME, role="AL", seat_pk=42)
    kind_pk, version, mac = address.split("@")[0].split("+")[1].split(".")
    flipped = ("b" if mac[0] == "a" else "a") + mac[1:]
    other_pk = address_read(_with_token(address, f"s41.{version}.{mac}"))
    assert not seat_mac_ok(other_pk, game_id=GAME, role="AL")
    bad_mac = address_read(_with_token(address, f"{kind_pk}.{version}.{flipped}"))
    assert not seat_mac_ok(bad_mac, game_id=GAME, role="AL")
    as_user = address_read(_with_token(address, f"u42.{version}.{mac}"))
    assert not user_mac_ok(as_user)
    # a key version newer than the current one, a short or long mac, no number: malformed
    for token in (
        f"{kind_pk}.2.{mac}",
        f"{kind_pk}.{version}.{mac[:-1]}",
        f"{kind_pk}.{version}.{mac}a",
        f"{kind_pk}.{version}.{mac[:-1]}1",  # 1 is not base32
        f"s.{version}.{mac}",
        f"s042.{version}.{mac}",
        f"x42.{version}.{mac}",
        f"{kind_pk}.{mac}",
    ):
        assert _code(_with_token(address, token)) == "malformed", token


def test_rotation_keeps_old_addresses_until_the_oldest_version_is_raised(
    settings: Settings,
) -> None:
    old = seat_address(game_id=GAME, role="AL", seat_pk=5)
    _pbem(settings, REPLY_KEY_VERSION=2)
    new = seat_address(game_id=GAME, role="AL", seat_pk=5)
    assert ".2." in new
    assert new != old
    for address in (old, new):  # both accepted while REPLY_KEY_OLDEST is 1
        assert seat_mac_ok(address_read(address), game_id=GAME, role="AL")
    # a mac of key 1 presented as key 2 is refused
    swapped = ReplyTarget("seat", 5, 2, address_read(old).mac)
    assert not seat_mac_ok(swapped, game_id=GAME, role="AL")
    _pbem(settings, REPLY_KEY_OLDEST=2)
    assert _code(old) == "expired_key"
    assert seat_mac_ok(address_read(new), game_id=GAME, role="AL")
    assert not seat_mac_ok(
        ReplyTarget("seat", 5, 1, address_read(new).mac), game_id=GAME, role="AL"
    )


def test_a_new_secret_key_forges_nothing(settings: Settings) -> None:
    target = address_read(seat_address(game_id=GAME, role="AL", seat_pk=5))
    settings.SECRET_KEY = "another secret key of the server, not the one that signed"
    assert not seat_mac_ok(target, game_id=GAME, role="AL")


def test_other_domains_and_local_parts_are_not_ours(settings: Settings) -> None:
    address = seat_address(game_id=GAME, role="AL", seat_pk=42)
    local = address.split("@")[0]
    assert _code(f"{local}@example.org") == "not_ours"
    assert _code(f"{local}@turns.example.org.evil.test") == "not_ours"
    assert _code(f"orders+{local.split('+')[1]}@turns.example.org") == "not_ours"
    assert _code("postmaster@turns.example.org") == "not_ours"
    _pbem(settings, REPLY_LOCAL_PART="Orders")
    assert _code(address) == "not_ours"
    renamed = seat_address(game_id=GAME, role="AL", seat_pk=42)
    assert renamed.startswith("orders+s42.")
    assert seat_mac_ok(address_read(renamed), game_id=GAME, role="AL")


def test_unreadable_and_too_long_text_is_malformed() -> None:
    address = seat_address(game_id=GAME, role="AL", seat_pk=42)
    for text in ("", "   ", "no at sign", "@turns.example.org", "play+s1.1.x@", "<>"):
        assert _code(text) == "malformed", text
    padded = f'"{"x" * 320}" <{address}>'
    assert _code(padded) == "malformed"


def test_an_overlong_local_part_prefix_is_a_configuration_error(settings: Settings) -> None:
    _pbem(settings, REPLY_LOCAL_PART="p" * 40)
    with pytest.raises(ValueError, match="REPLY_LOCAL_PART"):
        seat_address(game_id=GAME, role="AL", seat_pk=10**12)


_valid = st.builds(
    lambda pk, role, user: (
        user_address(user_pk=pk) if user else seat_address(game_id=GAME, role=role, seat_pk=pk)
    ),
    st.integers(min_value=0, max_value=10**15),
    st.sampled_from(["AL", "F", "al1"]),
    st.booleans(),
)


@st.composite
def _mutated(draw: st.DrawFn) -> str:
    """A valid address with a few characters replaced, inserted or removed."""
    text = list(draw(_valid))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        at = draw(st.integers(min_value=0, max_value=len(text)))
        what = draw(st.sampled_from(["set", "insert", "delete"]))
        char = draw(st.characters(codec="utf-8"))
        if what == "insert" or at == len(text):
            text.insert(at, char)
        elif what == "set":
            text[at] = char
        else:
            del text[at]
    return "".join(text)


@hsettings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=400), _mutated(), _valid.map(lambda a: f"Someone <{a}>")))
def test_reading_arbitrary_text_raises_nothing_but_bad_address(text: str) -> None:
    error: BadAddress | None = None
    try:
        target = address_read(text)
    except BadAddress as e:
        error = e
    if error is not None:
        assert error.code in ("not_ours", "malformed", "expired_key")
        if len(text) > 320:
            assert error.code == "malformed"
        return
    assert len(text) <= 320
    assert target.kind in ("seat", "user")
    assert target.pk >= 0
    assert re.fullmatch(r"[a-z2-7]{20}", target.mac)
