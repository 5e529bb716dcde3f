"""The road lock and the ride-on (NT-51, NT-53, NT-54, NT-94, NT-98).

Rulebook lines quoted from seed 002 (German, it decides); the digest ids in the test names."""

from __future__ import annotations

from games.core.protocol import JSON, Action
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.decisions import default_answer
from games.napoleons_triumph.movement import kept_out
from games.napoleons_triumph.state import dump
from games.napoleons_triumph.text import parse_text
from tests.support.napoleons_triumph import (
    PAIR_APPROACHES,
    PAIR_LOCALES,
    Table,
    fragment,
    position,
)

X, Y, Z1, Z2 = 1, 2, 3, 4


def to(loc: int, app: str | None = None) -> dict[str, JSON]:
    return {"locale": loc, "approach": app}


def payloads(t: Table, role: str, kind: str) -> list[JSON]:
    for spec in RULESET.actions(t.state, role):
        if spec.kind == kind:
            assert isinstance(spec.choices, dict)
            out = spec.choices["payloads"]
            assert isinstance(out, list)
            return out
    return []


# -------------------------------------------------------------- NT-54 b: the lock and its own corps


def _davout_table() -> Table:
    board = fragment(
        "e2_davout",
        {"X": 1, "Y": 2, "Z": 3},
        [("XY", "X", "Y"), ("YZ", "Y", "Z")],
        roads=[("main", "X", "Y", 0, 0), ("main", "Y", "Z", 0, 0)],
        entries=[("E1", "F", "X", 0, "main", True)],
        commanders=[("davout", "F", None, True)],
    )
    pieces = [
        "F v1 INF2 @off [davout]",
        "F v2 INF2 @off [davout]",
        "F v3 INF2 @off [davout]",
        "F m1 INF2 @Z.R [murat]",
        "F m2 INF2 @Z.R [murat]",
    ]
    return Table(position(board, pieces, morale={"F": 20, "AL": 27}))


def test_nt54b_road_lock_does_not_keep_out_the_corps_that_marched() -> None:
    """NT-54(b), L287: "Jede Stellung, in die es per Straße hinein- oder hindurchzieht, darf für
    den Rest des Zuges von keinem anderen Spielstein betreten werden." Only *other* pieces are
    kept out: Davout's corps, which marched X -> Y by road as it entered (and may move again,
    NT-62, L310), may go back into X; a detached unit of that corps too; Murat's units may not."""
    t = _davout_table()
    raw = dump(t.state)
    assert isinstance(raw, dict)
    assert isinstance(raw["turn"], dict)
    assert "road_lockers" not in raw["turn"]  # the state form is unchanged without a march
    t.play(
        "F",
        "enter_reinforcement",
        {"command": "corps_move", "commander": "davout", "entry": "E1", "path": [1, 2]},
    )
    assert sorted(t.state.turn.road_locked) == [1, 2]
    assert t.refuse("F", "unit_move", {"unit": "m1", "to": to(2)}).rule == "NT-54"
    # the second Davout command goes back into X, which his own march locked
    t.play("F", "corps_move", {"commander": "davout", "detach": ["v1"], "to": to(1)})
    assert [t.unit(v).loc for v in ("v1", "v2", "v3")] == [2, 1, 1]
    assert t.state.commanders["davout"].loc == 1
    t.play("F", "unit_move", {"unit": "v1", "to": to(1)})  # a piece of that corps, not another
    assert t.unit("v1").loc == 1
    assert t.refuse("F", "unit_move", {"unit": "m1", "to": to(2)}).rule == "NT-54"
    assert sorted(t.state.turn.road_lockers) == ["1", "2"]  # kept through dump/load (clone)


