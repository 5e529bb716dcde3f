"""The auction for game balance (NT-134, NT-135) and the cavalry reinforcement
that attacks by road as it enters (NT-145). Each docstring quotes the rulebook line it follows
(seed 002_c7c2dc03e596c26c.txt)."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.protocol import JSON, SYSTEM, Action, GameConfig
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.randomplay import random_action
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.text import parse_text

AUCTION: dict[str, JSON] = {"board": "austerlitz", "balance": "auction"}


def _any(x: object) -> Any:
    return x


def _auction(first: str = "player_1") -> GameState:
    """A DEC2 game with the auction whose lot made `first` the first bidder."""
    for seed in range(50):
        state = RULESET.setup(GameConfig("DEC2", AUCTION), Rng(seed))
        assert state.auction is not None
        if state.auction["first"] == first:
            return state
    raise AssertionError("no seed gives that lot")


def _play(state: GameState, role: str, kind: str, payload: dict[str, JSON]) -> GameState:
    action = Action(role, kind, payload)
    assert RULESET.validate(state, action) == ()
    return RULESET.apply(state, action, Rng(0)).state


def _refused(state: GameState, role: str, kind: str, payload: dict[str, JSON]) -> Any:
    rejections = RULESET.validate(state, Action(role, kind, payload))
    assert rejections
    return rejections[0]


def _log(state: GameState, role: str, kind: str, payload: dict[str, JSON]) -> list[str]:
    step = RULESET.apply(state, Action(role, kind, payload), Rng(0))
    return RULESET.log_for(step.log, role)


# ----------------------------------------------------------------------------- the auction


def test_nt134_auction_is_set_up_step_2_between_two_players_and_the_lot_picks_the_first() -> None:
    """NT-134: "Die Versteigerung erfolgt in Schritt (2) des Spielaufbaus." (L636) and "Es wird
    gelost, wer mit dem Bieten beginnt." (L637). The option {"balance": "auction"} seats two
    players with no side yet; the lot comes from the game's seeded generator."""
    roles = RULESET.roles("DEC2", AUCTION)
    assert [r.id for r in roles] == ["player_1", "player_2"]
    assert all(r.team is None for r in roles)
    firsts = set()
    for seed in range(12):
        state = RULESET.setup(GameConfig("DEC2", AUCTION), Rng(seed))
        again = RULESET.setup(GameConfig("DEC2", AUCTION), Rng(seed))
        assert state.auction == again.auction  # deterministic
        assert (state.phase, state.roles) == ("auction", {})
        assert state.auction is not None
        firsts.add(state.auction["first"])
        assert set(RULESET.prompts(state)) == {state.auction["first"]}
        assert set(RULESET.prompts(state)[str(state.auction["first"])].kinds) == {
            "auction_bid",
            "auction_pass",
        }
    assert firsts == {"player_1", "player_2"}
    # the salt of a game without the auction is what it was (the lot is drawn after it)
    plain = RULESET.setup(GameConfig("DEC2", {"board": "austerlitz"}), Rng(3))
    auctioned = RULESET.setup(GameConfig("DEC2", AUCTION), Rng(3))
    assert plain.salt == auctioned.salt
    assert plain.auction is None
    assert "auction" not in _any(RULESET.dump(plain))


def test_nt134_bids_in_turn_each_greater_than_the_last() -> None:
    """NT-134, NT-T65: "Die Spieler bieten abwechselnd. Ein Gebot ist eine beliebige Zahl größer
    gleich Null und größer als das vorherige Gebot." (L637)."""
    state = _auction("player_1")
    assert _refused(state, "player_2", "auction_bid", {"amount": 1}).rule == "NT-134"  # in turn
    assert _refused(state, "player_1", "auction_bid", {"amount": -1}).rule == "schema"
    state = _play(state, "player_1", "auction_bid", {"amount": 0})
    assert set(RULESET.prompts(state)) == {"player_2"}
    assert _refused(state, "player_1", "auction_bid", {"amount": 1}).rule == "NT-134"  # in turn
    state = _play(state, "player_2", "auction_bid", {"amount": 2})
    refused = _refused(state, "player_1", "auction_bid", {"amount": 2})
    assert (refused.rule, refused.path) == ("NT-134", "/amount")
    assert "greater than the previous bid 2" in refused.message
    state = _play(state, "player_1", "auction_bid", {"amount": 3})
    assert _refused(state, "player_2", "allied_setup", {"corps": []}).rule == "NT-134"
    assert _refused(state, "player_2", "resign", {}).rule == "NT-134"


def test_nt135_the_pass_ends_it_the_winner_chooses_his_side_and_pays_his_last_bid() -> None:
    """NT-135, NT-T65: "Die Versteigerung endet, wenn ein Spieler nicht bietet, sondern paßt. Der
    andere erhält den Zuschlag: Er wählt seine Seite (Alliierte oder Franzosen) und reduziert seine
    Startmoral um sein letztes Gebots. Der passende Spieler übernimmt die Gegenseite zu ihrem
    normalen Moralwert." (L638)."""
    state = _auction("player_1")
    for role, amount in (("player_1", 0), ("player_2", 2), ("player_1", 3)):
        state = _play(state, role, "auction_bid", {"amount": amount})
    lines = _log(state, "player_2", "auction_pass", {})
    assert lines == ["Auction: player_2 passes; player_1 wins with a bid of 3 and chooses a side."]
    state = _play(state, "player_2", "auction_pass", {})
    assert RULESET.prompts(state)["player_1"].kinds.keys() == {"auction_choose_side"}
    assert set(RULESET.prompts(state)) == {"player_1"}
    assert _refused(state, "player_2", "auction_choose_side", {"side": "F"}).rule == "NT-135"
    assert _refused(state, "player_1", "auction_bid", {"amount": 4}).rule == "NT-135"
    state = _play(state, "player_1", "auction_choose_side", {"side": "AL"})
    assert state.morale == {"F": 23, "AL": 24}  # 27 - 3; the French at their normal 23
    assert state.roles == {"player_1": "AL", "player_2": "F"}
    assert (state.phase, set(RULESET.prompts(state))) == ("setup_AL", {"player_1"})
    over = _refused(state, "player_2", "auction_bid", {"amount": 5})
    assert (over.rule, over.message) == ("NT-134", "the auction is over")
    result_view = RULESET.view(state, "player_2")
    assert isinstance(result_view, dict)
    assert result_view["viewer"] == {"role": "player_2", "side": "F"}
    assert _any(result_view)["auction"]["sides"] == {"player_1": "AL", "player_2": "F"}


