"""Games from a scenario document (the option `scenario_document`, digest 3.19, 5.4): the same
loader and checks as a shipped file (`check_army` on each army, VF-247..VF-250), the id check,
the size bound, special rules not built refused by their rule id (VF-140), the starter given as
a document playing as the starter by name, another army pairing (Austria against Russia), and
states that carry their document through JSON snapshots into a process whose caches are empty."""

from __future__ import annotations

import copy
import importlib
import json
import pkgutil
from dataclasses import replace
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import games.valour_fortitude as vf
from games.core.canonical import state_hash
from games.core.protocol import (
    OBSERVER,
    OMNISCIENT,
    SCENARIO_DOCUMENT,
    GameConfig,
    Rejection,
    SetupError,
)
from games.core.rng import Rng
from games.valour_fortitude import documents
from games.valour_fortitude import match as m
from games.valour_fortitude.armies import army_list
from games.valour_fortitude.rules import RULESET as R
from games.valour_fortitude.scenario import SCENARIOS_DIR
from games.valour_fortitude.scenario_checks import special_rule_problems
from games.valour_fortitude.setup import OPTIONS
from games.valour_fortitude.special_rules import (
    NOT_BUILT,
    RULE_IDS,
    not_built,
    not_built_for_general,
    not_built_for_profile,
)

STARTER_TEXT = (SCENARIOS_DIR / "starter.yaml").read_text(encoding="utf-8")
STARTER: dict[str, Any] = yaml.safe_load(STARTER_TEXT)
ROLES = ("A", "B", OMNISCIENT, OBSERVER)
PATH = f"/options/{SCENARIO_DOCUMENT}"

AUSTRIA = {
    "army_list": "austria_1809_1815",
    "points_limit": 250,
    "cinc": {"id": "L-A0"},
    "brigades": [
        {
            "id": "BR-A1",
            "bg": {"id": "L-A1"},
            "units": [
                {"id": "U-A1", "profile": "grenadiere", "figures": 24},
                {"id": "U-A2", "profile": "grenadiere", "figures": 24},
                {"id": "U-A3", "profile": "grenadiere", "figures": 24},
                {"id": "U-A4", "profile": "fussartillerie", "figures": 1},
            ],
        },
        {
            "id": "BR-A2",
            "bg": {"id": "L-A2"},
            "units": [
                {"id": "U-A5", "profile": "grenadiere", "figures": 24},
                {"id": "U-A6", "profile": "grenadiere", "figures": 12, "understrength": True},
                {"id": "U-A7", "profile": "grenadiere", "figures": 24},
            ],
        },
        {
            "id": "BR-A3",
            "bg": {"id": "L-A3"},
            "units": [
                {"id": "U-A8", "profile": "husaren_und_ulanen", "figures": 12},
                {"id": "U-A9", "profile": "chevaulegers", "figures": 12},
            ],
        },
    ],
}  # 5 * 30 + 25 (understrength, VF-234) + 26 + 22 + 24 = 247 points

RUSSIA = {
    "army_list": "russia_1809_1814",
    "points_limit": 250,
    "cinc": {"id": "L-B0"},
    "brigades": [
        {
            "id": "BR-B1",
            "bg": {"id": "L-B1"},
            "units": [
                {"id": "U-B1", "profile": "linieninfanterie", "figures": 24},
                {"id": "U-B2", "profile": "linieninfanterie", "figures": 24},
                {"id": "U-B3", "profile": "jaegerabteilung", "figures": 6},
                {"id": "U-B4", "profile": "fussartillerie", "figures": 1},
            ],
        },
        {
            "id": "BR-B2",
            "bg": {"id": "L-B2"},
            "units": [
                {"id": "U-B5", "profile": "husaren", "figures": 12},
                {"id": "U-B6", "profile": "dragoner", "figures": 12},
                {"id": "U-B7", "profile": "kuerassiere", "figures": 12},
            ],
        },
        {
            "id": "BR-B3",
            "bg": {"id": "L-B3"},
            "units": [
                {"id": "U-B8", "profile": "ulanen", "figures": 12},
                {"id": "U-B9", "profile": "husaren", "figures": 12},
            ],
        },
    ],
}  # 2 * 18 + 12 + 27 + 22 + 22 + 28 + 22 + 22 = 191 points: line infantry "Stoisch" (VF-159),
# uhlans "Lanzen" (VF-164, GAP-5)

