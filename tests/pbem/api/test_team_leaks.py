"""A written order leaks through no API answer, count, ETag, timestamp or notification (digest
napoleons-triumph-team.md 3.5 tables 1-2, 3.6 L1-L7, NT-TEAM-23, T43/T44 generalised).

Pairs of team games A and B (tests.support.team_pairs.PAIRS: named seeds, 2-3 seats a side) are
created alike: the same secret seed (the seed source patched), the same users in the same seats,
the same frozen clock. One seeded random player drives both with the same actions, except that
in B the CinC of the pair's secret side also writes orders at random points of his part (half a
clock step later than A's step), or another order where A writes one. After every step each
seat that may not read the difference (tests.support.team_pairs.readers_of_difference) and the
observer fetch, in both games, the view and the events after their last head; one of them in
turn also one of: the detail, the deadline, the team endpoints of contract K1 (inbox, outbox,
conference messages, commitments, archive); every CHECKPOINT steps all of them, the whole event
list and the listing row (reading everything at every step would take some 10 minutes). The
acting seat compares its order answer and intake. Bodies must be equal once A's game id is
renamed B's and the commitments' digests are masked to their shape (the digest's T43 lists
commitments among the byte-identical answers, which 3.4.5 contradicts: a digest hashes the
slot's content). ETags are compared by the pattern of their changes (they name the game). The
notification rows planned for such seats, their rendered subject and body, and the mails sent,
must match too. Once the game is over the archive shows every slot to everyone (409
`game_not_over` before).

All pairs run once per module (a module-scoped fixture rolled back at the end); each test
checks one channel of the report, so that a known leak fails its own test only.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core import mail
from django.db import transaction
from rest_framework.test import APIClient

from games.core.protocol import OBSERVER, Action, random_legal_action
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team.engine import WRITE_ORDER, data_of
from pbem.notify.content import notification_content
from pbem.notify.models import Notification
from pbem.play.models import Event, Game
from pbem.play.selectors import numbering_for
from pbem.play.services import games as games_service
from pbem.play.services.log import state_at
from tests.pbem.api.conftest import client_for
from tests.pbem.notify.nf_helpers import reply_addresses_named
from tests.support.team_pairs import (
    PAIRS,
    PairSpec,
    delivery_shape,
    first_difference,
    normal_form,
    random_written_order,
    readers_of_difference,
)

# the module fixture plays on the test database, which pytest-django sets up for marked tests
pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
TEAM_API = (ROOT / "pbem/api/team.py").exists()  # contract K1 landed
ETAG_API = (ROOT / "pbem/api/etags.py").exists()  # contract K2 landed
MIN_COMPARED = 1000  # (seat, step) states compared over all pairs
MAX_STEPS = 700  # a pair not over by then is cut (its archive is not checked)
CHECKPOINT = 12  # the whole event list and the listing every this many steps
STEP = timedelta(minutes=3)
T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
SEED = bytes(range(32))  # the games' secret seed (pbem.play.services.games draws it)
KEPT = 6  # differences kept per channel for the report

# path templates of the reads; {g} is the game id. Every compared seat reads the view and the
# events after its last head at every step; one of them (in turn) also reads one of ROTATING (in
# turn); every CHECKPOINT steps each reads everything, with the whole event list and the listing.
# The team reads answer from the whole seat view (some 25 ms each): all reads by all seats at
# every step would take some 10 minutes for the 1000 states.
ALWAYS = {"view": "/api/v1/games/{g}/view"}
ROTATING = {
    "detail": "/api/v1/games/{g}",
    "deadline": "/api/v1/games/{g}/deadline",
    "team_inbox": "/api/v1/games/{g}/team/orders/inbox",
    "team_outbox": "/api/v1/games/{g}/team/orders/outbox",
    "team_conference": "/api/v1/games/{g}/team/conference/messages",
    "commitments": "/api/v1/games/{g}/orders/commitments",
    "archive": "/api/v1/games/{g}/orders/archive",
}
TEAM_READS = ("team_inbox", "team_outbox", "team_conference", "commitments", "archive")


@dataclass
class Report:
    compared: int = 0  # (seat, step) states compared
    steps: int = 0
    extra_orders: int = 0  # B's orders where A wrote none
    varied_orders: int = 0  # B's other orders where A wrote one
    over: int = 0  # pairs played to the end
    seconds: float = 0.0
    differences: Counter[str] = field(default_factory=Counter)  # channel -> how many
    examples: dict[str, list[str]] = field(default_factory=dict)
    statuses: dict[str, Counter[int]] = field(default_factory=dict)  # read -> status codes
    tagged: Counter[str] = field(default_factory=Counter)  # read -> answers with an ETag
    etag_clashes: list[str] = field(default_factory=list)  # one tag, two bodies (one run)
    archive: list[str] = field(default_factory=list)  # archive problems
    rendered: int = 0  # notifications rendered and compared
    mails: int = 0  # mails compared
    controls: list[tuple[str, bool]] = field(default_factory=list)  # seat joining, views differ

    def differ(self, channel: str, where: str, a: str, b: str) -> None:
        self.differences[channel] += 1
        kept = self.examples.setdefault(channel, [])
        if len(kept) < KEPT:
            kept.append(f"{where}: {first_difference(a, b)}")

    def status(self, read: str, code: int) -> None:
        self.statuses.setdefault(read, Counter())[code] += 1

    def explain(self, channel: str) -> str:
        n = self.differences[channel]
        return f"{n} differences in {channel}:\n" + "\n".join(self.examples.get(channel, []))


@dataclass
class Answer:
    status: int
    body: str  # normal form
    etag: str | None
    raw: bytes


@dataclass
class EtagBook:
    """One run's ETags: per (reader, read) the tags in order of first appearance (so that A and B,
    whose tags name different games, compare by pattern), and each tag's body hash."""

    order: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict)
    bodies: dict[tuple[str, str, str], str] = field(default_factory=dict)

    def token(self, key: tuple[str, str], etag: str | None) -> str:
        if etag is None:
            return "-"
        seen = self.order.setdefault(key, {})
        return f"#{seen.setdefault(etag, len(seen))}"

    def clash(self, key: tuple[str, str], etag: str | None, raw: bytes) -> bool:
        if etag is None:
            return False
        digest = hashlib.sha256(raw).hexdigest()
        return self.bodies.setdefault((*key, etag), digest) != digest


