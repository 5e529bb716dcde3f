"""The battle dice (digest 2.9; games.commands_colors_napoleonics.dice): six faces, rolled only
from the handed generator, recorded as faces; scripted dice for tests."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.commands_colors_napoleonics.dice import (
    DIE_FACES,
    DiceSource,
    Face,
    RngDice,
    ScriptedDice,
    count,
    faces_from_json,
    faces_to_json,
    roll,
)
from games.core.rng import Rng


def test_die_has_the_six_faces_of_the_rulebook() -> None:
    """2.9 (seed L69): two infantry, one cavalry, one artillery, one flag, one sabre; no leader
    face."""
    assert Counter(DIE_FACES) == {
        Face.INF: 2,
        Face.CAV: 1,
        Face.ART: 1,
        Face.FLAG: 1,
        Face.SABRE: 1,
    }
    assert {f.value for f in Face} == {"INF", "CAV", "ART", "FLAG", "SABRE"}


@given(seed=st.integers(0, 2**64 - 1), n=st.integers(0, 20))
def test_same_seed_same_faces(seed: int, n: int) -> None:
    """Determinism: the faces depend only on the generator's state."""
    assert roll(Rng(seed), n) == roll(Rng(seed), n)
    assert len(roll(Rng(seed), n)) == n
    assert RngDice(Rng(seed)).roll(n) == roll(Rng(seed), n)


def test_zero_dice_is_no_roll_and_draws_nothing() -> None:
    """2.9: 0 dice means no roll; the generator is untouched, so later rolls do not shift."""
    rng, fresh = Rng(7), Rng(7)
    assert roll(rng, 0) == ()
    assert rng.next64() == fresh.next64()


def test_roll_count_is_bounded() -> None:
    with pytest.raises(ValueError, match="cannot roll"):
        roll(Rng(1), -1)
    with pytest.raises(ValueError, match="cannot roll"):
        roll(Rng(1), 65)


def test_faces_are_uniform_over_the_die() -> None:
    """P(INF) = 1/3, every other face 1/6 (2.9; Appendix A), within a wide margin."""
    tally = Counter[Face]()
    rng = Rng(12345)
    for _ in range(100):
        tally.update(roll(rng, 60))
    total = sum(tally.values())
    assert abs(tally[Face.INF] / total - 1 / 3) < 0.02
    for face in (Face.CAV, Face.ART, Face.FLAG, Face.SABRE):
        assert abs(tally[face] / total - 1 / 6) < 0.015


def test_scripted_dice_play_back_in_order_and_refuse_to_invent() -> None:
    """Digest 0: tests inject predetermined faces."""
    dice = ScriptedDice(["SABRE", Face.INF, "FLAG"])
    assert dice.roll(2) == (Face.SABRE, Face.INF)
    assert dice.left == 1
    assert dice.roll(0) == ()
    with pytest.raises(LookupError):
        dice.roll(2)
    with pytest.raises(ValueError, match="LEADER"):
        ScriptedDice(["LEADER"])


def test_count_and_json_round_trip() -> None:
    faces = (Face.INF, Face.SABRE, Face.INF, Face.FLAG)
    assert count(faces, Face.INF) == 2
    assert count(faces, Face.CAV) == 0
    assert faces_to_json(faces) == ["INF", "SABRE", "INF", "FLAG"]
    assert faces_from_json(faces_to_json(faces)) == faces


def test_both_dice_sources_serve_the_engine() -> None:
    """The engine asks a DiceSource: the generator's dice in play, scripted faces in tests."""

    def first(source: DiceSource) -> tuple[Face, ...]:
        return source.roll(1)

    assert first(ScriptedDice(["ART"])) == (Face.ART,)
    assert first(RngDice(Rng(5))) == roll(Rng(5), 1)
