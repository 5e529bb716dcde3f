"""`manage.py pbem_demo [--if-missing] [--seed N]`: users, a Napoleon's Triumph game in progress,
and the API tokens to try it with.

Creates (or reuses) alice (allied), bob (french) and carol (no seat), creates a new game titled
"Demo" (DEC2 on the small Austerlitz board), and plays its set-up and a few turns through the real
order path (`order_submit`, then the worker's `order_apply`) with the engine's random legal
actions, until at least one attack has been fought and a player's turn has just begun. Running it
again reuses the users and creates another game; with `--if-missing` it creates nothing when a
game titled "Demo" exists and only prints that game and the tokens.
"""

from __future__ import annotations

import secrets
import time
from argparse import ArgumentParser
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from games.core.protocol import Action, random_legal_action
from games.core.rng import Rng
from pbem.conf import DEFAULTS, pbem_settings
from pbem.play.errors import ServiceError
from pbem.play.management.commands.pbem_user import user_with_token
from pbem.play.models import Event, Game, OrderIntake, Seat
from pbem.play.rulesets import ruleset_get
from pbem.play.services.games import game_create
from pbem.play.services.log import state_at
from pbem.play.services.orders import order_apply, order_submit

RULESET_ID = "napoleons_triumph"
SCENARIO = "DEC2"
OPTIONS = {"board": "austerlitz"}
TITLE = "Demo"
USERS = (("alice", "allied"), ("bob", "french"), ("carol", None))
ATTACK_KINDS = frozenset({"declare_attack", "declare_after_vacate"})
MIN_ATTACKS = 1
MAX_ACTIONS = 400  # a safety stop: the random play reaches an attack within a few dozen actions
ACTION_TRIES = 20


class Command(BaseCommand):
    help = "Create demo users and a Napoleon's Triumph game in progress; print the API tokens."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--if-missing",
            action="store_true",
            help=f"do nothing but print tokens when a game titled {TITLE!r} exists",
        )
        parser.add_argument(
            "--seed", type=int, default=None, help="seed of the random play (not of the dice)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        tokens: list[tuple[str, str]] = []
        users: dict[str, User] = {}
        for name, _role in USERS:
            user, token, created = user_with_token(name, f"{name}@example.com")
            users[name] = user
            tokens.append((name, token.key))
            self.stdout.write(f"user {name}: {'created' if created else 'exists'}")

        existing = Game.objects.filter(title=TITLE).order_by("-created_at").first()
        if options["if_missing"] and existing is not None:
            self.stdout.write(f"a game titled {TITLE!r} exists already: nothing created")
            self._summary(existing, tokens)
            return

        game = game_create(
            ruleset_id=RULESET_ID,
            scenario=SCENARIO,
            options=OPTIONS,
            seats={role: users[name] for name, role in USERS if role is not None},
            creator=users["alice"],
            title=TITLE,
            accepted=True,  # the operator seats the demo users directly
        )
        self.stdout.write(f"game created: {game.pk} ({SCENARIO}, board {OPTIONS['board']})")
        seed = options["seed"] if options["seed"] is not None else secrets.randbits(64)
        self._play(game, Rng(seed))
        game.refresh_from_db()
        self.stdout.write(f"done in {time.monotonic() - started:.2f}s")
        self._summary(game, tokens)

    # ------------------------------------------------------------------------------ play

    def _play(self, game: Game, rng: Rng) -> None:
        ruleset = ruleset_get(game.ruleset_id)
        holders = {s.role: s.user for s in Seat.objects.filter(game=game).select_related("user")}
        attacks = actions = 0
        stage_actions = stage_attacks = 0
        stage_first = game.head_seq + 1
        while actions < MAX_ACTIONS:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                self.stdout.write(f"the game is {game.status}")
                return
            state = state_at(game, game.head_seq, verify=False)
            prompts = ruleset.prompts(state)
            if not prompts:
                return
            role = sorted(prompts)[0]
            user = holders.get(role)
            if user is None:
                raise CommandError(f"nobody holds the seat {role!r}")
            action = random_legal_action(ruleset, state, role, rng, ACTION_TRIES)
            if action is None:
                raise CommandError(
                    f"the random play found no action for {role} at event {game.head_seq}"
                )
            event = self._submit(game, user, action)
            actions += 1
            stage_actions += 1
            if action.kind in ATTACK_KINDS:
                attacks += 1
                stage_attacks += 1
            if event.turn_ended:
                self.stdout.write(
                    f"{_stage_name(event, role)}: {stage_actions} action(s), "
                    f"{stage_attacks} attack(s) (events {stage_first}-{event.seq})"
                )
                stage_actions = stage_attacks = 0
                stage_first = event.seq + 1
                if attacks >= MIN_ATTACKS:
                    return
        self.stdout.write(f"stopped after {actions} actions")

    def _submit(self, game: Game, user: User, action: Action) -> Event:
        try:
            intake = order_submit(
                game=game,
                user=user,
                role=action.role,
                kind=action.kind,
                payload=action.payload,
                source="admin",
            )
        except ServiceError as e:
            raise CommandError(f"{action.role} {action.kind} refused: {e.message}") from None
        if intake.status == OrderIntake.Status.RECEIVED:
            order_apply(intake_id=intake.pk)  # a broker is configured: do not wait for a worker
            intake.refresh_from_db()
        if intake.status != OrderIntake.Status.APPLIED or intake.event_id is None:
            raise CommandError(f"{action.role} {action.kind} was not applied: {intake.errors}")
        return Event.objects.get(pk=intake.event_id)

    # ------------------------------------------------------------------------------ output

    def _summary(self, game: Game, tokens: list[tuple[str, str]]) -> None:
        waiting = ", ".join(game.active_roles) or "nobody"
        self.stdout.write(
            f"game {game.pk} {game.title!r}: {game.status}, event {game.head_seq}, "
            f"waiting for {waiting}"
        )
        self.stdout.write("try (with a token below in 'Authorization: Token <token>'):")
        site = site_url()
        for path in ("", f"/{game.pk}", f"/{game.pk}/view", f"/{game.pk}/events"):
            self.stdout.write(f"  {site}/api/v1/games{path}")
        self.stdout.write(f"game {game.pk}")
        for name, key in tokens:
            self.stdout.write(f"token {name} {key}")


def site_url() -> str:
    """The site's address (env PBEM_SITE_URL; `./dev serve` sets it from PORT), as in emails."""
    return str(pbem_settings.SITE_URL or DEFAULTS["SITE_URL"]).rstrip("/")


def _stage_name(event: Event, role: str) -> str:
    if event.kind.endswith("_setup"):
        return f"set-up {role}"
    return f"turn of {role}"