PRUSSIA_SAXONY = {
    "army_list": "prussia_saxony_1806",
    "points_limit": 250,
    "cinc": {"id": "L-B0"},
    "brigades": [
        {
            "id": "BR-B1",
            "bg": {"id": "L-B1"},
            "units": [
                {"id": "U-B1", "profile": "musketiere", "figures": 24},
                {"id": "U-B2", "profile": "musketiere", "figures": 24},
                {"id": "U-B3", "profile": "jaeger_schuetzenabteilung", "figures": 6},
                {"id": "U-B4", "profile": "fussartillerie", "figures": 1},
            ],
        },
        {
            "id": "BR-B2",
            "bg": {"id": "L-B2"},
            "units": [
                {"id": "U-B5", "profile": "kuerassiere_karabiniere_und_gendarme", "figures": 12},
                {"id": "U-B6", "profile": "kuerassiere_karabiniere_und_gendarme", "figures": 12},
                {"id": "U-B7", "profile": "garde_du_corps", "figures": 12},
            ],
        },
        {
            "id": "BR-B3",
            "bg": {"id": "L-B3"},
            "units": [
                {"id": "U-B8", "profile": "kuerassiere_karabiniere_und_gendarme", "figures": 12},
                {"id": "U-B9", "profile": "kuerassiere_karabiniere_und_gendarme", "figures": 12},
            ],
        },
    ],
}  # 2 * 23 + 16 + 26 + 28 + 28 + 32 + 28 + 28 = 232 points; infantry "Diszipliniert" (VF-156)


def _block(x: float, across: int, deep: int, base_d: float) -> dict[str, Any]:
    return {"x": x, "y": 46, "facing": 180, "across": across, "deep": deep,
            "base_w": 2.36, "base_d": base_d}  # fmt: skip


def squadron(x: float) -> dict[str, Any]:
    return {"formation": "LINE", "files": 6, "ranks": 2, "block": _block(x, 2, 2, 1.97)}


def pairing(army_b: dict[str, Any] = RUSSIA) -> dict[str, Any]:
    """Austria (A, attacking from the south) against Russia (B): the starter's table, terrain
    and objectives, other armies (the placements fitted to their units)."""
    doc = copy.deepcopy(STARTER)
    doc["id"] = "austria-russia"
    doc["title"] = "Austria against Russia"
    sides = doc["example"]["sides"]
    sides["A"]["army"] = copy.deepcopy(AUSTRIA)
    sides["B"]["army"] = copy.deepcopy(army_b)
    placements = sides["B"]["placements"]
    for unit, x in (("U-B5", 66), ("U-B6", 78), ("U-B7", 88)):
        placements[unit] = squadron(x)
    return doc


def text_of(doc: dict[str, Any]) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def with_doc(text: str, **options: Any) -> dict[str, Any]:
    return {SCENARIO_DOCUMENT: text, **options}


def refusals(scenario: str, options: dict[str, Any]) -> list[tuple[str, str, str]]:
    with pytest.raises(SetupError) as refused:
        R.setup(GameConfig(scenario, options), Rng(1))
    with pytest.raises(SetupError) as again:  # roles() refuses exactly as set-up does
        R.roles(scenario, options)
    assert again.value.rejections == refused.value.rejections
    return [(r.rule, r.message, r.path) for r in refused.value.rejections]


def setup_or_refusal(scenario: str, options: dict[str, Any]) -> tuple[Rejection, ...]:
    """The rejections of a refused set-up; () when the game sets up."""
    try:
        R.setup(GameConfig(scenario, options), Rng(1))
    except SetupError as refused:
        return refused.rejections
    return ()


def clear_every_cache() -> None:
    """As in a fresh worker process: every cache of the engine's modules emptied."""
    documents.clear_cache()
    for info in pkgutil.iter_modules(vf.__path__):
        module = importlib.import_module(f"{vf.__name__}.{info.name}")
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def play(match: m.Match, seed: int, n: int) -> tuple[m.Match, list[Any]]:
    """`n` random legal actions (fewer if the game ends); after each, the state hash of the
    game (without the document), every role's view and report, and the step's log."""
    chooser = Rng(seed)
    trace: list[Any] = []
    for i in range(n):
        prompts = R.prompts(match)
        if not prompts:
            break
        role = sorted(prompts)[chooser.below(len(prompts))]
        action = R.random_action(match, role, chooser)
        assert action is not None
        assert not R.validate(match, action), R.validate(match, action)
        step = R.apply(match, action, Rng.for_event(b"vf-documents", 1000 * seed + i))
        match = step.state
        dumped = R.dump(match)
        assert isinstance(dumped, dict)
        game = {k: v for k, v in dumped.items() if k != "document"}
        views = [R.view(match, r) for r in ROLES]
        reports = [R.report_text(match, r) for r in ROLES]
        trace.append((action, state_hash(game), views, reports, step.log, step.turn_ended))
    return match, trace


