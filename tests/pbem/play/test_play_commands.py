"""The management commands: pbem_user (token last), pbem_demo, pbem_verify, pbem_replay."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.authtoken.models import Token

from pbem.play.models import Event, Game, HeadState, OrderIntake, Snapshot
from pbem.play.services.verify import game_verify

Play = Callable[..., list[Event]]


def _run(*args: str) -> list[str]:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().splitlines()


@pytest.mark.django_db
def test_pbem_user_creates_the_user_and_prints_its_token_last() -> None:
    lines = _run("pbem_user", "dave", "--email", "dave@example.com")

    user = User.objects.get(username="dave")
    token = Token.objects.get(user=user)
    assert lines[-1] == token.key
    assert user.email == "dave@example.com"


@pytest.mark.django_db
def test_pbem_user_finds_an_existing_user_and_keeps_its_token() -> None:
    first = _run("pbem_user", "erin")[-1]
    again = _run("pbem_user", "erin", "--email", "erin@example.com")

    assert again[-1] == first
    assert User.objects.filter(username="erin").count() == 1
    assert User.objects.get(username="erin").email == "erin@example.com"


@pytest.mark.django_db
def test_pbem_user_refuses_a_bad_name() -> None:
    with pytest.raises(CommandError):
        _run("pbem_user", "no spaces allowed")


@pytest.mark.django_db(transaction=True)  # the on_commit hand-off to the eager task really runs
def test_pbem_demo_creates_a_game_in_progress_and_prints_tokens(event_log_flushable: None) -> None:
    lines = _run("pbem_demo", "--seed", "1")

    game = Game.objects.get(title="Demo")
    assert game.status == Game.Status.ACTIVE
    assert game.head_seq > 3  # both set-ups and at least one turn
    assert game.active_roles  # a player is prompted
    kinds = set(Event.objects.filter(game=game).values_list("kind", flat=True))
    assert {"allied_setup", "french_setup"} <= kinds
    assert kinds & {"declare_attack", "declare_after_vacate"}
    assert {s.role: s.user.username for s in game.seats.all() if s.user} == {
        "allied": "alice",
        "french": "bob",
    }
    for name in ("alice", "bob", "carol"):
        key = Token.objects.get(user__username=name).key
        assert f"token {name} {key}" in lines
    assert f"game {game.pk}" in lines
    assert any(f"/api/v1/games/{game.pk}/view" in line for line in lines)
    assert game_verify(game=game).ok
    intakes = OrderIntake.objects.filter(game=game)
    assert intakes.count() == game.head_seq - 1  # every order went through the intake
    assert set(intakes.values_list("status", flat=True)) == {OrderIntake.Status.APPLIED}


@pytest.mark.django_db
def test_pbem_demo_runs_twice_and_if_missing_creates_nothing() -> None:
    _run("pbem_demo", "--seed", "2")
    _run("pbem_demo", "--seed", "3")
    assert Game.objects.filter(title="Demo").count() == 2
    assert User.objects.filter(username__in=["alice", "bob", "carol"]).count() == 3

    lines = _run("pbem_demo", "--if-missing")

    assert Game.objects.filter(title="Demo").count() == 2
    assert any(line.startswith("token carol ") for line in lines)


@pytest.mark.django_db
def test_pbem_verify_reports_ok_and_fails_with_status_1(nt_game: Game, play: Play) -> None:
    play(nt_game, until_turn_ends=2)

    lines = _run("pbem_verify", str(nt_game.pk))
    assert lines[-1] == "verification OK"
    assert any("matches the seed" in line for line in lines)
    assert any("secret until the game is finished" in line for line in lines)

    snap = Snapshot.objects.filter(game=nt_game).order_by("-seq").first()
    assert snap is not None
    Snapshot.objects.filter(pk=snap.pk).update(state_hash="0" * 64)
    with pytest.raises(CommandError) as failed:
        _run("pbem_verify", str(nt_game.pk)[:8])
    assert failed.value.returncode == 1


@pytest.mark.django_db
def test_pbem_verify_reveals_the_seed_of_a_finished_game(nt_game: Game) -> None:
    Game.objects.filter(pk=nt_game.pk).update(status=Game.Status.FINISHED)

    lines = _run("pbem_verify", str(nt_game.pk))

    assert f"seed (revealed, the game is over): {bytes(nt_game.seed).hex()}" in lines


@pytest.mark.django_db
def test_pbem_verify_unknown_game_is_an_error() -> None:
    with pytest.raises(CommandError):
        _run("pbem_verify", "00000000-0000-0000-0000-000000000000")


@pytest.mark.django_db
def test_pbem_replay_verifies_all_games_and_rebuilds_snapshots(
    nt_game: Game, alice: User, bob: User, play: Play
) -> None:
    play(nt_game, until_turn_ends=2)
    turn_ends = set(
        Event.objects.filter(game=nt_game, turn_ended=True).values_list("seq", flat=True)
    )
    Snapshot.objects.filter(game=nt_game).delete()
    HeadState.objects.filter(game=nt_game).delete()

    lines = _run("pbem_replay", "--verify", "--rebuild-snapshots")

    assert lines[-1].startswith(f"1 games, {nt_game.head_seq} events, 0 failures")
    assert set(Snapshot.objects.filter(game=nt_game).values_list("seq", flat=True)) == turn_ends
    head = HeadState.objects.get(game=nt_game)
    assert (head.seq, head.state_hash) == (nt_game.head_seq, nt_game.head_hash)
    assert game_verify(game=nt_game).ok


@pytest.mark.django_db
def test_pbem_replay_counts_failures(nt_game: Game, play: Play) -> None:
    play(nt_game, 3)
    Game.objects.filter(pk=nt_game.pk).update(head_hash="0" * 64)

    out = StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("pbem_replay", "--verify", str(nt_game.pk), stdout=out)

    assert failed.value.returncode == 1
    assert out.getvalue().splitlines()[-1].startswith(f"1 games, {nt_game.head_seq} events, 1")
    assert "FAILED" in out.getvalue()


@pytest.mark.django_db
def test_pbem_replay_needs_something_to_do() -> None:
    with pytest.raises(CommandError):
        _run("pbem_replay")
