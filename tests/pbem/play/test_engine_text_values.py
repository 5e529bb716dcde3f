"""Engine sentences whose values are phrases of their own, and report lines the engine wrapped
(pbem.play.engine_text): a German reader sees them German, an English reader the exact English.

- A morale or loss reason, an elite trigger, a victory reason, the "none" of an empty list are
  templates of their own (games.napoleons_triumph: morale, losses, attack, retreat, victory,
  context, report): filled into a sentence, each is translated as a value.
- A report line longer than 100 characters is wrapped after ", " / "; " by the engine
  (games.napoleons_triumph.report `wrap`); the platform joins it again, translates it and wraps
  the translation by the same rule.
"""

from __future__ import annotations

from games.core import wrap as core_wrap
from games.core.i18n import T
from games.core.protocol import JSON, OBSERVER, GameConfig
from games.core.rng import Rng
from games.napoleons_triumph import RULESET
from games.napoleons_triumph.state import GameState
from pbem.play.engine_text import engine_text

MORALE = "French morale {before} -> {after} ({reason})."
ELITE = "{units} commits the guard ({trigger})."
RESULT = "Game over: {side} win ({kind}: {reason})."
FILED = "Standing instructions filed for: {scopes}."


def test_a_morale_reason_is_translated_as_a_value() -> None:
    line = T(MORALE, before=23, after=21, reason=T("first use of heavy cav"))
    assert line == "French morale 23 -> 21 (first use of heavy cav)."  # the English as it was
    assert engine_text(line, "de") == (
        "Französische Moral 23 -> 21 (erster Einsatz der schweren Kavallerie)."
    )
    assert engine_text(line, "en") == line
    attack = T(MORALE, before=9, after=7, reason=T("lost attack {attack}", attack=4))
    assert attack == "French morale 9 -> 7 (lost attack 4)."
    assert engine_text(attack, "de") == "Französische Moral 9 -> 7 (verlorener Angriff 4)."


def test_an_elite_trigger_a_loss_reason_and_a_result_reason_are_translated() -> None:
    elite = T(ELITE, units="A42 (GUARD3)", trigger=T("leads the attack"))
    assert engine_text(elite, "de") == "A42 (GUARD3) setzt die Garde ein (Führung des Angriffs)."
    loss = T("{unit} is eliminated ({reason}).", unit="F11 (CAV1)", reason=T("retreat loss"))
    assert engine_text(loss, "de") == "F11 (CAV1) ist vernichtet (Rückzugsverlust)."
    over = T(RESULT, side=T("Allies"), kind=T("decisive"), reason=T("French morale reached 0"))
    assert over == "Game over: Allies win (decisive: French morale reached 0)."
    assert engine_text(over, "de") == (
        "Partie vorbei: Sieger Alliierte (entscheidend: die französische Moral erreichte 0)."
    )
    assert engine_text(over, "en") == over


def test_a_refusal_inside_a_refusal_is_translated_and_what_a_person_wrote_is_not() -> None:
    nested = T("line {n}: {error}", n=2, error=T("write 'end turn'"))
    assert engine_text(nested, "de") == "Zeile 2: schreibe 'end turn'"
    chat = T("[{team} conference] {author}: {text}", team="allied", author="ann", text="none")
    assert engine_text(chat, "de").endswith("ann: none")  # the message itself stays as written


def test_a_real_games_log_reasons_read_german() -> None:
    """A whole random game (decided by morale): every reason and trigger its log gives is
    German for a German reader, and every line is unchanged for an English one."""
    state = RULESET.setup(GameConfig("DEC1", {}), Rng.for_event(b"seed-1", 0))
    chooser = Rng.for_event(b"seed-1", 1 << 40)
    lines: list[str] = []
    for n in range(400):
        prompts = RULESET.prompts(state)
        if not prompts:
            break
        role = sorted(prompts)[chooser.below(len(prompts))]
        action = RULESET.random_action(state, role, chooser)
        assert action is not None
        step = RULESET.apply(state, action, Rng.for_event(b"seed-1", n + 2))
        state = step.state
        lines += [e.text for e in step.log if e.audience is None or OBSERVER in e.audience]
    english = [
        *("first use of", "night recovery", "retreat loss", "lost attack", "leads the"),
        *("takes a loss", "counter-attack", "morale reached 0", "(retreats)"),
    ]
    carrying = [line for line in lines if any(p in line for p in english)]
    assert len(carrying) >= 5
    for line in carrying:
        german = engine_text(line, "de")
        assert not any(p in german for p in english), (line, german)
        assert engine_text(line, "en") == line
    report = RULESET.report_text(state, OBSERVER)
    assert "Game over:" in report
    assert "Partie vorbei:" in engine_text(report, "de")
    assert "morale reached 0" not in engine_text(report, "de")


