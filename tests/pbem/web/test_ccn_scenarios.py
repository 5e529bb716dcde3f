"""The Commands & Colors scenario pages (pbem.web.ccn_scenario_views): a scenario from the
example (digest 9), edits of a hex, a unit, a leader, the sides and the deal, the loader's
verdict (digest 8.2) shown as ``path: rule: message``, an invalid document never saved, the
download accepted by `parse_scenario_text`, privacy (404 for a private scenario of another
user, a shared one read-only), size limits, and sign-in required."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.commands_colors_napoleonics.scenario import parse_scenario_text
from pbem.web.ccn_scenario_edit import EditRefused, example_text, read_document
from pbem.web.models import CCN_SCENARIO_MAX_BYTES, CcnScenario
from tests.pbem.web.test_accessible_pages import check

LIST = "/ccn/scenarios/"


def create_from_example(client: Client) -> CcnScenario:
    response = client.post("/ccn/scenarios/new")
    assert response.status_code == 302
    pk = int(re.findall(r"/ccn/scenarios/(\d+)/edit", response["Location"])[0])
    return CcnScenario.objects.get(pk=pk)


def edit(
    client: Client, scenario: CcnScenario, op: str, text: str | None = None, **fields: Any
) -> Any:
    data: dict[str, Any] = {"op": op, "document": text if text is not None else scenario.text}
    data.update(fields)
    return client.post(f"/ccn/scenarios/{scenario.pk}/edit", data, HTTP_ACCEPT_LANGUAGE="en")


def document_of(response: Any) -> dict[str, Any]:
    """The document the editor page shows (its textarea), parsed."""
    html = response.content.decode()
    found = re.search(r'<textarea name="document"[^>]*>(.*?)</textarea>', html, re.S)
    assert found is not None
    doc = yaml.safe_load(html_lib.unescape(found.group(1)))
    assert isinstance(doc, dict)
    return doc


def text_of(response: Any) -> str:
    found = re.search(
        r'<textarea name="document"[^>]*>(.*?)</textarea>', response.content.decode(), re.S
    )
    assert found is not None
    return html_lib.unescape(found.group(1)).lstrip("\n")


@pytest.fixture
def scenario(alice_client: Client) -> CcnScenario:
    return create_from_example(alice_client)


# -- creating and listing ----------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in(client: Client, db: None) -> None:
    for url in (LIST, "/ccn/scenarios/upload", "/ccn/scenarios/1/", "/ccn/scenarios/1/edit"):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")
    assert client.post("/ccn/scenarios/new").status_code == 302
    assert CcnScenario.objects.count() == 0


def test_new_from_the_example(alice_client: Client, alice: User, scenario: CcnScenario) -> None:
    assert scenario.owner == alice
    assert scenario.text == example_text()
    assert scenario.title == "The Ford of Santa Clara (fictional, 1811)"
    assert not scenario.shareable
    listing = alice_client.get(LIST, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'data-scenario="{scenario.pk}"' in listing
    page = alice_client.get(f"/ccn/scenarios/{scenario.pk}/edit", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('class="locale hex') == 113  # the board drawn by board_svg.render
    assert 'data-piece="F-LN1"' in html
    assert 'id="ccn-valid"' in html
    assert 'value="French"' in html  # the sides' fields filled from the document
    assert "ccn-editor.js" in html
    assert 'id="ccn-hexes"' in html


def test_the_menu_links_the_scenarios(alice_client: Client) -> None:
    html = alice_client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'href="/ccn/scenarios/"' in html


def test_get_cannot_create(alice_client: Client) -> None:
    assert alice_client.get("/ccn/scenarios/new").status_code == 405


# -- editing -----------------------------------------------------------------------------------


def test_edit_a_hex_terrain(alice_client: Client, scenario: CcnScenario) -> None:
    response = edit(
        alice_client,
        scenario,
        "terrain",
        row=0,
        col=0,
        terrain_type="forest",
    )
    assert response.status_code == 200
    doc = document_of(response)
    assert {"hex": [0, 0], "type": "forest"} in doc["terrain"]
    assert 'data-locale="0,0" id="locale-0-0"' in response.content.decode()
    assert re.search(r'class="locale hex forest" data-locale="0,0"', response.content.decode())
    # not stored until saved
    scenario.refresh_from_db()
    assert scenario.text == example_text()
    # back to clear removes the entry; a bridge and field works are written
    text = text_of(response)
    cleared = document_of(edit(alice_client, scenario, "terrain", text, row=0, col=0))
    assert all(t["hex"] != [0, 0] for t in cleared["terrain"])
    works = document_of(
        edit(
            alice_client,
            scenario,
            "terrain",
            text,
            row=4,
            col=4,
            terrain_type="shallow_river",
            bridge="on",
            field_works=["NE", "E"],
        )
    )
    assert {
        "hex": [4, 4],
        "type": "shallow_river",
        "bridge": True,
        "field_works": ["NE", "E"],
    } in works["terrain"]


def test_place_change_and_remove_a_unit(alice_client: Client, scenario: CcnScenario) -> None:
    placed = edit(
        alice_client,
        scenario,
        "unit",
        row=3,
        col=5,
        unit_id="F-GR1",
        unit_side="top",
        unit_nation="french",
        unit_type="grenadier",
        unit_blocks=4,
    )
    assert placed.status_code == 200
    doc = document_of(placed)
    assert {
        "id": "F-GR1",
        "side": "top",
        "nation": "french",
        "type": "grenadier",
        "hex": [3, 5],
        "blocks": 4,
    } in doc["units"]
    assert 'data-piece="F-GR1"' in placed.content.decode()
    assert 'id="ccn-valid"' in placed.content.decode()
    # the same id elsewhere moves it; a unit on the hex is replaced
    moved = edit(
        alice_client,
        scenario,
        "unit",
        text_of(placed),
        row=3,
        col=6,
        unit_id="F-GR1",
        unit_side="top",
        unit_nation="french",
        unit_type="grenadier",
        unit_blocks=3,
    )
    units = document_of(moved)["units"]
    assert [u["hex"] for u in units if u["id"] == "F-GR1"] == [[3, 6]]
    removed = edit(alice_client, scenario, "unit_remove", text_of(moved), row=3, col=6)
    assert all(u["id"] != "F-GR1" for u in document_of(removed)["units"])
    nothing = edit(alice_client, scenario, "unit_remove", text_of(removed), row=3, col=6)
    assert nothing.status_code == 400
    assert "There is no unit on that hex." in nothing.content.decode()


def test_an_edit_without_a_hex_is_refused(alice_client: Client, scenario: CcnScenario) -> None:
    response = edit(alice_client, scenario, "terrain", terrain_type="hill")
    assert response.status_code == 400
    assert "Choose a hex first" in response.content.decode()
    assert document_of(response) == yaml.safe_load(example_text())


def test_leader_sides_and_deal(alice_client: Client, scenario: CcnScenario) -> None:
    r1 = edit(
        alice_client,
        scenario,
        "leader",
        row=2,
        col=8,
        leader_id="F-L2",
        leader_side="top",
        leader_nation="french",
        leader_name="Colonel Roux",
    )
    doc = document_of(r1)
    assert {
        "id": "F-L2",
        "side": "top",
        "nation": "french",
        "name": "Colonel Roux",
        "hex": [2, 8],
    } in doc["leaders"]
    r2 = edit(
        alice_client,
        scenario,
        "sides",
        text_of(r1),
        title="A new title",
        first_player="bottom",
        top_hand_size=6,
        bottom_victory_banners=7,
        bottom_nations="british, portuguese",
        top_army="Armée",
    )
    doc = document_of(r2)
    assert doc["title"] == "A new title"
    assert doc["first_player"] == "bottom"
    assert doc["sides"]["top"]["hand_size"] == 6
    assert doc["sides"]["top"]["army"] == "Armée"
    assert doc["sides"]["bottom"]["victory_banners"] == 7
    assert doc["sides"]["bottom"]["nations"] == ["british", "portuguese"]
    r3 = edit(
        alice_client,
        scenario,
        "deck",
        text_of(r2),
        deck_order="SCOUT_LEFT PROBE_CENTER",
        deck_top="SCOUT_CENTER",
        deck_bottom="",
    )
    doc = document_of(r3)
    assert doc["deck"] == {
        "order": ["SCOUT_LEFT", "PROBE_CENTER"],
        "hands": {"top": ["SCOUT_CENTER"], "bottom": []},
    }
    bad = edit(alice_client, scenario, "deck", text_of(r2), deck_order="NO_SUCH_CARD")
    assert bad.status_code == 400
    assert "Unknown: NO_SUCH_CARD." in bad.content.decode()
    r4 = edit(alice_client, scenario, "leader_remove", text_of(r3), row=2, col=8)
    assert all(x["id"] != "F-L2" for x in document_of(r4)["leaders"])


def test_save_invalid_shows_problems_and_saves_nothing(
    alice_client: Client, scenario: CcnScenario
) -> None:
    """A unit on rocky hill (CCN-161) and a second unit on a hex (CCN-25): refused, each problem
    as path: rule: message, the stored text unchanged."""
    doc = yaml.safe_load(example_text())
    doc["units"][0]["hex"] = [3, 10]  # rocky hill
    doc["units"][1]["hex"] = [2, 8]  # F-LN3's hex
    text = yaml.safe_dump(doc, sort_keys=False)
    response = edit(alice_client, scenario, "save", text, shareable="on")
    assert response.status_code == 400
    html = response.content.decode()
    assert "Not saved" in html
    problems = re.findall(r"<li><code>(.*?)</code></li>", html)
    assert any(p.startswith("units[0].hex: CCN-161: ") for p in problems), problems
    assert any(": CCN-25: " in p for p in problems), problems
    scenario.refresh_from_db()
    assert scenario.text == example_text()
    assert not scenario.shareable
    # the edited (invalid) text is kept in the form to correct
    assert document_of(response)["units"][0]["hex"] == [3, 10]


def test_save_valid_and_download_round_trip(alice_client: Client, scenario: CcnScenario) -> None:
    placed = edit(
        alice_client,
        scenario,
        "unit",
        row=3,
        col=5,
        unit_id="F-GR1",
        unit_side="top",
        unit_nation="french",
        unit_type="grenadier",
        unit_blocks=4,
    )
    saved = edit(alice_client, scenario, "save", text_of(placed), shareable="on")
    assert saved.status_code == 302
    scenario.refresh_from_db()
    assert scenario.shareable
    assert "F-GR1" in scenario.text
    download = alice_client.get(f"/ccn/scenarios/{scenario.pk}/download")
    assert download.status_code == 200
    assert download["Content-Type"].startswith("application/yaml")
    assert "attachment" in download["Content-Disposition"]
    body = download.content.decode()
    assert body == scenario.text
    loaded = parse_scenario_text(body, "download.yaml")
    assert "F-GR1" in {u.id for u in loaded.units}
    assert loaded.title == "The Ford of Santa Clara (fictional, 1811)"


def test_text_edit_keeps_comments_when_saved(alice_client: Client, scenario: CcnScenario) -> None:
    text = example_text().replace("hand_size: 5", "hand_size: 6")
    assert edit(alice_client, scenario, "save", text).status_code == 302
    scenario.refresh_from_db()
    assert scenario.text == text  # saved as written, comments and all


def test_not_a_mapping_and_bad_yaml(alice_client: Client, scenario: CcnScenario) -> None:
    for text in ("- just a list\n", "a: [unclosed\n", "a: &x 1\nb: *x\n"):
        response = edit(alice_client, scenario, "save", text)
        assert response.status_code == 400
        assert "(file): §8.2: " in response.content.decode()
    scenario.refresh_from_db()
    assert scenario.text == example_text()


# -- upload ------------------------------------------------------------------------------------


def test_upload_valid_file(alice_client: Client, alice: User) -> None:
    upload = SimpleUploadedFile("mine.yaml", example_text().encode(), "application/yaml")
    response = alice_client.post("/ccn/scenarios/upload", {"file": upload})
    assert response.status_code == 302
    assert CcnScenario.objects.get(owner=alice).text == example_text()


def test_upload_invalid_shows_problems_and_keeps_the_text(alice_client: Client) -> None:
    text = example_text().replace("hand_size: 5", "hand_size: 0")
    response = alice_client.post("/ccn/scenarios/upload", {"text": text}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    html = response.content.decode()
    assert "sides.top.hand_size: " in html
    assert "hand_size: 0" in html
    assert CcnScenario.objects.count() == 0


def test_upload_limits(alice_client: Client) -> None:
    big = "# " + "x" * CCN_SCENARIO_MAX_BYTES + "\n" + example_text()
    upload = SimpleUploadedFile("big.yaml", big.encode(), "application/yaml")
    response = alice_client.post(
        "/ccn/scenarios/upload", {"file": upload}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert "larger than 256 KiB" in response.content.decode()
    not_utf8 = SimpleUploadedFile("bad.yaml", b"\xff\xfe title", "application/yaml")
    response = alice_client.post(
        "/ccn/scenarios/upload", {"file": not_utf8}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert "not UTF-8" in response.content.decode()
    assert CcnScenario.objects.count() == 0


def test_editor_size_limit(alice: User, scenario: CcnScenario) -> None:
    """A document over 256 KiB: the site's request limit (PBEM MAX_BODY_BYTES, 256 KiB) answers
    400 before the form is read; the editor's own check refuses the same text (read_document)."""
    big = example_text() + "# " + "é" * (CCN_SCENARIO_MAX_BYTES // 2) + "\n"
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    response = edit(client, scenario, "save", big)
    assert response.status_code == 400
    scenario.refresh_from_db()
    assert scenario.text == example_text()
    with pytest.raises(EditRefused, match="larger than 256 KiB"):
        read_document(big)
    assert read_document(example_text())["format"] == "ccn-scenario/1"


def test_count_limit(alice_client: Client, alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pbem.web.ccn_scenario_views.MAX_SCENARIOS_PER_USER", 2)
    create_from_example(alice_client)
    create_from_example(alice_client)
    response = alice_client.post("/ccn/scenarios/new")
    assert response.status_code == 302
    assert response["Location"] == LIST
    assert CcnScenario.objects.filter(owner=alice).count() == 2


def test_bounded_fields(alice_client: Client, scenario: CcnScenario) -> None:
    response = edit(
        alice_client,
        scenario,
        "unit",
        row=1,
        col=1,
        unit_id="x" * 41,
        unit_side="top",
        unit_nation="french",
        unit_type="grenadier",
        unit_blocks=99,
    )
    assert response.status_code == 400
    assert CcnScenario.objects.get(pk=scenario.pk).text == example_text()
    response = edit(
        alice_client,
        scenario,
        "unit",
        row=1,
        col=1,
        unit_id="<script>",
        unit_side="top",
        unit_nation="french",
        unit_type="grenadier",
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Letters, digits, _ . - only (at most 40)." in html
    assert "<script>" not in html


# -- privacy -----------------------------------------------------------------------------------


def test_private_scenario_is_404_for_others(
    alice_client: Client, bob_client: Client, scenario: CcnScenario
) -> None:
    pk = scenario.pk
    for url in (
        f"/ccn/scenarios/{pk}/",
        f"/ccn/scenarios/{pk}/edit",
        f"/ccn/scenarios/{pk}/download",
        f"/ccn/scenarios/{pk}/delete",
    ):
        assert bob_client.get(url).status_code == 404, url
    assert edit(bob_client, scenario, "save", example_text()).status_code == 404
    assert bob_client.post(f"/ccn/scenarios/{pk}/delete").status_code == 404
    assert f'data-scenario="{pk}"' not in bob_client.get(LIST).content.decode()
    assert CcnScenario.objects.filter(pk=pk).exists()


def test_shared_scenario_is_read_only_for_others(
    alice_client: Client, bob_client: Client, scenario: CcnScenario
) -> None:
    scenario.shareable = True
    scenario.save()
    pk = scenario.pk
    listing = bob_client.get(LIST, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'data-scenario="{pk}"' in listing.split('id="ccn-shared"')[1]
    page = bob_client.get(f"/ccn/scenarios/{pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-piece="F-LN1"' in html
    assert f"/ccn/scenarios/{pk}/edit" not in html
    assert bob_client.get(f"/ccn/scenarios/{pk}/download").content.decode() == scenario.text
    assert bob_client.get(f"/ccn/scenarios/{pk}/edit").status_code == 403
    assert edit(bob_client, scenario, "save", example_text().replace("5", "6")).status_code == 403
    assert bob_client.post(f"/ccn/scenarios/{pk}/delete").status_code == 403
    scenario.refresh_from_db()
    assert scenario.text == example_text()


def test_owner_deletes(alice_client: Client, scenario: CcnScenario) -> None:
    assert alice_client.get(f"/ccn/scenarios/{scenario.pk}/delete").status_code == 200
    response = alice_client.post(f"/ccn/scenarios/{scenario.pk}/delete")
    assert response.status_code == 302
    assert not CcnScenario.objects.filter(pk=scenario.pk).exists()


def test_csrf_is_required(alice: User, scenario: CcnScenario) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post("/ccn/scenarios/new").status_code == 403
    assert edit(client, scenario, "save", example_text()).status_code == 403
    assert client.post(f"/ccn/scenarios/{scenario.pk}/delete").status_code == 403


def test_hostile_text_is_escaped(alice_client: Client, scenario: CcnScenario) -> None:
    text = (
        example_text()
        .replace(
            'title: "The Ford of Santa Clara (fictional, 1811)"',
            'title: "<script>alert(1)</script>"',
        )
        .replace("name: Santa Clara", 'name: "<img src=x onerror=alert(2)>"')
    )
    assert edit(alice_client, scenario, "save", text).status_code == 302
    for url in (LIST, f"/ccn/scenarios/{scenario.pk}/", f"/ccn/scenarios/{scenario.pk}/edit"):
        html = alice_client.get(url).content.decode()
        assert "<script>alert(1)" not in html
        assert "<img src=x" not in html


def test_every_control_is_labelled(alice_client: Client, scenario: CcnScenario) -> None:
    """Keyboard and screen reader: every control labelled, every form with an id, every hex a
    focusable button with a title (the board hook's markup)."""
    pk = scenario.pk
    for url in (
        LIST,
        "/ccn/scenarios/upload",
        f"/ccn/scenarios/{pk}/",
        f"/ccn/scenarios/{pk}/edit",
        f"/ccn/scenarios/{pk}/delete",
    ):
        answer = alice_client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 200, url
        check(answer.content.decode())
    html = alice_client.get(f"/ccn/scenarios/{pk}/edit").content.decode()
    hexes = re.findall(
        r'<g class="locale hex[^"]*" data-locale="\d+,\d+" id="locale-\d+-\d+" '
        r'tabindex="0" role="button"><title>',
        html,
    )
    assert len(hexes) == 113


def test_odd_yaml_values_do_not_break_the_page(alice_client: Client, scenario: CcnScenario) -> None:
    """A date, a mapping or a nested list where a string belongs: the loader's problems are
    shown, the page and the board still render."""
    text = (
        example_text()
        .replace("{hex: [6, 9], type: forest}", "{hex: [6, 9], type: forest, name: 2020-01-01}")
        .replace(
            "{hex: [6, 10], type: forest}",
            "{hex: [6, 10], type: forest, field_works: [2020-01-01, {a: 1}]}",
        )
    )
    response = edit(alice_client, scenario, "text", text)
    assert response.status_code == 200
    html = response.content.decode()
    assert "terrain[" in html  # the loader's problems
    assert html.count('class="locale hex') == 113
