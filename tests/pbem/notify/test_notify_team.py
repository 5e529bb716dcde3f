"""Notifications of team play (issue 13 item 2; team digest 3.4.6, 3.8 "E-mail", L5, SRV-9).

* The notice convention: a public line's `notice` names the roles told `turn_begins`, one kind
  per seat per event (game_over > turn_begins > your_turn > turn_resolved); a notice on a line
  with an audience is ignored.
* NT-TEAM-T48: at TEAM_TURN_START(AL, k + 1) every Allied seat gets one mail with the same
  subject; only the recipient's body holds the order, the other subordinate's says no order was
  delivered, the CinC's says he writes this turn's orders; nobody else's mail holds the order and
  the CinC gets no "delivered" notice.
* T42 as it applies here: the turn start rows exist only once the delivery event is committed
  (none while the French turn k goes on, none after a rolled-back delivery), and a mail rendered
  for an earlier event never holds the order.
* Never at the writing moment: writing an order plans no row for anybody, and the rows planned
  for every later event are the same with and without it.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.db import transaction

from games.core.protocol import JSON, Action
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from pbem.notify.content import notification_content
from pbem.notify.models import Kind, Notification
from pbem.notify.notice import notice_roles, notice_title, notices_of
from pbem.notify.services import kinds_for_event, notification_deliver
from pbem.notify.written_order import WrittenOrderBlock, written_order_block
from pbem.play.models import Event
from pbem.play.services.log import event_append
from tests.pbem.notify.nf_team import (
    ALLIED,
    ORDER_TEXT,
    TITLE,
    TeamRun,
    Written,
    allied_turn_start,
    engine_step,
    role_of_email,
    state_of,
    view_at,
    written_turn,
)

pytestmark = pytest.mark.django_db
SEED = 3
NO_ORDER = "No written order was delivered to you this round."


def _event(role: str, log: object = None, turn_ended: bool = False) -> Event:
    return SimpleNamespace(role=role, kind="move", turn_ended=turn_ended, log=log)  # type: ignore[return-value]


def _notice(roles: list[JSON], title: str, audience: list[JSON] | None = None) -> dict[str, JSON]:
    return {"text": "x", "audience": audience, "data": {"notice": {"roles": roles, "title": title}}}


# --- the convention and the kinds -----------------------------------------------------------


def test_only_a_public_lines_notice_counts() -> None:
    log: list[JSON] = [
        _notice(["a1", "a2"], "Round 4, Allied turn begins"),
        _notice(["f1"], "secret", audience=["f1", "@omniscient"]),  # not public: ignored
        {"text": "plain", "audience": None, "data": {"kind": "other"}},
        {"text": "bad", "audience": None, "data": {"notice": {"roles": "a1", "title": "t"}}},
    ]
    assert [(n.roles, n.title) for n in notices_of(log)] == [
        (("a1", "a2"), "Round 4, Allied turn begins")
    ]
    assert notice_roles(log) == {"a1", "a2"}
    assert notice_title(log, "a2") == "Round 4, Allied turn begins"
    assert notice_title(log, "f1") == ""


def test_one_kind_per_seat_game_over_then_turn_begins_then_your_turn_then_resolved() -> None:
    seats = ["a1", "a2", "a3", "f1", "f2"]
    common = {"seat_roles": seats, "prompted_before": ["f1"], "prompted_after": ["a1"]}
    kinds = kinds_for_event(
        event=_event("f1", turn_ended=True),
        finished=False,
        notice_roles=["a1", "a2", "a3"],
        **common,
    )
    # a1 is newly prompted too, but gets turn_begins only; f1 acted; f2 hears of the turn's end
    told = dict.fromkeys(["a1", "a2", "a3"], "turn_begins")
    assert kinds == {**told, "f2": "turn_resolved"}
    over = kinds_for_event(
        event=_event("f1", turn_ended=True), finished=True, notice_roles=["a1"], **common
    )
    assert over == dict.fromkeys(seats, "game_over")


def test_a_seat_named_by_a_notice_is_told_even_of_its_own_action() -> None:
    """The CinC closing his night conference starts his own team's turn (NT-TEAM-9): he gets the
    same turn start mail as his teammates (L5), not nothing."""
    kinds = kinds_for_event(
        event=_event("a1"),
        seat_roles=["a1", "a2", "f1"],
        prompted_before=["a1"],
        prompted_after=["a1"],
        finished=False,
        notice_roles=["a1", "a2"],
    )
    assert kinds == {"a1": "turn_begins", "a2": "turn_begins"}


def test_the_engine_puts_the_notice_on_every_team_turn_start() -> None:
    run = written_turn("notice", seed=SEED, write=False, extra=0)
    starts = [e for e in run.run.main if any(n.title for n in notices_of(e.log))]
    assert run.start in starts
    assert run.delivery in starts
    for event in starts:
        (notice,) = notices_of(event.log)
        line = next(e for e in event.log if e["data"] and "notice" in e["data"])
        side = line["data"]["data"]["side"]
        k = line["data"]["data"]["round"]
        name = {"AL": "Allied", "F": "French"}[side]
        assert notice.title == f"Round {k}, {name} turn begins"
        teams = view_at(run.run.game, event.seq, "french-1")["team"]["teams"]
        (members,) = [t["members"] for t in teams if t["side"] == side]
        assert sorted(notice.roles) == sorted(members)
        rows = Notification.objects.filter(event=event, role__in=members)
        assert sorted(rows.values_list("role", "kind")) == [
            (r, "turn_begins") for r in sorted(members)
        ]


def _view(round_index: int, inbox: list[JSON], members: int = 3) -> JSON:
    seats: list[JSON] = list[JSON](["a1", "a2", "a3"])[:members]
    team: JSON = {"side": "AL", "members": seats, "ranks": seats}
    return {"round": {"index": round_index}, "team": {"teams": [team], "inbox": inbox}}


def _slot(turn: int, text: str | None) -> JSON:
    order: JSON = None if text is None else {"verb": "ATTACK", "toponyms": [], "text_en": text}
    return {"recipient": "a2", "turn": turn, "readable_from_turn": turn + 1, "order": order}


def test_the_block_shows_only_the_slot_delivered_at_this_turn_start() -> None:
    old = _slot(1, "Attack Telnitz")
    assert written_order_block(_view(2, [old]), "a2") == WrittenOrderBlock(
        cinc=False, alone=False, written_in=1, text="Attack Telnitz"
    )
    # turn 3: the order of turn 1 was delivered before, the slot of turn 2 is empty
    for inbox in ([old], [old, _slot(2, None)]):
        block = written_order_block(_view(3, inbox), "a2")
        assert block == WrittenOrderBlock(cinc=False, alone=False, written_in=None, text=None)
    assert written_order_block(_view(2, []), "a1") == WrittenOrderBlock(True, False, None, None)
    assert written_order_block(_view(2, [], members=1), "a1") == WrittenOrderBlock(
        True, True, None, None
    )
    assert written_order_block({"round": 2}, "a1") is None  # not a team game: no block


# --- NT-TEAM-T48 ---------------------------------------------------------------------------


def _deliver_all(event: Event) -> dict[str, EmailMultiAlternatives]:
    """Deliver the event's mails; role -> the mail it got."""
    mail.outbox.clear()
    for pk in Notification.objects.filter(event=event).values_list("pk", flat=True):
        assert notification_deliver(notification_id=pk) == "sent"
    got: dict[str, EmailMultiAlternatives] = {}
    for sent in mail.outbox:
        assert isinstance(sent, EmailMultiAlternatives)
        role = role_of_email(sent.to[0])
        assert role not in got, f"{role} got two mails for one event"
        got[role] = sent
    return got


