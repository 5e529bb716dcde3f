"""A team game with written orders by email (issue 14 item 5, team digest 3.8): the CinC writes his
subordinates' orders by replying to his turn-start mail with `ORDER <rank>: <text>` lines over
real SMTP, and each subordinate's next turn-start mail carries, in its fixed place, "Written
order from your commander-in-chief (written in round k): <text>".

The set-up, conferences and moves are played through the order path by the oracle (random legal
orders, `order_submit` as the API calls it, applied by the worker process): that part is tested
over REST in test_team_rest_game.py; here the written orders travel by mail only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from uuid import UUID

import pytest
from django.contrib.auth.models import User

from games.core.protocol import JSON, random_legal_action
from games.core.rng import Rng
from games.napoleons_triumph.scenario import board_for
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team import written_orders_grammar as W
from games.napoleons_triumph.team.engine import WRITE_ORDER, data_of
from pbem.play.models import Game, OrderIntake
from pbem.play.rulesets import ruleset_get
from pbem.play.services.games import game_create
from pbem.play.services.log import state_at
from pbem.play.services.orders import order_submit
from tests.integration.conftest import Worker
from tests.integration.email_player import text_of
from tests.integration.it_helpers import report, users
from tests.integration.mail_fixtures import SmtpSink, SunkMessage, mail_send_raw

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROLES: dict[str, JSON] = {"allied-1": "AL", "allied-2": "AL", "french-1": "F", "french-2": "F"}
OPTIONS: dict[str, JSON] = {"board": "austerlitz", "team_play": True, "roles": dict(ROLES)}
MAX_ACTIONS = 3000
WANTED = 2  # written orders delivered by mail before the test is satisfied


@dataclass(frozen=True)
class Written:
    cinc: str
    recipient: str
    text: str


def _state(game: Game) -> GameState:
    game.refresh_from_db()
    state = state_at(game, game.head_seq, verify=False)
    assert isinstance(state, GameState)
    return state


def _applied(intake_id: UUID, seconds: float = 120) -> OrderIntake:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        intake = OrderIntake.objects.get(pk=intake_id)
        if intake.status != OrderIntake.Status.RECEIVED:
            return intake
        time.sleep(0.02)  # a poll interval, not a synchronisation
    raise AssertionError(f"intake {intake_id} still received after {seconds} s")


def _turn_mail(sink: SmtpSink, address: str, seconds: float = 120) -> SunkMessage:
    """The latest turn-start mail to `address` (waiting for one if none came yet)."""

    def is_start(m: SunkMessage) -> bool:
        return address in m.envelope_to and ".turn_begins@" in str(m["Message-ID"])

    found = [m for m in sink.messages if is_start(m)]
    return found[-1] if found else sink.wait_for(is_start, timeout=seconds)


def _write_by_mail(
    sink: SmtpSink, smtpd: tuple[str, int], game: Game, cinc: User, role: str, rng: Rng
) -> list[Written]:
    """The CinC answers his turn-start mail with one ORDER line per subordinate."""
    state = _state(game)
    team = data_of(state).team(state.roles[role])
    assert team is not None
    assert team.cinc.role == role
    board = board_for(state)
    toponyms = [t.id for t in board.toponyms]
    written: list[Written] = []
    lines: list[str] = []
    for seat in team.seats:
        if seat.role == role:
            continue
        picked = sorted({toponyms[rng.below(len(toponyms))] for _ in range(1 + rng.below(2))})
        verb = W.Verb.ATTACK if rng.chance(1, 2) else W.Verb.DEFEND
        text = W.text_en(W.canonical_order(board, verb, picked), board)
        lines.append(f"ORDER {seat.rank}: {text}")
        written.append(Written(role, seat.role, text))
    start = _turn_mail(sink, cinc.email)
    reply_to = str(start["Reply-To"]).strip()
    mid = f"<orders.{game.pk}.{game.head_seq}@players.example>"
    quoted = "".join(f"> {line}\n" for line in text_of(start).splitlines())
    raw = (
        f"From: {cinc.email}\r\nTo: {reply_to}\r\nSubject: Re: {start['Subject']}\r\n"
        f"Message-ID: {mid}\r\nIn-Reply-To: {str(start['Message-ID']).strip()}\r\n\r\n"
        + "\n".join(lines)
        + f"\n\n-- \nthe commander-in-chief\n\nOn Monday, pbem wrote:\n{quoted}"
    ).encode()
    mail_send_raw(*smtpd, raw, cinc.email, reply_to)
    answer = sink.wait_for(lambda m: str(m["In-Reply-To"] or "").strip() == mid, timeout=120)
    body = text_of(answer)
    assert "[applied]" in str(answer["Subject"]), body
    for w in written:  # the answer echoes each canonical text
        assert w.text in body, (w, body)
    return written


def test_written_orders_by_email_reach_the_subordinates(
    mail_worker: Worker,
    smtp_sink: SmtpSink,
    smtpd_process: tuple[str, int],
    capsys: pytest.CaptureFixture[str],
) -> None:
    started = time.monotonic()
    people = users("teammail", 4)
    by_role = dict(zip(sorted(ROLES), people, strict=True))
    game = game_create(
        ruleset_id="napoleons_triumph",
        scenario="DEC2",
        options=OPTIONS,
        seats=by_role,
        creator=people[0],
        title="team by email",
        accepted=True,
    )
    ruleset = ruleset_get(game.ruleset_id)
    rng = Rng(20261126)
    done: set[tuple[str, int]] = set()  # (cinc, head at which he wrote)
    written: list[Written] = []
    delivered: list[Written] = []
    actions = 0
    while len(delivered) < WANTED and actions < MAX_ACTIONS:
        state = _state(game)
        prompts = ruleset.prompts(state)
        assert prompts, "the game ended before the orders were delivered"
        role = sorted(prompts)[rng.below(len(prompts))]
        turn_key = (role, state.round)
        if WRITE_ORDER in prompts[role].kinds and turn_key not in done:
            done.add(turn_key)
            written += _write_by_mail(smtp_sink, smtpd_process, game, by_role[role], role, rng)
        else:
            action = None
            for _ in range(20):
                action = random_legal_action(ruleset, state, role, rng, tries=20)
                if action is None or action.kind != WRITE_ORDER:
                    break
            assert action is not None, role
            assert action.kind != WRITE_ORDER, role
            intake = order_submit(
                game=game,
                user=by_role[role],
                role=role,
                kind=action.kind,
                payload=action.payload,
                source="api",
            )
            assert _applied(intake.pk).status == "applied", intake.errors
        actions += 1
        delivered = [w for w in written if _delivered(smtp_sink, by_role[w.recipient], w)]
    assert len(delivered) >= WANTED, (len(written), actions, smtp_sink.summary())
    report(
        capsys,
        f"team game by email: {len(written)} written orders by mail, {len(delivered)} delivered"
        f" in turn-start mails, {actions} other orders, {time.monotonic() - started:.1f} s",
    )


def _delivered(sink: SmtpSink, recipient: User, w: Written) -> bool:
    want = "Written order from your commander-in-chief (written in round"
    return any(
        recipient.email in m.envelope_to
        and ".turn_begins@" in str(m["Message-ID"])
        and want in (body := text_of(m))
        and w.text in body
        for m in sink.messages
    )