def test_the_option_is_declared_with_its_bound() -> None:
    assert SCENARIO_DOCUMENT in OPTIONS
    assert documents.MAX_DOCUMENT_BYTES == 256 * 1024


def test_without_the_option_the_state_is_as_it_was() -> None:
    """No `document` key in a shipped scenario's JSON, and its load refuses one that is bad."""
    match = R.setup(GameConfig("starter", {}), Rng(5))
    dumped = R.dump(match)
    assert isinstance(dumped, dict)
    assert set(dumped) == {"game", "flow"}
    assert match.document is None
    assert R.load(dumped) == match


@pytest.mark.parametrize("seed", [1, 2])
def test_the_starter_as_a_document_plays_as_the_starter_by_name(seed: int) -> None:
    """Same seed, same random actions: the same states, views, reports and logs."""
    by_name = R.setup(GameConfig("starter", {"turn_limit": 2}), Rng(seed))
    by_doc = R.setup(GameConfig("starter", with_doc(STARTER_TEXT, turn_limit=2)), Rng(seed))
    assert by_doc.document is not None
    assert by_name.document is None
    assert by_doc.document.sha256 == m.ScenarioDocument.of(STARTER_TEXT).sha256
    assert by_doc.game == by_name.game
    assert by_doc.flow == by_name.flow
    assert [R.view(by_doc, r) for r in ROLES] == [R.view(by_name, r) for r in ROLES]
    _end_name, trace_name = play(by_name, seed, 150)
    end_doc, trace_doc = play(by_doc, seed, 150)
    assert trace_doc == trace_name
    assert len(trace_doc) > 20
    assert end_doc.document == by_doc.document  # carried through every step


def test_roles_of_a_document_name_its_armies() -> None:
    roles = R.roles("austria-russia", with_doc(text_of(pairing())))
    assert [(r.id, r.name) for r in roles] == [
        ("A", "Side A: austria_1809_1815, attacker"),
        ("B", "Side B: russia_1809_1814, defender"),
    ]
    assert [r.id for r in R.roles("starter", {})] == ["A", "B"]  # unchanged without it


def missing_rules(doc: dict[str, Any]) -> set[str]:
    """The rule ids of the special rules not built that the document's armies field."""
    out = set()
    for side in ("A", "B"):
        army = doc["example"]["sides"][side]["army"]
        found = army_list(army["army_list"])
        for brigade in army["brigades"]:
            for unit in brigade["units"]:
                profile = found.profile(unit["profile"])
                assert profile is not None
                out |= {rule for rule, _ in not_built_for_profile(profile, found.id)}
    return out


def test_austria_against_russia_sets_up_and_plays() -> None:
    """Another pairing: Russian line infantry ("Stoisch", VF-159) and uhlans ("Lanzen",
    VF-164). If all its profiles' rules are built it sets up and plays random turns; else
    set-up refuses it by those rules."""
    doc = pairing()
    options = with_doc(text_of(doc), turn_limit=2)
    missing = missing_rules(doc)
    if missing:
        assert missing <= {rule for rule, _, _ in refusals("austria-russia", options)}
        return
    match = R.setup(GameConfig("austria-russia", options), Rng(3))
    assert match.game.scenario == "austria-russia"
    assert [s.army_list for s in match.game.sides] == ["austria_1809_1815", "russia_1809_1814"]
    profiles = {u.id: u.profile for u in match.game.units}
    assert (profiles["U-B1"], profiles["U-B8"], profiles["U-A9"]) == (
        "linieninfanterie",
        "ulanen",
        "chevaulegers",
    )
    end, trace = play(match, 3, 300)
    assert len(trace) > 30
    assert end.game.turn.round >= 2 or end.stage == m.OVER


