"""The whole server with its real parts: HTTP (gunicorn) -> PostgreSQL -> Redis -> a Celery
worker process. A game played to its end, 200 clients on 50 games, a task delivered several times,
a worker killed in the middle of a resolution, a seat acting for another (outages:
test_outage_*.py). Figures are printed so that the CI log records them."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from django.db import connection, connections
from django.utils import timezone

from games.core.rng import Rng
from pbem.notify.models import Notification
from pbem.play.models import Event, Game, OrderIntake
from pbem.play.selectors import numbering_for
from pbem.play.services.sweeps import STUCK_AFTER, stuck_turns_sweep
from pbem.play.tasks import order_apply_task
from tests.integration.it_helpers import (
    assert_log_sound,
    choose,
    create_game,
    submit,
    users,
    wait_intake,
    wait_settled,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _report(capsys: pytest.CaptureFixture[str], line: str) -> None:
    with capsys.disabled():
        print(f"\n[integration] {line}")  # noqa: T201  (figures for the CI log)


def _sweep_as_beat_would() -> int:
    """The beat's stuck-turns sweep, run as it would be once STUCK_AFTER has passed."""
    return stuck_turns_sweep(now=timezone.now() + STUCK_AFTER + timedelta(seconds=1))


def _play(http: dict[str, Any], game_id: str, rng: Rng, steps: int) -> int:
    """Play up to `steps` orders (fewer if the game ends), each waited for; returns the count."""
    done = 0
    for _ in range(steps):
        game = http["allied"].get(f"/api/v1/games/{game_id}").json()
        if game["status"] == "finished":
            break
        role = game["active_roles"][0]
        action = choose(game_id, role, rng)
        assert action is not None, f"no legal order for {role}"
        response = submit(http[role], game_id, action)
        assert response.status_code == 202, response.text
        outcome = wait_intake(http[role], response.json()["intake"]["id"])
        assert outcome["status"] == "applied", outcome
        done += 1
    return done


def test_a_whole_game_through_the_rest_api_and_the_worker(
    running_worker: Any, http_for: Callable[..., Any], capsys: pytest.CaptureFixture[str]
) -> None:
    allied, french = users("whole", 2)
    http = {"allied": http_for(allied), "french": http_for(french)}
    game_id = create_game(http["allied"], allied, french)
    started = time.monotonic()

    orders = _play(http, game_id, Rng(2026), 3000)

    detail = http["french"].get(f"/api/v1/games/{game_id}").json()
    assert detail["status"] == "finished", "the game did not end within 3000 orders"
    verify = http["french"].get(f"/api/v1/games/{game_id}/verify").json()
    assert verify["ok"] is True
    assert verify["seed"] is not None  # revealed at game end
    head = assert_log_sound(game_id)
    for role in ("allied", "french"):
        view = http[role].get(f"/api/v1/games/{game_id}/view")
        assert view.status_code == 200
        events = http[role].get(f"/api/v1/games/{game_id}/events").json()
        # numbered gaplessly as the role sees the log: the other side's secret standing
        # instructions are neither listed nor counted
        hidden = numbering_for(Game.objects.get(pk=game_id), [role]).hidden
        assert [e["seq"] for e in events] == list(range(1, head - len(hidden) + 1))
        other = "french" if role == "allied" else "allied"
        assert all(Event.objects.get(game_id=game_id, seq=h).role == other for h in hidden), (
            "a role's own events are hidden from it"
        )
    # the mail queue ran on the worker too: every planned notification left the outbox
    deadline = time.monotonic() + 60
    pending = Notification.objects.filter(event__game_id=game_id).exclude(status="sent")
    while pending.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    sent = Notification.objects.filter(event__game_id=game_id, status="sent").count()
    assert sent > 0
    assert not pending.exists(), list(pending.values("kind", "status"))
    mails = running_worker.log.read_text(errors="replace").count(f"games/{game_id}")
    assert mails > 0, "the worker's mail shows no link to this game"
    _report(
        capsys,
        f"whole game: {orders} orders over REST, head {head}, {sent} notifications sent, "
        f"{time.monotonic() - started:.1f} s",
    )


