"""Rule defects fixed (NT-66, NT-120, NT-139) against the German rulebook (seed 002).

Each test is named after its rule id and quotes the rulebook line it follows."""

from __future__ import annotations

from games.core.protocol import JSON
from tests.support.napoleons_triumph import Spec, Table, pair, position

# ----------------------------------------------------------------------------- NT-139


def _santon(name: str, pieces: list[str], santon_option: bool = True) -> Table:
    """Y is the Santon; its side of XY carries an infantry penalty."""
    board = pair(name, santon="Y", specs={"XY": Spec(sides={"Y": {"penalties": ["I"]}})})
    state = position(board, pieces, active="AL", options={"santon": santon_option})
    if "fb" in state.units:
        state.units["fb"].fixed = True
        state.units["fb"].revealed = True
    return Table(state)


def _infantry_against_reserve_front(t: Table) -> int:
    """AL a1 INF3 attacks the Santon; F leads with f2 INF2 from the reserve, not the battery."""
    t.play("AL", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("F", "defend", {"named": ["f2", "f3"], "leading": ["f2"]})
    t.play("AL", "no_feint")
    t.play("AL", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "a1"}],
                                    "leading": ["a1"]})
    atk = t.state.attack
    assert atk is not None
    assert atk.prelim is not None
    return atk.prelim


FRONT = ["AL a1 INF3 @X.R [-]", "F f2 INF2 @Y.R [lannes]", "F f3 INF2 @Y.R [lannes]"]


def test_nt139_santon_penalty_applies_to_any_reserve_front_line() -> None:
    """NT-139, rulebook L654: "Die Angriffsmali im Santon gelten auch wenn die verteidigende
    erste Reihe im Reservegebiet des Santon ist." The front line is f2 (not the battery), in the
    Santon's reserve: R = 3 - 0 (no infantry -1: nobody blocks, AMB-36) - 1 (the Santon's I)
    - 2 = 0; the defender then wins on counts (AMB-24). Before the fix the penalty needed the
    battery to lead, and R was +1."""
    t = _santon("nt139a", [*FRONT, "F fb ART1 @Y.R [-]"])
    assert _infantry_against_reserve_front(t) == 0
    atk = t.state.attack
    assert atk is not None
    assert atk.prelim_winner == "F"


def test_nt139_santon_penalty_needs_the_battery_on_the_santon() -> None:
    """NT-139, rulebook L650: "Wird die französische stationäre Batterie auf dem Santon
    aufgestellt, gelten folgende Sonderregeln" (L654 is one of them): with no battery on the
    Santon, or without the Santon option, a reserve front line leaves R = 3 - 2 = +1."""
    t = _santon("nt139b", FRONT)  # the battery is elsewhere (not on the map here)
    assert _infantry_against_reserve_front(t) == 1
    t = _santon("nt139c", [*FRONT, "F fb ART1 @Y.R [-]"], santon_option=False)
    assert _infantry_against_reserve_front(t) == 1


def test_nt139_santon_penalty_only_for_the_printed_type() -> None:
    """NT-139, rulebook L654: "Die Angriffsmali im Santon gelten auch wenn die verteidigende
    erste Reihe im Reservegebiet des Santon ist": only the printed I symbol, so a cavalry attack
    is not reduced: R = 2 - 2 = 0."""
    t = _santon("nt139d", ["AL a1 CAV2 @X.R [-]", "F f2 INF2 @Y.R [lannes]",
                           "F f3 INF2 @Y.R [lannes]", "F fb ART1 @Y.R [-]"])
    assert _infantry_against_reserve_front(t) == 0
    t = _santon("nt139e", ["AL a1 CAV3 @X.R [-]", "F f2 INF2 @Y.R [lannes]",
                           "F f3 INF2 @Y.R [lannes]", "F fb ART1 @Y.R [-]"])
    assert _infantry_against_reserve_front(t) == 1


# ----------------------------------------------------------------------------- NT-66

WIDE = {"XY": Spec(wide=True)}
GUNS = ["AL g1 ART1 @X.XY [-]", "AL g2 ART1 @X.XY [-]"]
PAIR_OF_GUNS: list[JSON] = [
    {"kind": "unit_move", "unit": "g1"},
    {"kind": "unit_move", "unit": "g2"},
]


def _guns_threaten(name: str, defender: str) -> Table:
    t = Table(position(pair(name, specs=WIDE), [*GUNS, defender], active="AL"))
    t.play("AL", "threaten", {"attack_locale": 1, "approach": "XY"})
    return t


def test_nt66_combined_batteries_must_both_lead() -> None:
    """NT-66, rulebook L323: "2 Regimentbewegungen können miteinander kombiniert werden, wenn
    beide Regimenter Artillerie sind und wenn beide denselben Zugang blockieren", with the
    designer's erratum the digest adopts: only when both batteries lead. One leader or none is
    refused with NT-66; both leading is an artillery attack."""
    t = _guns_threaten("nt66a", "F f1 INF2 @Y.XY [-]")
    t.play("F", "defend", {"named": ["f1"], "leading": ["f1"]})
    t.play("AL", "no_feint")
    leadings: list[list[JSON]] = [["g1"], ["g2"], []]
    for leading in leadings:
        r = t.refuse("AL", "declare_attack", {"commands": PAIR_OF_GUNS, "width": "wide",
                                              "leading": leading})
        assert r.rule == "NT-66"
        assert "both batteries lead" in r.message
    t.play("AL", "declare_attack", {"commands": PAIR_OF_GUNS, "width": "wide",
                                    "leading": ["g1", "g2"]})
    assert t.state.last_artillery == {"AL|XY|1": 1}  # an artillery attack
    assert t.state.turn.independent_used == 2  # each command counts (L325)
    assert (t.unit("g1").loc, t.unit("g2").loc) == (1, 1)  # the guns stay
    assert t.face("f1") == "dead"  # R = +2 (no defense subtracted); LD = 0 + 2


