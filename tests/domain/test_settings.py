"""Configuration (`Settings.from_env`): the log level of Courtside's own loggers."""

from __future__ import annotations

import pytest

from domain.settings import Settings, SettingsError


def test_log_level_defaults_to_info_and_reads_any_case() -> None:
    assert Settings.from_env({}).log_level == "INFO"
    assert Settings.from_env({"COURTSIDE_LOG_LEVEL": " debug "}).log_level == "DEBUG"


def test_an_unknown_log_level_names_the_variable() -> None:
    with pytest.raises(SettingsError, match=r"COURTSIDE_LOG_LEVEL='loud' is not a valid log level"):
        Settings.from_env({"COURTSIDE_LOG_LEVEL": "loud"})
