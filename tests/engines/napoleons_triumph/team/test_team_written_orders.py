"""Written orders of team play (digest napoleons-triumph-team.md 2.4 NT-TEAM-17..26, 3.4, table
3.5.1, Appendix A; tests NT-TEAM-T32..T47 of 5.5 / 5.6 that are pure written-order behaviour).

Fixtures of digest 5.1: Allied AL1 (CinC), AL2, AL3; French F1 (CinC), F2; the gazetteer of the
reconstructed board `austerlitz` (the file order is the gazetteer order)."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.protocol import JSON
from games.napoleons_triumph.board import board_named, normalise_name
from games.napoleons_triumph.board_model import Board
from games.napoleons_triumph.state import AL, F
from games.napoleons_triumph.team.model import Team, TeamSeat
from games.napoleons_triumph.team.written_orders import (
    ORDER_INVALID,
    TRANSITIONS,
    Order,
    OrderRefused,
    SlotState,
    Verb,
    WrittenOrder,
    archive,
    canonical_order,
    canonical_text,
    closest_toponym,
    commitment,
    draft,
    draft_rejections,
    gazetteer_problems,
    inbox,
    may_write,
    normalise_with_offsets,
    order_from_json,
    order_json,
    parse,
    parse_order,
    public_commitments,
    readable_by,
    recipients,
    revealed_json,
    seal,
    slot_nonce,
    slot_state,
    slots_per_turn,
    text_de,
    text_en,
    transition,
    verify,
)

BOARD = board_named("austerlitz")
PUBLISHED = board_named("austerlitz-published")
ALLIES = Team(AL, (TeamSeat("AL1", AL, 1), TeamSeat("AL2", AL, 2), TeamSeat("AL3", AL, 3)))
FRENCH = Team(F, (TeamSeat("F1", F, 1), TeamSeat("F2", F, 2)))
GAME = "game-7"
SALT = "the game's secret salt"
SLOW = settings(deadline=None, max_examples=150)


def refused(text: str, board: Board = BOARD, language: str = "any") -> OrderRefused:
    with pytest.raises(OrderRefused) as info:
        parse_order(text, board, language=language)
    return info.value


def written(text: str, recipient: str = "AL2", turn: int = 3) -> WrittenOrder:
    return draft(ALLIES, "AL1", recipient, turn, text, BOARD, phase_open=True)


# ------------------------------------------------------------------ 5.5: grammar and canonical form


@pytest.mark.parametrize(
    ("text", "verb", "ids"),
    [
        ("angreifen", Verb.ATTACK, ()),
        ("Telnitz angreifen", Verb.ATTACK, ("telnitz",)),
        ("verteidigen", Verb.DEFEND, ()),
        ("Pratze, Pratzeberg, Aujezd verteidigen", Verb.DEFEND, ("pratze", "pratzeberg", "aujezd")),
    ],
)
def test_nt_team_t32_the_l678_examples_are_accepted(
    text: str, verb: Verb, ids: tuple[str, ...]
) -> None:
    """NT-TEAM-T32 (NT-TEAM-19..21): the four L678 examples, canonical, in gazetteer order."""
    slot = written(text)
    assert slot.order == Order(verb, ids)
    assert order_json(Order(verb, ids), BOARD)["toponyms"] == list(ids)


def test_nt_team_t32_text_en_of_the_last_example() -> None:
    order = parse_order("Pratze, Pratzeberg, Aujezd verteidigen", BOARD)
    assert text_en(order, BOARD) == "Defend Pratze, Pratzeberg, Aujezd"
    assert order_json(order, BOARD) == {
        "verb": "DEFEND",
        "toponyms": ["pratze", "pratzeberg", "aujezd"],
        "text_de": "Pratze, Pratzeberg, Aujezd verteidigen",
        "text_en": "Defend Pratze, Pratzeberg, Aujezd",
    }


@pytest.mark.parametrize(
    ("text", "rule", "position"),
    [
        ("", "NT-TEAM-19", 0),  # empty
        ("Telnitz", "NT-TEAM-19", 7),  # no verb (G-1)
        ("angreifen verteidigen", "NT-TEAM-19", 10),  # two verbs (G-1)
        ("Telnitz sofort angreifen", "NT-TEAM-21", 8),  # extra word (G-3)
        ("305 verteidigen", "NT-TEAM-21", 0),  # number (G-3, AMB-6)
        ("Langeron angreifen", "NT-TEAM-21", 0),  # commander (G-3)
        ("retreat", "NT-TEAM-20", 0),  # verb not allowed
        ("Telnitz angreifen Aujezd", "NT-TEAM-19", 18),  # nouns on both sides (G-1)
        ("Brünn angreifen", "NT-TEAM-21", 0),  # not printed on the loaded map
    ],
)
def test_nt_team_t33_invalid_orders_are_refused(text: str, rule: str, position: int) -> None:
    """NT-TEAM-T33 (3.4.2 G-1..G-3): 422 order_invalid, with the rule id and the position."""
    with pytest.raises(OrderRefused) as info:
        draft(ALLIES, "AL1", "AL2", 3, text, BOARD, phase_open=True)
    e = info.value
    assert (e.code, e.rejection.rule, e.position, e.rejection.path) == (
        ORDER_INVALID,
        rule,
        position,
        "/text",
    )
    assert f"character {position + 1}:" in e.rejection.message


def test_nt_team_t34_canonical_form_removes_covert_channels() -> None:
    """NT-TEAM-T34 (3.4.3, AMB-5): spelling, case, order, duplicates and punctuation vanish."""
    slot = written("aujezd ,PRATZE  und pratze berg, Aujezd verteidigen!")
    assert slot.order == Order(Verb.DEFEND, ("pratze", "pratzeberg", "aujezd"))
    assert slot.order is not None
    assert text_de(slot.order, BOARD) == "Pratze, Pratzeberg, Aujezd verteidigen"
    assert "aujezd ," not in json.dumps(slot.to_json(BOARD))  # the raw input is kept nowhere


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Sokolnitz und Telnitz angreifen.", "Telnitz, Sokolnitz angreifen"),
        ("Attack Telnitz", "Telnitz angreifen"),
        ("defend Pratze Berg, Aujezd", "Pratzeberg, Aujezd verteidigen"),
        ("Pratzen verteidigen", "Pratzeberg verteidigen"),
        (
            "Kl. Hostiehradek, Olmützer Strasse angreifen",
            "Kl. Hostiehradek, Olmützer Straße angreifen",
        ),
        ("telnitz,sokolnitz , und satschan angreifen !", "Telnitz, Sokolnitz, Satschan angreifen"),
    ],
)
def test_3_4_2_valid_examples_and_appendix_a_results(text: str, canonical: str) -> None:
    """3.4.2 valid list and the results stated under Appendix A (NT-TEAM-19..21, G-4)."""
    assert text_de(parse_order(text, BOARD), BOARD) == canonical


@pytest.mark.parametrize(
    ("text", "rule", "position"),
    [
        ("Telnitz, angreifen", "NT-TEAM-19", 7),  # dangling separator (Appendix A)
        ("nicht angreifen", "NT-TEAM-21", 0),  # negation (G-3)
        ("Telnitz Sokolnitz angreifen", "NT-TEAM-19", 8),  # no separator between two toponyms
        ("angreifen , Telnitz", "NT-TEAM-19", 10),  # a separator without a toponym before it
        ("Telnitz und angreifen", "NT-TEAM-19", 8),  # dangling conjunction
        ("telnitz,angreifen", "NT-TEAM-19", 8),  # the verb glued to a toponym
        ("angrifen Telnitz", "NT-TEAM-20", 0),  # a misspelt verb
        ("  Telnitz\t sofort  angreifen", "NT-TEAM-21", 11),  # offsets count the author's text
    ],
)
def test_grammar_errors_name_their_rule_id_and_position(
    text: str, rule: str, position: int
) -> None:
    e = refused(text)
    assert (e.rejection.rule, e.position, e.code) == (rule, position, ORDER_INVALID)


def test_misspelt_verb_is_suggested() -> None:
    assert "did you mean angreifen?" in refused("angrifen Telnitz").rejection.message


@pytest.mark.parametrize(
    ("text", "closest"),
    [
        ("Tellnitzz angreifen", "telnitz"),
        ("Pratze Bergg verteidigen", "pratzeberg"),
        ("Sokolniz, Telnitz angreifen", "sokolnitz"),
        ("Telnitz, Satchan angreifen", "satschan"),
        ("Strasse angreifen", "olmuetzer_strasse"),
    ],
)
def test_nt_team_21_unknown_toponym_names_the_closest(text: str, closest: str) -> None:
    """NT-TEAM-21 (G-2, G-3): the refusal names the closest toponym (difflib, deterministic)."""
    e = refused(text)
    assert (e.rejection.rule, e.closest) == ("NT-TEAM-21", closest)
    name = next(t.name for t in BOARD.toponyms if t.id == closest)
    assert e.rejection.message.endswith(f"the closest is {name}")
    assert refused(text).rejection == e.rejection  # the same answer every time


def test_closest_toponym_ties_go_to_the_gazetteer_order() -> None:
    first, alias = closest_toponym(BOARD, ""), closest_toponym(BOARD, "PRATZEN")
    assert first is not None
    assert first.id == BOARD.toponyms[0].id
    assert alias is not None
    assert alias.id == "pratzeberg"  # an alias counts for its toponym


def test_g6_order_language() -> None:
    """3.4.2 G-6: with order_language de / en only that language's verbs and conjunctions."""
    assert parse_order("Telnitz und Aujezd angreifen", BOARD, language="de").verb is Verb.ATTACK
    assert refused("Attack Telnitz", language="de").rejection.rule == "NT-TEAM-20"
    assert refused("Telnitz und Aujezd angreifen", language="en").rejection.rule == "NT-TEAM-20"
    e = refused("Attack Telnitz und Aujezd", language="en")
    assert (e.rejection.rule, e.position) == ("NT-TEAM-19", 15)
    assert parse_order("Attack Telnitz, and Aujezd", BOARD, language="en").toponyms == (
        "telnitz",
        "aujezd",
    )
    with pytest.raises(ValueError, match="order language"):
        parse_order("angreifen", BOARD, language="fr")


