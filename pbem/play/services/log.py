"""The event log: append with compare-and-set on the game's head, rebuild state from snapshots.

The state after the newest event is also kept as the game's HeadState, written in the event's
transaction: the pre-check of an order (web) and its re-validation (worker) read the head with one
query, whatever process appended the last event. Older states come from the newest snapshot at or
before them plus a replay.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.core.canonical import canonical_json, state_hash, text_hash
from games.core.protocol import (
    JSON,
    SETUP_KIND,
    SYSTEM,
    Action,
    GameConfig,
    LogEntry,
    Ruleset,
    Step,
)
from games.core.rng import Rng
from pbem.conf import pbem_settings
from pbem.play import hooks
from pbem.play.errors import ReplayDiverged, StaleHead
from pbem.play.models import Event, Game, HeadState, Snapshot
from pbem.play.rulesets import ruleset_get
from pbem.play.services import headcache
from pbem.play.services.deadlines import deadline_on_event


def config_of(game: Game) -> GameConfig:
    roles = tuple(game.seats.order_by("role").values_list("role", flat=True))
    return GameConfig(scenario=game.scenario, options=dict(game.options), roles=roles)


def rng_for(game: Game, seq: int) -> Rng:
    """The dice of event `seq` keyed by its seq (the set-up, and events written before
    `Event.rng_key`)."""
    return Rng.for_event(bytes(game.seed), seq)


def rng_of(game: Game, event: Event) -> Rng:
    """The dice a logged event was applied with (its `rng_key`, else its seq)."""
    key = event.rng_key if event.rng_key is not None else event.seq
    return Rng.for_event(bytes(game.seed), key)


PUBLIC_DICE = 1 << 61  # the key domains: apart from each other and from the seqs of older events
PRIVATE_DICE = 1 << 62


def dice_key(game: Game, action: Action, private_kinds: frozenset[str]) -> int:
    """The dice key of the next event (`game` at its head). Keyed by the seq, an event's dice
    would depend on how many events came before it, another seat's secret ones too (a written
    order, a standing instruction): the dice of the next combat would differ with and without
    them, a channel to whoever compares. So an event of a public kind is keyed by how many
    public-kind events precede it, and one of a private kind (it may roll dice when a standing
    instruction answers a decision at once) by its own role's count of them and that public
    count: no key depends on an event hidden from someone, and no two events share one."""
    public_before = game.head_seq - game.private_events
    if action.kind not in private_kinds:
        return PUBLIC_DICE + public_before + 1
    own = Event.objects.filter(game=game, role=action.role, kind__in=private_kinds).count()
    name = f"{action.role}\n{own}\n{public_before}".encode()
    return PRIVATE_DICE + int.from_bytes(hashlib.blake2b(name, digest_size=7).digest(), "big")


def log_to_json(entries: tuple[LogEntry, ...]) -> list[JSON]:
    out: list[JSON] = []
    for e in entries:
        audience: JSON = None if e.audience is None else [str(r) for r in sorted(e.audience)]
        out.append({"text": e.text, "audience": audience, "data": e.data})
    return out


def initial_state(game: Game, ruleset: Ruleset[object]) -> object:
    """The state after event 1 (`.setup`): the engine's set-up from the secret seed."""
    return ruleset.setup(config_of(game), rng_for(game, 1))


def head_state_put(game: Game, seq: int, version: int, dumped: JSON, digest: str) -> None:
    """Record the state after event `seq` as the game's head state (one upsert, in the caller's
    transaction: it commits or rolls back with the event)."""
    HeadState.objects.bulk_create(
        [HeadState(game=game, seq=seq, engine_version=version, state=dumped, state_hash=digest)],
        update_conflicts=True,
        unique_fields=["game"],
        update_fields=["seq", "engine_version", "state", "state_hash"],
    )


