"""``python -m bot`` as ``make run`` starts it: configured from the environment only."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.bot.e2e.conftest import Table
from tests.bot.e2e.test_game import accept

# Each test starts `python -m bot` as a real process (0.4-0.7 s each).
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[3]


async def test_without_a_token_it_stops_at_once_and_says_what_to_do(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DVONN_"))}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,  # no .env there
        env={**env, "PYTHONPATH": str(REPO), "DISCORD_APPLICATION_ID": "123456"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 2
    text = err.decode()
    assert "DISCORD_TOKEN is not set" in text
    assert "client_id=123456" in text  # the invite link, since the application id is known


async def test_the_real_process_serves_and_stops_cleanly_on_sigterm(
    table: Table, tmp_path: Path
) -> None:
    fake = table.fake
    database = tmp_path / "games.sqlite3"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DVONN_"))},
        "PYTHONPATH": str(REPO),
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "DVONN_DATABASE": str(database),
        "DVONN_DEV_GUILD": str(table.guild.id),
        "DVONN_LOG_LEVEL": "INFO",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "--sync",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        await fake.wait_for_ready(timeout=30)
        await fake.wait_until(lambda: fake.commands(table.guild), timeout=30, what="sync")
        challenge = await fake.run_command(
            table.alice, table.games, "dvonn challenge", {"opponent": table.bob}
        )
        assert challenge.message is not None
        await accept(table, challenge.message, table.bob)
    finally:
        process.send_signal(signal.SIGTERM)
        out, _ = await asyncio.wait_for(process.communicate(), 30)
    log = out.decode()
    assert process.returncode == 0, log
    assert "database closed" in log
    assert "invite link" in log
    assert fake.token not in log  # the token never reaches a log line
    assert database.exists()