def test_structured_form_is_canonicalised_and_checked() -> None:
    """NT-TEAM-19..21: the structured JSON form is the order; ids are deduplicated and sorted
    (AMB-5); an unknown id names the closest toponym; no other field (3.4.3)."""
    order = order_from_json({"verb": "DEFEND", "toponyms": ["aujezd", "pratze", "aujezd"]}, BOARD)
    assert order == Order(Verb.DEFEND, ("pratze", "aujezd"))
    with pytest.raises(OrderRefused) as info:
        order_from_json({"verb": "ATTACK", "toponyms": ["telnitz", "sokolnitze"]}, BOARD, "/order")
    e = info.value
    assert (e.rejection.rule, e.rejection.path, e.closest) == (
        "NT-TEAM-21",
        "/order/toponyms/1",
        "sokolnitz",
    )
    bad: list[tuple[JSON, str]] = [
        ({"verb": "RETREAT", "toponyms": []}, "NT-TEAM-20"),
        ({"verb": "ATTACK", "toponyms": "telnitz"}, "NT-TEAM-21"),
        ({"verb": "ATTACK", "toponyms": [], "note": "x"}, "NT-TEAM-19"),
        ({"verb": "ATTACK", "toponyms": ["telnitz"], "text_de": "TELNITZ angreifen"}, "NT-TEAM-19"),
        ("Telnitz angreifen", "NT-TEAM-19"),
    ]
    for data, rule in bad:
        with pytest.raises(OrderRefused) as info:
            order_from_json(data, BOARD)
        assert info.value.rejection.rule == rule
    assert draft(
        ALLIES, "AL1", "AL3", 2, {"verb": "ATTACK"}, BOARD, phase_open=True
    ).order == Order(Verb.ATTACK)


