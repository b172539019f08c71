"""What a server owner sets up from: the operators' configuration table, .env.example and
bot/config.py name the same settings; the README keeps the test command CI runs."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from bot import config
from bot.config import Settings, SettingsError
from tests.conftest import REPO_ROOT

CONFIGURATION = REPO_ROOT / "docs" / "operators" / "configuration.md"
NAME = re.compile(r"`([A-Z][A-Z0-9_]+)`")

SAMPLE = {
    "DISCORD_TOKEN": "a-token",
    "DISCORD_APPLICATION_ID": "123456789012345678",
    "DVONN_DATABASE": "postgresql://dvonn@db.example/dvonn",
    "DVONN_SHARD_COUNT": "4",
    "DVONN_SHARDS": "0-1",
    "DVONN_LOG_LEVEL": "DEBUG",
    "DVONN_DEV_GUILD": "223456789012345678",
    "DVONN_RENDER_PROCESSES": "3",
    "DVONN_AI_PROCESSES": "3",
    "DVONN_AI_SECONDS": "1.5",
    "DVONN_OUTBOX_LEASE_SECONDS": "7",
    "DVONN_INCIDENT_WEBHOOK": "https://discord.example/api/webhooks/1/secret",
    "DVONN_OWNER_ID": "323456789012345678",
    "DVONN_HTTP_PORT": "8080",
    "DVONN_HTTP_HOST": "0.0.0.0",
    "DVONN_OUTBOX_POLL_SECONDS": "3",
    "DISCORD_API_BASE": "http://127.0.0.1:1/api/v10",
    "DISCORD_GATEWAY_URL": "ws://127.0.0.1:1/",
    "DVONN_NETWORK": "off",
    "DVONN_NETWORK_CLOCK": "days:7",
    "DVONN_NETWORK_SEASON_START": "2027-01-04T18:00Z",
    "DVONN_NETWORK_BOARD_MINUTES": "5",
}
"""A value for every variable of the table, none of them its default: a setting added to
``bot/config.py`` needs a row in the table, a line in ``.env.example`` and a value here."""


def table_variables() -> set[str]:
    """The variables of the configuration table (its first column; a row may name two)."""
    text = CONFIGURATION.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in NAME.findall(row.split("|")[1])}


def example_variables() -> set[str]:
    text = (REPO_ROOT / ".env.example").read_text(encoding="utf-8")
    return set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", text, re.MULTILINE))


def config_variables() -> set[str]:
    """Every variable name ``bot/config.py`` reads: a string literal that is only a name."""
    source = Path(config.__file__).read_text(encoding="utf-8")
    return set(re.findall(r"\"((?:DVONN|DISCORD)_[A-Z0-9_]+)\"", source))


def test_env_example_names_every_variable_of_the_table_and_no_other() -> None:
    assert len(table_variables()) >= 10
    assert example_variables() == table_variables()


def test_the_table_names_every_variable_config_py_reads_and_no_other() -> None:
    assert len(config_variables()) >= 10
    assert table_variables() == config_variables()


def test_every_setting_comes_from_a_variable_of_the_table() -> None:
    """Each variable changes the settings when set, and each field of ``Settings`` is set by
    one of them: none of the table is read by nothing, and no setting is left out of it."""
    assert set(SAMPLE) == table_variables()
    default = Settings.from_env({}, env_file=None)
    sampled = Settings.from_env(SAMPLE, env_file=None)
    unchanged = [
        field.name
        for field in dataclasses.fields(Settings)
        if getattr(sampled, field.name) == getattr(default, field.name)
    ]
    assert unchanged == [], f"settings no variable of the table sets: {unchanged}"
    for name in SAMPLE:
        without = {key: value for key, value in SAMPLE.items() if key != name}
        try:
            read = Settings.from_env(without, env_file=None) != sampled
        except SettingsError:  # another variable needs this one: it is read
            read = True
        assert read, f"{name} changes nothing in bot/config.py's settings"


def test_the_readme_holds_the_test_command_ci_runs() -> None:
    """``.ci/run`` runs exactly the README's test command, ``make test``."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    two_commands = readme.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^make test\b", two_commands, re.MULTILINE)
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [
        line.strip()
        for line in ci.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert commands[-1] == "make test"