def test_nt54b_only_pieces_of_the_marching_corps_pass_its_lock() -> None:
    """NT-54(b), L287 "von keinem anderen Spielstein": a move that carries any piece other than
    those of the corps that marched is kept out, even together with them; so is a locale locked
    with no record of who marched (a position set up by hand)."""
    t = _davout_table()
    t.play(
        "F",
        "enter_reinforcement",
        {"command": "corps_move", "commander": "davout", "entry": "E1", "path": [1, 2]},
    )
    s = t.state
    assert sorted(s.turn.road_lockers["1"]) == ["davout", "v1", "v2", "v3"]
    assert not kept_out(s, 1, ["v1", "davout"])
    assert kept_out(s, 1, ["v1", "m1"])
    assert kept_out(s, 1, [])  # "some other piece"
    assert not kept_out(s, 3, ["m1"])  # not locked
    s.turn.road_locked.append(3)  # locked, but nobody recorded
    assert kept_out(s, 3, ["v1"])


# ---------------------------------------------------------------- NT-54 b: attacks into a road lock

LOCK_BOARD = {"A": 1, "B": 2, "C": 3, "E": 4, "G": 5, "H": 6}
LOCK_APPROACHES = [("AB", "A", "B"), ("BC", "B", "C"), ("EB", "E", "B"), ("GE", "G", "E")]
LOCK_PIECES = [
    "F g1 INF2 @A.R [legrand]",
    "F g2 INF2 @A.R [legrand]",
    "F f1 INF3 @G.R [-]",
    "F f2 INF3 @H.R [-]",
    "F art ART1 @H.HB [-]",
    "F gd GUARD3 @H.R [-]",
    "AL a1 CAV2 @E.R [-]",
]


def _locked_enemy(name: str) -> Table:
    """Legrand marches A -> B -> C by road (B and C locked); the Allied cavalry a1 then vacates
    E and retreats into B (a retreat is not bound by the lock, AMB-13): an enemy in a locked
    locale."""
    board = fragment(
        name,
        LOCK_BOARD,
        [*LOCK_APPROACHES, ("HB", "H", "B")],
        roads=[("local", "A", "B", 0, 0), ("local", "B", "C", 0, 0)],
    )
    t = Table(position(board, LOCK_PIECES))
    t.play("F", "corps_move", {"commander": "legrand", "road": True, "path": [2, 3]})
    assert sorted(t.state.turn.road_locked) == [2, 3]
    t.play("F", "threaten", {"attack_locale": 5, "approach": "GE"})
    t.play("AL", "vacate", {"retreat": {"destinations": {"a1": 2}}})
    t.play("F", "declare_after_vacate", {"commands": [{"kind": "unit_move", "unit": "f1"}]})
    assert t.unit("a1").loc == 2
    assert t.state.attack is None
    return t


def test_nt54b_won_attack_cannot_advance_into_a_road_locked_locale() -> None:
    """NT-54(b), L287: "Jede Stellung, in die es per Straße hinein- oder hindurchzieht, darf für
    den Rest des Zuges von keinem anderen Spielstein betreten werden." With NT-94, L439: "die
    angreifenden Spielsteine rücken vor und beenden ihre Bewegung im Reservegebiet derselben.
    (Sie können auf dieses Vorrücken nicht verzichten.)" An attack that would have to advance into
    the locked B cannot be declared; an artillery attack (nobody moves, NT-93) can."""
    t = _locked_enemy("e2_lock_adv")
    t.play("F", "threaten", {"attack_locale": 6, "approach": "HB"})
    t.play("AL", "defend", {"named": ["a1"], "leading": ["a1"]})
    t.play("F", "no_feint")
    infantry: JSON = {"commands": [{"kind": "unit_move", "unit": "f2"}], "leading": ["f2"]}
    rej = t.refuse("F", "declare_attack", infantry)
    assert rej.rule == "NT-54"
    assert "advance into locale 2" in rej.message
    listed = payloads(t, "french", "declare_attack")
    assert listed
    assert all(isinstance(p, dict) and p["leading"] == ["art"] for p in listed)
    pending = t.state.pending
    assert pending is not None
    kind, answer = default_answer(Ctx(RULESET.board(t.state), t.state), pending)
    assert (kind, answer["leading"]) == ("declare_attack", ["art"])
    t.play(
        "F",
        "declare_attack",
        {"commands": [{"kind": "unit_move", "unit": "art"}], "leading": ["art"]},
    )
    assert t.state.attack is None or t.state.attack.artillery
    assert all(t.unit(u).loc == 6 for u in ("f2", "art"))