def test_published_board_gazetteer() -> None:
    """G-2, G-5: the nouns are the loaded board's toponyms and their printed spelling."""
    order = parse_order("pratzeberg, Nowabora verteidigen", PUBLISHED)
    assert text_de(order, PUBLISHED) == "Pratze Berg, Nowabora verteidigen"
    assert refused("Nowabora verteidigen").rejection.rule == "NT-TEAM-21"  # not on the other map
    assert refused("Kobelnitzer Teich angreifen", PUBLISHED).rejection.rule == "NT-TEAM-21"
    assert gazetteer_problems(BOARD) == []
    assert gazetteer_problems(PUBLISHED) == []


def test_house_rule_max_toponyms() -> None:
    """3.4.3: options.order_max_toponyms (default None = unlimited, as in the seed)."""
    text = "Telnitz, Sokolnitz angreifen"
    assert draft(ALLIES, "AL1", "AL2", 1, text, BOARD, phase_open=True, max_toponyms=2).order
    with pytest.raises(OrderRefused) as info:
        draft(ALLIES, "AL1", "AL2", 1, text, BOARD, phase_open=True, max_toponyms=1)
    assert info.value.rejection.rule == "NT-TEAM-21"


# ------------------------------------------------------------------ 5.5: writing and slots


def test_nt_team_2_slots_per_team_turn() -> None:
    """NT-TEAM-2 table, NT-TEAM-18: n - 1 order slots per team turn."""
    for n in range(1, 5):
        team = Team(AL, tuple(TeamSeat(f"AL{r}", AL, r) for r in range(1, n + 1)))
        assert slots_per_turn(team) == n - 1
        assert len(seal(team, 1, {})) == n - 1
    solo = Team(F, (TeamSeat("F1", F, 1),))
    assert not may_write(solo, "F1")
    assert recipients(solo, "F1") == ()


