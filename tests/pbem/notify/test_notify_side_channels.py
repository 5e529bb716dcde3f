"""Side channels of a notification (team digest L7, 3.6; issue 13 item 4): nothing a mail or a
webhook carries counts the events hidden from its recipient.

Property: two team games that differ only by a written order of the Allied commander-in-chief
(a private event: only he knows it exists until its recipient reads it at k + 1) give every
other seat the very same mails and webhooks, apart from the game id: subject, bodies,
`Message-ID` (its number is the recipient role's own, not the global seq), webhook JSON (`seq`
likewise) and `X-PBEM-Delivery` (an opaque HMAC of the row's basis: game, the role's own event
number, channel, role and kind; never the dedupe key with its server-wide event id). The order's
recipient is compared up to the delivery, where it may read the order.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives

from pbem.notify.models import Notification, WebhookEndpoint
from pbem.notify.services import delivery_basis, delivery_id, notification_deliver
from pbem.play.models import Event
from pbem.play.selectors import numbering_for
from tests.pbem.notify.conftest import HookServer
from tests.pbem.notify.nf_helpers import reply_addresses_named, user
from tests.pbem.notify.nf_team import FRENCH, ROLES, Written, written_turn

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("allow_private")]
Sent = dict[tuple[int, str, str], dict[str, str]]


def _others(w: Written, event: Event) -> set[str]:
    """The seats that may not know of the written order at `event`."""
    return {*FRENCH, w.s2} | ({w.s1} if event.seq < w.delivery.seq else set())


def _one(n: Notification, hook: HookServer) -> dict[str, str]:
    """Deliver one row; what went out, headers included."""
    mail.outbox.clear()
    before = len(hook.received)
    assert notification_deliver(notification_id=n.pk) == "sent"
    if n.channel == Notification.Channel.EMAIL:
        (sent,) = mail.outbox
        assert isinstance(sent, EmailMultiAlternatives)
        return {
            "subject": str(sent.subject),
            "text": str(sent.body),
            "html": str(sent.alternatives[0][0]),
            "message_id": sent.extra_headers["Message-ID"],
            "reply_to": sent.extra_headers.get("Reply-To", ""),
            "delivery": sent.extra_headers["X-PBEM-Delivery"],
        }
    (got,) = hook.received[before:]
    headers = {k.lower(): v for k, v in got.headers.items()}
    return {"body": got.body.decode(), "delivery": headers["x-pbem-delivery"]}


def _sent(w: Written, hook: HookServer, roles_of: Iterable[str] | None = None) -> Sent:
    """Every mail and webhook of the main-line events for the seats in `_others`, by (main-line
    index, role, channel), the game id replaced by `<game>`."""
    game = w.run.game
    gid = str(game.pk)
    out: Sent = {}
    for i, event in enumerate(w.run.main):
        told = _others(w, event) if roles_of is None else set(roles_of)
        for n in Notification.objects.filter(event=event, role__in=told).order_by("pk"):
            got = _one(n, hook)
            basis = delivery_basis(n, numbering_for(game, [n.role]).role_seq(event.seq))
            assert got.pop("delivery") == delivery_id(basis)  # what receivers deduplicate on
            got["basis"] = basis
            out[(i, n.role, n.channel)] = {
                k: reply_addresses_named(v, [gid]).replace(gid, "<game>") for k, v in got.items()
            }
    return out


@pytest.mark.parametrize("seed", [3, 8])
def test_a_hidden_written_order_moves_no_other_seats_ids_headers_or_bodies(
    seed: int, hook_server: HookServer
) -> None:
    tag = f"sc{seed}"
    for role in ROLES:  # the same users (and endpoints) play both games
        WebhookEndpoint.objects.create(user=user(f"tm_{tag}_{role}"), url=hook_server.url)
    written = written_turn(tag, seed=seed, write=True)
    plain = written_turn(tag, seed=seed, write=False, script=written.run.actions)
    assert written.write is not None
    assert (written.cinc, written.s1, written.s2) == (plain.cinc, plain.s1, plain.s2)
    with_order = _sent(written, hook_server)
    without = _sent(plain, hook_server)
    assert with_order.keys() == without.keys()
    for key, got in with_order.items():
        assert got == without[key], key
    # the property bites: French mails and webhooks of events after the hidden one, whose global
    # seqs differ between the games, were compared
    later = [
        (i, role, channel)
        for (i, role, channel) in with_order
        if written.run.main[i].seq > written.write.seq and role in FRENCH
    ]
    assert {channel for _, _, channel in later} == {"email", "webhook"}
    for i, _, _ in later:
        assert written.run.main[i].seq == plain.run.main[i].seq + 1


def test_the_order_s_recipient_and_author_do_see_a_difference(hook_server: HookServer) -> None:
    """The comparison above can fail: at the delivery the recipient's mail differs (it holds the
    order), and the author's numbers count his own written order."""
    tag = "sc_diff"
    written = written_turn(tag, seed=3, write=True, extra=0)
    plain = written_turn(tag, seed=3, write=False, script=written.run.actions, extra=0)
    last = len(written.run.main) - 1
    s1 = _sent(written, hook_server, [written.s1])
    assert (
        s1[(last, written.s1, "email")]
        != _sent(plain, hook_server, [plain.s1])[(last, plain.s1, "email")]
    )
    cinc = _sent(written, hook_server, [written.cinc])
    cinc_plain = _sent(plain, hook_server, [plain.cinc])
    key = (last, written.cinc, "email")
    assert cinc[key]["message_id"] != cinc_plain[key]["message_id"]
