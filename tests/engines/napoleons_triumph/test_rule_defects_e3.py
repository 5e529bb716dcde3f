"""A road attack is told at the announcement, never at the threat.

L335 (step 1): the attacker names only the attack approach; which command and which pieces (and
so whether it is a road attack, L329) he says only with the announcement. The threat payload has
no road; the road attack's command names its road (`"road": true`, `path`) in step (3) (it must
be a feint, L354) or after a vacate (L352). The defender's view, prompts, actions and log carry
nothing that depends on it before then.
"""

from __future__ import annotations

from games.core.protocol import JSON, OBSERVER, Rejection
from tests.support.napoleons_triumph import Table, pair, position

X, Y, Z1, W = 1, 2, 3, 5
ROADS = [("local", "W", "X", 0, 0), ("local", "X", "Y", 0, 0)]
THREAT: JSON = {"attack_locale": X, "approach": "XY"}


def road_cmd(unit: str, path: list[int]) -> dict[str, JSON]:
    return {"kind": "unit_move", "unit": unit, "road": True, "path": list[JSON](path)}


def two_games() -> tuple[Table, Table]:
    """A: cavalry u1 at W can come by road through X (i1, infantry, stands in X).
    B: the same blocks with their faces swapped: u1 (infantry) cannot, i1 (cavalry) attacks
    from X. The defender sees the same hidden blocks in the same places in both."""
    board = pair("e3_noninterference", roads=ROADS)
    a = Table(position(board, ["F u1 CAV2 @W.R [-]", "F i1 INF2 @X.R [-]", "AL a1 INF2 @Y.R [-]"]))
    b = Table(position(board, ["F u1 INF2 @W.R [-]", "F i1 CAV2 @X.R [-]", "AL a1 INF2 @Y.R [-]"]))
    return a, b


def defender_sees(t: Table) -> tuple[object, ...]:
    """Everything the Allied player (and a spectator) can read: views, prompts, actions, log."""
    rules, state = t.rules, t.state
    prompts = rules.prompts(state)
    allied = prompts.get("allied")
    return (
        rules.view(state, "allied"),
        rules.view(state, OBSERVER),
        sorted(prompts),
        None if allied is None else repr(allied),
        [a.to_json() for a in rules.actions(state, "allied")],
        t.lines_for("allied"),
        t.lines_for(OBSERVER),
    )


def test_nt70_threat_names_only_the_approach() -> None:
    """NT-70, L335: "**(1) Angriffsdrohung.** Der Angreifer bezeichnet den Angreifer-Zugang. Er
    sagt noch nicht, welches Kommando und welche Spielsteine er für den Angriff einsetzt. Dies
    macht er erst in Schritt (5) mit der **Angriffsansage**." A threat has no road fields; one
    that only a road attack could back is accepted as it is, and its log line names no road."""
    board = pair("e3_threat", roads=ROADS)
    t = Table(position(board, ["F u1 CAV2 @W.R [-]", "AL a1 INF2 @Y.R [-]"]))
    for field, value in (("road_from", W), ("road_path", [X])):
        bad = t.refuse("F", "threaten", {**THREAT, field: value})  # type: ignore[dict-item]
        assert (bad.rule, bad.path) == ("schema", f"/payload/{field}")
    threats = next(a for a in t.rules.actions(t.state, "french") if a.kind == "threaten")
    assert isinstance(threats.choices, dict)
    assert THREAT in threats.choices["payloads"]  # type: ignore[operator]
    t.play("F", "threaten", THREAT)
    assert not any("road" in line or "locale 5" in line for line in t.log)


def test_nt70_road_attack_is_invisible_to_the_defender_until_the_announcement() -> None:
    """NT-70, L335: "Er sagt noch nicht, welches Kommando und welche Spielsteine er für den
    Angriff einsetzt. Dies macht er erst in Schritt (5) mit der **Angriffsansage**."
    Non-interference: two games identical for the defender, one whose threat becomes a road
    attack (a feint, L354) and one whose threat becomes a normal feint, give the defender
    identical views, prompts, actions() and log up to the announcement."""
    a, b = two_games()
    assert defender_sees(a) == defender_sees(b)
    for t in (a, b):
        t.play("F", "threaten", THREAT)
    assert defender_sees(a) == defender_sees(b)
    for t in (a, b):
        t.play("AL", "defend", {"named": ["a1"], "leading": ["a1"]})
    assert defender_sees(a) == defender_sees(b)
    # the announcement: A's threat becomes a road attack, B's a feint from the attack locale
    a.play("F", "declare_feint", {"commands": [road_cmd("u1", [X])], "end": "reserve"})
    b.play(
        "F", "declare_feint", {"commands": [{"kind": "unit_move", "unit": "i1"}], "end": "reserve"}
    )
    assert defender_sees(a) != defender_sees(b)  # the comparison does see the announcement
    told = [line for line in a.lines_for("allied") if "road attack" in line]
    assert len(told) == 1
    assert "from locale 5 via 1" in told[0]
    assert "(CAV2)" in told[0]
    assert not any("road attack" in line for line in b.lines_for("allied"))


