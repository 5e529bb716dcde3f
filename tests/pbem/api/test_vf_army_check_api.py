"""`POST /api/v1/vf/armies/check` (issue 17 item 3): a player's army checked against its list,
as JSON or as a YAML text: VF-T38's 187 points, each problem with its place and rule, 200 even
when the army breaks a rule, 400 for a request without an army, 403 signed out."""

from __future__ import annotations

import copy

import pytest
import yaml
from rest_framework.test import APIClient

from tests.engines.valour_fortitude.test_vf_check_army import FRENCH_T38

pytestmark = pytest.mark.django_db
URL = "/api/v1/vf/armies/check"


def test_t38_is_legal_as_json_and_as_yaml(alice_client: APIClient) -> None:
    for army in (FRENCH_T38, yaml.safe_dump(FRENCH_T38)):
        answer = alice_client.post(URL, {"army": army}, format="json")
        assert answer.status_code == 200, answer.content
        assert answer.json() == {
            "ok": True,
            "army_list": "france_1812_1815",
            "points": 187,
            "problems": [],
        }


def test_problems_name_the_place_and_the_rule(alice_client: APIClient) -> None:
    doc = copy.deepcopy(FRENCH_T38)
    doc["brigades"][0]["units"][2]["elite"] = ["melee", "melee"]
    doc["points_limit"] = 100
    answer = alice_client.post(URL, {"army": doc}, format="json").json()
    assert answer["ok"] is False
    found = {(p["path"], p["rule"]) for p in answer["problems"]}
    assert found == {("brigades[0].units[2].elite[1]", "VF-233"), ("points_limit", "VF-230")}


def test_bad_requests(alice_client: APIClient) -> None:
    assert alice_client.post(URL, {}, format="json").status_code == 400
    unknown = alice_client.post(URL, {"army": {"army_list": "x"}}, format="json").json()
    assert [p["rule"] for p in unknown["problems"]] == ["VF-14"]
    assert APIClient().post(URL, {"army": FRENCH_T38}, format="json").status_code in (401, 403)