def test_nt_team_17_only_the_cinc_writes() -> None:
    assert may_write(ALLIES, "AL1")
    assert not may_write(ALLIES, "AL2")
    assert [s.role for s in recipients(ALLIES, "AL1")] == ["AL2", "AL3"]  # NT-TEAM-18, rank order
    assert recipients(ALLIES, "AL2") == ()
    assert recipients(ALLIES, "F1") == ()


def test_nt_team_t35_subordinate_may_not_write() -> None:
    """NT-TEAM-T35 (NT-TEAM-17): AL2 drafting to AL3 is 403 not_cinc."""
    with pytest.raises(OrderRefused) as info:
        draft(ALLIES, "AL2", "AL3", 3, "verteidigen", BOARD, phase_open=True)
    assert (info.value.code, info.value.rejection.rule) == ("not_cinc", "NT-TEAM-17")
    rejections = draft_rejections(ALLIES, "AL2", "AL3", 3, "verteidigen", BOARD, phase_open=True)
    assert [r.rule for r in rejections] == ["NT-TEAM-17"]


def test_nt_team_t36_order_phase_closed() -> None:
    """NT-TEAM-T36 (NT-TEAM-18, AMB-3): after the CinC's first command the phase is closed."""
    with pytest.raises(OrderRefused) as info:
        draft(ALLIES, "AL1", "AL2", 3, "angreifen", BOARD, phase_open=False)
    assert (info.value.code, info.value.rejection.rule) == ("order_phase_closed", "NT-TEAM-18")