def test_nt70_vacated_road_attack_is_invisible_until_the_announcement() -> None:
    """NT-70, NT-75, L352: "Der Angreifer macht dann noch seine Angriffsansage gemäß Schritt (5)
    und bewegt seine Spielsteine in die Verteidiger-Stellung." After a vacate and the retreat
    the defender still cannot tell whether the cavalry will come by road."""
    a, b = two_games()
    for t in (a, b):
        t.play("F", "threaten", THREAT)
        t.play("AL", "vacate", {"retreat": {"destinations": {"a1": Z1}}})
    assert defender_sees(a) == defender_sees(b)
    moves = next(x for x in a.rules.actions(a.state, "french") if x.kind == "declare_after_vacate")
    assert isinstance(moves.choices, dict)
    listed = moves.choices["payloads"]
    assert {"commands": [road_cmd("u1", [X])]} in listed  # type: ignore[operator]
    a.play("F", "declare_after_vacate", {"commands": [road_cmd("u1", [X])]})
    b.play("F", "declare_after_vacate", {"commands": [{"kind": "unit_move", "unit": "i1"}]})
    assert (a.unit("u1").loc, a.unit("i1").loc) == (Y, X)  # u1 rode through X into Y
    assert (b.unit("u1").loc, b.unit("i1").loc) == (W, Y)


def test_nt76_feint_obligation_is_checked_at_the_announcement() -> None:
    """NT-76, L354: "**(3) Scheinangriff?** Der Angreifer kann nun erklären, daß der Angriff ein
    Scheinangriff ist. Wichtig: Er **muß** dies tun, wenn es ein Straßenangriff ist."
    Only a road attack can carry it from an empty attack locale: no feint is refused then; a
    road command at step (5) is refused; the road feint is accepted and reveals the cavalry."""
    board = pair("e3_feint", roads=ROADS)
    t = Table(position(board, ["F u1 CAV2 @W.R [-]", "AL a1 INF2 @Y.R [-]"]))
    t.play("F", "threaten", THREAT)
    t.play("AL", "defend", {"named": ["a1"], "leading": []})
    assert t.refuse("F", "no_feint").rule == "NT-76"
    plain = t.refuse("F", "declare_feint", {"commands": [{"kind": "unit_move", "unit": "u1"}],
                                            "end": "block"})  # fmt: skip
    assert plain.rule == "NT-65"  # not in the attack locale: only by road
    feints = next(x for x in t.rules.actions(t.state, "french") if x.kind == "declare_feint")
    assert isinstance(feints.choices, dict)
    want: JSON = {"commands": [road_cmd("u1", [X])], "end": "block"}
    assert want in feints.choices["payloads"]  # type: ignore[operator]
    t.play("F", "declare_feint", want)
    assert (t.unit("u1").loc, t.unit("u1").app, t.face("u1")) == (X, "XY", "CAV2")
    # the stand case with a normal attack possible: a road command in step (5) is refused
    t2 = Table(position(board, ["F u1 CAV2 @W.R [-]", "F i1 INF2 @X.R [-]", "AL a1 INF2 @Y.R [-]"]))
    t2.play("F", "threaten", THREAT)
    t2.play("AL", "defend", {"named": ["a1"], "leading": []})
    t2.play("F", "no_feint")
    late = t2.refuse("F", "declare_attack", {"commands": [road_cmd("u1", [X])]})
    assert (late.rule, late.path) == ("NT-76", "/commands/0/road")


def test_nt68_road_is_checked_when_announced() -> None:
    """NT-68, L329: "Ein Angriff darf per Straßenbewegung erfolgen, wenn alle angreifenden
    Regimenter Kavallerie (zzgl. etwaiger Kommandeure) sind." The road named with the command
    must end in the attack locale and cross the attack approach; a path without `road` is no
    road attack and is refused, not ignored."""
    a, _ = two_games()
    a.play("F", "threaten", THREAT)
    a.play("AL", "defend", {"named": ["a1"], "leading": []})
    off = a.refuse("F", "declare_feint", {"commands": [road_cmd("u1", [])], "end": "reserve"})
    assert (off.rule, off.path) == ("NT-68", "/commands/0/path")
    stray = a.refuse(
        "F",
        "declare_feint",
        {"commands": [{"kind": "unit_move", "unit": "i1", "path": [X]}], "end": "reserve"},
    )
    assert (stray.rule, stray.path) == ("NT-68", "/commands/0/path")


def test_nt70_text_orders_name_the_road_at_the_announcement() -> None:
    """NT-70, L335 ("Er sagt noch nicht, welches Kommando und welche Spielsteine er für den
    Angriff einsetzt"): a text threat naming a road is refused with a pointer to the
    announcement form; `feint with unit u1 by road via 1 reserve` names the road attack."""
    a, _ = two_games()
    old = a.rules.parse_text(a.state, "french", "attack from 1 towards 2 starting 5 via 1")
    assert isinstance(old, Rejection)
    assert old.rule == "NT-0"
    assert "NT-70" in old.message
    assert "by road via" in old.message
    a.play("F", "threaten", THREAT)
    a.play("AL", "defend", {"named": ["a1"], "leading": []})
    got = a.rules.parse_text(a.state, "french", "feint with unit u1 by road via 1 reserve")
    assert not isinstance(got, Rejection)
    assert [(x.kind, x.payload) for x in got] == [
        ("declare_feint", {"commands": [road_cmd("u1", [X])], "end": "reserve"})
    ]
