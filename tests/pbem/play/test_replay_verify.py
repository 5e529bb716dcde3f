"""State rebuilt from a snapshot equals state rebuilt from scratch; game_verify replays the whole
log from the seed, catches a tampered snapshot and a wrong seed commitment."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest

from games.core.canonical import state_hash
from pbem.play.models import Event, Game, HeadState, Snapshot
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import state_at
from pbem.play.services.verify import game_verify, seed_reveal

pytestmark = pytest.mark.django_db

Play = Callable[..., list[Event]]


def _hash_at(game: Game, seq: int) -> str:
    ruleset = ruleset_get(game.ruleset_id)
    return state_hash(ruleset.dump(state_at(game, seq)))


def test_state_from_a_snapshot_equals_state_from_scratch(nt_game: Game, play: Play) -> None:
    play(nt_game, until_turn_ends=4)
    head = nt_game.head_seq
    snaps = list(Snapshot.objects.filter(game=nt_game).values_list("seq", flat=True))
    assert len(snaps) >= 4
    assert max(snaps) > 3
    seqs = range(1, head + 1)
    cached = {seq: _hash_at(nt_game, seq) for seq in seqs}

    Snapshot.objects.filter(game=nt_game).delete()

    fresh = {seq: _hash_at(nt_game, seq) for seq in seqs}
    assert fresh == cached
    assert fresh[head] == nt_game.head_hash
    stored = dict(Event.objects.filter(game=nt_game).values_list("seq", "state_hash"))
    assert fresh == stored


def test_game_verify_passes_for_a_played_game(nt_game: Game, play: Play) -> None:
    play(nt_game, until_turn_ends=3)

    report = game_verify(game=nt_game)

    assert report.ok, report.messages
    assert report.events_checked == nt_game.head_seq
    assert report.first_mismatch is None
    assert report.commitment_ok
    assert report.snapshots_checked >= 3


def test_game_verify_fails_on_a_tampered_snapshot(nt_game: Game, play: Play) -> None:
    play(nt_game, until_turn_ends=2)
    snap = Snapshot.objects.filter(game=nt_game).order_by("-seq").first()
    assert snap is not None
    assert snap.seq > 1
    forged = snap.state
    assert isinstance(forged, dict)
    forged["forged"] = True
    Snapshot.objects.filter(pk=snap.pk).update(state=forged)  # allowed: a snapshot is a cache

    report = game_verify(game=nt_game)

    assert not report.ok
    assert report.first_mismatch == snap.seq
    assert report.events_checked == nt_game.head_seq  # the log itself is still fine
    assert any("snapshot" in m for m in report.messages)


def test_game_verify_fails_on_a_tampered_head_state(nt_game: Game, play: Play) -> None:
    play(nt_game, 3)
    head = HeadState.objects.get(game=nt_game)
    forged = dict(head.state) if isinstance(head.state, dict) else {}
    forged["forged"] = True
    HeadState.objects.filter(pk=head.pk).update(state=forged)  # a cache, like a snapshot

    report = game_verify(game=nt_game)

    assert not report.ok
    assert report.first_mismatch == nt_game.head_seq
    assert any("head state" in m for m in report.messages)


def test_game_verify_detects_a_wrong_seed_commitment(nt_game: Game) -> None:
    other = hashlib.sha256(b"another seed").hexdigest()
    Game.objects.filter(pk=nt_game.pk).update(seed_commitment=other)
    nt_game.refresh_from_db()

    report = game_verify(game=nt_game)

    assert not report.ok
    assert not report.commitment_ok
    assert any("commitment" in m for m in report.messages)


def test_the_seed_is_revealed_only_when_the_game_is_finished(nt_game: Game) -> None:
    assert seed_reveal(nt_game) is None
    Game.objects.filter(pk=nt_game.pk).update(status=Game.Status.PAUSED)
    nt_game.refresh_from_db()
    assert seed_reveal(nt_game) is None

    Game.objects.filter(pk=nt_game.pk).update(status=Game.Status.FINISHED)
    nt_game.refresh_from_db()
    seed = seed_reveal(nt_game)

    assert seed is not None
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == nt_game.seed_commitment