def _texts(sent: EmailMultiAlternatives) -> str:
    return "\n".join([str(sent.subject), str(sent.body), str(sent.alternatives[0][0])])


def _delivered_text(w: Written) -> str:
    """The canonical text of the order as the recipient's own inbox shows it at delivery."""
    view = view_at(w.run.game, w.delivery.seq, w.s1)
    (item,) = [i for i in view["team"]["inbox"] if i["turn"] == w.k]
    assert item["order"] is not None
    return str(item["order"]["text_en"])


def test_t48_every_seat_gets_one_mail_with_the_same_subject_and_only_its_own_order() -> None:
    w = written_turn("t48", seed=SEED, write=True)
    text = _delivered_text(w)
    assert text == ORDER_TEXT
    rows = Notification.objects.filter(event=w.delivery, role__in=ALLIED)
    assert sorted(rows.values_list("role", "kind", "channel")) == [
        (role, "turn_begins", "email") for role in ALLIED
    ]
    got = _deliver_all(w.delivery)
    subjects = {str(got[role].subject) for role in ALLIED}
    assert subjects == {f"[{TITLE}] Round {w.k + 1}, Allied turn begins"}  # L5
    order_line = f"Written order from your commander-in-chief (written in round {w.k}): {text}"
    assert order_line in str(got[w.s1].body)
    assert text in str(got[w.s1].alternatives[0][0])
    assert NO_ORDER in str(got[w.s2].body)
    assert NO_ORDER in str(got[w.s2].alternatives[0][0])
    assert "you write the written orders of this turn" in str(got[w.cinc].body)
    for role, sent in got.items():  # the French told of the turn's end, the CinC, s2
        if role != w.s1:
            assert text not in _texts(sent), f"{role} was told {w.s1}'s order"
    prompted = RULESET.prompts(state_of(w.run.game, w.delivery.seq))
    for role in ALLIED:
        part = "It is your part now." if role in prompted else "It is not your part yet."
        assert part in str(got[role].body), role
    # L5, L10: the CinC never hears that his order was delivered (or read), at any event since
    # he wrote it; he gets nothing but the turn start at the delivery
    assert w.write is not None
    since = Notification.objects.filter(
        game=w.run.game, role=w.cinc, event__seq__gte=w.write.seq, event__seq__lte=w.delivery.seq
    )
    assert set(since.filter(event=w.delivery).values_list("kind", flat=True)) == {"turn_begins"}
    for n in since:
        content = notification_content(n)
        assert "deliver" not in (content.subject + content.text + content.html).lower()


