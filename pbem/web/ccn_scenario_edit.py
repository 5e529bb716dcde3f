"""The scenario editor's document work, apart from the pages: read a `ccn-scenario/1` YAML text
(bounded), apply one edit to the parsed document (terrain of a hex, a unit or leader placed or
removed, the sides, the fixed deal), write it back as YAML, and check it with the engine's own
loader (`games.commands_colors_napoleonics.scenario.parse_scenario`, every load-time check of
digest 8.2), answering each problem as ``path: rule: message``.

The editor never decides what is legal: an edit only writes the fields; whether the document is a
valid scenario is the loader's verdict, shown after every edit and required for saving.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from django.utils.translation import gettext as _

from games.commands_colors_napoleonics.errors import DataError, UnknownValueError
from games.commands_colors_napoleonics.scenario import SCENARIOS_DIR, parse_scenario
from games.core.bounded_yaml import YamlRefused, parse_yaml
from pbem.web.models import CCN_SCENARIO_MAX_BYTES

EXAMPLE_PATH: Path = SCENARIOS_DIR / "example.yaml"
SIDES = ("top", "bottom")
MAX_TITLE = 200


class EditRefused(ValueError):
    """An edit that cannot be applied (no hex chosen, a field missing); the message says why."""


@dataclass
class Verdict:
    """The loader's verdict on a document: its problems (``path: rule: message``) and warnings;
    valid when there is no problem."""

    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems


def example_text() -> str:
    return EXAMPLE_PATH.read_text(encoding="utf-8")


def too_large(text: str) -> bool:
    return len(text.encode("utf-8")) > CCN_SCENARIO_MAX_BYTES


def read_document(text: str) -> dict[str, Any]:
    """The YAML text as a mapping (bounded: size, depth, no anchors), else EditRefused."""
    if too_large(text):
        raise EditRefused(
            _("The scenario is larger than %(kib)s KiB.") % {"kib": CCN_SCENARIO_MAX_BYTES // 1024}
        )
    try:
        doc = parse_yaml(text, max_bytes=CCN_SCENARIO_MAX_BYTES)
    except YamlRefused as exc:
        raise EditRefused(str(exc)[:500]) from None
    if not isinstance(doc, dict):
        raise EditRefused(_("The document must be a YAML mapping (ccn-scenario/1)."))
    return doc


def write_document(doc: Mapping[str, Any]) -> str:
    """The document as YAML (comments of an edited text are not kept)."""
    return yaml.safe_dump(
        dict(doc), sort_keys=False, allow_unicode=True, default_flow_style=None, width=100
    )


def check_text(text: str) -> Verdict:
    """The engine loader's verdict on a YAML text."""
    try:
        doc = read_document(text)
    except EditRefused as exc:
        return Verdict([f"(file): §8.2: {exc}"])
    return check_document(doc)


def check_document(doc: object) -> Verdict:
    try:
        scenario = parse_scenario(doc, "scenario.yaml")
    except DataError as exc:
        return Verdict([str(p) for p in exc.problems])
    except UnknownValueError as exc:
        return Verdict([f"(file): {exc.gap}: {exc}"])
    return Verdict([], [str(w) for w in scenario.warnings])


def title_of(doc: Mapping[str, Any]) -> str:
    title = doc.get("title")
    text = title.strip() if isinstance(title, str) else ""
    return (text or _("Untitled scenario"))[:MAX_TITLE]


# -- the edits --------------------------------------------------------------------------------


def _hex(data: Mapping[str, Any]) -> list[int]:
    row, col = data.get("row"), data.get("col")
    if row is None or col is None:
        raise EditRefused(_("Choose a hex first (click it on the board, or give row and column)."))
    return [int(row), int(col)]


def _items(doc: dict[str, Any], key: str) -> list[Any]:
    found = doc.get(key)
    if found is None:
        doc[key] = found = []
    if not isinstance(found, list):
        raise EditRefused(_("%(key)s is not a list; correct it in the text first.") % {"key": key})
    return found


def _at(item: object, where: list[int]) -> bool:
    return isinstance(item, dict) and item.get("hex") == where


def _required(data: Mapping[str, Any], *names: str) -> None:
    missing = [n for n in names if data.get(n) in (None, "")]
    if missing:
        raise EditRefused(_("Fill in: %(fields)s.") % {"fields": ", ".join(missing)})


