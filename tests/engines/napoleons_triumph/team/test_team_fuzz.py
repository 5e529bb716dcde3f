"""`python -m games.fuzz napoleons_triumph --team`: random team games of 1 to 4 seats a side
played to their end with the fuzzer's checks and the written-order timing and leak check."""

from __future__ import annotations

from games import fuzz
from games.core.rng import Rng
from games.napoleons_triumph.team.randomplay import team_options


def test_team_fuzz_plays_random_team_games_to_their_end() -> None:
    for g in range(2):
        seed = f"fuzz:test:{g}".encode()
        options = team_options(Rng.for_event(seed, 1 << 41))
        actions, decided = fuzz.play_one(
            "napoleons_triumph", "DEC2", options, seed, 20000, True, team=True
        )
        assert decided
        assert actions > 0


def test_team_flag_of_the_fuzzer() -> None:
    assert fuzz.main(["napoleons_triumph", "--team", "--games", "1", "--seed", "7", "--quiet"]) == 0


def test_team_sizes_are_one_to_four_a_side() -> None:
    sizes = set()
    for i in range(60):
        roles = team_options(Rng(i))["roles"]
        assert isinstance(roles, dict)
        sizes.add((sum(v == "AL" for v in roles.values()), sum(v == "F" for v in roles.values())))
    assert {a for a, _ in sizes} == {1, 2, 3, 4} == {f for _, f in sizes}
