"""Auditable dice: replay a whole game from its seed and check every hash.

`game_verify` rebuilds the state from the secret seed alone (event 1 `.setup` is the engine's
set-up with `rng_for(game, 1)`, every later event is applied with its dice key `rng_of(game,
event)`: services/log.py dice_key), never
trusting a snapshot, and checks: the seq is gapless from 1, every stored `state_hash`, the game's
head (seq and hash), every snapshot and the head state (caches: each must hash to the replayed
state), and that sha256(seed) is the commitment published at creation. `seed_reveal` gives the
seed only once the game is finished; while it runs the seed stays secret.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from games.core.canonical import state_hash
from games.core.protocol import SETUP_KIND, Action
from pbem.play.models import Event, Game, HeadState, Snapshot
from pbem.play.rulesets import UnknownRuleset, ruleset_get
from pbem.play.services.log import config_of, rng_for, rng_of


@dataclass
class VerifyReport:
    game_id: str
    ok: bool = True
    events_checked: int = 0
    first_mismatch: int | None = None  # the first seq whose replay does not match the log
    commitment_ok: bool = False  # sha256(seed) == seed_commitment
    snapshots_checked: int = 0
    seconds: float = 0.0
    messages: list[str] = field(default_factory=list)

    def fail(self, message: str, seq: int | None = None) -> None:
        self.ok = False
        if seq is not None and (self.first_mismatch is None or seq < self.first_mismatch):
            self.first_mismatch = seq
        self.messages.append(message)


def _events(game: Game) -> Iterator[Event]:
    return Event.objects.filter(game=game).order_by("seq").iterator(chunk_size=500)


def game_verify(*, game: Game) -> VerifyReport:
    """Replay `game` from its seed and check the log, the head, the snapshots and the commitment.
    Never raises for a bad log: every problem is a message in the report."""
    started = time.monotonic()
    report = VerifyReport(game_id=str(game.pk))
    seed = bytes(game.seed)
    report.commitment_ok = hashlib.sha256(seed).hexdigest() == game.seed_commitment
    if not report.commitment_ok:
        report.fail("the seed does not match the published commitment sha256(seed)")
    try:
        ruleset = ruleset_get(game.ruleset_id)
    except UnknownRuleset as e:
        report.fail(str(e))
        report.seconds = time.monotonic() - started
        return report

    hashes: dict[int, str] = {}  # seq -> replayed hash, to check the snapshots afterwards
    state: object = None
    expected = 1
    last_seq, last_hash = 0, ""
    for ev in _events(game):
        if ev.seq != expected:
            report.fail(
                f"event {expected} is missing (the next stored event is {ev.seq})", expected
            )
            break
        if ev.engine_version != ruleset.version:
            report.messages.append(
                f"event {ev.seq} was written by engine version {ev.engine_version}, "
                f"replayed with version {ruleset.version}"
            )
        try:
            if ev.seq == 1:
                if ev.kind != SETUP_KIND:
                    report.fail(f"event 1 is {ev.kind!r}, not .setup", 1)
                    break
                state = ruleset.setup(config_of(game), rng_for(game, 1))
            else:
                action = Action(ev.role, ev.kind, ev.payload)
                state = ruleset.apply(state, action, rng_of(game, ev)).state
            digest = state_hash(ruleset.dump(state))
        except Exception as e:  # an engine refusing a logged action is a mismatch, not a crash
            report.fail(
                f"event {ev.seq} ({ev.kind}) does not replay: {type(e).__name__}: {e}", ev.seq
            )
            break
        report.events_checked += 1
        if digest != ev.state_hash:
            report.fail(
                f"event {ev.seq} ({ev.kind}) replays to {digest[:12]}…, "
                f"the log says {ev.state_hash[:12]}…",
                ev.seq,
            )
            break
        hashes[ev.seq] = digest
        last_seq, last_hash = ev.seq, digest
        expected += 1

    if report.ok:
        if last_seq == 0:
            report.fail("the game has no events", 1)
        elif game.head_seq != last_seq:
            report.fail(f"the game's head is {game.head_seq}, the log ends at {last_seq}", last_seq)
        elif game.head_hash != last_hash:
            report.fail(f"the game's head hash does not match event {last_seq}", last_seq)

    snapshots = Snapshot.objects.filter(game=game, engine_version=ruleset.version).order_by("seq")
    for snap in snapshots:
        want = hashes.get(snap.seq)
        if want is None:
            continue  # beyond the verified part of the log: not comparable
        report.snapshots_checked += 1
        if snap.state_hash != want or state_hash(snap.state) != want:
            report.fail(f"snapshot at event {snap.seq} does not match the replayed state", snap.seq)

    head = HeadState.objects.filter(game=game, engine_version=ruleset.version).first()
    want = hashes.get(head.seq) if head is not None else None
    if head is not None and want is not None:  # a cache like the snapshots, read at the head
        report.snapshots_checked += 1
        if head.state_hash != want or state_hash(head.state) != want:
            report.fail(f"the head state at event {head.seq} does not match the replay", head.seq)

    report.seconds = time.monotonic() - started
    return report


def seed_reveal(game: Game) -> str | None:
    """The seed as hex once the game is finished (so anyone can check the dice); else None."""
    if game.status != Game.Status.FINISHED:
        return None
    return bytes(game.seed).hex()
