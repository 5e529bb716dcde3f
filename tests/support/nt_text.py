"""The plain-text form of a Napoleon's Triumph action (README "Plain-text orders"), for tests.

`action_text(state, role, action)` writes a legal action, e.g. one random play chose, as the
lines a player would mail, so that `parse_text` can read it back: the round trips of
tests/engines/napoleons_triumph/test_text.py and the whole-game-by-email integration test use it.
None means the action has no text form (standing instructions, a retreat plan that changes
losses or anchors, team actions).
"""

from __future__ import annotations

from games.core.protocol import JSON, Action
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.context import unit_alias
from games.napoleons_triumph.retreat import default_plan
from games.napoleons_triumph.state import AL, GameState

__all__ = ["action_text"]


def _ids(v: JSON) -> str:
    assert isinstance(v, list)
    return ", ".join(str(x) for x in v)


def _dest(q: dict[str, JSON]) -> str:
    if q.get("road"):
        end = q.get("end_approach")
        return f"by road via {_ids(q['path'])}" + (f" blocking {end}" if end else "")
    to = q["to"]
    assert isinstance(to, dict)
    return f"to {to['locale']}" + (f" blocking {to['approach']}" if to["approach"] else "")


def _cmds(v: JSON) -> str:
    assert isinstance(v, list)
    out = []
    for c in v:
        assert isinstance(c, dict)
        if c["kind"] == "unit_move":
            out.append(f"unit {c['unit']}")
        elif c["kind"] == "detach_move":
            out.append(f"detachment {c['commander']} {_ids(c['units'])}")
        else:
            det = c.get("detach") or []
            out.append(f"corps {c['commander']}" + (f" detach {_ids(det)}" if det else ""))
        if c.get("entry"):  # cavalry reinforcements attacking as they enter (NT-145)
            out.append(f"entering {c['entry']}")
        if c.get("road"):  # a road attack's command names its road (NT-68)
            out.append("by road" + (f" via {_ids(c['path'])}" if c.get("path") else ""))
    return " ".join(out)


def _setup(state: GameState, p: dict[str, JSON]) -> str:
    """allied_setup / french_setup: one line per corps (by the commander's display name), per
    detachment and for the fixed battery (text_setup.py)."""
    board = RULESET.ctx(state).board
    lines: list[str] = []
    corps = p["corps"]
    assert isinstance(corps, list)
    for c in corps:
        assert isinstance(c, dict)
        name = board.commanders[str(c["commander"])].name
        app = f" blocking {c['approach']}" if c.get("approach") else ""
        off = " off map" if c.get("off_map") else ""
        lines.append(f"corps {name}: {_ids(c['units'])}{app}{off}")
    dets = p.get("detachments") or []
    assert isinstance(dets, list)
    for d in dets:
        assert isinstance(d, dict)
        pos = d["position"]
        assert isinstance(pos, dict)
        app = f" blocking {pos['approach']}" if pos.get("approach") else ""
        lines.append(f"detachment {d['unit']} at {pos['locale']}{app}")
    if "fixed_battery" in p:
        fb = p["fixed_battery"]
        if isinstance(fb, dict):
            app = f" blocking {fb['approach']}" if fb.get("approach") else ""
            lines.append(f"battery {fb['unit']}{app}")
        else:
            lines.append("battery none")
    return "\n".join(lines)


def action_text(state: GameState, role: str, action: Action) -> str | None:
    """The text of `action` as `role` would write it (None: not expressible in text)."""
    p = action.payload
    assert isinstance(p, dict)
    k = action.kind
    if k == "auction_bid":
        return f"bid {p['amount']}"
    if k == "auction_pass":
        return "pass"
    if k == "auction_choose_side":
        return "side " + ("allies" if p["side"] == AL else "french")
    side = state.roles[role]

    def alias(uid: JSON) -> str:
        u = str(uid)  # payloads already name enemy units by alias (the engine refuses their ids)
        own = u not in state.units or state.units[u].side == side
        return u if own else unit_alias(state, side, u)

    if k in ("allied_setup", "french_setup"):
        return _setup(state, p)
    if k == "unit_move":
        return f"move {p['unit']} {_dest(p)}"
    if k == "corps_move":
        det = p.get("detach") or []
        return f"corps {p['commander']} {_dest(p)}" + (f" detach {_ids(det)}" if det else "")
    if k == "detach_move":
        return f"detach {p['commander']} {_ids(p['units'])} {_dest(p)}"
    if k == "attach":
        return f"attach {p['unit']} to {p['commander']}"
    if k == "enter_reinforcement":
        who = p.get("commander") or p.get("unit")
        end = p.get("end_approach")
        return f"enter {who} at {p['entry']} via {_ids(p['path'])}" + (
            f" blocking {end}" if end else ""
        )
    if k == "threaten":
        g = f" guard {p['show_guard']}" if p.get("guard_attack") else ""
        return f"attack from {p['attack_locale']} towards {p['approach']}{g}"
    if k == "end_turn":
        return "end turn"
    if k == "defend":
        lead = p.get("leading") or []
        return f"defend with {_ids(p['named'])}" + (f" leading {_ids(lead)}" if lead else "")
    if k == "vacate":
        plan = p.get("retreat")
        if not isinstance(plan, dict):
            return "vacate"
        text = action_text(state, role, Action(action.role, "retreat_plan", plan))
        return None if text is None else f"vacate\n{text}"
    if k == "no_feint":
        return "no feint"
    if k == "declare_feint":
        return f"feint with {_cmds(p['commands'])} {p['end']}"
    if k == "declare_after_vacate" and not p["commands"]:
        return "no advance"
    if k == "declare_after_vacate":
        art = " artillery" if p.get("artillery") else ""
        return f"advance with {_cmds(p['commands'])}{art}"
    if k == "declare_attack":
        lead = p.get("leading") or []
        target = p.get("target")
        return (
            f"attack with {_cmds(p['commands'])} {p.get('width') or 'narrow'}"
            + (f" leading {_ids(lead)}" if lead else "")
            + (f" target {alias(target)}" if target else "")
        )
    if k == "counter":
        ctr = p.get("units") or []
        return f"counter with {_ids(ctr)}" if ctr else "no counter"
    if k == "place_odd_loss":
        units = p["units"]
        assert isinstance(units, list)
        return "odd loss " + ", ".join(alias(u) for u in units)
    if k == "assign_losses":
        rows = p["losses"]
        assert isinstance(rows, list)
        return "losses " + ", ".join(f"{r['unit']} {r['sp']}" for r in rows if isinstance(r, dict))
    if k == "retreat_plan":
        atk = state.attack
        assert atk is not None
        plan = default_plan(RULESET.ctx(state), atk)
        if (p.get("losses"), p.get("anchors")) != (plan["losses"], plan["anchors"]):
            return None
        dests = p.get("destinations")
        assert isinstance(dests, dict)
        return "retreat " + ", ".join(f"{u} to {n}" for u, n in dests.items())
    if k == "choose_anchor":
        anchors = p["anchors"]
        assert isinstance(anchors, dict)
        return "anchor " + ", ".join(f"{c} {u}" for c, u in anchors.items())
    if k in ("hold", "feint_hold"):
        return f"hold {_ids(p['pieces'])}"
    if k == "ride_on":
        end = p.get("end_approach")
        via = f" via {_ids(p['path'])}" if p["path"] else ""  # [] ends blocking where they stand
        return f"ride on{via}" + (f" blocking {end}" if end else "")
    return None  # standing instructions and team actions have no text form here