@dataclass
class Reader:
    role: str  # a seat's role, or OBSERVER
    client: APIClient
    user: User
    after: int = 0  # the head the reader last saw (its own numbering)


class PairRun:
    """Plays one pair and compares what the readers get after every step."""

    def __init__(
        self, spec: PairSpec, users: dict[str, User], observer: User, report: Report, clock: Any
    ) -> None:
        self.spec, self.report, self.clock = spec, report, clock
        self.roles = spec.roles()
        self.readers = [Reader(r, client_for(users[r]), users[r]) for r in sorted(self.roles)]
        self.readers.append(Reader(OBSERVER, client_for(observer), observer))
        self.by_role = {r.role: r for r in self.readers}
        self.player = Rng(spec.seed)
        self.deviator = Rng(spec.seed ^ 0x5EC2E7)
        self.tainted: set[str] = set()
        self.books = {"A": EtagBook(), "B": EtagBook()}
        self.seen_rows = {"A": 0, "B": 0}
        self.seen_mail = 0
        self.step = 0
        self.turn = 0  # compare points so far: who reads which of ROTATING
        self.a = self._create(users)
        self.b = self._create(users)

    # --- set-up -------------------------------------------------------------------------------

    def _create(self, users: dict[str, User]) -> str:
        creator = self.by_role[sorted(self.roles)[0]]
        body = {
            "ruleset": "napoleons_triumph",
            "scenario": "DEC2",
            "options": {"board": "austerlitz", "team_play": True, "roles": self.roles},
            "seats": {r: users[r].username for r in self.roles},
            "title": f"pair {self.spec.seed}",
        }
        with pytest.MonkeyPatch.context() as mp:  # the same secret seed for A and B
            mp.setattr(games_service, "secrets", SimpleNamespace(token_bytes=lambda n: SEED[:n]))
            created = creator.client.post("/api/v1/games", body, format="json")
        assert created.status_code == 201, created.content
        gid = str(created.json()["id"])
        for reader in self.readers:
            if reader is not creator and reader.role != OBSERVER:
                answer = reader.client.post(f"/api/v1/games/{gid}/seats/{reader.role}/accept")
                assert answer.status_code == 200, answer.content
        return gid

    # --- the game -----------------------------------------------------------------------------

    def state(self, gid: str) -> GameState:
        game = Game.objects.get(pk=gid)
        state = state_at(game, game.head_seq)
        assert isinstance(state, GameState)
        return state

    def over(self) -> bool:
        return Game.objects.get(pk=self.a).status != Game.Status.ACTIVE

    def submit(self, gid: str, action: Action) -> Any:
        body = {"role": action.role, "kind": action.kind, "payload": action.payload}
        answer = self.by_role[action.role].client.post(
            f"/api/v1/games/{gid}/actions", body, format="json"
        )
        assert answer.status_code == 201, (gid == self.a, action, answer.content)
        return answer

    def play(self) -> None:
        limit = self.spec.steps or MAX_STEPS
        while self.step < limit and not self.over():
            self.step += 1
            self.report.steps += 1
            self.clock.move_to(T0 + self.step * STEP)
            state_a = self.state(self.a)
            prompts = RULESET.prompts(state_a)
            assert prompts, "an active game with nobody prompted"
            roles = sorted(prompts)
            first = self.player.below(len(roles))
            action = None
            for role in roles[first:] + roles[:first]:  # the first seat the player finds a move for
                action = random_legal_action(RULESET, state_a, role, self.player)
                if action is not None:
                    break
            assert action is not None, f"no move found for any of {roles}"
            in_b = self._vary(action)
            answer_a, answer_b = self.submit(self.a, action), self.submit(self.b, in_b)
            self._update_taint()
            self._compare_answers(action.role, answer_a, answer_b)
            self.compare(f"step {self.step} ({action.kind} by {action.role})")
            self._maybe_extra_order()
        if self.over():
            self.report.over += 1
            self.check_archive()

    def _vary(self, action: Action) -> Action:
        """B's action: another order where A's secret CinC writes one, now and then."""
        if action.kind != WRITE_ORDER or not self.deviator.chance(1, 2):
            return action
        state_b = self.state(self.b)
        if state_b.roles.get(action.role) != self.spec.secret:
            return action
        other = random_written_order(state_b, action.role, self.deviator)
        if other is None or other == action or RULESET.validate(state_b, other):
            return action
        self.report.varied_orders += 1
        return other

    def _maybe_extra_order(self) -> None:
        """In B only, half a clock step later: the secret CinC, if he may write now, writes an
        order (3 times in 4), and maybe another (to another recipient or replacing it)."""
        for extra in range(2):
            if self.over() or not self.deviator.chance(3 if extra == 0 else 1, 4):
                return
            state_b = self.state(self.b)
            writers = [
                role
                for role, prompt in sorted(RULESET.prompts(state_b).items())
                if WRITE_ORDER in prompt.kinds and state_b.roles.get(role) == self.spec.secret
            ]
            order = random_written_order(state_b, writers[0], self.deviator) if writers else None
            if order is None or RULESET.validate(state_b, order):
                return
            self.clock.move_to(T0 + self.step * STEP + STEP / 2 + extra * timedelta(seconds=7))
            self.submit(self.b, order)
            self.report.extra_orders += 1
            self._update_taint()
            self.compare(f"step {self.step} + B's extra order {extra + 1} by {order.role}")

    def _update_taint(self) -> None:
        """Add the seats that may now read what tells B from A; as a control of the comparison
        itself, each such seat's view must differ between A and B when it joins."""
        readers = readers_of_difference(self.state(self.a), self.state(self.b), self.spec.secret)
        for role in sorted(readers - self.tainted):
            reader = self.by_role[role]
            a = self.fetch("A", reader, ALWAYS["view"], "control")
            b = self.fetch("B", reader, ALWAYS["view"], "control")
            differs = (a.status, a.body) != (b.status, b.body)
            self.report.controls.append((f"pair {self.spec.seed} step {self.step} {role}", differs))
        self.tainted |= readers

    # --- comparing ----------------------------------------------------------------------------

    def fetch(self, run: str, reader: Reader, path: str, read: str) -> Answer:
        gid, other = (self.a, self.b) if run == "A" else (self.b, self.b)
        response = reader.client.get(path.format(g=gid))
        etag = response.headers.get("ETag")
        raw = response.content
        book = self.books[run]
        key = (reader.role, read)
        if book.clash(key, etag, raw):
            self.report.etag_clashes.append(f"{run} step {self.step} {reader.role} {read} {etag}")
        token = book.token(key, etag)
        if etag is not None:
            self.report.tagged[read.split("?")[0]] += 1
        return Answer(response.status_code, normal_form(raw, gid, other), token, raw)

    def same(self, channel: str, where: str, a: Answer, b: Answer) -> None:
        if (a.status, a.body) != (b.status, b.body):
            self.report.differ(channel, where, f"{a.status} {a.body}", f"{b.status} {b.body}")
        if a.etag != b.etag:
            self.report.differ("etag", where, str(a.etag), str(b.etag))

    def compare(self, where: str) -> None:
        if self.over():
            return  # from GAME_OVER everyone reads the archive (NT-TEAM-26)
        checkpoint = self.step % CHECKPOINT == 0
        compared = [r for r in self.readers if r.role not in self.tainted]
        self.turn += 1
        rotating = list(ROTATING)[self.turn % len(ROTATING)]
        for i, reader in enumerate(compared):
            self.report.compared += 1
            here = f"pair {self.spec.seed} {where} as {reader.role}"
            reads = dict(ALWAYS)
            reads[f"events?after={reader.after}"] = "/api/v1/games/{g}/events?after=" + str(
                reader.after
            )
            if checkpoint:
                reads.update(ROTATING)
                reads["events"] = "/api/v1/games/{g}/events"
                reads["listing"] = "/api/v1/games"
            elif i == self.turn % len(compared):
                reads[rotating] = ROTATING[rotating]
            for read, path in reads.items():
                a, b = self.fetch("A", reader, path, read), self.fetch("B", reader, path, read)
                self.report.status(read.split("?")[0], a.status)
                if read == "listing":
                    a, b = self._listing_row(a, self.a), self._listing_row(b, self.b)
                channel = "events" if read.startswith("events") else read
                self.same(channel, f"{here} GET {read}", a, b)
            reader.after = self._head(reader)  # the next step asks for what came after
        self._compare_notifications(where)
        self._compare_mail(where)

    def _head(self, reader: Reader) -> int:
        """The reader's head in its own numbering (as the detail would say, without a request)."""
        game = Game.objects.get(pk=self.a)
        role = reader.role
        return int(numbering_for(game, [role]).role_seq(game.head_seq))

    def _listing_row(self, answer: Answer, gid: str) -> Answer:
        rows = [r for r in json.loads(answer.raw) if str(r.get("id")) == gid]
        raw = json.dumps(rows).encode()
        return Answer(answer.status, normal_form(raw, gid, self.b), None, raw)

    def _compare_answers(self, role: str, answer_a: Any, answer_b: Any) -> None:
        """The acting seat's order answer and intake (L7: numbered in its own numbering)."""
        if role in self.tainted:
            return
        reader = self.by_role[role]
        where = f"pair {self.spec.seed} step {self.step} as {role}"
        posted: list[Answer] = []
        read: list[Answer] = []
        for answer, gid in ((answer_a, self.a), (answer_b, self.b)):
            intake = str(answer.json()["intake"]["id"]).encode()  # a random UUID in each
            raw = answer.content.replace(intake, b"<intake>")
            posted.append(Answer(answer.status_code, normal_form(raw, gid, self.b), None, raw))
            got = reader.client.get(f"/api/v1/intakes/{intake.decode()}")
            raw = got.content.replace(intake, b"<intake>")
            read.append(Answer(got.status_code, normal_form(raw, gid, self.b), None, raw))
        self.same("order_answer", f"{where} POST actions", *posted)
        self.same("order_answer", f"{where} GET intakes", *read)

    def _new_rows(self, run: str, gid: str) -> list[Notification]:
        rows = list(
            Notification.objects.filter(game_id=gid, pk__gt=self.seen_rows[run])
            .select_related("event", "game", "user")
            .order_by("pk")
        )
        if rows:
            self.seen_rows[run] = rows[-1].pk
        return [n for n in rows if n.role not in self.tainted]

    def _compare_notifications(self, where: str) -> None:
        """The rows planned for seats that may not read the difference (kind, role, user,
        channel), and what they say (pbem.notify.content.notification_content)."""
        rows_a, rows_b = self._new_rows("A", self.a), self._new_rows("B", self.b)

        def shape(rows: list[Notification]) -> str:
            return str(sorted((n.role, n.kind, n.user.username, n.channel) for n in rows))

        here = f"pair {self.spec.seed} {where}"
        if shape(rows_a) != shape(rows_b):
            self.report.differ("notification_rows", here, shape(rows_a), shape(rows_b))
            return

        def key(n: Notification) -> tuple[str, str, str]:
            return n.role, n.kind, n.channel

        for na, nb in zip(sorted(rows_a, key=key), sorted(rows_b, key=key), strict=True):
            ca, cb = notification_content(na), notification_content(nb)
            text_a = self._same_names(f"{ca.subject}\n{ca.text}".replace(self.a, self.b))
            text_b = self._same_names(f"{cb.subject}\n{cb.text}")
            self.report.rendered += 1
            if text_a != text_b:
                self.report.differ("notification_content", f"{here} {na.role}", text_a, text_b)

    def _same_names(self, text: str) -> str:
        return reply_addresses_named(text, [self.a, self.b])

    def _compare_mail(self, where: str) -> None:
        """The mails sent meanwhile to seats that may not read the difference: recipient,
        subject, body, and the headers (Message-ID, X-PBEM-Delivery; L7, L17)."""
        new = mail.outbox[self.seen_mail :]
        self.seen_mail = len(mail.outbox)
        users = {r.user.email: r.role for r in self.readers}
        ranks = {
            gid: {
                str(pk): i
                for i, pk in enumerate(
                    Event.objects.filter(game_id=gid).order_by("seq").values_list("pk", flat=True)
                )
            }
            for gid in (self.a, self.b)
        }
        sent: dict[str, list[tuple[str, str, str]]] = {"A": [], "B": []}
        for m in new:
            thread = str(m.extra_headers.get("In-Reply-To", ""))
            run = "A" if self.a in thread else "B" if self.b in thread else None
            role = users.get(m.to[0]) if m.to else None
            if run is None or role is None or role in self.tainted:
                continue
            gid = self.a if run == "A" else self.b
            content = self._same_names(f"{m.to}\n{m.subject}\n{m.body}".replace(gid, self.b))
            headers = "{} {}".format(
                str(m.extra_headers.get("Message-ID", "")).replace(gid, self.b),
                delivery_shape(str(m.extra_headers.get("X-PBEM-Delivery", "")), ranks[gid]),
            )
            sent[run].append((role, content, headers))
        here = f"pair {self.spec.seed} {where}"
        a, b = sorted(sent["A"]), sorted(sent["B"])
        self.report.mails += len(a)
        contents_a, contents_b = str([x[:2] for x in a]), str([x[:2] for x in b])
        if contents_a != contents_b:
            self.report.differ("mail_content", here, contents_a, contents_b)
        headers_a, headers_b = str([x[::2] for x in a]), str([x[::2] for x in b])
        if headers_a != headers_b:
            self.report.differ("mail_headers", here, headers_a, headers_b)

    def check_archive(self) -> None:
        """NT-TEAM-26: once over, every seat and the observer read the same archive of every
        slot of both teams (null slots included)."""
        for run, gid in (("A", self.a), ("B", self.b)):
            slots = len(data_of(self.state(gid)).slots)
            bodies = set()
            for reader in self.readers:
                got = reader.client.get(f"/api/v1/games/{gid}/orders/archive")
                self.report.status("archive_over", got.status_code)
                if not TEAM_API:
                    continue
                where = f"pair {self.spec.seed} {run} as {reader.role}"
                if got.status_code != 200:
                    self.report.archive.append(f"{where}: {got.status_code} {got.content!r}")
                    continue
                orders = got.json().get("orders")
                if not isinstance(orders, list) or len(orders) != slots:
                    self.report.archive.append(f"{where}: {orders!r} for {slots} slots")
                bodies.add(got.content)
            if len(bodies) > 1:
                self.report.archive.append(f"pair {self.spec.seed} {run}: readers differ")