def set_terrain(doc: dict[str, Any], data: Mapping[str, Any]) -> None:
    """The hex's terrain entry (2.4): replaced, or removed when it becomes plain clear."""
    where = _hex(data)
    kind = data.get("terrain_type") or "clear"
    entry: dict[str, Any] = {"hex": where, "type": kind}
    if data.get("bridge"):
        entry["bridge"] = True
    works = list(data.get("field_works") or [])
    if works:
        entry["field_works"] = works
    for key in ("name", "group_name"):
        value = data.get(f"terrain_{key}" if key == "name" else key)
        if value:
            entry[key] = value
    terrain = _items(doc, "terrain")
    terrain[:] = [t for t in terrain if not _at(t, where)]
    if len(entry) > 2 or kind != "clear":
        terrain.append(entry)
        terrain.sort(key=_hex_key)


def _hex_key(item: object) -> tuple[int, int]:
    where = item.get("hex") if isinstance(item, dict) else None
    if isinstance(where, list) and len(where) == 2 and all(type(n) is int for n in where):
        return where[0], where[1]
    return (10**6, 0)


def place_unit(doc: dict[str, Any], data: Mapping[str, Any]) -> None:
    """A unit on the hex (2.5), replacing the one there and any other with the same id."""
    where = _hex(data)
    _required(data, "unit_id", "unit_side", "unit_nation", "unit_type")
    unit: dict[str, Any] = {
        "id": data["unit_id"],
        "side": data["unit_side"],
        "nation": data["unit_nation"],
        "type": data["unit_type"],
        "hex": where,
    }
    if data.get("unit_blocks") is not None:
        unit["blocks"] = int(data["unit_blocks"])
    if data.get("unit_square") is not None:
        unit["in_square"] = int(data["unit_square"])
    units = _items(doc, "units")
    units[:] = [
        u
        for u in units
        if not _at(u, where) and not (isinstance(u, dict) and u.get("id") == unit["id"])
    ]
    units.append(unit)


def remove_unit(doc: dict[str, Any], data: Mapping[str, Any]) -> None:
    where = _hex(data)
    units = _items(doc, "units")
    kept = [u for u in units if not _at(u, where)]
    if len(kept) == len(units):
        raise EditRefused(_("There is no unit on that hex."))
    units[:] = kept


def place_leader(doc: dict[str, Any], data: Mapping[str, Any]) -> None:
    """A leader on the hex (2.7), replacing the one there and any other with the same id."""
    where = _hex(data)
    _required(data, "leader_id", "leader_side", "leader_nation", "leader_name")
    leader = {
        "id": data["leader_id"],
        "side": data["leader_side"],
        "nation": data["leader_nation"],
        "name": data["leader_name"],
        "hex": where,
    }
    leaders = _items(doc, "leaders")
    leaders[:] = [
        x
        for x in leaders
        if not _at(x, where) and not (isinstance(x, dict) and x.get("id") == leader["id"])
    ]
    leaders.append(leader)


def remove_leader(doc: dict[str, Any], data: Mapping[str, Any]) -> None:
    where = _hex(data)
    leaders = _items(doc, "leaders")
    kept = [x for x in leaders if not _at(x, where)]
    if len(kept) == len(leaders):
        raise EditRefused(_("There is no leader on that hex."))
    leaders[:] = kept


def set_sides(doc: dict[str, Any], data: Mapping[str, Any]) -> None:
    """Title, each side's army, nations, commander, hand size (CCN-3) and victory banners
    (CCN-5), and the first player (CCN-6); an empty field leaves the value as it is."""
    if data.get("title"):
        doc["title"] = data["title"]
    sides = doc.get("sides")
    if not isinstance(sides, dict):
        doc["sides"] = sides = {}
    for side in SIDES:
        entry = sides.get(side)
        if not isinstance(entry, dict):
            sides[side] = entry = {"baseline_row": 0 if side == "top" else 8}
        for key in ("army", "commander"):
            if data.get(f"{side}_{key}"):
                entry[key] = data[f"{side}_{key}"]
        if data.get(f"{side}_nations"):
            entry["nations"] = list(data[f"{side}_nations"])
        for key in ("hand_size", "victory_banners", "starting_banners"):
            if data.get(f"{side}_{key}") is not None:
                entry[key] = int(data[f"{side}_{key}"])
    if data.get("first_player"):
        doc["first_player"] = data["first_player"]