def test_nt135_first_bidder_passes_at_once_the_other_wins_with_zero() -> None:
    """NT-135 / AMB-35: "Die Versteigerung endet, wenn ein Spieler nicht bietet, sondern paßt."
    (L638): a pass before any bid gives the other player the auction with bid 0."""
    state = _auction("player_2")
    state = _play(state, "player_2", "auction_pass", {})
    state = _play(state, "player_1", "auction_choose_side", {"side": "F"})
    assert state.morale == {"F": 23, "AL": 27}
    assert state.roles == {"player_1": "F", "player_2": "AL"}
    assert set(RULESET.prompts(state)) == {"player_2"}  # the Allies set up first (NT-19)


def test_nt135_no_bid_may_bring_the_chosen_side_below_morale_1() -> None:
    """NT-135 / AMB-35: "... reduziert seine Startmoral um sein letztes Gebots." (L638); a morale
    below 1 would lose at once, so a bid stays below the larger starting morale and the winner
    may not choose a side whose morale his bid would bring below 1."""
    state = _auction("player_1")
    refused = _refused(state, "player_1", "auction_bid", {"amount": 27})
    assert (refused.rule, refused.path) == ("NT-135", "/amount")
    state = _play(state, "player_1", "auction_bid", {"amount": 25})
    state = _play(state, "player_2", "auction_pass", {})
    refused = _refused(state, "player_1", "auction_choose_side", {"side": "F"})
    assert (refused.rule, refused.path) == ("NT-135", "/side")
    specs = {s.kind: s for s in RULESET.actions(state, "player_1")}
    assert specs["auction_choose_side"].choices == {
        "payloads": [{"side": "AL"}],
        "complete": True,
    }
    state = _play(state, "player_1", "auction_choose_side", {"side": "AL"})
    assert state.morale["AL"] == 2


def test_nt134_the_auction_is_public_and_both_players_see_the_same() -> None:
    """NT-134: "Die Spieler bieten abwechselnd." (L637): an open auction, so every bid is public:
    both players (and spectators) read the same log lines and the same view."""
    state = _auction("player_1")
    step = RULESET.apply(state, Action("player_1", "auction_bid", {"amount": 4}), Rng(0))
    assert [e.audience for e in step.log] == [None]
    state = step.state
    views = [RULESET.view(state, r) for r in ("player_1", "player_2", "@observer")]
    for v in views:
        assert isinstance(v, dict)
        v.pop("viewer")
    assert views[0] == views[1] == views[2]
    assert _any(views[0])["auction"]["high_bid"] == 4
    assert _any(views[0])["auction"]["to_bid"] == "player_2"


def test_nt134_actions_list_legal_bids_and_no_any_time_kinds() -> None:
    """NT-134: "Ein Gebot ist eine beliebige Zahl größer gleich Null und größer als das vorherige
    Gebot." (L637): the listed bids start above the last bid; each listed payload is legal."""
    state = _play(_auction("player_1"), "player_1", "auction_bid", {"amount": 5})
    assert RULESET.actions(state, "player_1") == []
    specs = {s.kind: s for s in RULESET.actions(state, "player_2")}
    assert set(specs) == {"auction_bid", "auction_pass"}
    bids = _any(specs["auction_bid"].choices)["payloads"]
    assert bids[0] == {"amount": 6}
    assert bids[-1] == {"amount": 26}
    for spec in specs.values():
        for p in _any(spec.choices)["payloads"]:
            assert RULESET.validate(state, Action("player_2", spec.kind, p)) == ()


def test_nt134_options_deadline_random_play_and_text() -> None:
    """NT-134: "Es wird gelost, wer mit dem Bieten beginnt." (L637). The option cannot be mixed with
    fixed roles, a deadline has no default bid, random play finishes the auction, and text
    orders read `bid 3`, `pass`, `side french`."""
    with pytest.raises(Illegal) as err:
        RULESET.setup(GameConfig("DEC2", {**AUCTION, "roles": {"a": "AL", "b": "F"}}), Rng(1))
    assert err.value.rejection.rule == "NT-140"
    state = _auction("player_1")
    assert _refused(state, SYSTEM, ".deadline", {}).rule == "NT-134"
    assert parse_text(RULESET.ctx(state), "player_1", "bid 3\npass\nside french") == [
        Action("player_1", "auction_bid", {"amount": 3}),
        Action("player_1", "auction_pass", {}),
        Action("player_1", "auction_choose_side", {"side": "F"}),
    ]
    rng = Rng(7)
    for _ in range(60):
        if state.phase != "auction":
            break
        role = next(iter(RULESET.prompts(state)))
        action = random_action(RULESET, state, role, rng)
        assert action is not None
        state = _play(state, action.role, action.kind, _any(action.payload))
    assert state.phase == "setup_AL"
    assert set(state.roles.values()) == {"AL", "F"}
