"""The auction for game balance (rulebook 17. Spielbalance, L632-638; NT-133..NT-135, AMB-35).

Enabled by the option `{"balance": "auction"}` (the rulebook's other way, a reduction by simple
agreement, is `{"balance": {"side", "reduce"}}`). The two players are seated as `player_1` and
`player_2`; who plays which side is what the auction decides. It runs in set-up step (2) (phase
`auction`, before the Allied set-up): a seeded lot picks who bids first (NT-134); the players bid
in turn, openly, as the rulebook has it ("Die Spieler bieten abwechselnd", L637): a bid is an
integer >= 0 and greater than the previous bid; a player passes instead of bidding and the other
player wins the auction (NT-135; if the first bidder passes at once, the other wins with bid 0,
AMB-35). The winner chooses his side (`auction_choose_side`), whose starting morale is reduced by
his last bid (never below 1, AMB-35); the passing player takes the other side at its normal
morale. Bids are public: every line is a public log line and the view shows the whole auction.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.core.i18n import T
from games.core.protocol import JSON
from games.core.rng import Rng
from games.napoleons_triumph import payload as P
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.errors import Illegal, require
from games.napoleons_triumph.state import AL, F, GameState

AUCTION = "auction"  # the option value of `balance` and the phase
PLAYERS = ("player_1", "player_2")
KINDS = ("auction_bid", "auction_pass", "auction_choose_side")


def enabled(options: Mapping[str, JSON]) -> bool:
    return options.get("balance") == AUCTION


def start(rng: Rng) -> dict[str, JSON]:
    """NT-134: the lot (from the game's seeded generator) decides who bids first."""
    first = PLAYERS[rng.below(2)]
    return {"players": list(PLAYERS), "first": first, "to_bid": first, "bids": [], "winner": None}


def high_bid(auction: Mapping[str, JSON]) -> int | None:
    """The last (highest) bid so far, None before the first."""
    bids = auction["bids"]
    assert isinstance(bids, list)
    amounts = [b["amount"] for b in bids if isinstance(b, dict) and "amount" in b]
    last = amounts[-1] if amounts else None
    assert last is None or isinstance(last, int)
    return last


def last_bid_of(auction: Mapping[str, JSON], role: str) -> int:
    """A player's last bid; 0 when he never bid (AMB-35)."""
    bids = auction["bids"]
    assert isinstance(bids, list)
    mine = [b["amount"] for b in bids if isinstance(b, dict) and b.get("role") == role]
    last = mine[-1] if mine else 0
    assert isinstance(last, int)
    return last


def max_bid(state: GameState) -> int:
    """AMB-35: no bid may bring a side's starting morale below 1, so a bid stays below the larger
    starting morale (the winner may then have to choose that side)."""
    return max(state.morale.values()) - 1


def waiting_role(state: GameState) -> tuple[str, str] | None:
    """(role, what) the auction waits for: ("player_1", "bid") or (winner, "choose_side")."""
    auction = state.auction
    if state.phase != AUCTION or auction is None:
        return None
    if auction["winner"] is not None:
        return str(auction["winner"]), "choose_side"
    return str(auction["to_bid"]), "bid"


def _other(role: str) -> str:
    return PLAYERS[1] if role == PLAYERS[0] else PLAYERS[0]


def act(ctx: Ctx, role: str, kind: str, p: dict[str, JSON]) -> None:
    """Dispatch of the auction kinds (the only actions during the phase `auction`)."""
    state = ctx.state
    auction = state.auction
    assert auction is not None
    require(
        role in PLAYERS,
        "NT-134",
        T("{role} takes no part in the auction", role=repr(role)),
        "/role",
    )
    require(
        kind in KINDS,
        "NT-134",
        T("the auction for sides (set-up step 2) is under way; {kind} must wait", kind=repr(kind)),
        "/kind",
    )
    waiting = waiting_role(state)
    assert waiting is not None
    who, what = waiting
    if kind == "auction_choose_side":
        require(what == "choose_side", "NT-135", T("the auction has no winner yet"), "/kind")
        require(
            role == who, "NT-135", T("only the winner of the auction chooses his side"), "/role"
        )
        _choose_side(ctx, role, P.req_str(p, "side"))
        return
    require(
        what == "bid",
        "NT-135",
        T("the auction is over; the winner chooses his side (auction_choose_side)"),
        "/kind",
    )
    require(
        role == who, "NT-134", T("the players bid in turn; it is {role}'s turn", role=who), "/role"
    )
    bids = auction["bids"]
    assert isinstance(bids, list)
    if kind == "auction_pass":
        bids.append({"role": role, "pass": True})
        winner = _other(role)
        auction["winner"] = winner
        auction["to_bid"] = None
        ctx.log(
            T(
                "Auction: {role} passes; {winner} wins with a bid of {bid} and chooses a side.",
                role=role,
                winner=winner,
                bid=last_bid_of(auction, winner),
            )
        )
        return
    amount = P.req_int(p, "amount")
    high = high_bid(auction)
    require(amount >= 0, "NT-134", T("a bid is a number of at least 0"), "/amount")
    require(
        high is None or amount > high,
        "NT-134",
        T("a bid must be greater than the previous bid {bid}", bid=high),
        "/amount",
    )
    require(
        amount <= max_bid(state),
        "NT-135",
        T(
            "a bid of {bid} would bring either side's starting morale below 1; at most {most} "
            "(AMB-35)",
            bid=amount,
            most=max_bid(state),
        ),
        "/amount",
    )
    bids.append({"role": role, "amount": amount})
    auction["to_bid"] = _other(role)
    ctx.log(T("Auction: {role} bids {bid}.", role=role, bid=amount))


def _choose_side(ctx: Ctx, role: str, side: str) -> None:
    state = ctx.state
    auction = state.auction
    assert auction is not None
    require(side in (AL, F), "NT-135", T('side is "AL" or "F"'), "/side")
    bid = last_bid_of(auction, role)
    require(
        state.morale[side] - bid >= 1,
        "NT-135",
        T(
            "a bid of {bid} would bring the French' starting morale below 1 (AMB-35); choose the "
            "other side",
            bid=bid,
        )
        if side == F
        else T(
            "a bid of {bid} would bring the Allies' starting morale below 1 (AMB-35); choose the "
            "other side",
            bid=bid,
        ),
        "/side",
    )
    before = state.morale[side]
    state.morale[side] -= bid
    loser = _other(role)
    other_side = F if side == AL else AL
    state.roles = {role: side, loser: other_side}
    auction["sides"] = {role: side, loser: other_side}
    state.phase = "setup_AL"
    state.active = AL
    values = {
        "role": role,
        "before": before,
        "bid": bid,
        "morale": state.morale[side],
        "other": loser,
        "other_morale": state.morale[other_side],
    }
    ctx.log(
        T(
            "Auction: {role} plays the French with starting morale {before} - {bid} = {morale}; "
            "{other} plays the Allies at {other_morale}.",
            **values,
        )
        if side == F
        else T(
            "Auction: {role} plays the Allies with starting morale {before} - {bid} = {morale}; "
            "{other} plays the French at {other_morale}.",
            **values,
        )
    )


def refuse_outside(state: GameState, kind: str) -> None:
    """The auction kinds outside the auction."""
    raise Illegal(
        "NT-134" if kind == "auction_bid" else "NT-135",
        T(
            "there is no auction in this game (it needs the option {option})",
            option='{"balance": "auction"}',
        )
        if state.auction is None
        else T("the auction is over"),
        "/kind",
    )