def test_nt_team_t37_one_slot_per_subordinate_at_the_seal() -> None:
    """NT-TEAM-T37 (NT-TEAM-18, AMB-4): a replaced draft for AL2, nothing for AL3 -> 2 slots,
    AL3's null; a second seal or draft in the same turn is refused."""
    drafts: dict[str, Order | None] = {}
    first = written("Telnitz angreifen")
    drafts[first.recipient] = first.order
    second = written("Aujezd verteidigen")
    drafts[second.recipient] = second.order  # replaces: one slot per recipient
    slots = seal(ALLIES, 3, drafts)
    assert slots == (
        WrittenOrder(AL, "AL1", "AL2", 3, Order(Verb.DEFEND, ("aujezd",))),
        WrittenOrder(AL, "AL1", "AL3", 3, None),
    )
    state = transition(SlotState.DRAFT, SlotState.SEALED)
    for again in (SlotState.SEALED, SlotState.DRAFT):
        with pytest.raises(OrderRefused) as info:
            transition(state, again)
        assert info.value.code == "order_phase_closed"
    with pytest.raises(OrderRefused):
        seal(ALLIES, 3, {"F2": None})


@pytest.mark.parametrize("recipient", ["AL1", "F2", "3f1c9c1e-7d1a-4c55-9a57-0d2b1e6f5a10"])
def test_nt_team_t38_bad_recipient_has_one_body(recipient: str) -> None:
    """NT-TEAM-T38 (3.4.4): to himself, to the other team or to a random seat: the same body."""
    with pytest.raises(OrderRefused) as info:
        draft(ALLIES, "AL1", recipient, 3, "angreifen", BOARD, phase_open=True)
    assert info.value.code == "bad_recipient"
    assert info.value.rejection.to_json() == {
        "rule": "NT-TEAM-18",
        "message": "a written order goes to one teammate of the commander-in-chief",
        "path": "/recipient",
    }


def test_nt_team_t39_recipient_without_pieces() -> None:
    """NT-TEAM-T39 (AMB-24): an order to a seat with no pieces is accepted and delivered at 4."""
    slot = written("verteidigen", recipient="AL3")
    assert slot.readable_from_turn == 4
    assert readable_by(slot, "AL3", team_turn=4, game_over=False)


def test_nt_team_t40_cinc_without_corps_still_seals() -> None:
    """NT-TEAM-T40 (AMB-26): sealing and delivery depend on seats only, never on pieces."""
    slots = seal(ALLIES, 5, {})
    assert [s.recipient for s in slots] == ["AL2", "AL3"]
    assert all(s.author == "AL1" for s in slots)


# ------------------------------------------------------------------ 5.6: timing and leaks


def test_nt_team_t41_delivery_at_the_start_of_turn_k_plus_1() -> None:
    """NT-TEAM-T41 (NT-TEAM-22): sealed in Allied turn 3, AL2's inbox is empty through the Allied
    and the French turn 3 (Allied team_turn 3) and holds it from TEAM_TURN_START(AL, 4) on."""
    slots = seal(ALLIES, 3, {"AL2": parse_order("Telnitz angreifen", BOARD)})
    assert inbox(slots, "AL2", team_turn=3, game_over=False) == ()
    assert slot_state(slots[0], team_turn=3, game_over=False) is SlotState.SEALED
    delivered = inbox(slots, "AL2", team_turn=4, game_over=False)
    assert [(s.turn, s.readable_from_turn) for s in delivered] == [(3, 4)]
    assert slot_state(slots[0], team_turn=4, game_over=False) is SlotState.DELIVERED
    # AL3 learns only that his own slot is empty (table 3.5.1, "order or none": own slot)
    assert inbox(slots, "AL3", team_turn=4, game_over=False) == (slots[1],)
    assert slots[1].order is None
    assert inbox(slots, "AL2", team_turn=12, game_over=False) == delivered  # AMB-30: re-read