CLIENTS, GAMES, ROUNDS = 200, 50, 4  # the compass figure R1: 200 concurrent clients, 50 games
ORACLE_READERS = 40  # test threads reading the oracle's state at once (PostgreSQL sessions)


def test_two_hundred_clients_on_fifty_games_lose_and_duplicate_nothing(
    running_worker: Any, http_for: Callable[..., Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """200 clients at once (a barrier) on 50 games against gunicorn and one worker: each sends
    up to ROUNDS orders, each twice with the same Idempotency-Key. 0 lost, 0 duplicated, a
    gapless log per game that replays to its hashes."""
    players = users("race", 2 * GAMES)
    games = []
    for g in range(GAMES):
        allied, french = players[2 * g], players[2 * g + 1]
        clients = {"allied": http_for(allied), "french": http_for(french)}
        games.append((create_game(clients["allied"], allied, french), clients))
    answers: Counter[int] = Counter()
    accepted: list[str] = []
    lock = threading.Lock()
    errors: list[str] = []
    barrier = threading.Barrier(CLIENTS)
    oracle = threading.BoundedSemaphore(ORACLE_READERS)

    def thread(i: int) -> None:
        game_id, clients = games[i % GAMES]
        rng = Rng(1000 + i)
        try:
            barrier.wait()
            for k in range(ROUNDS):
                with oracle:  # the test's own reads, bounded: the sessions are for the server
                    game = Game.objects.get(pk=game_id)
                    if game.status != Game.Status.ACTIVE or not game.active_roles:
                        break
                    role = str(game.active_roles[0])
                    action = choose(game_id, role, rng)
                    connections.close_all()
                if action is None:
                    continue
                key = f"t{i}-{k}"
                response = submit(clients[role], game_id, action, key)
                again = submit(clients[role], game_id, action, key)  # a client retry
                with lock:
                    answers[response.status_code] += 1
                    if response.status_code in (201, 202):
                        first = response.json()["intake"]["id"]
                        accepted.append(first)
                        retried = again.json().get("intake")  # 422 names it by id alone
                        if isinstance(retried, dict):
                            retried = retried.get("id")
                        if retried != first:
                            errors.append(f"retry of {key} got another intake")
                    if response.status_code >= 500 or again.status_code >= 500:
                        errors.append(f"{key}: {response.status_code} {response.text[:200]}")
        except Exception as e:
            with lock:
                errors.append(f"thread {i}: {e!r}")
        finally:
            connections.close_all()

    started = time.monotonic()
    threads = [threading.Thread(target=thread, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    game_ids = [g for g, _ in games]
    wait_settled(game_ids)
    elapsed = time.monotonic() - started

    assert not errors, errors[:5]
    assert set(answers) <= {201, 202, 409, 422}, answers
    statuses = Counter(OrderIntake.objects.filter(pk__in=accepted).values_list("status", flat=True))
    assert sum(statuses.values()) == len(accepted) == len(set(accepted))
    assert statuses["received"] == 0  # 0 lost
    heads = [assert_log_sound(g) for g in game_ids]  # gapless, 0 duplicated, replay ok
    appended = Event.objects.filter(game_id__in=game_ids, source_ref__startswith="intake:")
    assert appended.count() == statuses["applied"]
    _report(
        capsys,
        f"{CLIENTS} clients x {GAMES} games: {sum(answers.values())} submissions "
        "(+ as many retries), "
        f"answers {dict(answers)}, accepted {len(accepted)}: applied {statuses['applied']}, "
        f"refused by the worker at a newer head {statuses['rejected']}, lost 0, duplicated 0; "
        f"heads {heads}; {elapsed:.1f} s",
    )


def test_a_task_delivered_three_times_appends_once(
    running_worker: Any, http_for: Callable[..., Any]
) -> None:
    allied, french = users("dup", 2)
    http = {"allied": http_for(allied), "french": http_for(french)}
    game_id = create_game(http["allied"], allied, french)
    action = choose(game_id, "allied", Rng(5))
    assert action is not None

    response = submit(http["allied"], game_id, action)
    intake_id = response.json()["intake"]["id"]
    extra = [order_apply_task.delay(intake_id).id for _ in range(2)]  # delivered again, racing

    def finished(task_id: str) -> bool:
        return f"play.order_apply[{task_id}] succeeded" in running_worker.tail(400)

    deadline = time.monotonic() + 60
    while not all(finished(t) for t in extra) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert all(finished(t) for t in extra), running_worker.tail()
    assert wait_intake(http["allied"], intake_id)["status"] == "applied"
    assert Event.objects.filter(game_id=game_id).count() == 2
    assert assert_log_sound(game_id) == 2


def _pg_conninfo() -> str:
    db = connection.settings_dict
    return (
        f"host={db['HOST']} port={db['PORT']} dbname={db['NAME']} "
        f"user={db['USER']} password={db['PASSWORD']}"
    )


def test_a_worker_killed_in_the_middle_of_a_resolution(
    running_worker: Any, http_for: Callable[..., Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """The worker is SIGKILLed while its append waits inside its transaction (we hold the
    game row); PostgreSQL rolls the transaction back, the restarted worker picks the order up
    from the sweep, and the game goes on with nothing lost or duplicated."""
    allied, french = users("kill", 2)
    http = {"allied": http_for(allied), "french": http_for(french)}
    game_id = create_game(http["allied"], allied, french)
    rng = Rng(77)
    _play(http, game_id, rng, 6)
    before = Game.objects.get(pk=game_id).head_seq
    role = str(Game.objects.get(pk=game_id).active_roles[0])
    action = choose(game_id, role, rng)
    assert action is not None

    with psycopg.connect(_pg_conninfo()) as blocker:
        # the worker's compare-and-set UPDATE of the head must wait for this row lock, while the
        # web's intake INSERT (a FOR KEY SHARE on the game) does not
        blocker.execute("SELECT 1 FROM play_game WHERE id = %s FOR NO KEY UPDATE", [game_id])
        response = submit(http[role], game_id, action)
        assert response.status_code == 202, response.text
        intake_id = response.json()["intake"]["id"]

        def worker_waits() -> bool:
            with psycopg.connect(_pg_conninfo(), autocommit=True) as probe:
                row = probe.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND query LIKE 'UPDATE \"play_game\"%%'"
                ).fetchone()
            return bool(row and row[0])

        deadline = time.monotonic() + 60
        while not worker_waits():
            assert time.monotonic() < deadline, running_worker.tail()
            time.sleep(0.05)
        running_worker.kill()  # SIGKILL, mid-append
        blocker.rollback()
    time.sleep(1.0)  # the orphaned backend finds its client gone and rolls back
    assert Game.objects.get(pk=game_id).head_seq == before
    assert OrderIntake.objects.get(pk=intake_id).status == OrderIntake.Status.RECEIVED

    running_worker.start()
    assert _sweep_as_beat_would() >= 1
    assert wait_intake(http[role], intake_id)["status"] == "applied"
    played = _play(http, game_id, rng, 10)  # the game goes on

    head = assert_log_sound(game_id)
    assert head == before + 1 + played
    _report(capsys, f"worker SIGKILL mid-append: head {before} -> {head}, lost 0, duplicated 0")


def test_a_seat_cannot_act_for_another(running_worker: Any, http_for: Callable[..., Any]) -> None:
    allied, french, outsider = users("seat", 3)
    http = {"allied": http_for(allied), "french": http_for(french)}
    game_id = create_game(http["allied"], allied, french)
    action = choose(game_id, "allied", Rng(3))
    assert action is not None
    body = {"role": "allied", "kind": action.kind, "payload": action.payload}

    as_french = http["french"].post(f"/api/v1/games/{game_id}/actions", body)
    as_outsider = http_for(outsider).post(f"/api/v1/games/{game_id}/actions", body)
    peek = http["french"].get(f"/api/v1/games/{game_id}/view?role=allied")

    assert as_french.status_code == 403, as_french.text
    assert as_outsider.status_code == 403, as_outsider.text
    assert peek.status_code == 403
    assert not OrderIntake.objects.filter(game_id=game_id).exists()
    assert Event.objects.filter(game_id=game_id).count() == 1
