"""The team set-up machine (setup.py) wired into the engine (rulebook 19, L688-694; digest 2.5
NT-TEAM-27..31, phases SETUP_5..9 of 3.2).

While the engine is in `setup_AL` / `setup_F` and the initial conferences are closed, the side
setting up has one `SideSetup` in `TeamData.setup`: its acting seat is prompted with the machine's
kinds, every action is the team's secret (a private kind, a line for the team only), and the
action that finishes the machine runs the engine's own `allied_setup` / `french_setup` as the
CinC's role (`setup.engine_payload`), so the engine's NT-19..NT-24 apply and its public lines
come with that action. The engine's own set-up kinds sent directly are refused (NT-TEAM-29).

Ours (the digest is silent; so that the set-up never stalls): every step is also tried on the
engine at once, completed with neutral defaults (the corps not yet placed in reserve, no further
detachment, some legal fixed battery; in DEC1 before the choice, some pair of starting corps). A
step after which no such completion is legal is refused with the engine's rule. The one
exception is the French capacity of a locale (NT-23, AMB-8: it holds after all set-up steps): a
locale over its capacity is let through while the seats whose detachment parts are still to come
can empty it within the team's limit (`_fixable`), so that a seat ending its part never leaves the
set-up stuck for the seats after him.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import combinations

from games.core.i18n import T
from games.core.protocol import JSON, Action, LogEntry
from games.core.rng import Rng
from games.napoleons_triumph.board_model import Board
from games.napoleons_triumph.context import Ctx
from games.napoleons_triumph.errors import Illegal
from games.napoleons_triumph.state import AL, F, GameState, clone
from games.napoleons_triumph.team import phases
from games.napoleons_triumph.team import setup as su
from games.napoleons_triumph.team.authority import TeamRefused
from games.napoleons_triumph.team.engine_log import team_line
from games.napoleons_triumph.team.engine_state import TeamData
from games.napoleons_triumph.team.setup import SideSetup

KINDS = su.KINDS
ENGINE_KINDS = {AL: "allied_setup", F: "french_setup"}
SETUP_PHASES = ("setup_AL", "setup_F")
Run = Callable[[GameState, Action], Ctx]  # the two-player engine (core_run), raises Illegal
_PROMPT = {
    su.ORGANIZE_CORPS: T("organize the corps of your side (NT-TEAM-27)"),
    su.CHOOSE_STARTING: T("choose the two corps that start on the board (NT-TEAM-28)"),
    su.PLACE_CORPS: T("place one of your corps (NT-TEAM-29)"),
    su.DETACH_UNIT: T("detach a unit of one of your corps (NT-TEAM-30, 6 for the team)"),
    su.CHOOSE_BATTERY: T("choose and place the fixed battery (NT-TEAM-31)"),
    su.END_PART: T("end your part of the set-up (NT-TEAM-29, -30)"),
}


def follow(state: GameState, data: TeamData, board: Board) -> None:
    """After every action: a new machine for the side the engine waits for once the initial
    conferences have closed; none outside the set-up."""
    if state.phase in SETUP_PHASES and data.layer.phase == phases.SETUP:
        if data.setup is None or data.setup.side != state.active:
            data.setup = su.new_setup(data.layer, state.active, board)
    else:
        data.setup = None


def running(state: GameState, data: TeamData) -> SideSetup | None:
    if state.phase not in SETUP_PHASES or data.layer.phase != phases.SETUP:
        return None
    return data.setup


# ------------------------------------------------------------------------------------ prompts


def prompt_kinds(state: GameState, setup: SideSetup, role: str) -> dict[str, JSON]:
    """The kinds the acting seat may send now (only those that can be legal)."""
    if role != su.acting(setup):
        return {}
    step = setup.step
    kinds: list[str] = []
    if step == su.ORGANIZE:
        kinds = [su.ORGANIZE_CORPS]
    elif step == su.STARTING:
        kinds = [su.CHOOSE_STARTING]
    elif step == su.BATTERY:
        kinds = [su.CHOOSE_BATTERY]
    elif step == su.PLACE:
        kinds = [su.PLACE_CORPS] if _to_place(setup, role) else [su.END_PART]
    elif step == su.DETACH:
        if len(setup.detached) < su.MAX_DETACHED and _detachable(setup, role):
            kinds.append(su.DETACH_UNIT)
        kinds.append(su.END_PART)
    return {k: _PROMPT[k] for k in kinds}


def prompt_text(setup: SideSetup) -> str:
    if setup.side == AL:
        return T("The Allied team's set-up: step {step}.", step=setup.step)
    return T("The French team's set-up: step {step}.", step=setup.step)


def _to_place(setup: SideSetup, role: str) -> list[str]:
    placed = {c for c, _ in setup.placed}
    return [c for c in setup.on_board() if setup.owner(c) == role and c not in placed]


def _detachable(setup: SideSetup, role: str) -> list[str]:
    done = {u for u, _, _ in setup.detached}
    board = set(setup.on_board())
    return [
        u
        for c, units in setup.corps
        if c in board and setup.owner(c) == role
        for u in units
        if u not in done
    ]


def choices(state: GameState, data: TeamData, board: Board, role: str, kind: str) -> JSON:
    """The payloads of a set-up kind that can be listed (before the engine's filter, rules.py):
    end_setup_part, the placements, the starting pairs, the batteries; null for the corps
    organization and the detachments (too many: the schema and the view say what they take)."""
    setup = running(state, data)
    if setup is None or role != su.acting(setup):
        return {"payloads": [], "complete": True}
    out: list[JSON] = []
    if kind == su.END_PART:
        out = [{}]
    elif kind == su.PLACE_CORPS:
        for cid in _to_place(setup, role):
            loc = board.commanders[cid].setup_locale
            for app in [None, *([] if loc is None else _passable(board, loc))]:
                out.append({"commander": cid, "approach": app})
    elif kind == su.CHOOSE_STARTING:
        out = [{"corps": [a, b]} for a, b in combinations(sorted(c for c, _ in setup.corps), 2)]
    elif kind == su.CHOOSE_BATTERY:
        found = _battery_candidates(state, setup, board)
        out = [{"unit": u, "approach": a} for u, a in found] or [{"unit": None}]  # NT-24
    elif kind == su.ORGANIZE_CORPS:  # a few organisations (NT-TEAM-27), as choices.py's set-up
        return {"payloads": _organisations(state, board, setup.side), "complete": False}
    else:
        return None
    return {"payloads": out, "complete": True}


ORGANISATIONS = 3  # drawn by fixed seeds; the engine's filter (rules.py) keeps the legal ones


def _organisations(state: GameState, board: Board, side: str) -> list[JSON]:
    from games.napoleons_triumph.random_setup import draw_setup

    found: list[list[JSON]] = []
    for seed in range(ORGANISATIONS):
        drawn = draw_setup(Ctx(board, state), side, Rng(seed))
        corps = drawn.get("corps") if isinstance(drawn, dict) else None
        org: list[JSON] = []
        for c in corps if isinstance(corps, list) else []:
            if isinstance(c, dict):
                org.append({"commander": c["commander"], "units": c["units"]})
        if org not in found:
            found.append(org)
    return [{"corps": org} for org in found]


def _passable(board: Board, loc: int) -> list[str]:
    return [a for a in board.approaches_of(loc) if not board.approaches[a].impassable]


# ------------------------------------------------------------------------------------ actions


def refuse_engine_setup(data: TeamData, state: GameState, role: str, kind: str) -> None:
    """NT-TEAM-29: in team play the set-up is sent in parts, never as the engine's one payload.
    A seat that is not the acting one is told why first (NT-TEAM-27 not_cinc at a CinC step)."""
    setup = running(state, data)
    names = ", ".join(KINDS)
    if setup is not None and state.roles.get(role) == setup.side:
        refused = su.refusal(setup, role, _step_kind(setup))
        if refused is not None and setup.step not in (su.PLACE, su.DETACH):
            raise TeamRefused(
                refused.rule,
                su.NOT_CINC,
                403,
                T(
                    "not_cinc: only the commander-in-chief acts now; in team play the set-up is "
                    "sent as {kinds}",
                    kinds=names,
                ),
                "/role",
            )
    raise TeamRefused(
        "NT-TEAM-29",
        "use_setup_parts",
        409,
        T(
            "use_setup_parts: in team play every seat sends its own part of the set-up: {kind} is "
            "replaced by {kinds}",
            kind=kind,
            kinds=names,
        ),
        "/kind",
    )


def _step_kind(setup: SideSetup) -> str:
    return {
        su.ORGANIZE: su.ORGANIZE_CORPS,
        su.STARTING: su.CHOOSE_STARTING,
        su.PLACE: su.PLACE_CORPS,
        su.DETACH: su.DETACH_UNIT,
        su.BATTERY: su.CHOOSE_BATTERY,
    }.get(setup.step, su.END_PART)


def act(
    run: Run, state: GameState, data: TeamData, board: Board, action: Action, log: list[LogEntry]
) -> GameState:
    """One set-up action of a seat; raises Illegal (the machine's NT-TEAM rule, or the engine's
    rule when the set-up it leaves cannot be completed or, for the last action, applied)."""
    role, kind = action.role, action.kind
    rej = phases.refusal(data.layer, role, kind)  # NT-TEAM-4: after the initial conferences
    if rej is not None:
        raise Illegal(rej.rule, rej.message, rej.path)
    setup = running(state, data)
    if setup is None:
        raise Illegal("NT-TEAM-29", T("no set-up is running: the set-up parts are over"), "/kind")
    if state.roles.get(role) != setup.side:
        raise TeamRefused(
            "NT-TEAM-29",
            su.NOT_YOUR_PART,
            409,
            T(
                "not_your_setup_part: the Allied team sets up first (every Allied seat), then the "
                "French team"
            ),
            "/role",
        )
    nxt = su.apply(setup, role, kind, action.payload)
    team = phases.team_of_role(data.layer, role)
    assert team is not None
    line = team_line(data, team.key, _line(setup, nxt, role, kind))
    if nxt.step != su.DONE:
        _completable(run, state, nxt, board)
        data.setup = nxt
        log.append(line)
        return clone(state)
    engine_action = Action(nxt.cinc, ENGINE_KINDS[nxt.side], su.engine_payload(nxt))
    ctx = run(state, engine_action)  # NT-19..NT-24: a refusal changes nothing
    data.setup = None
    log.append(line)
    log += ctx.entries
    return ctx.state


def _line(before: SideSetup, after: SideSetup, role: str, kind: str) -> str:
    if kind == su.ORGANIZE_CORPS:
        corps = "; ".join(f"{c}: {', '.join(us) or '-'}" for c, us in after.corps)
        return T("{role} organizes the corps: {corps}.", role=role, corps=corps)
    if kind == su.CHOOSE_STARTING:
        return T(
            "{role} chooses the corps that start on the board: {corps}.",
            role=role,
            corps=", ".join(after.starting),
        )
    if kind == su.PLACE_CORPS:
        cid, app = after.placed[-1]
        if app is None:
            return T("{role} places {commander} in reserve.", role=role, commander=cid)
        return T(
            "{role} places {commander} blocking {approach}.", role=role, commander=cid, approach=app
        )
    if kind == su.DETACH_UNIT:
        uid, loc, app = after.detached[-1]
        left = su.MAX_DETACHED - len(after.detached)
        if app is None:
            return T(
                "{role} detaches {unit} to locale {locale} in reserve ({n} detachments left).",
                role=role,
                unit=uid,
                locale=loc,
                n=left,
            )
        return T(
            "{role} detaches {unit} to locale {locale} blocking {approach} ({n} detachments left).",
            role=role,
            unit=uid,
            locale=loc,
            approach=app,
            n=left,
        )
    if kind == su.CHOOSE_BATTERY:
        if after.battery is None:
            return T(
                "{role} chooses no fixed battery: no French artillery is on the board.", role=role
            )
        uid, app = after.battery
        if app is None:
            return T("{role} chooses {unit} as the fixed battery.", role=role, unit=uid)
        return T(
            "{role} chooses {unit} as the fixed battery, {approach}.",
            role=role,
            unit=uid,
            approach=app,
        )
    if before.step == su.PLACE:
        return T("{role} ends his part of the placement.", role=role)
    if before.step == su.DETACH:
        return T("{role} ends his part of the detachments.", role=role)
    return T("{role} ends his part of the set-up.", role=role)


# ------------------------------------------------------------------------------ completable


def _completable(run: Run, state: GameState, setup: SideSetup, board: Board) -> None:
    """Ours (module doc): some neutral completion of `setup` is accepted by the engine."""
    if setup.step in (su.ORGANIZE, su.DONE):
        return
    lenient = _fixable(setup, board)
    first: Illegal | None = None
    for done in _completions(state, setup, board):
        action = Action(setup.cinc, ENGINE_KINDS[setup.side], su.engine_payload(done))
        try:
            run(state, action)
        except Illegal as e:
            r = e.rejection
            if lenient and r.rule == "NT-23" and r.path == "/corps":  # capacity, AMB-8
                return
            first = first or e
            continue
        return
    if first is None:
        raise Illegal("NT-TEAM-29", T("this set-up cannot be completed"))
    r = first.rejection
    raise Illegal(r.rule, T("the set-up could not be completed: {error}", error=r.message), r.path)


def _completions(state: GameState, setup: SideSetup, board: Board) -> Iterator[SideSetup]:
    starts: list[tuple[str, ...]] = [setup.starting]
    if setup.two_corps and not setup.starting:
        starts = list(combinations([c for c, _ in setup.corps], 2))
    for start in starts:
        s = replace(setup, starting=start)
        placed = {c for c, _ in s.placed}
        s = replace(s, placed=(*s.placed, *((c, None) for c in s.on_board() if c not in placed)))
        if s.side != F or s.battery is not None:
            yield replace(s, step=su.DONE)
            continue
        for cand in [*_battery_candidates(state, s, board), None]:
            yield replace(s, battery=cand, step=su.DONE)


def _battery_candidates(
    state: GameState, setup: SideSetup, board: Board
) -> list[tuple[str, str | None]]:
    """NT-TEAM-31 (AMB-12), NT-24: every French artillery unit of a corps on the board, at its
    set-up position, blocking as it stands or any passable approach of its locale."""
    if setup.side != F:
        return []
    placed = dict(setup.placed)
    detached = {u: (loc, app) for u, loc, app in setup.detached}
    on = set(setup.on_board())
    out: list[tuple[str, str | None]] = []
    for cid, units in setup.corps:
        loc0 = board.commanders[cid].setup_locale
        if cid not in on or loc0 is None:
            continue
        for uid in units:
            unit = state.units.get(uid)
            if unit is None or unit.type != "ART":
                continue
            loc, app = detached.get(uid, (loc0, placed.get(cid)))
            apps: list[str | None] = [app] if app is not None else []
            apps += [a for a in _passable(board, loc) if a != app] if loc in board.locales else []
            out += [(uid, a) for a in apps]
    return out


def _fixable(setup: SideSetup, board: Board) -> bool:
    """AMB-8, NT-TEAM-30: every French locale over its capacity can still be emptied by the
    detachment parts to come (the acting seat's and the later ones'): enough units of those
    seats' corps stand there (never a corps' last unit, NT-32) within the team's limit."""
    if setup.side != F or setup.step not in (su.ORGANIZE, su.PLACE, su.DETACH):
        return False
    first = setup.part if setup.step == su.DETACH else 0
    later = set(setup.ranks[first:])
    detached = {u: loc for u, loc, _ in setup.detached}
    on = set(setup.on_board())
    count: dict[int, int] = {}
    movable: dict[int, int] = {}
    for cid, units in setup.corps:
        loc = board.commanders[cid].setup_locale
        if cid not in on or loc is None:
            continue
        staying = [u for u in units if u not in detached]
        count[loc] = count.get(loc, 0) + len(staying)
        if setup.owner(cid) in later:
            movable[loc] = movable.get(loc, 0) + max(0, len(staying) - 1)
    for loc in detached.values():
        count[loc] = count.get(loc, 0) + 1
    excess = {
        loc: n - board.locales[loc].capacity for loc, n in count.items() if loc in board.locales
    }
    over = {loc: e for loc, e in excess.items() if e > 0}
    left = su.MAX_DETACHED - len(setup.detached)
    return all(e <= movable.get(loc, 0) for loc, e in over.items()) and sum(over.values()) <= left
