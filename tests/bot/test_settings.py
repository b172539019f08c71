"""Settings from the environment and .env; the token never shows itself."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from ai import Level
from bot.client import DvonnBot
from bot.computer import BUDGETS
from bot.settings import PERMISSIONS, Secret, Settings, SettingsError, invite_url


def test_defaults_without_anything() -> None:
    settings = Settings.from_env({}, env_file=None)
    assert not settings.token
    assert settings.database == Path("data/dvonn.sqlite3")
    assert settings.log_level == "INFO"
    assert settings.api_base is None and settings.gateway_url is None


def test_environment_wins_over_dotenv(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nDVONN_DATABASE=file.db\nDVONN_DEV_GUILD=42\n")
    settings = Settings.from_env({"DVONN_DATABASE": "env.db"}, env_file=env_file)
    assert settings.token.reveal() == "from-file"
    assert settings.database == Path("env.db")
    assert settings.dev_guild == 42


def test_token_never_appears_in_repr_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "abc.def.ghi"}, env_file=None)
    with caplog.at_level(logging.INFO):
        logging.getLogger("test").info("settings: %s %r", settings, settings)
    assert "abc.def.ghi" not in caplog.text
    assert "abc.def.ghi" not in repr(settings)
    assert settings.require_token() == "abc.def.ghi"
    assert Secret("x") == Secret("x") and Secret("x") != Secret("y")


def test_missing_token_explains_how_to_create_and_invite_the_bot() -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({}, env_file=None).require_token()
    message = str(caught.value)
    assert "discord.com/developers/applications" in message
    assert "Reset Token" in message
    assert "DISCORD_APPLICATION_ID" in message
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"DISCORD_APPLICATION_ID": "1234"}, env_file=None).require_token()
    assert invite_url(1234) in str(caught.value)


def test_invite_url_asks_for_the_needed_permissions_and_scopes() -> None:
    url = invite_url(99)
    assert "client_id=99" in url
    assert "scope=bot+applications.commands" in url
    assert f"permissions={PERMISSIONS}" in url
    assert PERMISSIONS & (1 << 35)  # create public threads
    assert not PERMISSIONS & (1 << 3)  # never administrator


@pytest.mark.parametrize(
    "environ",
    [
        {"DVONN_LOG_LEVEL": "LOUD"},
        {"DVONN_DEV_GUILD": "abc"},
        {"DISCORD_APPLICATION_ID": "-1"},
        {"DVONN_AI_PROCESSES": "0"},
        {"DVONN_AI_PROCESSES": "two"},
        {"DVONN_AI_SECONDS": "0"},
        {"DVONN_AI_SECONDS": "soon"},
        {"DVONN_AI_SECONDS": "nan"},
        {"DVONN_AI_SECONDS": "inf"},
    ],
)
def test_bad_values_are_refused_with_a_reason(environ: dict[str, str]) -> None:
    with pytest.raises(SettingsError, match="must be"):
        Settings.from_env(environ, env_file=None)


def test_the_computer_opponent_can_be_given_processes_and_a_time_cap() -> None:
    default = Settings.from_env({}, env_file=None)
    assert default.ai_processes == 1 and default.ai_seconds is None
    settings = Settings.from_env(
        {"DVONN_AI_PROCESSES": "3", "DVONN_AI_SECONDS": "1.5"}, env_file=None
    )
    assert settings.ai_processes == 3 and settings.ai_seconds == 1.5


def test_the_time_cap_limits_every_level_but_never_raises_one() -> None:
    bot = DvonnBot(Settings.from_env({"DVONN_AI_SECONDS": "1.5"}, env_file=None))
    assert bot.computer.budget(Level.STRONGEST) == 1.5
    assert bot.computer.budget(Level.BEGINNER) == BUDGETS[Level.BEGINNER] < 1.5
    uncapped = DvonnBot(Settings.from_env({}, env_file=None))
    assert uncapped.computer.budget(Level.STRONGEST) == BUDGETS[Level.STRONGEST]