@pytest.fixture(scope="module")
def report(django_db_setup: None, django_db_blocker: Any) -> Report:
    """Play every pair once (the games are rolled back afterwards)."""
    result = Report()
    started = time.monotonic()
    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as mp:
        # as conftest's _commit_at_once: run on_commit callbacks at once (eager Celery)
        mp.setattr(transaction, "on_commit", lambda func, using=None, robust=False: func())
        with transaction.atomic():
            with time_machine.travel(T0, tick=False) as clock:
                users = {
                    role: User.objects.create_user(f"tl-{role}", f"{role}@example.org", "pw")
                    for role in {r for spec in PAIRS for r in spec.roles()}
                }
                observer = User.objects.create_user("tl-observer", "observer@example.org", "pw")
                mail.outbox = []
                for spec in PAIRS:
                    PairRun(spec, users, observer, result, clock).play()
            transaction.set_rollback(True)
    result.seconds = time.monotonic() - started
    return result


def test_enough_states_are_compared_in_time(report: Report) -> None:
    print(  # noqa: T201 - the figures line
        f"\nteam leaks: {report.compared} (seat, step) states over {report.steps} steps of "
        f"{len(PAIRS)} pairs ({report.over} over), {report.extra_orders} extra and "
        f"{report.varied_orders} other orders in B, {report.rendered} notifications and "
        f"{report.mails} mails compared, {report.seconds:.1f} s"
    )
    assert report.compared >= MIN_COMPARED
    assert report.extra_orders + report.varied_orders > 0
    assert report.over > 0, "no pair was played to its end: the archive went unchecked"


