"""A player who has nothing but a mailbox (issue 14 item 5): it learns that it must act only from
the mails the server sends (a turn report, or an answer saying it is still its turn), answers to
the address the mail says to reply to, quoting the mail as mail clients do, and reads the answer.

What to order is chosen by the engine on the state read from the database (the test oracle
standing in for a player who reads the report, as in it_helpers); every order reaches the server
as an SMTP message to `pbem_smtpd`, and nothing else changes the game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid

from games.core.protocol import Action
from games.core.rng import Rng
from games.napoleons_triumph.state import GameState
from pbem.play.models import Game
from pbem.play.rulesets import ruleset_get
from pbem.play.services.log import state_at
from tests.integration.mail_fixtures import SmtpSink, SunkMessage, mail_send_raw
from tests.support.nt_text import action_text

# our notification Message-IDs: <game.seq.role.kind@domain>
NOTICE_ID = re.compile(r"<[0-9a-f-]{36}\.\d+\.(?P<role>[\w-]+)\.(?P<kind>[a-z_]+)[^@]*@")
PROMPTING_KINDS = {"your_turn", "turn_begins"}


def quoted(message: SunkMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    text = body.get_content() if body is not None else ""
    when = message["Date"] or "earlier"
    return f"On {when}, pbem wrote:\n" + "".join(f"> {line}\n" for line in text.splitlines())


def text_of(message: SunkMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    return body.get_content() if body is not None else ""


@dataclass
class MailPlayers:
    """The players of one game (role -> email address), the sink they read and the listener
    they write to."""

    game_id: str
    emails: dict[str, str]
    sink: SmtpSink
    smtpd: tuple[str, int]
    rng: Rng
    pending: dict[str, SunkMessage] = field(default_factory=dict)
    seen: int = 0
    sent: int = 0
    refused: list[str] = field(default_factory=list)

    def role_of(self, message: SunkMessage) -> str | None:
        to = {a.lower() for a in message.envelope_to}
        return next((r for r, e in self.emails.items() if e.lower() in to), None)

    def read_new(self) -> None:
        """Take in every mail since the last look: a turn report makes its role pending."""
        messages = self.sink.messages
        for message in messages[self.seen :]:
            found = NOTICE_ID.match(str(message["Message-ID"] or "").strip())
            role = self.role_of(message)
            if found and role and found["kind"] in PROMPTING_KINDS and message["Reply-To"]:
                self.pending[role] = message
        self.seen = len(messages)

    def wait_for_news(self, timeout: float = 120) -> None:
        at = self.seen
        self.sink.wait_for(lambda m: self.role_of(m) is not None, timeout=timeout, after=at)
        self.read_new()

    def choose(self, role: str) -> Action | None:
        """An order for `role` that can be written as text (the oracle's choice), or None when
        the role is not prompted (its mail is stale)."""
        game = Game.objects.get(pk=self.game_id)
        ruleset = ruleset_get(game.ruleset_id)
        state = state_at(game, game.head_seq, verify=False)
        assert isinstance(state, GameState)
        if role not in ruleset.prompts(state):
            return None
        for _ in range(60):
            action = ruleset.random_action(state, role, self.rng)
            if action is not None and action_text(state, role, action) is not None:
                return action
        raise AssertionError(f"no order of {role} has a text form at {game.head_seq}")

    def write(self, role: str, to_mail: SunkMessage, body: str) -> SunkMessage:
        """Reply to `to_mail` with `body` over SMTP; returns the server's answer."""
        msg = EmailMessage()
        msg["From"] = f"{role.title()} Player <{self.emails[role]}>"
        msg["To"] = str(to_mail["Reply-To"])
        msg["Subject"] = f"Re: {to_mail['Subject']}"
        mid = make_msgid(domain="players.example")
        msg["Message-ID"] = mid
        if to_mail["Message-ID"]:
            msg["In-Reply-To"] = str(to_mail["Message-ID"]).strip()
        msg.set_content(f"{body}\n\n-- \n{role} player\n\n{quoted(to_mail)}")
        rcpt = str(to_mail["Reply-To"]).strip().strip("<>")
        raw = msg.as_bytes()
        mail_send_raw(*self.smtpd, raw, self.emails[role], rcpt)
        self.sent += 1
        answer = self.sink.wait_for(
            lambda m: str(m["In-Reply-To"] or "").strip() == mid, timeout=120
        )
        return answer

    def step(self) -> bool:
        """One order by mail from a pending role; False when no role is pending."""
        self.read_new()
        for role in sorted(self.pending):
            report = self.pending.pop(role)
            game = Game.objects.get(pk=self.game_id)
            state = state_at(game, game.head_seq, verify=False)
            assert isinstance(state, GameState)
            action = self.choose(role)
            if action is None:
                continue  # stale: the role is no longer prompted
            text = action_text(state, role, action)
            assert text is not None
            answer = self.write(role, report, text)
            subject = str(answer["Subject"])
            if "[applied]" not in subject:
                self.refused.append(f"{role}: {text!r} -> {subject}\n{text_of(answer)}")
                raise AssertionError(self.refused[-1])
            if "(that is you)" in text_of(answer) and answer["Reply-To"]:
                self.pending[role] = answer
            return True
        return False