def _played(seed: bytes, actions: int, options: dict[str, JSON] | None = None) -> GameState:
    state = RULESET.setup(GameConfig("DEC1", dict(options or {})), Rng.for_event(seed, 0))
    chooser = Rng.for_event(seed, 1 << 40)
    for n in range(actions):
        prompts = RULESET.prompts(state)
        if not prompts:
            break
        role = sorted(prompts)[chooser.below(len(prompts))]
        action = RULESET.random_action(state, role, chooser)
        assert action is not None
        state = RULESET.apply(state, action, Rng.for_event(seed, n + 2)).state
    return state


def test_the_reports_data_lines_read_german() -> None:
    """The positions, pieces and standing instructions of a report (its data lines) carry their
    words as templates: German for a German reader, the engine's English for an English one."""
    state = _played(b"seed-3", 120)
    english = RULESET.report_text(state, "allied")
    words = ["reserve: ", "blocking A", " towards ", "(fixed battery)", " blocks)", "locale "]
    words.append("default")
    shown = [w for w in words if w in english]
    assert len(shown) >= 6, shown
    german = engine_text(english, "de")
    assert [w for w in shown if w in german] == []
    assert "  87: Reserve: Constantine [A01 ART1, A23 INF2" in german
    assert "blockiert A088 nach 55: F-fe5387c498 ART1 (feste Batterie)" in german
    assert "Französische Armee außerhalb des Spielplans: Davout (8 Blöcke)" in german
    assert engine_text(english, "en") == english


def test_a_team_reports_seats_read_german() -> None:
    options: dict[str, JSON] = {"team_play": True, "roles": {"al1": "AL", "al2": "AL", "fr1": "F"}}
    state = _played(b"seed-4", 30, options)
    english = RULESET.report_text(state, "al1")
    assert "rank 1 al1 (commander-in-chief)" in english
    german = engine_text(english, "de")
    assert "Rang 1 al1 (Oberbefehlshaber)" in german
    assert "commander-in-chief)" not in german
    assert engine_text(english, "en") == english


def _filed(n: int) -> str:
    scopes = ", ".join(["default"] + [f"locale {k}" for k in range(100, 100 + n)])
    return T(FILED, scopes=scopes)


def test_a_wrapped_report_line_is_translated_whole_and_wrapped_again() -> None:
    line = _filed(30)
    wrapped = "\n".join(core_wrap.wrap(line))
    assert wrapped.count("\n") >= 2  # the engine wrapped it: no single line matches a template
    text = "Nothing is asked of you now.\n" + wrapped + "\nNothing is asked of you now."
    german = engine_text(text, "de")
    lines = german.split("\n")
    assert lines[0] == lines[-1] == "Im Moment wird nichts von dir verlangt."
    body = lines[1:-1]
    assert body[0].startswith("Stehende Anweisungen hinterlegt für: Standard, Stellung 100,")
    assert all(len(x) <= core_wrap.WIDTH for x in body)
    assert all(x.startswith("    ") for x in body[1:])  # continuation: indented 4 deeper
    joined = " ".join(x.strip() for x in body)
    scopes = line.split(": ", 1)[1].replace("default", "Standard").replace("locale", "Stellung")
    assert joined == "Stehende Anweisungen hinterlegt für: " + scopes
    assert engine_text(text, "en") == text  # English: untouched, wrapped as the engine did


def test_an_unmatched_wrapped_line_stays_as_it_was() -> None:
    text = "\n".join(core_wrap.wrap("  no template, " + ", ".join(["x" * 20] * 10)))
    assert "\n" in text
    assert engine_text(text, "de") == text