def test_nt54b_guard_attack_into_a_road_locked_locale_is_refused() -> None:
    """NT-54(b), L287 ("von keinem anderen Spielstein betreten werden"): a Guard attack is never a
    feint (NT-125) nor an artillery attack, so if it won it would have to enter the locked B
    (L439); it cannot be threatened. A plain threat, backed by the artillery, still can."""
    t = _locked_enemy("e2_lock_guard")
    threat: JSON = {
        "attack_locale": 6,
        "approach": "HB",
        "guard_attack": True,
        "show_guard": "gd",
    }
    assert t.refuse("F", "threaten", threat).rule == "NT-54"
    t.play("F", "threaten", {"attack_locale": 6, "approach": "HB"})


def test_nt54b_the_corps_that_marched_may_still_attack_into_its_own_lock() -> None:
    """NT-54(b), L287: the lock binds "keinen anderen Spielstein". Davout's arrived corps locked
    X and Y by its entering march; the Allied a1 retreats into X (AMB-13). With his second
    command (NT-62, L310) Davout may attack X from Y, which he would enter if he won (L439):
    his own lock does not keep him out."""
    board = fragment(
        "e2_own_lock",
        {"X": 1, "Y": 2, "Z": 3, "W": 4},
        [("XY", "X", "Y"), ("XZ", "X", "Z"), ("ZW", "Z", "W")],
        roads=[("main", "X", "Y", 0, 0)],
        entries=[("E1", "F", "X", 0, "main", True)],
        commanders=[("davout", "F", None, True)],
    )
    pieces = [
        "F v1 INF3 @off [davout]",
        "F v2 INF3 @off [davout]",
        "F f1 INF3 @W.R [-]",
        "AL a1 CAV2 @Z.R [-]",
    ]
    t = Table(position(board, pieces, morale={"F": 20, "AL": 27}))
    t.play(
        "F",
        "enter_reinforcement",
        {"command": "corps_move", "commander": "davout", "entry": "E1", "path": [1, 2]},
    )
    t.play("F", "threaten", {"attack_locale": 4, "approach": "ZW"})
    t.play("AL", "vacate", {"retreat": {"destinations": {"a1": 1}}})  # into Davout's lock
    t.play("F", "declare_after_vacate", {"commands": [{"kind": "unit_move", "unit": "f1"}]})
    assert t.unit("a1").loc == 1
    t.play("F", "threaten", {"attack_locale": 2, "approach": "XY"})
    t.play("AL", "defend", {"named": ["a1"], "leading": ["a1"]})
    t.play("F", "no_feint")
    t.play(
        "F",
        "declare_attack",
        {"commands": [{"kind": "corps_move", "commander": "davout"}], "leading": ["v1"]},
    )
    assert t.state.turn.commands[-1]["units"] == ["v1", "v2"]


# ------------------------------------------------------------------------------- NT-98: the ride-on


def _ride_table(name: str, extra: list[str]) -> Table:
    board = fragment(
        name,
        PAIR_LOCALES,
        [*PAIR_APPROACHES, ("Z1Z2", "Z1", "Z2")],
        roads=[("main", "X", "Y", 0, 0), ("main", "Y", "Z1", 0, 0), ("main", "Z1", "Z2", 0, 0)],
    )
    return Table(position(board, ["AL a1 INF2 @Y.R [-]", *extra]))