def test_nt66_combined_batteries_cannot_feint() -> None:
    """NT-66, rulebook L323: "2 Regimentbewegungen können miteinander kombiniert werden, wenn
    beide Regimenter Artillerie sind und wenn beide denselben Zugang blockieren"; by the erratum
    only when both lead, and a feint has no leading units: refused with NT-66. Each battery may
    still feint alone."""
    t = _guns_threaten("nt66b", "F f1 INF2 @Y.XY [-]")
    t.play("F", "defend", {"named": ["f1"], "leading": ["f1"]})
    r = t.refuse("AL", "declare_feint", {"commands": PAIR_OF_GUNS, "end": "block"})
    assert r.rule == "NT-66"
    assert "feint" in r.message
    t.play("AL", "declare_feint", {"commands": PAIR_OF_GUNS[:1], "end": "block"})
    assert t.state.attack is None or t.state.attack.feint


def test_nt66_combined_batteries_after_a_vacate_only_as_artillery_attack() -> None:
    """NT-66, rulebook L323: "2 Regimentbewegungen können miteinander kombiniert werden, wenn
    beide Regimenter Artillerie sind und wenn beide denselben Zugang blockieren"; by the erratum
    only when both lead. After a vacate units that move in do not lead (refused, NT-66); in an
    artillery attack (L354: "dann muß sich die Artillerie nicht bewegen") both guns lead."""
    t = _guns_threaten("nt66c", "F f1 CAV2 @Y.R [-]")
    t.play("F", "vacate", {"retreat": {"destinations": {"f1": 3}}})
    r = t.refuse("AL", "declare_after_vacate", {"commands": PAIR_OF_GUNS})
    assert r.rule == "NT-66"
    t.play("AL", "declare_after_vacate", {"commands": PAIR_OF_GUNS, "artillery": True})
    assert (t.unit("g1").loc, t.unit("g1").app, t.unit("g2").loc) == (1, "XY", 1)
    assert t.state.turn.independent_used == 2


# ----------------------------------------------------------------------------- NT-120

RETREAT_POSITION = ["F u1 INF3 @X.R [-]", "AL b1 INF1 @Y.XY [-]", "AL h1 CAV3 @Y.R [-]"]


def _win_against_blocker(t: Table) -> None:
    """R = 3 - 1 - 1 = +1: F wins; LA = 1 (u1 -> INF2); LD = 1 + 1: b1 eliminated, AL loses 1."""
    t.play("F", "threaten", {"attack_locale": 1, "approach": "XY"})
    t.play("AL", "defend", {"named": ["b1"], "leading": ["b1"]})
    t.play("F", "no_feint")
    t.play("F", "declare_attack", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                   "leading": ["u1"]})


def test_nt120_retreating_heavy_cavalry_costs_before_the_combat_loss() -> None:
    """NT-120(c), rulebook L582: "Dieser Extra-Moralverlust erfolgt vor und zusätzlich zu allen
    anderen Moralverlusten, aber er kann die Moral einer Seite nicht unter 1 senken." AL at 3
    loses the attack (1 point) and h1 CAV3 must retreat: the elite -2 comes first (3 -> 1), then
    the combat loss (1 -> 0): AL is demoralized. (Combat first would have left AL at 1.)"""
    t = Table(position(pair("nt120a"), RETREAT_POSITION, morale={"F": 23, "AL": 3}))
    _win_against_blocker(t)
    assert t.face("b1") == "dead"
    assert t.state.elite_committed["AL"] == ["heavy_cav"]
    assert t.state.morale["AL"] == 0
    assert t.state.phase == "over"
    assert t.state.result is not None
    assert (t.state.result["winner"], t.state.result["kind"]) == ("F", "decisive")
    elite = next(i for i, line in enumerate(t.log) if "commits the heavy cav" in line)
    combat = next(i for i, line in enumerate(t.log) if "lost attack" in line)
    assert elite < combat


def test_nt120_retreat_commitment_is_paid_once() -> None:
    """NT-120(c), rulebook L582: "Eine Seite verliert 2 Extra-Moralpunkte, wenn sie das erste Mal
    Schwere Kavallerie einsetzt, d.h. wenn diese: ... c) sich zurückzieht" and "vor und
    zusätzlich zu allen anderen Moralverlusten": 27 - 2 (elite, before) - 1 (combat) = 24; the
    retreat itself then costs nothing more (reserve cavalry takes no retreat loss)."""
    t = Table(position(pair("nt120b"), RETREAT_POSITION))
    _win_against_blocker(t)
    assert t.state.morale["AL"] == 24
    assert t.unit("h1").revealed
    assert t.state.pending is not None
    assert t.state.pending.kind == "retreat"
    t.play("AL", "retreat_plan", {"destinations": {"h1": 3}})
    assert t.state.morale["AL"] == 24
    assert t.state.elite_committed["AL"] == ["heavy_cav"]
    assert sum("commits the heavy cav" in line for line in t.log) == 1
    assert t.unit("h1").loc == 3