def set_deck(doc: dict[str, Any], data: Mapping[str, Any]) -> None:
    """The fixed deal (2.8, for tests and set pieces); all three empty removes it."""
    order = list(data.get("deck_order") or [])
    hands = {side: list(data.get(f"deck_{side}") or []) for side in SIDES}
    if not order and not any(hands.values()):
        doc.pop("deck", None)
        return
    doc["deck"] = {"order": order, "hands": hands}


EDITS = {
    "terrain": set_terrain,
    "unit": place_unit,
    "unit_remove": remove_unit,
    "leader": place_leader,
    "leader_remove": remove_leader,
    "sides": set_sides,
    "deck": set_deck,
}


def apply_edit(text: str, op: str, data: Mapping[str, Any]) -> str:
    """The YAML text after one edit (EditRefused when it cannot be applied)."""
    doc = read_document(text)
    EDITS[op](doc, data)
    out = write_document(doc)
    if too_large(out):
        raise EditRefused(
            _("The scenario would be larger than %(kib)s KiB.")
            % {"kib": CCN_SCENARIO_MAX_BYTES // 1024}
        )
    return out


def board_view(text: str) -> dict[str, Any] | None:
    """The view `board_svg.render` draws for the editor (an observer's: role None), or None
    when the text is not a mapping."""
    try:
        doc = read_document(text)
    except EditRefused:
        return None
    keys = ("board", "terrain", "units", "leaders", "ruleset")
    return {"role": None, "map": {k: doc[k] for k in keys if k in doc}}


def hex_contents(text: str) -> dict[str, dict[str, Any]]:
    """What stands on each hex ("row,col" -> terrain, unit, leader entries), for the page's
    script to fill the form when a hex is chosen."""
    try:
        doc = read_document(text)
    except EditRefused:
        return {}
    out: dict[str, dict[str, Any]] = {}
    for key, what in (("terrain", "terrain"), ("units", "unit"), ("leaders", "leader")):
        items = doc.get(key)
        for item in items[:400] if isinstance(items, list) else []:
            where = _hex_key(item)
            if where[0] >= 10**6 or not isinstance(item, dict):
                continue
            plain = {str(k): _plain(v) for k, v in item.items() if _plain(v) is not None}
            out.setdefault(f"{where[0]},{where[1]}", {})[what] = plain
    return out


def _plain(value: object) -> str | int | list[str | int] | None:
    """A JSON-safe copy of a scalar or a list of scalars (a YAML date or mapping is left out)."""
    if isinstance(value, str | int):
        return value
    if isinstance(value, list):
        return [v for v in value[:10] if isinstance(v, str | int)]
    return None


def form_initial(text: str) -> dict[str, Any]:
    """The editor's side, title and deal fields as the document has them (the document is the
    truth: after every edit these are read back from it)."""
    try:
        doc = read_document(text)
    except EditRefused:
        return {}
    out: dict[str, Any] = {}
    if isinstance(doc.get("title"), str):
        out["title"] = doc["title"]
    if doc.get("first_player") in SIDES:
        out["first_player"] = doc["first_player"]
    sides = doc.get("sides")
    for side in SIDES:
        entry = sides.get(side) if isinstance(sides, dict) else None
        if not isinstance(entry, dict):
            continue
        for key in ("army", "commander", "hand_size", "victory_banners", "starting_banners"):
            if isinstance(entry.get(key), str | int):
                out[f"{side}_{key}"] = entry[key]
        if isinstance(entry.get("nations"), list):
            out[f"{side}_nations"] = ", ".join(str(n) for n in entry["nations"])
    deck = doc.get("deck")
    if isinstance(deck, dict):
        if isinstance(deck.get("order"), list):
            out["deck_order"] = " ".join(str(c) for c in deck["order"])
        hands = deck.get("hands")
        for side in SIDES:
            hand = hands.get(side) if isinstance(hands, dict) else None
            if isinstance(hand, list):
                out[f"deck_{side}"] = " ".join(str(c) for c in hand)
    return out


FROM_DOCUMENT = frozenset(
    {"title", "first_player", "deck_order", "deck_top", "deck_bottom"}
    | {
        f"{side}_{key}"
        for side in SIDES
        for key in (
            "army",
            "commander",
            "nations",
            "hand_size",
            "victory_banners",
            "starting_banners",
        )
    }
)
