"""The event log: append with compare-and-set on the game's head, rebuild state from snapshots.

Rebuilding the state at the head (newest snapshot, then replay) was about a third of an order's
cost (bench/order_path.py): the pre-check and the worker's re-validation both rebuilt it, and the
next order needs the state the last append produced. So the process keeps a small LRU cache of
states by (game, seq, engine version), holding the state's JSON text and its hash. The cache is
content-addressed: an entry is used only when its hash equals the `state_hash` of the event row
at that seq (one indexed query), so a rolled-back append or a stale entry can never be returned,
and each hit is a fresh private copy (the JSON text loaded again) that the caller may mutate.
`settings.PBEM["STATE_CACHE_SIZE"]` (default 256 states, 0 = off) bounds it.
"""

from __future__ import annotations

import importlib
import json
import threading
from collections import OrderedDict

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.core.canonical import state_hash
from games.core.protocol import JSON, Action, GameConfig, LogEntry, Ruleset, Step
from games.core.rng import Rng
from pbem.play.errors import ReplayDiverged, StaleHead
from pbem.play.models import Event, Game, Snapshot
from pbem.play.rulesets import ruleset_get
from pbem.play.services.deadlines import deadline_on_event


def config_of(game: Game) -> GameConfig:
    roles = tuple(game.seats.order_by("role").values_list("role", flat=True))
    return GameConfig(scenario=game.scenario, options=dict(game.options), roles=roles)


def rng_for(game: Game, seq: int) -> Rng:
    return Rng.for_event(bytes(game.seed), seq)


def log_to_json(entries: tuple[LogEntry, ...]) -> list[JSON]:
    out: list[JSON] = []
    for e in entries:
        audience: JSON = None if e.audience is None else [str(r) for r in sorted(e.audience)]
        out.append({"text": e.text, "audience": audience, "data": e.data})
    return out


def initial_state(game: Game, ruleset: Ruleset[object]) -> object:
    """The state after event 1 (`.setup`): the engine's set-up from the secret seed."""
    return ruleset.setup(config_of(game), rng_for(game, 1))


CacheKey = tuple[str, int, int]  # game id, seq, engine version
_cache: OrderedDict[CacheKey, tuple[str, str]] = OrderedDict()  # -> (state hash, state JSON)
_cache_lock = threading.Lock()
STATE_CACHE_SIZE = 256


def _cache_size() -> int:
    return int(settings.PBEM.get("STATE_CACHE_SIZE", STATE_CACHE_SIZE))


def _cache_key(game: Game, seq: int, ruleset: Ruleset[object]) -> CacheKey:
    return (str(game.pk), seq, int(ruleset.version))


def _cache_put(key: CacheKey, digest: str, text: str) -> None:
    size = _cache_size()
    if size <= 0:
        return
    with _cache_lock:
        _cache[key] = (digest, text)
        _cache.move_to_end(key)
        while len(_cache) > size:
            _cache.popitem(last=False)


def _cache_get(key: CacheKey) -> tuple[str, str] | None:
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
        return hit


def _cache_drop(key: CacheKey, digest: str) -> None:
    with _cache_lock:
        if _cache.get(key, ("", ""))[0] == digest:
            del _cache[key]


def state_cache_clear() -> None:
    """Forget every cached state (tests, benchmarks that want the cold path)."""
    with _cache_lock:
        _cache.clear()


def _state_text(dumped: JSON) -> str:
    """The cached form: JSON text in the dump's own key order (load sees what dump gave)."""
    return json.dumps(dumped, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _cached_state(game: Game, seq: int, ruleset: Ruleset[object]) -> object | None:
    """A private copy of the cached state after event `seq`, if its hash is the event row's."""
    key = _cache_key(game, seq, ruleset)
    hit = _cache_get(key)
    if hit is None:
        return None
    digest, text = hit
    rows = Event.objects.filter(game=game, seq=seq).order_by()  # no ORDER BY: no join to Game
    stored = next(iter(rows.values_list("state_hash", flat=True)[:1]), None)
    if stored != digest:
        _cache_drop(key, digest)
        return None
    return ruleset.load(json.loads(text))


def state_at(game: Game, seq: int, verify: bool = True) -> object:
    """State after event `seq`: from the cache when its hash matches the event row, else the
    newest snapshot at or before it, then the events after it. With `verify`, every replayed
    event's stored hash is checked (ReplayDiverged); a cached state was checked (or written by
    `event_append`) when it was stored, and matches the row's hash."""
    ruleset = ruleset_get(game.ruleset_id)
    cached = _cached_state(game, seq, ruleset)
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
    last: Event | None = None
    dumped: JSON = None
    for ev in Event.objects.filter(game=game, seq__gt=start, seq__lte=seq).order_by("seq"):
        step = ruleset.apply(state, Action(ev.role, ev.kind, ev.payload), rng_for(game, ev.seq))
        state, last, dumped = step.state, ev, None
        if verify:
            dumped = ruleset.dump(state)
            if state_hash(dumped) != ev.state_hash:
                raise ReplayDiverged(f"game {game.pk}: event {ev.seq} does not replay to its hash")
    if last is not None and last.seq == seq:  # replayed up to a real event: worth keeping
        if dumped is None:
            dumped = ruleset.dump(state)
        if verify or state_hash(dumped) == last.state_hash:  # never cache an unchecked state
            _cache_put(_cache_key(game, seq, ruleset), last.state_hash, _state_text(dumped))
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
) -> Event:
    """Append event `after_seq + 1` if the game's head is still `after_seq` (else StaleHead).
    One transaction: the head update, the event, a snapshot when due."""
    ruleset = ruleset_get(game.ruleset_id)
    seq = after_seq + 1
    dumped = ruleset.dump(step.state)
    digest = state_hash(dumped)
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
        )
        if changed != 1:
            raise StaleHead(f"game {game.pk} is no longer at event {after_seq}")
        event = Event.objects.create(
            game=game,
            seq=seq,
            kind=action.kind,
            role=action.role,
            actor_id=actor_id,
            payload=action.payload if action.payload is not None else {},
            log=log_to_json(step.log),
            state_hash=digest,
            engine_version=ruleset.version,
            turn_ended=step.turn_ended,
            source=source,
            source_ref=source_ref,
            created_at=now,
        )
        deadline_on_event(game=game, event=event)  # whose turn it is may have changed
        _plan_notifications(
            event,
            before=list(game.active_roles),
            after=sorted(prompts),
            finished=result is not None,
        )
        every = int(settings.PBEM.get("SNAPSHOT_EVERY", 50))
        if step.turn_ended or seq % every == 0 or result is not None:
            Snapshot.objects.create(
                game=game, seq=seq, engine_version=ruleset.version, state=dumped, state_hash=digest
            )
    game.head_seq, game.head_hash = seq, digest
    _cache_put(_cache_key(game, seq, ruleset), digest, _state_text(dumped))  # the next order's
    return event


def _plan_notifications(event: Event, before: list[str], after: list[str], finished: bool) -> None:
    """Outbox rows in the same transaction as the event (architecture 8.8), when the notify app
    is installed; `before`/`after` are the prompted roles around the event."""
    from django.apps import apps

    if not apps.is_installed("pbem.notify"):
        return
    plan = importlib.import_module("pbem.notify.services").notifications_plan
    plan(event=event, prompted_before=before, prompted_after=after, finished=finished)