def test_nt_team_22_23_who_reads_when() -> None:
    """NT-TEAM-22/23, table 3.5.1: author always, recipient from k+1, nobody else until the end."""
    slot = WrittenOrder(AL, "AL1", "AL2", 3, Order(Verb.ATTACK, ("telnitz",)))
    for turn in (3, 4, 9):
        assert readable_by(slot, "AL1", team_turn=turn, game_over=False)
        assert readable_by(slot, "AL2", team_turn=turn, game_over=False) is (turn >= 4)
        for other in ("AL3", "F1", "F2", "@observer", "@omniscient"):
            assert not readable_by(slot, other, team_turn=turn, game_over=False)
    for anyone in ("AL1", "AL2", "AL3", "F1", "F2", "@observer"):
        assert readable_by(slot, anyone, team_turn=3, game_over=True)  # NT-TEAM-26, AMB-8


def test_nt_team_t47_game_ends_before_k_plus_1() -> None:
    """NT-TEAM-T47: the Allies are demoralized in French turn 3: AL2 never reads the order during
    play; the archive at GAME_OVER shows it to everyone."""
    slots = seal(ALLIES, 3, {"AL2": parse_order("Telnitz angreifen", BOARD)})
    assert inbox(slots, "AL2", team_turn=3, game_over=False) == ()
    assert archive(slots, game_over=False) == ()
    assert transition(SlotState.SEALED, SlotState.REVEALED) is SlotState.REVEALED
    assert slot_state(slots[0], team_turn=3, game_over=True) is SlotState.REVEALED
    assert archive(slots, game_over=True) == slots


def test_nt_team_t51_night_conference_delays_nothing_but_the_start() -> None:
    """NT-TEAM-T51: during the night conference the Allied turn k+1 has not started (team_turn
    is still k), so the order is not readable; it is from TEAM_TURN_START(AL, k+1)."""
    slot = WrittenOrder(AL, "AL1", "AL2", 7, Order(Verb.DEFEND))
    assert not readable_by(slot, "AL2", team_turn=7, game_over=False)
    assert readable_by(slot, "AL2", team_turn=8, game_over=False)


def test_3_4_1_life_cycle() -> None:
    assert TRANSITIONS[SlotState.DRAFT] == (SlotState.DRAFT, SlotState.SEALED)
    assert transition(SlotState.SEALED, SlotState.DELIVERED) is SlotState.DELIVERED
    assert transition(SlotState.DELIVERED, SlotState.REVEALED) is SlotState.REVEALED
    for to in SlotState:
        with pytest.raises(OrderRefused):
            transition(SlotState.REVEALED, to)
    with pytest.raises(OrderRefused):
        transition(SlotState.DELIVERED, SlotState.SEALED)
    slot = WrittenOrder(AL, "AL1", "AL2", 3, None)
    assert slot_state(slot, team_turn=3, game_over=False, sealed=False) is SlotState.DRAFT


def test_nt_team_t45_commitments_always_n_minus_1() -> None:
    """NT-TEAM-T45 (SRV-2): 2 commitments of 64 hex digits for the Allies, with 0 or 2 orders."""
    none = seal(ALLIES, 3, {})
    two = seal(ALLIES, 3, {"AL2": Order(Verb.ATTACK), "AL3": Order(Verb.DEFEND, ("satschan",))})
    for slots in (none, two):
        out = public_commitments(ALLIES, slots, secret_salt=SALT, game_id=GAME, board=BOARD)
        assert len(out) == 2
        assert all(len(c) == 64 and int(c, 16) >= 0 for c in out)
    assert public_commitments(
        ALLIES, none, secret_salt=SALT, game_id=GAME, board=BOARD
    ) != public_commitments(ALLIES, two, secret_salt=SALT, game_id=GAME, board=BOARD)
    with pytest.raises(ValueError, match="one sealed slot per subordinate"):
        public_commitments(ALLIES, none[:1], secret_salt=SALT, game_id=GAME, board=BOARD)