def test_a_profile_with_a_rule_not_built_is_refused_by_the_rule() -> None:
    """VF-140: Prussia-Saxony 1806 infantry has "Diszipliniert" (VF-156); while it is not
    built, each unit fielding it is refused by VF-156, naming the unit and its place."""
    doc = pairing(PRUSSIA_SAXONY)
    missing = missing_rules(doc)
    if "VF-156" not in missing:  # built by now: the pairing sets up
        assert not setup_or_refusal("austria-russia", with_doc(text_of(doc)))
        return
    found = refusals("austria-russia", with_doc(text_of(doc)))
    refused = [r for r in found if r[0] == "VF-156"]
    assert [r[1].split(": ")[1] for r in refused] == [
        "example.sides.B.army.brigades[0].units[0]",
        "example.sides.B.army.brigades[0].units[1]",
        "example.sides.B.army.brigades[0].units[2]",
    ]
    assert all(r[2] == PATH for r in refused)
    assert (
        "U-B1 (prussia_saxony_1806.musketiere) has the special rule Diszipliniert"
        in (refused[0][1])
    )
    assert {r[0] for r in found} == missing


def test_a_named_general_not_built_is_refused() -> None:
    """Erzherzog Karl (VF-213) while his reserve rule is not built."""
    doc = pairing()
    army = doc["example"]["sides"]["A"]["army"]
    army["cinc"]["named_general"] = "erzherzog_karl"
    army["points_limit"] = 270  # 247 + 20
    refused = setup_or_refusal("austria-russia", with_doc(text_of(doc)))
    if not not_built_for_general("erzherzog_karl"):
        assert refused == ()
        return
    assert [(r.rule, r.message.split(": ")[1]) for r in refused] == [
        ("VF-213", "example.sides.A.army.cinc")
    ]
    assert "leader L-A0 has the special rule Erzherzog Karl" in refused[0].message


@pytest.mark.parametrize("key", sorted(NOT_BUILT))
def test_every_rule_not_built_is_refused_with_its_id(key: str) -> None:
    """Any rule of the registry's NOT_BUILT, given to a starter unit, is refused by its rule
    id, naming the unit's place in its army."""
    match = R.setup(GameConfig("starter", {}), Rng(1))
    unit = match.game.unit("U-B2")
    changed = replace(unit.stats, special_rules=(*unit.stats.special_rules, key))
    game = m.with_unit(match.game, replace(unit, stats=changed))
    found = [(p.path, p.rule) for p in special_rule_problems(game)]
    assert found == [("example.sides.B.army.brigades[0].units[1]", RULE_IDS[key])]


def test_a_cautious_leader_is_checked_by_the_registry() -> None:
    """VF-205: a cautious BG is refused exactly when "vorsichtig" is not built."""
    doc = pairing()
    doc["example"]["sides"]["A"]["army"]["brigades"][1]["bg"]["cautious"] = True
    refused = setup_or_refusal("austria-russia", with_doc(text_of(doc)))
    expected = [rule for rule, _ in not_built(["vorsichtig"])]
    assert [r.rule for r in refused] == expected


def test_the_starter_fields_only_rules_that_are_accepted() -> None:
    assert special_rule_problems(R.setup(GameConfig("starter", {}), Rng(1)).game) == []


def test_an_army_breaking_its_list_is_refused_with_check_army_problems() -> None:
    """VF-230, VF-232: each problem names its place in the document, the list entry and the
    rule."""
    doc = pairing()
    army = doc["example"]["sides"]["A"]["army"]
    army["brigades"][0]["units"][0]["profile"] = "linieninfanterie"  # 30-42 figures
    army["points_limit"] = 200
    found = refusals("austria-russia", with_doc(text_of(doc)))
    assert (
        "VF-232",
        "scenario austria-russia: example.sides.A.army.brigades[0].units[0].figures: "
        "Linieninfanterie (austria_1809_1815.linieninfanterie) has 30 to 42 figures, not 24",
        PATH,
    ) in found
    over = [r for r in found if r[0] == "VF-230"]
    assert len(over) == 1
    assert "example.sides.A.army.points_limit: the army costs 239" in over[0][1]


def test_the_document_is_checked_as_a_shipped_file() -> None:
    """VF-249: an objective too near the edge; the format: an unknown key."""
    doc = pairing()
    doc["example"]["objectives"][2]["y"] = 10
    found = refusals("austria-russia", with_doc(text_of(doc)))
    assert [(r[0], r[1].split(": ")[1]) for r in found] == [("VF-249", "example.objectives[2]")]
    doc = pairing()
    doc["rules"]["extra"] = 1
    found = refusals("austria-russia", with_doc(text_of(doc)))
    assert [(r[0], r[1].split(": ")[1]) for r in found] == [("format", "rules.extra")]


def test_a_mismatched_id_is_refused_naming_both() -> None:
    assert refusals("starter", with_doc(text_of(pairing()))) == [
        (
            "5.4",
            "the scenario document is 'austria-russia', not the game's scenario 'starter'",
            PATH,
        )
    ]


