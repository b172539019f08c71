"""Settings from the environment and .env; the token never shows itself."""

from __future__ import annotations

import dataclasses
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ai import Level
from bot.app import DvonnBot
from bot.config import FIRST_SEASON_WAIT, PERMISSIONS, Secret, Settings, SettingsError, invite_url
from bot.exts.computer.player import ComputerPlayer
from bot.games.core import timecontrol
from bot.interactions.thinking import BUDGETS


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


PG = "postgresql://bot@db.example/dvonn"


def test_the_database_is_a_file_by_default_or_a_postgresql_url() -> None:
    assert Settings.from_env({}, env_file=None).database == Path("data/dvonn.sqlite3")
    assert Settings.from_env({"DVONN_DATABASE": " x/y.db "}, env_file=None).database == Path(
        "x/y.db"
    )
    assert Settings.from_env({"DVONN_DATABASE": PG}, env_file=None).database == PG


@pytest.mark.parametrize(
    ("value", "shards"),
    [("0-3", (0, 1, 2, 3)), ("2", (2,)), ("0,2, 5", (0, 2, 5)), ("4-5,0", (0, 4, 5))],
)
def test_a_process_takes_a_slice_of_the_shards(value: str, shards: tuple[int, ...]) -> None:
    environ = {"DVONN_DATABASE": PG, "DVONN_SHARD_COUNT": "6", "DVONN_SHARDS": value}
    settings = Settings.from_env(environ, env_file=None)
    assert (settings.shard_count, settings.shards) == (6, shards)
    assert not settings.serves_every_shard


@pytest.mark.parametrize("value", ["6", "0-6", "3-1", "a", "1-", "-1", "1,,2"])
def test_shards_outside_the_count_or_misspelt_are_refused(value: str) -> None:
    environ = {"DVONN_DATABASE": PG, "DVONN_SHARD_COUNT": "6", "DVONN_SHARDS": value}
    with pytest.raises(SettingsError, match="from 0 to 5"):
        Settings.from_env(environ, env_file=None)


def test_a_slice_of_the_shards_needs_postgresql_and_a_count() -> None:
    with pytest.raises(SettingsError, match="need one PostgreSQL database"):
        Settings.from_env({"DVONN_SHARD_COUNT": "2", "DVONN_SHARDS": "1"}, env_file=None)
    with pytest.raises(SettingsError, match="needs DVONN_SHARD_COUNT"):
        Settings.from_env({"DVONN_DATABASE": PG, "DVONN_SHARDS": "1"}, env_file=None)
    every = Settings.from_env({"DVONN_SHARD_COUNT": "2", "DVONN_SHARDS": "0-1"}, env_file=None)
    assert every.serves_every_shard  # all of them in one process: SQLite will do


def test_the_computer_opponent_can_be_given_processes_and_a_time_cap() -> None:
    default = Settings.from_env({}, env_file=None)
    assert default.ai_processes == 1 and default.ai_seconds is None
    settings = Settings.from_env(
        {"DVONN_AI_PROCESSES": "3", "DVONN_AI_SECONDS": "1.5"}, env_file=None
    )
    assert settings.ai_processes == 3 and settings.ai_seconds == 1.5


async def _computer_player(environ: dict[str, str], folder: Path) -> ComputerPlayer:
    settings = Settings.from_env(environ | {"DVONN_RENDER_PROCESSES": "0"}, env_file=None)
    bot = DvonnBot(dataclasses.replace(settings, database=folder / "dvonn.sqlite3"))
    await bot.setup_hook()  # loads the features, the computer opponent's among them
    computer = bot.get_cog("Computer")
    await bot.close()  # (the features are unloaded: take the cog before)
    # Not isinstance: unloading an extension drops its modules, so each load has new classes.
    assert type(computer).__name__ == "Computer"
    player: ComputerPlayer = getattr(computer, "player")  # noqa: B009 - see above
    return player


async def test_the_time_cap_limits_every_level_but_never_raises_one(tmp_path: Path) -> None:
    capped = await _computer_player({"DVONN_AI_SECONDS": "1.5"}, tmp_path)
    assert capped.budget(Level.STRONGEST) == 1.5
    assert capped.budget(Level.BEGINNER) == BUDGETS[Level.BEGINNER] < 1.5
    uncapped = await _computer_player({}, tmp_path)
    assert uncapped.budget(Level.STRONGEST) == BUDGETS[Level.STRONGEST]


# --- the DVONN network (issue 41) ----------------------------------------------------------------