def test_nt_team_t46_archive_reproduces_every_commitment() -> None:
    """NT-TEAM-T46 (NT-TEAM-26, SRV-2): every revealed slot recomputes its published commitment;
    a slot changed after the seal does not."""
    slots = seal(ALLIES, 3, {"AL2": parse_order("Telnitz angreifen", BOARD)}) + seal(FRENCH, 3, {})
    published = {
        (s.side, s.recipient): commitment(s, slot_nonce(SALT, GAME, s), game_id=GAME, board=BOARD)
        for s in slots
    }
    for row in (
        revealed_json(s, secret_salt=SALT, game_id=GAME, board=BOARD)
        for s in archive(slots, game_over=True)
    ):
        slot = WrittenOrder.from_json(row, BOARD)
        nonce = bytes.fromhex(str(row["nonce"]))
        assert verify(
            published[(slot.side, slot.recipient)], slot, nonce, game_id=GAME, board=BOARD
        )
    tampered = WrittenOrder(AL, "AL1", "AL2", 3, Order(Verb.ATTACK, ("sokolnitz",)))
    nonce = slot_nonce(SALT, GAME, tampered)
    assert not verify(published[(AL, "AL2")], tampered, nonce, game_id=GAME, board=BOARD)
    assert not verify("Ä" * 64, tampered, nonce, game_id=GAME, board=BOARD)