def _head_state(game: Game, seq: int, ruleset: Ruleset[object]) -> object | None:
    """The stored head state when it is the state after `seq` (one query), else None."""
    rows = HeadState.objects.filter(game=game, seq=seq, engine_version=ruleset.version)
    dumped = next(iter(rows.values_list("state", flat=True)[:1]), None)
    return None if dumped is None else ruleset.load(dumped)


def head_read(game: Game) -> object:
    """The state at the game's current head, refreshing `game`'s status and head in place: no
    query when the head state was loaded with the game row (select_related, the same snapshot of
    both), one query (the head state joined to its game row) when it is stored and current, else
    a refresh of the game and `state_at`."""
    ruleset = ruleset_get(game.ruleset_id)
    if Game.headstate.is_cached(game):  # loaded with the game row (select_related): no query
        loaded = getattr(game, "headstate", None)
        if (
            isinstance(loaded, HeadState)
            and loaded.seq == game.head_seq
            and loaded.engine_version == ruleset.version
        ):
            return ruleset.load(loaded.state)
    rows = HeadState.objects.filter(game_id=game.pk).values_list(
        "seq",
        "engine_version",
        "state",
        "game__status",
        "game__head_seq",
        "game__head_hash",
        "game__active_roles",
    )
    row = next(iter(rows[:1]), None)
    if row is not None:
        seq, version, dumped, status, head_seq, head_hash, active = row
        if seq == head_seq and version == ruleset.version:
            game.status, game.head_seq, game.head_hash = status, head_seq, head_hash
            game.active_roles = active
            return ruleset.load(dumped)
    game.refresh_from_db()
    return state_at(game, game.head_seq, verify=False)


def state_at(game: Game, seq: int, verify: bool = True, head: bool = True) -> object:
    """State after event `seq`: the head state when `seq` is the head (written with the event,
    one query; `head=False` skips it), else the newest snapshot at or before it, then the events
    after it. With `verify`, every replayed event's stored hash is checked (ReplayDiverged).
    When `seq` is `game.head_seq` and this process holds that state under `game.head_hash`
    (headcache), no query at all. Every call returns a fresh object the caller may change."""
    ruleset = ruleset_get(game.ruleset_id)
    if head and seq == game.head_seq:  # this process may have appended it: no query at all
        dumped = headcache.get(game.pk, seq, ruleset.version, game.head_hash)
        if dumped is not None:
            return ruleset.load(dumped)
    if head:
        cached = _head_state(game, seq, ruleset)
        if cached is not None:
            return cached
    snap = (
        Snapshot.objects.filter(game=game, seq__lte=seq, engine_version=ruleset.version)
        .order_by("-seq")
        .first()
    )
    if snap is not None:
        state, start = ruleset.load(snap.state), snap.seq
    else:
        state, start = initial_state(game, ruleset), 1
    for ev in Event.objects.filter(game=game, seq__gt=start, seq__lte=seq).order_by("seq"):
        step = ruleset.apply(state, Action(ev.role, ev.kind, ev.payload), rng_of(game, ev))
        state = step.state
        if verify and state_hash(ruleset.dump(state)) != ev.state_hash:
            raise ReplayDiverged(f"game {game.pk}: event {ev.seq} does not replay to its hash")
    return state