def test_the_network_is_on_by_default_with_little_golem_s_clock_and_a_championship() -> None:
    """Nobody is in the network without saying so (players join, servers take part), so the
    operator's default is on; the championship's first season a week after it opens."""
    settings = Settings.from_env({}, env_file=None)
    assert settings.network is True
    assert settings.network_clock == "bank:10d+36h/10d"
    assert timecontrol.parse(settings.network_clock) == timecontrol.LITTLE_GOLEM
    assert settings.network_season_start == FIRST_SEASON_WAIT == timedelta(days=7)
    assert settings.network_board_minutes == 10
    assert Settings(token=Secret("")) == dataclasses.replace(settings, token=Secret(""))


@pytest.mark.parametrize("value", ["off", "OFF", " Off "])
def test_the_operator_may_have_the_network_without_a_championship(value: str) -> None:
    settings = Settings.from_env({"DVONN_NETWORK_SEASON_START": value}, env_file=None)
    assert settings.network and settings.network_season_start is None


@pytest.mark.parametrize(
    ("value", "on"), [("on", True), ("ON", True), ("true", True), ("1", True), ("off", False)]
)
def test_the_operator_turns_the_network_on_or_off(value: str, on: bool) -> None:
    assert Settings.from_env({"DVONN_NETWORK": value}, env_file=None).network is on


def test_the_network_s_settings_are_read() -> None:
    settings = Settings.from_env(
        {
            "DVONN_NETWORK": "on",
            "DVONN_NETWORK_CLOCK": "days:7",
            "DVONN_NETWORK_SEASON_START": "2027-01-04T18:00Z",
            "DVONN_NETWORK_BOARD_MINUTES": "3",
        },
        env_file=None,
    )
    assert settings.network
    assert settings.network_clock == "days:7"
    assert settings.network_season_start == datetime(2027, 1, 4, 18, 0, tzinfo=UTC)
    assert settings.network_board_minutes == 3


@pytest.mark.parametrize(
    ("value", "moment"),
    [
        ("2027-01-04", datetime(2027, 1, 4, tzinfo=UTC)),
        ("2027-01-04T18:00", datetime(2027, 1, 4, 18, tzinfo=UTC)),  # no offset: UTC
        ("2027-01-04T19:30+01:00", datetime(2027, 1, 4, 18, 30, tzinfo=UTC)),
        (" 2027-01-04T18:00:00z ", datetime(2027, 1, 4, 18, tzinfo=UTC)),
    ],
)
def test_the_season_start_is_a_moment_in_utc(value: str, moment: datetime) -> None:
    start = Settings.from_env({"DVONN_NETWORK_SEASON_START": value}, env_file=None)
    assert start.network_season_start == moment
    assert isinstance(start.network_season_start, datetime)
    assert start.network_season_start.utcoffset() == timedelta(0)


@pytest.mark.parametrize(
    "environ",
    [
        {"DVONN_NETWORK": "yes please"},
        {"DVONN_NETWORK": "2"},
        {"DVONN_NETWORK_CLOCK": "none"},
        {"DVONN_NETWORK_CLOCK": "days:0"},
        {"DVONN_NETWORK_CLOCK": "3 days"},
        {"DVONN_NETWORK_CLOCK": "bank:10d+36h"},
        {"DVONN_NETWORK_CLOCK": "bank:0d+36h/10d"},
        {"DVONN_NETWORK_CLOCK": "bank:10d+36h/5d"},
        {"DVONN_NETWORK_CLOCK": "bank:10x+36h/10d"},
        {"DVONN_NETWORK_SEASON_START": "next monday"},
        {"DVONN_NETWORK_SEASON_START": "2027-13-01"},
        {"DVONN_NETWORK_BOARD_MINUTES": "0"},
        {"DVONN_NETWORK_BOARD_MINUTES": "ten"},
    ],
)
def test_bad_network_settings_stop_the_bot_with_a_reason(environ: dict[str, str]) -> None:
    with pytest.raises(SettingsError, match="must be"):
        Settings.from_env(environ, env_file=None)


@pytest.mark.parametrize(
    "spelled",
    [
        *(c.to_text() for c in timecontrol.CHOICES),
        "days:30",
        "bank:1d+0s/1d",
        "bank:90m+30s/2h",
        "days:0",
        "days:01",
        "bank:0s+1h/1d",
        "bank:2d+1h/1d",
        "bank:1d+1h",
        "bank:1w+1h/2w",
        "none",
        "days:-1",
    ],
)
def test_the_network_clock_is_read_as_the_game_service_reads_clocks(spelled: str) -> None:
    """The configuration may not import the game service: its own reading of a clock accepts
    what ``timecontrol.parse`` makes a clock of, and nothing else (nor no clock)."""
    try:
        clock = timecontrol.parse(spelled)
    except timecontrol.TimeControlError:
        clock = None
    try:
        read = Settings.from_env({"DVONN_NETWORK_CLOCK": spelled}, env_file=None).network_clock
    except SettingsError:
        read = None
    assert (read is not None) == (clock is not None), spelled
    if read is not None:
        assert timecontrol.parse(read) == clock
