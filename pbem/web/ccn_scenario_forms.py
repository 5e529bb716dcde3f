"""The scenario editor's forms: the editor (the YAML document, the chosen hex and the fields of
each edit, every one bounded and optional: the edit chosen says which it needs) and the upload.
Choices come from the engine's catalogues: terrain types (2.4), unit types (2.5), hexside names
(2.1), the nations of the shipped nations file (2.6) and the card codes (2.8)."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _

from games.commands_colors_napoleonics.cards_data import DECK
from games.commands_colors_napoleonics.hexes import DIRECTIONS
from games.commands_colors_napoleonics.nations import nations_named
from games.commands_colors_napoleonics.terrain import TERRAIN_TYPES
from games.commands_colors_napoleonics.units import UNIT_TYPES
from pbem.web.ccn_scenario_edit import EDITS, SIDES, too_large
from pbem.web.models import CCN_SCENARIO_MAX_BYTES

RULESET = "ccn-base-3e"
MAX_CHARS = CCN_SCENARIO_MAX_BYTES  # characters; the UTF-8 size is checked too
ID_RE = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$"
SIDE_CHOICES = [("", "—"), *[(s, s) for s in SIDES]]
OPS = ("text", "save", *EDITS)


def _choices(values: list[str]) -> list[tuple[str, str]]:
    return [("", "—"), *[(v, v.replace("_", " ")) for v in values]]


def nation_codes() -> list[str]:
    return sorted(nations_named(RULESET).nations)


class ListField(forms.CharField):
    """Words separated by commas or spaces, each one of `allowed` (at most `max_items`)."""

    def __init__(self, *, allowed: frozenset[str], max_items: int, **kwargs: Any) -> None:
        self.allowed = allowed
        self.max_items = max_items
        super().__init__(required=False, max_length=max_items * 40, **kwargs)

    def clean(self, value: Any) -> list[str]:
        text = super().clean(value)
        words = [w for w in re.split(r"[\s,]+", text or "") if w]
        if len(words) > self.max_items:
            raise forms.ValidationError(_("At most %(n)s entries.") % {"n": self.max_items})
        unknown = sorted({w for w in words if w not in self.allowed})
        if unknown:
            shown = ", ".join(w[:40] for w in unknown[:5])
            raise forms.ValidationError(_("Unknown: %(words)s.") % {"words": shown})
        return words


def _text(label: Any, max_length: int = 120, **kwargs: Any) -> forms.CharField:
    return forms.CharField(label=label, required=False, max_length=max_length, **kwargs)


def _int(label: Any, lo: int, hi: int) -> forms.IntegerField:
    return forms.IntegerField(label=label, required=False, min_value=lo, max_value=hi)


def _ident(label: Any) -> forms.RegexField:
    return forms.RegexField(
        label=label,
        regex=ID_RE,
        required=False,
        max_length=40,
        error_messages={"invalid": _("Letters, digits, _ . - only (at most 40).")},
    )


class EditorForm(forms.Form):
    op = forms.ChoiceField(choices=[(o, o) for o in OPS])
    document = forms.CharField(
        label=_("The scenario (YAML, ccn-scenario/1)"),
        max_length=MAX_CHARS,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false"}),
    )
    shareable = forms.BooleanField(label=_("Others may see and download it"), required=False)
    row = _int(_("Row"), 0, 40)
    col = _int(_("Column"), 0, 40)
    # terrain (2.4)
    terrain_type = forms.ChoiceField(
        label=_("Terrain"), required=False, choices=_choices(list(TERRAIN_TYPES))
    )
    bridge = forms.BooleanField(label=_("Bridge"), required=False)
    field_works = forms.MultipleChoiceField(
        label=_("Field works on the hexsides"),
        required=False,
        choices=[(d.value, d.value) for d in DIRECTIONS],
        widget=forms.CheckboxSelectMultiple,
    )
    terrain_name = _text(_("Place name"))
    group_name = _text(_("Hill group name"))
    # unit (2.5)
    unit_id = _ident(_("Unit id"))
    unit_side = forms.ChoiceField(label=_("Side"), required=False, choices=SIDE_CHOICES)
    unit_nation = forms.ChoiceField(label=_("Nation"), required=False)
    unit_type = forms.ChoiceField(
        label=_("Unit type"), required=False, choices=_choices(list(UNIT_TYPES))
    )
    unit_blocks = _int(_("Blocks (empty: from the nation's data)"), 1, 9)
    unit_square = _int(_("Square marker (empty: none)"), 1, 4)
    # leader (2.7)
    leader_id = _ident(_("Leader id"))
    leader_side = forms.ChoiceField(label=_("Side"), required=False, choices=SIDE_CHOICES)
    leader_nation = forms.ChoiceField(label=_("Nation"), required=False)
    leader_name = _text(_("Name"))
    # the sides (CCN-3, CCN-5, CCN-6)
    title = _text(_("Title"), 200)
    first_player = forms.ChoiceField(label=_("First player"), required=False, choices=SIDE_CHOICES)
    # the fixed deal (2.8)
    deck_order = ListField(
        label=_("Draw pile, top card first"), allowed=frozenset(DECK), max_items=70
    )
    deck_top = ListField(label=_("Top's hand"), allowed=frozenset(DECK), max_items=70)
    deck_bottom = ListField(label=_("Bottom's hand"), allowed=frozenset(DECK), max_items=70)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        nations = _choices(nation_codes())
        for name in ("unit_nation", "leader_nation"):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = nations
        for side in SIDES:
            self.fields[f"{side}_army"] = _text(_("Army"))
            self.fields[f"{side}_commander"] = _text(_("Commander"))
            self.fields[f"{side}_nations"] = ListField(
                label=_("Nations"), allowed=frozenset(nation_codes()), max_items=6
            )
            self.fields[f"{side}_hand_size"] = _int(_("Hand size"), 1, 20)
            self.fields[f"{side}_victory_banners"] = _int(_("Victory banners"), 1, 30)
            self.fields[f"{side}_starting_banners"] = _int(_("Banners at the start"), 0, 29)

    def clean_document(self) -> str:
        text = str(self.cleaned_data["document"]).replace("\r\n", "\n")
        if too_large(text):
            raise forms.ValidationError(
                _("The scenario is larger than %(kib)s KiB.")
                % {"kib": CCN_SCENARIO_MAX_BYTES // 1024}
            )
        return text


class UploadForm(forms.Form):
    """A YAML file, or the text pasted (the file wins when both are given)."""

    file = forms.FileField(label=_("Scenario file (.yaml)"), required=False)
    text = forms.CharField(
        label=_("Or paste the YAML"),
        required=False,
        max_length=MAX_CHARS,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
    )
    shareable = forms.BooleanField(label=_("Others may see and download it"), required=False)

    def clean_file(self) -> UploadedFile | None:
        upload = self.cleaned_data.get("file")
        if upload is not None and (upload.size or 0) > CCN_SCENARIO_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(kib)s KiB.") % {"kib": CCN_SCENARIO_MAX_BYTES // 1024}
            )
        return upload if isinstance(upload, UploadedFile) else None

    def document_text(self) -> str:
        """The uploaded or pasted text (call after is_valid); ValidationError when unusable."""
        upload = self.cleaned_data.get("file")
        if isinstance(upload, UploadedFile):
            data: bytes = upload.read(CCN_SCENARIO_MAX_BYTES + 1)
            if len(data) > CCN_SCENARIO_MAX_BYTES:
                raise forms.ValidationError(_("The file is too large."))
            try:
                return data.decode("utf-8").replace("\r\n", "\n")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        text = str(self.cleaned_data.get("text") or "").replace("\r\n", "\n")
        if not text.strip():
            raise forms.ValidationError(_("Choose a file or paste the YAML."))
        if too_large(text):
            raise forms.ValidationError(_("The file is too large."))
        return text
