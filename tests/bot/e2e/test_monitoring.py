"""Health and metrics, asked over real HTTP of a bot running against the fake Discord."""

from __future__ import annotations

import dataclasses

import aiohttp

import rules
from bot.monitoring import MAX_OUTBOX_LAG, Metrics, MonitoringServer, Probes
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import play_turn
from tests.bot.e2e.test_game import start_game


async def test_healthz_and_metrics_over_http(table: Table, bot_runner: BotRunner) -> None:
    bot_runner.settings = dataclasses.replace(bot_runner.settings, http_port=0)
    async with bot_runner.run() as bot, aiohttp.ClientSession() as http:
        assert bot.http_port is not None
        await bot.wait_until_ready()
        base = f"http://127.0.0.1:{bot.http_port}"
        async with http.get(f"{base}/healthz") as response:
            health = await response.json()
            assert response.status == 200, health
        assert health["gateway"] is True and health["database"] is True
        assert health["outbox_lag_seconds"] == 0

        thread = await start_game(table)
        await play_turn(table.fake, table.alice, thread, rules.parse_move("E3"))
        wrong = await table.fake.run_command(table.bob, thread, "dvonn place", {"cell": "Q9"})
        assert wrong.ephemeral
        # A post's "sent" is written in the next batch, a moment after Discord has it: the lag
        # read before that batch commits would be those milliseconds, not an unsent post.
        await bot.service.outbox.flush()
        async with http.get(f"{base}/metrics") as response:
            assert response.status == 200
            text = await response.text()
        assert 'dvonn_interactions_total{command="dvonn place",outcome="ok"} 1.0' in text
        assert 'dvonn_interactions_total{command="dvonn place",outcome="refused"} 1.0' in text
        assert 'dvonn_interactions_total{command="dvonn:challenge:accept",outcome="ok"}' in text
        assert "dvonn_games_running 1.0" in text
        assert "dvonn_interaction_seconds_count" in text and "dvonn_render_seconds_count" in text
        assert "dvonn_outbox_lag_seconds 0.0" in text and "dvonn_computer_queue 0.0" in text


async def test_healthz_says_503_and_why_when_something_is_wrong() -> None:
    async def answers() -> bool:
        return True

    async def lag() -> float:
        return MAX_OUTBOX_LAG + 1

    async def nothing() -> None:
        return None

    async def none_waits() -> float:
        return 0.0

    cases = [
        (Probes(lambda: False, answers, none_waits, nothing), "gateway"),
        (Probes(lambda: True, answers, lag, nothing), "outbox_lag_seconds"),
    ]
    for probes, cause in cases:
        server = MonitoringServer(Metrics(), probes)
        port = await server.start("127.0.0.1", 0)
        try:
            async with (
                aiohttp.ClientSession() as http,
                http.get(f"http://127.0.0.1:{port}/healthz") as response,
            ):
                report = await response.json()
        finally:
            await server.stop()
        assert response.status == 503 and cause in report, report
