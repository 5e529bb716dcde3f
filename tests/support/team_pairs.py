"""Pairs of team games for the platform leak properties (digest napoleons-triumph-team.md 5.6,
NT-TEAM-T43/T44 generalised): games A and B are created alike (same seed, same seats, same
clock) and driven by the same random player, except that in B the CinC of one side (the
"secret" side) also writes orders at random points of his part, or other orders where A writes
one. Whoever may not read such an order must get the same answers from A and B.

This module holds the pure pieces: the pair specifications, the answers' normal form (the game
id and the commitments' digests, 3.4.5, are the only allowed differences), the random order
writer, and who may read a difference between the two engine states.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from games.core.protocol import JSON, Action
from games.core.rng import Rng
from games.napoleons_triumph.state import GameState
from games.napoleons_triumph.team.engine import data_of
from games.napoleons_triumph.team.randomplay import random_order

SIDE_PREFIX = {"AL": "allied", "F": "french"}
HEX64 = re.compile(r"[0-9a-f]{64}")
HEX32 = re.compile(r"[0-9a-f]{32}")
# 3.4.5: a commitment hashes the slot's content, so A and B may differ in it; its shape may not
DIGEST_KEYS = frozenset({"digest", "digests", "commitment", "commitments"})
DIGEST_SHAPE = "<64 hex>"


@dataclass(frozen=True)
class PairSpec:
    """One pair: the seed of the games and of the player, the team sizes, the secret side."""

    seed: int
    allied: int
    french: int
    secret: str  # "AL" or "F": the side whose CinC writes B's extra orders
    steps: int | None = None  # cut after this many steps (None: played to its end)

    def roles(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for side, n in (("AL", self.allied), ("F", self.french)):
            for i in range(1, n + 1):
                out[f"{SIDE_PREFIX[side]}-{i}"] = side
        return out


# named seeds (the random player's; the games' own seed is fixed by the test): a 2v2 game played
# to its end (some 240 steps with today's engine; the archive is checked) and a 3v2 game, whose
# secret CinC has two subordinates, cut after 80 steps (its CinC may write from about step 45)
PAIRS: tuple[PairSpec, ...] = (
    PairSpec(seed=1310, allied=2, french=2, secret="F"),
    PairSpec(seed=1307, allied=3, french=2, secret="AL", steps=80),
)


def mask_digests(value: JSON, under_digest_key: bool = False) -> JSON:
    """`value` with every 64-hex string under a digest key replaced by its shape (3.4.5: n - 1
    commitments of 64 hex digits each); anything else under such a key is left as it is, so a
    changed shape still shows."""
    if isinstance(value, dict):
        return {k: mask_digests(v, under_digest_key or k in DIGEST_KEYS) for k, v in value.items()}
    if isinstance(value, list):
        return [mask_digests(v, under_digest_key) for v in value]
    if under_digest_key and isinstance(value, str) and HEX64.fullmatch(value):
        return DIGEST_SHAPE
    return value


def normal_form(body: bytes, game_id: str, into: str) -> str:
    """An answer's body with `game_id` renamed `into` and the digests masked: A's and B's normal
    forms must be equal, byte for byte after the renaming (T43, T44)."""
    text = body.decode("utf-8").replace(game_id, into)
    try:
        parsed = json.loads(text) if text else None
    except json.JSONDecodeError:
        return text
    return json.dumps(mask_digests(parsed), sort_keys=True, ensure_ascii=False)


def first_difference(a: str, b: str, width: int = 90) -> str:
    """Where two normal forms part, with some context on both sides."""
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    lo = max(0, i - width // 2)
    return f"at {i}: A …{a[lo : i + width]}… | B …{b[lo : i + width]}…"


def random_written_order(state: GameState, role: str, rng: Rng) -> Action | None:
    """A random order of `role` (a CinC in his part) to a random subordinate: a verb and 0..3
    toponyms, as text or structured (NT-TEAM-17..21), like the random team player's."""
    if state.team is None:
        return None
    data = data_of(state)
    team = data.team(state.roles[role])
    if team is None or len(team.seats) < 2 or team.cinc.role != role:
        return None
    return random_order(state, data, role, rng)


def _slot_key(raw: dict[str, JSON]) -> tuple[str, int, str]:
    turn = raw.get("turn")
    return str(raw.get("side")), turn if isinstance(turn, int) else -1, str(raw.get("recipient"))


def readers_of_difference(a: GameState, b: GameState, secret: str) -> set[str]:
    """The seats that may read what tells B from A now (table 3.5.1): the secret side's CinC as
    soon as his drafts or sealed slots differ, and each recipient of a differing slot from the
    start of his team's turn k + 1 (NT-TEAM-22). Nobody else, before the game is over."""
    da, db = data_of(a), data_of(b)
    out: set[str] = set()
    slots_a = {_slot_key(s): s for s in da.slots}
    slots_b = {_slot_key(s): s for s in db.slots}
    differing = [k for k in set(slots_a) | set(slots_b) if slots_a.get(k) != slots_b.get(k)]
    team = db.team(secret)
    if team is not None and (differing or da.drafts != db.drafts):
        out.add(team.cinc.role)
    for side, turn, recipient in differing:
        if db.started.get(side, 0) >= turn + 1:
            out.add(recipient)
    return out


def delivery_shape(header: str, event_rank: dict[str, int]) -> str:
    """X-PBEM-Delivery in a form A and B can share: an opaque 32-hex id is masked to its shape; a
    dedupe key `<event pk>:...` keeps the event's rank in its game's log (the pk's steps count
    the events of the game, hidden ones too: what such a header leaks)."""
    if HEX32.fullmatch(header):
        return "<32 hex>"
    pk, sep, rest = header.partition(":")
    if sep and pk.isdigit():
        return f"event#{event_rank.get(pk, -1)}:{rest}"
    return header