def _vacated_road_attack(t: Table, cmd: dict[str, JSON], dest: int) -> None:
    t.play("F", "threaten", {"attack_locale": X, "approach": "XY"})
    t.play("AL", "vacate", {"retreat": {"destinations": {"a1": dest}}})
    t.play("F", "declare_after_vacate", {"commands": [{**cmd, "road": True, "path": []}]})
    assert t.state.ride_on is not None


def test_nt98_ride_on_with_an_empty_path_may_end_blocking() -> None:
    """NT-98, L451: "Wenn der Verteidiger die Stellung in Schritt (2) freiwillig geräumt hat und
    wenn es ein Straßenangriff war, dürfen die angreifenden Spielsteine ihre Bewegung fortsetzen";
    NT-53, L282: "Kavallerie ... kann eine Straßenbewegung in Blockadeposition beenden; durch den
    blockierten Zugang muß jedoch eine Straße führen, die mit der benutzten Straße verbunden ist."
    The cavalry may end their road move where they stand, blocking YZ1 (path [])."""
    t = _ride_table("e2_ride_block", ["F u2 CAV2 @X.R [-]"])
    _vacated_road_attack(t, {"kind": "unit_move", "unit": "u2"}, Z2)
    listed = payloads(t, "french", "ride_on")
    assert {"path": [], "end_approach": "YZ1"} in listed
    assert {"path": [], "end_approach": "YZ2"} not in listed
    assert t.refuse("F", "ride_on", {"path": []}).rule == "NT-98"  # neither moves nor blocks
    assert t.refuse("F", "ride_on", {"path": [], "end_approach": "YZ2"}).rule == "NT-53"
    t.play("F", "ride_on", {"path": [], "end_approach": "YZ1"})
    assert (t.unit("u2").loc, t.unit("u2").app) == (Y, "YZ1")
    assert t.unit("u2").revealed  # shown to be cavalry (NT-53)
    assert t.state.ride_on is None
    assert any("blocking YZ1" in line for line in t.log)


def test_nt98_text_order_ride_on_blocking_without_via() -> None:
    """NT-98, L451 ("dürfen ... ihre Bewegung fortsetzen") with NT-53, L282 ("in Blockadeposition
    beenden"): the text order `ride on blocking <place>` ends the ride where the cavalry stand."""
    t = _ride_table("e2_ride_text", ["F u2 CAV2 @X.R [-]"])
    _vacated_road_attack(t, {"kind": "unit_move", "unit": "u2"}, Z2)
    out = parse_text(Ctx(RULESET.board(t.state), t.state), "french", "ride on blocking 3")
    assert out == [Action("french", "ride_on", {"path": [], "end_approach": "YZ1"})]


def test_nt54c_halted_corps_ride_on_only_ends_blocking() -> None:
    """NT-54(c), L288: "Es muß seine Straßenbewegung sofort beenden, wenn es eine Stellung betritt,
    die benachbart zu einer Stellung mit einem feindlichen Korps mit zwei oder mehr Regimentern
    ist." Murat's 2 cavalry entered Y, next to the Allied corps in Z2: no riding on into Z1, but
    ending there blocking (L282) is still an end of the road move."""
    t = _ride_table(
        "e2_ride_halt",
        [
            "F c1 CAV2 @X.R [murat]",
            "F c2 CAV2 @X.R [murat]",
            "AL k1 INF2 @Z2.R [kutuzov]",
            "AL k2 INF2 @Z2.R [kutuzov]",
        ],
    )
    _vacated_road_attack(t, {"kind": "corps_move", "commander": "murat"}, Z2)
    assert t.refuse("F", "ride_on", {"path": [Z1]}).rule == "NT-54"
    t.play("F", "ride_on", {"path": [], "end_approach": "YZ1"})
    assert all((t.unit(c).loc, t.unit(c).app) == (Y, "YZ1") for c in ("c1", "c2"))
    assert (t.state.commanders["murat"].loc, t.state.commanders["murat"].app) == (Y, "YZ1")