def event_append(
    *,
    game: Game,
    after_seq: int,
    action: Action,
    step: Step[object],
    source: str,
    source_ref: str = "",
    actor_id: int | None = None,
    rng_key: int | None = None,
) -> Event:
    """Append event `after_seq + 1` if the game's head is still `after_seq` (else StaleHead).
    One transaction: the head update, the event, a snapshot when due. `rng_key`: the dice key
    `step` was computed with (`dice_key`; None: the seq)."""
    ruleset = ruleset_get(game.ruleset_id)
    private = action.kind in ruleset.private_kinds()
    seq = after_seq + 1
    dumped = ruleset.dump(step.state)
    text = canonical_json(dumped)  # written once: hashed here, kept by the head-state cache
    digest = text_hash(text)
    result = ruleset.result(step.state)
    prompts = ruleset.prompts(step.state)
    now = timezone.now()
    with transaction.atomic():
        changed = Game.objects.filter(pk=game.pk, head_seq=after_seq).update(
            head_seq=seq,
            head_hash=digest,
            active_roles=sorted(prompts),
            status=Game.Status.FINISHED if result is not None else Game.Status.ACTIVE,
            finished_at=now if result is not None else None,
            updated_at=now,
            private_events=F("private_events") + int(private),
        )
        if changed != 1:
            raise StaleHead(f"game {game.pk} is no longer at event {after_seq}")
        every = int(pbem_settings.SNAPSHOT_EVERY)
        event = _event_write(
            game,
            seq,
            action,
            step,
            dumped,
            digest,
            version=ruleset.version,
            source=source,
            source_ref=source_ref,
            actor_id=actor_id,
            now=now,
            snapshot=step.turn_ended or seq % every == 0 or result is not None,
            rng_key=rng_key,
        )
        deadline_on_event(game=game, event=event)  # whose turn it is may have changed
        _plan_notifications(
            event,
            before=list(game.active_roles),
            after=sorted(prompts),
            finished=result is not None,
        )
    game.head_seq, game.head_hash = seq, digest
    game.private_events += int(private)
    headcache.put(game.pk, seq, ruleset.version, digest, text)  # keyed by its hash: never stale
    return event


def setup_append(
    *, game: Game, state: object, dumped: JSON, digest: str, actor_id: int | None
) -> Event:
    """Write event 1 of a new game (in the caller's transaction, which created the game row at
    head 1 with `digest`, the hash of `dumped`, the set-up `state`): the SYSTEM's `SETUP_KIND`
    with scenario and options as its payload (never the seed), the set-up state as snapshot and
    head state. No clock and no notification: the game starts once its seats are taken
    (services.games)."""
    ruleset = ruleset_get(game.ruleset_id)
    action = Action(SYSTEM, SETUP_KIND, {"scenario": game.scenario, "options": dict(game.options)})
    line = LogEntry(f"{ruleset.title}: {game.scenario} set up.")
    step: Step[object] = Step(state, (line,), turn_ended=True)
    return _event_write(
        game,
        1,
        action,
        step,
        dumped,
        digest,
        version=ruleset.version,
        source="system",
        source_ref="",
        actor_id=actor_id,
        now=timezone.now(),
        snapshot=True,
    )


def _event_write(
    game: Game,
    seq: int,
    action: Action,
    step: Step[object],
    dumped: JSON,
    digest: str,
    *,
    version: int,
    source: str,
    source_ref: str,
    actor_id: int | None,
    now: datetime,
    snapshot: bool,
    rng_key: int | None = None,
) -> Event:
    """The rows of one event: the event, the head state, a snapshot when due."""
    event = Event.objects.create(
        game=game,
        seq=seq,
        kind=action.kind,
        role=action.role,
        actor_id=actor_id,
        payload=action.payload if action.payload is not None else {},
        log=log_to_json(step.log),
        state_hash=digest,
        engine_version=version,
        turn_ended=step.turn_ended,
        source=source,
        source_ref=source_ref,
        created_at=now,
        rng_key=rng_key,
    )
    head_state_put(game, seq, version, dumped, digest)
    if snapshot:
        Snapshot.objects.create(
            game=game, seq=seq, engine_version=version, state=dumped, state_hash=digest
        )
    return event


def _plan_notifications(event: Event, before: list[str], after: list[str], finished: bool) -> None:
    """Send `hooks.EVENT_APPENDED` inside the event's transaction: notify writes the outbox rows
    there (architecture 8.8), so they commit or roll back with the event; `before`/`after` are
    the prompted roles around the event."""
    hooks.send(
        hooks.EVENT_APPENDED,
        event=event,
        prompted_before=before,
        prompted_after=after,
        finished=finished,
    )