def test_an_over_long_document_is_refused() -> None:
    text = STARTER_TEXT + "#" * (256 * 1024 - len(STARTER_TEXT.encode()) + 1)
    assert refusals("starter", with_doc(text)) == [
        ("5.4", "the scenario document has 262145 bytes; at most 262144 are allowed", PATH)
    ]
    at_bound = STARTER_TEXT + "#" * (256 * 1024 - len(STARTER_TEXT.encode()))
    assert R.setup(GameConfig("starter", with_doc(at_bound)), Rng(1)).game.scenario == "starter"


def test_a_document_that_is_no_text_or_no_yaml_is_refused() -> None:
    assert refusals("starter", {SCENARIO_DOCUMENT: {"id": "starter"}}) == [
        ("5.4", "the scenario document is a YAML text", PATH)
    ]
    found = refusals("starter", with_doc("a: &x 1\nb: *x\n"))
    assert [r[0] for r in found] == ["5.4"]
    assert "anchors" in found[0][1]
    found = refusals("x", with_doc("- just a list"))
    assert found
    assert all(r[2] == PATH for r in found)


@settings(deadline=None, max_examples=40)
@given(st.text(max_size=200))
def test_any_text_sets_up_or_is_refused(text: str) -> None:
    refused = setup_or_refusal("starter", with_doc(text))
    assert all(r.path == PATH for r in refused)


@settings(deadline=None, max_examples=30)
@given(st.sampled_from(["x", "y"]), st.integers(-20, 140), st.integers(0, 3))
def test_moved_objectives_set_up_or_are_refused_by_vf_249(axis: str, value: int, i: int) -> None:
    doc = pairing()
    doc["example"]["objectives"][i][axis] = value
    refused = setup_or_refusal("austria-russia", with_doc(text_of(doc)))
    assert {r.rule for r in refused} <= {"VF-249", "format"}


def test_view_and_report_do_not_echo_the_document() -> None:
    text = text_of(pairing())
    match = R.setup(GameConfig("austria-russia", with_doc(text)), Rng(2))
    for role in ROLES:
        shown = json.dumps(R.view(match, role)) + R.report_text(match, role)
        assert "vf-scenario/1" not in shown
        assert "leader_radius_in" not in shown
    bare = m.Match(match.game, match.flow)  # the same game without its document
    assert [R.view(bare, r) for r in ROLES] == [R.view(match, r) for r in ROLES]
    assert [R.report_text(bare, r) for r in ROLES] == [R.report_text(match, r) for r in ROLES]
    view = R.view(match, "A")
    assert isinstance(view, dict)
    assert isinstance(view["game"], dict)
    assert view["game"]["scenario"] == "austria-russia"


def test_the_json_round_trip_with_every_cache_cleared_continues_identically() -> None:
    """A state rebuilt from its JSON in a 'fresh process' carries its document and plays on
    exactly as the original; the scenario resolves from the state alone."""
    match = R.setup(
        GameConfig("austria-russia", with_doc(text_of(pairing()), turn_limit=2)), Rng(4)
    )
    middle, _ = play(match, 4, 60)
    text = json.dumps(R.dump(middle))
    _, straight = play(middle, 5, 80)
    clear_every_cache()
    loaded = R.load(json.loads(text))
    assert loaded.document == match.document
    assert documents.scenario_of(loaded).title == "Austria against Russia"
    assert documents.scenario_of(loaded).state.scenario == "austria-russia"
    assert state_hash(R.dump(loaded)) == state_hash(json.loads(text))
    _, resumed = play(loaded, 5, 80)
    assert resumed == straight


def test_load_refuses_a_document_whose_hash_does_not_match() -> None:
    match = R.setup(GameConfig("starter", with_doc(STARTER_TEXT)), Rng(1))
    dumped = R.dump(match)
    assert isinstance(dumped, dict)
    assert isinstance(dumped["document"], dict)
    dumped["document"]["text"] = STARTER_TEXT + "\n"
    with pytest.raises(ValueError, match="sha256"):
        R.load(dumped)
    dumped["document"] = {"text": STARTER_TEXT}
    with pytest.raises(ValueError, match="sha256, text"):
        R.load(dumped)


def test_the_shipped_scenario_resolves_by_name() -> None:
    match = R.setup(GameConfig("starter", {}), Rng(1))
    assert documents.scenario_of(match).id == "starter"
