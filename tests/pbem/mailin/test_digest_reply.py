"""A reply to a digest (issue 14 item 6): one mail to the user's signed address carries orders for
several games, each under its game's header line `== game <id> as <role> ==`."""

from __future__ import annotations

import pytest
from django.core import mail as django_mail

from pbem.mailin.models import InboundMessage
from pbem.notify.reply_address import user_address
from pbem.play.models import Game, OrderIntake
from tests.pbem.mailin.ml_helpers import (
    deliver,
    events,
    game_in_turn,
    legal,
    mail,
    players,
    prompted,
)
from tests.pbem.notify.nf_helpers import user

pytestmark = pytest.mark.django_db


def _games() -> tuple[Game, Game]:
    alice, bob = players()
    return game_in_turn(alice, bob), game_in_turn(alice, bob)


def _holder(game: Game, role: str) -> str:
    return str(game.seats.get(role=role).user.username)  # type: ignore[union-attr]


def test_orders_for_two_games_in_one_reply() -> None:
    one, two = _games()
    role_one, role_two = prompted(one), prompted(two)
    assert legal(one, role_one, "end_turn")
    assert legal(two, role_two, "end_turn")
    # the same players and set-up seeds: the same side moves first in both games
    holder = one.seats.get(role=role_one).user
    assert holder is not None
    assert _holder(two, role_two) == holder.username
    to = user_address(user_pk=holder.pk)
    body = (
        f"== game {one.pk} as {role_one} ==\nend turn\n\n"
        f"== game {two.pk} as {role_two} ==\nend turn\n\n"
        "On Tue, pbem wrote:\n> == game ... ==\n> old news\n"
    )
    before = events(one), events(two)
    row = deliver(mail(frm=holder.email, to=to, body=body), to)
    assert row.status == InboundMessage.Status.APPLIED, row.outcome
    assert (events(one), events(two)) > before
    assert [s["game"] for s in row.outcome["seats"]] == [str(one.pk), str(two.pk)]
    (answer,) = django_mail.outbox[-1:]
    assert answer.extra_headers["Reply-To"] == to
    assert str(one.pk) in answer.body
    assert str(two.pk) in answer.body


def test_a_section_for_a_seat_the_user_does_not_hold_is_refused() -> None:
    one, _ = _games()
    role = prompted(one)
    stranger = user("ml_stranger")
    to = user_address(user_pk=stranger.pk)
    before = events(one)
    body = f"== game {one.pk} as {role} ==\nend turn\n"
    row = deliver(mail(frm=stranger.email, to=to, body=body), to)
    assert row.status == InboundMessage.Status.REJECTED
    (seat,) = row.outcome["seats"]
    assert seat["code"] == "unknown_section"
    assert events(one) == before
    assert (
        not OrderIntake.objects.filter(game=one)
        .exclude(source="worker")
        .filter(idempotency_key__startswith="mail:")
        .exists()
    )


def test_lines_before_any_header_are_not_applied() -> None:
    one, _ = _games()
    role = prompted(one)
    holder = one.seats.get(role=role).user
    assert holder is not None
    to = user_address(user_pk=holder.pk)
    before = events(one)
    row = deliver(mail(frm=holder.email, to=to, body="end turn\n"), to)
    assert row.status == InboundMessage.Status.REJECTED
    assert row.outcome["seats"][0]["code"] == "unknown_section"
    assert events(one) == before
