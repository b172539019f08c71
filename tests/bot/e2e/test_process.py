"""``python -m bot`` as ``make run`` starts it: configured from the environment only."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import pytest

from tests.bot.e2e.conftest import Table
from tests.bot.e2e.test_game import accept
from tests.fakediscord import FakeDiscord

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
    assert "voice will NOT be supported" not in log  # this bot has no voice: no noise about it
    assert database.exists()


def _env(**values: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DVONN_"))}
    return {**base, "PYTHONPATH": str(REPO), **values}


async def _start(tmp_path: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    """``python -m bot`` in ``tmp_path``, its output (and errors) piped."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def _finished(process: asyncio.subprocess.Process) -> tuple[int, str]:
    """Its exit code and output, once it has ended."""
    out, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode()


async def _run(tmp_path: Path, env: dict[str, str]) -> tuple[int, str]:
    return await _finished(await _start(tmp_path, env))


async def test_a_malformed_endpoint_is_one_clear_line(tmp_path: Path) -> None:
    code, out = await _run(
        tmp_path, _env(DISCORD_TOKEN="x", DISCORD_API_BASE="discord.example/api")
    )
    assert code == 2 and "Traceback" not in out
    assert out.strip().count("\n") == 0 and "DISCORD_API_BASE must be an http(s) URL" in out


async def test_without_a_network_it_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port on this machine where nothing listens
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, out = await _run(
        tmp_path,
        _env(
            DISCORD_TOKEN="x",
            DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10",
            DISCORD_GATEWAY_URL=f"ws://127.0.0.1:{port}/",
            DVONN_DATABASE=str(tmp_path / "dvonn.sqlite3"),
        ),
    )
    assert code == 1 and "Traceback" not in out, out
    errors = [line for line in out.splitlines() if "ERROR" in line]
    assert len(errors) == 1 and "cannot reach" in errors[0], out


async def test_a_second_process_on_the_same_sqlite_file_is_refused(
    table: Table, tmp_path: Path
) -> None:
    fake = table.fake
    env = _env(
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        DVONN_DATABASE=str(tmp_path / "games.sqlite3"),
    )
    first = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env)
    try:
        await fake.wait_for_ready(timeout=30)
        code, out = await _run(tmp_path, env)
        assert code == 2 and "SQLite serves one process" in out and str(first.pid) in out
        assert "Traceback" not in out
    finally:
        first.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(first.wait(), 30) == 0
    code, out = await asyncio.wait_for(_run_briefly(tmp_path, env, fake), 60)
    assert code == 0, out  # once the first has stopped, a new one starts


async def _run_briefly(tmp_path: Path, env: dict[str, str], fake: FakeDiscord) -> tuple[int, str]:
    """Start the bot, let it connect, stop it; its exit code and output."""
    process = await _start(tmp_path, env)
    await fake.wait_for_ready(timeout=30)
    process.send_signal(signal.SIGTERM)
    return await _finished(process)