def test_3_4_5_commitment_is_the_digest_formula() -> None:
    """3.4.5: sha256(nonce + the digest's JSON payload); the nonce is 32 bytes, deterministic,
    per slot and independent of the content."""
    slot = WrittenOrder(AL, "AL1", "AL2", 3, parse_order("Telnitz angreifen", BOARD))
    empty = WrittenOrder(AL, "AL1", "AL2", 3, None)
    nonce = slot_nonce(SALT, GAME, slot)
    assert len(nonce) == 32
    assert nonce == slot_nonce(SALT, GAME, empty)
    assert nonce != slot_nonce(SALT, GAME, WrittenOrder(AL, "AL1", "AL3", 3, None))
    assert nonce != slot_nonce(SALT, GAME, WrittenOrder(AL, "AL1", "AL2", 4, None))
    assert nonce != slot_nonce("another salt", GAME, slot)
    assert slot.order is not None
    payload = json.dumps(
        {
            "v": 1,
            "game": GAME,
            "side": AL,
            "author": "AL1",
            "recipient": "AL2",
            "turn": 3,
            "order": order_json(slot.order, BOARD),
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    ).encode("utf-8")
    assert (
        commitment(slot, nonce, game_id=GAME, board=BOARD)
        == hashlib.sha256(nonce + payload).hexdigest()
    )


@given(st.sampled_from(["AL2", "AL3"]), st.integers(1, 12), st.booleans(), st.integers(1, 13))
@SLOW
def test_nt_team_t43_other_seats_see_nothing_of_an_order(
    to: str, turn: int, wrote: bool, team_turn: int
) -> None:
    """NT-TEAM-T43/T44 (NT-TEAM-23), pure part: whether AL1 wrote to `to` changes neither the other
    subordinate's inbox nor anything a French seat may read, at any team turn during play."""
    other = "AL3" if to == "AL2" else "AL2"
    base = seal(ALLIES, turn, {})
    with_order = seal(ALLIES, turn, {to: Order(Verb.ATTACK, ("telnitz",))} if wrote else {})
    assert inbox(base, other, team_turn=team_turn, game_over=False) == inbox(
        with_order, other, team_turn=team_turn, game_over=False
    )
    for role in (other, "F1", "F2"):
        assert not any(
            readable_by(s, role, team_turn=team_turn, game_over=False)
            for s in with_order
            if s.recipient != role
        )
    commits = [
        public_commitments(ALLIES, s, secret_salt=SALT, game_id=GAME, board=BOARD)
        for s in (base, with_order)
    ]
    assert [len(c) for c in commits] == [2, 2]  # L2: the count never tells


# ------------------------------------------------------------------ properties


def orders(board: Board) -> st.SearchStrategy[Order]:
    ids = [t.id for t in board.toponyms]
    return st.builds(
        lambda verb, chosen: canonical_order(board, verb, chosen),
        st.sampled_from(Verb),
        st.lists(st.sampled_from(ids), max_size=6),
    )


BOARDS = st.sampled_from([BOARD, PUBLISHED])


@given(st.data())
@SLOW
def test_parse_of_canonical_text_is_the_order(data: st.DataObject) -> None:
    """3.4.3: parse(canonical_text(o)) == o, in both languages, and JSON round trips."""
    board = data.draw(BOARDS)
    order = data.draw(orders(board))
    slot = WrittenOrder(AL, "AL1", data.draw(st.sampled_from(["AL2", "AL3"])), 4, order)
    for language in ("de", "en"):
        text = canonical_text(slot, board, language)
        again = parse(text, board, side=AL, author="AL1", recipient=slot.recipient, turn=4)
        assert again == slot
        assert parse_order(text, board, language=language) == order
    assert order_from_json(order_json(order, board), board) == order
    assert WrittenOrder.from_json(slot.to_json(board), board) == slot


SEPARATORS = [", ", ",", " , ", " und ", " and ", ", und ", ", and "]
SPACES = [" ", "  ", "\t", " \n "]


@st.composite
def surface(draw: st.DrawFn, board: Board, order: Order) -> str:
    """Any way of writing `order`: names or aliases, case, duplicates, word order, separators,
    language, white space, final punctuation."""
    entries = {t.id: t for t in board.toponyms}
    items = (
        list(order.toponyms) + draw(st.lists(st.sampled_from(order.toponyms), max_size=3))
        if order.toponyms
        else []
    )
    items = draw(st.permutations(items))
    nouns = ""
    for i, tid in enumerate(items):
        t = entries[tid]
        name = draw(st.sampled_from((t.name, *t.aliases)))
        name = draw(st.sampled_from([name, name.upper(), name.lower(), name.title()]))
        nouns += (draw(st.sampled_from(SEPARATORS)) if i else "") + name
    verb = draw(
        st.sampled_from(
            [
                w
                for w, v in (
                    ("angreifen", Verb.ATTACK),
                    ("attack", Verb.ATTACK),
                    ("verteidigen", Verb.DEFEND),
                    ("defend", Verb.DEFEND),
                )
                if v is order.verb
            ]
        )
    )
    verb = draw(st.sampled_from([verb, verb.upper(), verb.title()]))
    words = [verb] if not nouns else draw(st.sampled_from([[nouns, verb], [verb, nouns]]))
    text = draw(st.sampled_from(SPACES)).join(words)
    text = (
        draw(st.sampled_from(["", " ", "\n"]))
        + text
        + draw(st.sampled_from(["", ".", "!", " .", "  "]))
    )
    return "".join(draw(st.sampled_from(SPACES)) if c == " " else c for c in text)


@given(st.data())
@SLOW
def test_canonical_form_is_unique(data: st.DataObject) -> None:
    """3.4.3, AMB-5: every way of writing an order gives the same canonical order and text."""
    board = data.draw(BOARDS)
    order = data.draw(orders(board))
    first = data.draw(surface(board, order))
    second = data.draw(surface(board, order))
    assert parse_order(first, board) == parse_order(second, board) == order
    assert text_de(parse_order(first, board), board) == text_de(order, board)


@given(st.data())
@SLOW
def test_distinct_orders_have_distinct_texts(data: st.DataObject) -> None:
    board = data.draw(BOARDS)
    a, b = data.draw(orders(board)), data.draw(orders(board))
    assert (text_de(a, board) == text_de(b, board)) is (a == b)
    assert (text_en(a, board) == text_en(b, board)) is (a == b)


@given(st.text(alphabet=st.sampled_from("aAßẞ ü\u0308Ü\t\n,.İﬀ1é\u0301")))
@SLOW
def test_normalisation_with_offsets_is_normalise_name(raw: str) -> None:
    text, at = normalise_with_offsets(raw)
    assert text == normalise_name(raw)
    assert len(at) == len(text) + 1
    assert list(at) == sorted(at)