@pytest.mark.parametrize("channel", ["view", "events", "detail", "deadline", "listing"])
def test_the_platform_reads_are_the_same(report: Report, channel: str) -> None:
    assert report.statuses[channel][200] > 0
    assert report.differences[channel] == 0, report.explain(channel)


@pytest.mark.parametrize("channel", TEAM_READS)
def test_the_team_reads_are_the_same(report: Report, channel: str) -> None:
    """Contract K1 (before it lands both games answer 404, which is equal too)."""
    assert report.differences[channel] == 0, report.explain(channel)
    if TEAM_API:
        expected = 409 if channel == "archive" else 200
        assert set(report.statuses[channel]) == {expected}, report.statuses[channel]


def test_the_archive_shows_every_slot_to_everyone_once_over(report: Report) -> None:
    assert report.archive == []
    if TEAM_API:
        assert set(report.statuses.get("archive_over", {})) == {200}


def test_the_etags_change_alike(report: Report) -> None:
    """L6, T44: an ETag changes exactly when an event its reader may know of is appended."""
    assert report.differences["etag"] == 0, report.explain("etag")
    if TEAM_API or ETAG_API:
        assert report.tagged["view"] > 0
        assert report.tagged["events"] > 0


def test_one_etag_never_labels_two_bodies(report: Report) -> None:
    assert report.etag_clashes == []


def test_the_comparison_sees_what_the_readers_of_a_difference_see(report: Report) -> None:
    """A control: the author and each recipient of a delivered different order read views that
    differ between A and B from the moment they may (so equal answers elsewhere mean something)."""
    assert report.controls, "B's orders never made a difference anyone may read"
    assert [where for where, differs in report.controls if not differs] == []
    assert len({where.split()[-1] for where, _ in report.controls}) >= 3  # CinCs and recipients


def test_the_order_answers_are_the_same(report: Report) -> None:
    """L7: an order's answer and intake number its event in the actor's own numbering."""
    assert report.differences["order_answer"] == 0, report.explain("order_answer")


def test_the_notifications_are_the_same(report: Report) -> None:
    assert report.rendered > 0
    for channel in ("notification_rows", "notification_content", "mail_content"):
        assert report.differences[channel] == 0, report.explain(channel)


def test_the_mail_headers_are_the_same(report: Report) -> None:
    """L7, L17: a mail's Message-ID and X-PBEM-Delivery count no hidden event."""
    assert report.mails > 0
    assert report.differences["mail_headers"] == 0, report.explain("mail_headers")