def test_the_subordinate_without_an_order_reads_the_same_block_in_both_games() -> None:
    """The block is always there; only its text varies (3.8): s1 without an order reads the very
    line s2 reads."""
    w = written_turn("t48_none", seed=SEED, write=False)
    got = _deliver_all(w.delivery)
    assert NO_ORDER in str(got[w.s1].body)
    assert NO_ORDER in str(got[w.s2].body)
    assert "Written order from" not in str(got[w.s1].body)


# --- T42: rows only in the delivery event's transaction ------------------------------------


class _Rollback(Exception):
    def __init__(self, rows: int) -> None:
        super().__init__(rows)
        self.rows = rows


def _rows_of_a_rolled_back_append(run: TeamRun, action: Action) -> int:
    """Append `action` as the worker does, count the turn start rows it planned inside its
    transaction, then roll the transaction back."""
    step = engine_step(run.state, action, Rng.for_event(run.dice, run.step))
    run.game.refresh_from_db()
    try:
        with transaction.atomic():
            event = event_append(
                game=run.game, after_seq=run.game.head_seq, action=action, step=step, source="api"
            )
            raise _Rollback(Notification.objects.filter(event=event, kind=Kind.TURN_BEGINS).count())
    except _Rollback as e:
        return e.rows


def test_t42_turn_start_rows_exist_only_after_the_delivery_event_commits() -> None:
    seen: dict[str, int] = {}

    def before_delivery(run: TeamRun, action: Action) -> None:
        start = next(e for e in run.main if allied_turn_start(e))  # TEAM_TURN_START(AL, k)
        seen["before"] = Notification.objects.filter(
            game=run.game, kind=Kind.TURN_BEGINS, role__in=ALLIED, event__seq__gt=start.seq
        ).count()
        # the delivering event in a transaction that rolls back: no event, no row, no delivery
        head = run.game.head_seq
        seen["inside"] = _rows_of_a_rolled_back_append(run, action)
        run.game.refresh_from_db()
        assert run.game.head_seq == head
        assert not Event.objects.filter(game=run.game, seq=head + 1).exists()
        seen["rolled_back"] = Notification.objects.filter(
            game=run.game, kind=Kind.TURN_BEGINS, event__seq__gt=head
        ).count()

    w = written_turn("t42", seed=SEED, write=True, before_delivery=before_delivery)
    # while the French turn k went on, no Allied turn start row existed beyond TEAM_TURN_START(k)
    turn_k = Notification.objects.filter(event=w.start, kind=Kind.TURN_BEGINS).count()
    assert turn_k == len(ALLIED)
    assert seen == {"before": 0, "inside": len(ALLIED), "rolled_back": 0}
    rows = Notification.objects.filter(game=w.run.game, kind=Kind.TURN_BEGINS, role=w.s1)
    assert sorted(rows.values_list("event__seq", flat=True)) == [w.start.seq, w.delivery.seq]
    # a task that renders s1's mail for any earlier event (a retry running early) finds no order
    for event in w.run.main:
        if event.seq < w.delivery.seq:
            early = Notification(
                event=event, game=w.run.game, role=w.s1, kind=Kind.TURN_BEGINS, dedupe_key="x"
            )
            content = notification_content(early)
            assert ORDER_TEXT not in content.text + content.html


# --- never at the writing moment -----------------------------------------------------------


def _planned(event: Event) -> list[tuple[str, str, str]]:
    return sorted(Notification.objects.filter(event=event).values_list("role", "kind", "channel"))


def test_writing_an_order_plans_nothing_and_changes_no_later_row() -> None:
    written = written_turn("w_yes", seed=SEED, write=True)
    assert written.write is not None
    assert not Notification.objects.filter(event=written.write).exists()
    plain = written_turn("w_no", seed=SEED, write=False, script=written.run.actions)
    assert len(plain.run.main) == len(written.run.main)
    assert [_planned(e) for e in plain.run.main] == [_planned(e) for e in written.run.main]
    # the property bites: the later events did plan rows, the turn starts among them
    assert any(_planned(e) for e in written.run.main if e.seq > written.write.seq)
    assert ("allied-1", "turn_begins", "email") in _planned(written.delivery)
