"""The deployment files name what exists, and the container's start command works when run as
it is (no container engine runs here: the command runs directly, with the image's settings)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import signal
import socket
import sys
from pathlib import Path

import aiohttp
import pytest

from tests.bot.e2e.conftest import Table
from tests.conftest import REPO_ROOT
from tests.test_setup import table_variables

pytestmark = pytest.mark.slow  # starts the real process

DOCKERFILE = (REPO_ROOT / "Dockerfile").read_text(encoding="utf-8")
COMPOSE = (REPO_ROOT / "compose.yaml").read_text(encoding="utf-8")


def dockerfile_env() -> dict[str, str]:
    block = DOCKERFILE.split("\nENV ", 1)[1].split("\n\n", 1)[0].replace("\\\n", " ")
    return dict(part.split("=", 1) for part in shlex.split(block))


def instruction(name: str) -> str:
    """An instruction's arguments, its continuation lines joined."""
    joined = DOCKERFILE.replace("\\\n", " ")
    found = re.search(rf"^{name} (.*)$", joined, re.MULTILINE)
    assert found is not None, name
    return found[1]


def test_the_image_copies_what_exists_and_runs_the_bot() -> None:
    for line in re.findall(r"^COPY (.+)$", DOCKERFILE, re.MULTILINE):
        if line.startswith("--from="):
            continue  # from an earlier stage of the build, not from the checkout
        *sources, _target = line.split()
        for source in sources:
            assert (REPO_ROOT / source).exists(), source
    assert json.loads(instruction("CMD")) == ["python", "-m", "bot"]
    env = dockerfile_env()
    assert set(env) - {"PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"} <= table_variables()
    assert f"127.0.0.1:{env['DVONN_HTTP_PORT']}/healthz" in instruction("HEALTHCHECK")
    assert "USER dvonn" in DOCKERFILE and 'VOLUME ["/data"]' in DOCKERFILE
    assert env["DVONN_DATABASE"].startswith("/data/")


def test_compose_keeps_the_database_on_its_volume() -> None:
    env = dockerfile_env()
    assert f"DVONN_DATABASE: {env['DVONN_DATABASE']}" in COMPOSE
    assert "dvonn-data:/data" in COMPOSE and "env_file: .env" in COMPOSE
    assert f"127.0.0.1:{env['DVONN_HTTP_PORT']}:{env['DVONN_HTTP_PORT']}" in COMPOSE


def test_the_systemd_units_agree_on_where_things_are() -> None:
    units = {p.name: p.read_text(encoding="utf-8") for p in (REPO_ROOT / "deploy").iterdir()}
    bot, backup = units["dvonn-bot.service"], units["dvonn-bot-backup.service"]
    assert "ExecStart=/opt/dvonn-bot/.venv/bin/python -m bot\n" in bot
    assert "-m bot backup /var/lib/dvonn-bot/backups" in backup
    database = "DVONN_DATABASE=/var/lib/dvonn-bot/dvonn.sqlite3"
    assert database in bot and database in backup
    assert "StateDirectory=dvonn-bot" in bot and "ReadWritePaths=/var/lib/dvonn-bot" in bot
    assert "OnCalendar=" in units["dvonn-bot-backup.timer"]


async def test_the_containers_command_serves_and_passes_its_health_check(
    table: Table, tmp_path: Path
) -> None:
    fake = table.fake
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DVONN_"))}
    env = {
        **base,
        **dockerfile_env(),
        "PYTHONPATH": str(REPO_ROOT),
        "DVONN_DATABASE": str(tmp_path / "data" / "dvonn.sqlite3"),  # the volume, here
        "DVONN_HTTP_PORT": str(port),
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
    }
    command = json.loads(instruction("CMD"))
    process = await asyncio.create_subprocess_exec(
        sys.executable, *command[1:], cwd=tmp_path, env=env
    )
    try:
        await fake.wait_for_ready(timeout=30)
        healthy = False
        async with aiohttp.ClientSession() as http:
            for _ in range(100):
                try:
                    async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                        healthy = response.status == 200
                except aiohttp.ClientError:
                    pass
                if healthy:
                    break
                await asyncio.sleep(0.1)
        assert healthy
        check = json.loads(instruction("HEALTHCHECK").split("CMD", 1)[1])
        script = check[-1].replace(":8080/", f":{port}/")
        checked = await asyncio.create_subprocess_exec(sys.executable, "-c", script)
        assert await asyncio.wait_for(checked.wait(), 30) == 0
    finally:
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 30) == 0


def test_the_image_compiles_every_package_it_runs_from() -> None:
    """The bot runs from /app as a user who cannot write there: a package copied in but not
    compiled at build time is compiled from source again at every start."""
    copied = {
        line.split()[0]
        for line in re.findall(r"^COPY (.+)$", DOCKERFILE, re.MULTILINE)
        if not line.startswith("--from=") and (REPO_ROOT / line.split()[0] / "__init__.py").exists()
    }
    compiled = re.search(r"python -m compileall -q ([\w ]+)", DOCKERFILE)
    assert compiled is not None
    assert copied and copied == set(compiled[1].split())
