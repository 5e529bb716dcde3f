"""The army page /vf/armies/check (issue 17 item 3): the example army is legal, VF-T38's army
with melee twice lists the problem with its place and rule, a text that is no army is named so;
nothing is stored; signed-out readers are sent to log in."""

from __future__ import annotations

import copy

import pytest
import yaml
from django.test import Client

from tests.engines.valour_fortitude.test_vf_check_army import FRENCH_T38

pytestmark = pytest.mark.django_db
URL = "/vf/armies/check"


def test_the_example_army_is_legal(alice_client: Client) -> None:
    page = alice_client.get(URL).content.decode()
    assert "france_1812_1815" in page
    assert 'name="army"' in page
    example = page.split('name="army"', 1)[1].split(">", 1)[1].split("</textarea>", 1)[0]
    answer = alice_client.post(URL, {"army": example.replace("&#x27;", "'")}).content.decode()
    assert 'id="vf-army-ok"' in answer, answer[answer.find("<main") :][:1500]


def test_problems_are_listed_with_place_and_rule(alice_client: Client) -> None:
    assert (
        'id="vf-army-ok"'
        in alice_client.post(URL, {"army": yaml.safe_dump(FRENCH_T38)}).content.decode()
    )
    doc = copy.deepcopy(FRENCH_T38)
    doc["brigades"][0]["units"][2]["elite"] = ["melee", "melee"]
    page = alice_client.post(URL, {"army": yaml.safe_dump(doc)}).content.decode()
    assert "187 points" in page
    assert "<code>brigades[0].units[2].elite[1]: VF-233: " in page
    nonsense = alice_client.post(URL, {"army": "[unclosed"}).content.decode()
    assert ": format: " in nonsense


def test_signed_out_readers_log_in_first() -> None:
    answer = Client().get(URL)
    assert answer.status_code == 302
    assert "/login" in answer["Location"]
