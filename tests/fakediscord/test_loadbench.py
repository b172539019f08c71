"""The load benchmark's harness works (figures are for the benchmark itself), and a bot can run
as its own process against the fake, restarts included."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import REPO_ROOT
from tests.fakediscord import ResponseType
from tests.fakediscord.conftest import Scene
from tests.fakediscord.loadbench import benchmark, bot_process

SAMPLE_BOT_PROCESS = [sys.executable, "-m", "tests.fakediscord.sample_bot"]
SAMPLE_BOT_ENV = {"SAMPLE_GUILD_ID": "{guild_id}", "PYTHONPATH": str(REPO_ROOT)}


async def test_a_small_benchmark_runs() -> None:
    report = await benchmark(games=3, turns=2, think=0.0)
    assert report.failures == []
    assert len(report.latencies) == 6
    assert "p99" in report.render()


@pytest.mark.slow
async def test_a_bot_process_survives_a_restart(scene: Scene) -> None:
    fake = scene.fake
    bot = bot_process(SAMPLE_BOT_PROCESS, SAMPLE_BOT_ENV)
    async with bot(fake, scene.guild):
        challenge = await fake.run_command(
            scene.alice, scene.games, "dvonn challenge", {"opponent": scene.bob}
        )
    assert challenge.message is not None
    async with bot(fake, scene.guild):
        accepted = await fake.click(scene.bob, challenge.message, "dvonn:42:accept")
    assert accepted.response_type is ResponseType.UPDATE_MESSAGE
    assert accepted.content == "game 42: accept (client 1)"
    assert [e.kind for e in fake.gateway_events].count("identify") == 2
