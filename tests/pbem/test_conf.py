"""The settings accessor: every PBEM default in one dict, overrides seen at once."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from pytest_django.fixtures import Settings

from pbem.conf import DEFAULTS, from_environ, pbem_settings
from pbem.settings import envbool, envint


def test_a_key_missing_from_settings_takes_its_default(settings: Settings) -> None:
    settings.PBEM = {"SNAPSHOT_EVERY": 7}
    assert pbem_settings.SNAPSHOT_EVERY == 7
    assert pbem_settings.REMINDER_HOURS == DEFAULTS["REMINDER_HOURS"] == 12
    assert pbem_settings.MAX_JSON_DEPTH == 32


def test_an_override_is_seen_at_once_and_undone_after(settings: Settings) -> None:
    before = pbem_settings.SWEEP_BATCH  # cached now
    settings.PBEM = {**settings.PBEM, "SWEEP_BATCH": before + 1}
    seen = pbem_settings.SWEEP_BATCH
    assert seen == before + 1
    settings.PBEM = {**settings.PBEM, "SWEEP_BATCH": 3}
    seen = pbem_settings.SWEEP_BATCH
    assert seen == 3


def test_the_override_above_is_gone() -> None:
    batch = pbem_settings.SWEEP_BATCH
    assert batch == DEFAULTS["SWEEP_BATCH"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="NO_SUCH_KNOB"):
        pbem_settings.NO_SUCH_KNOB  # noqa: B018


def test_every_default_is_typed_on_the_accessor() -> None:
    assert set(DEFAULTS) == set(type(pbem_settings).__annotations__)


def _read(env: dict[str, str]) -> dict[str, Any]:
    def as_int(name: str, default: int) -> int:
        raw = env.get(name, "")
        return default if raw == "" else int(raw)

    def as_bool(name: str, default: bool) -> bool:
        raw = env.get(name, "")
        return default if raw == "" else raw == "true"

    return from_environ(env, as_int=as_int, as_bool=as_bool)


def test_the_environment_sets_scalar_keys_by_their_pbem_name() -> None:
    read = _read(
        {
            "PBEM_SNAPSHOT_EVERY": "9",
            "PBEM_SITE_URL": "https://pbem.example.org",
            "PBEM_ALLOW_PRIVATE_WEBHOOKS": "true",
            "PBEM_MAIL_DOMAIN": "",  # empty: the default
        }
    )
    assert read["SNAPSHOT_EVERY"] == 9
    assert read["SITE_URL"] == "https://pbem.example.org"
    assert read["ALLOW_PRIVATE_WEBHOOKS"] is True
    assert read["MAIL_DOMAIN"] == "localhost"
    assert read["TRANSPORTS"] == {}
    assert read["TRANSPORTS"] is not DEFAULTS["TRANSPORTS"]
    assert set(read) == set(DEFAULTS)


def test_a_bad_number_in_the_environment_is_a_configuration_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import os

    monkeypatch.setenv("PBEM_SWEEP_BATCH", "many")
    with pytest.raises(ImproperlyConfigured, match="PBEM_SWEEP_BATCH"):
        from_environ(os.environ, as_int=envint, as_bool=envbool)
