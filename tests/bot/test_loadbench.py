"""The real bot's load benchmark runs, tiny, with Discord's rate limits on in the fake (so it
cannot rot): both ways of offering turns, and what it prints of the bot's REST calls."""

from __future__ import annotations

from tests.bot.loadbench import Mode, benchmark, steady_schedule


def test_a_steady_schedule_spreads_each_games_turns_evenly() -> None:
    schedule = steady_schedule([0, 1, 2], rate=6.0, seconds=1.5)  # 9 turns, 2 a second a game
    assert schedule == {0: [0.0, 0.5, 1.0], 1: [1 / 6, 4 / 6, 7 / 6], 2: [2 / 6, 5 / 6, 8 / 6]}


async def test_a_tiny_steady_run_and_a_tiny_bursty_one() -> None:
    steady = await benchmark(
        Mode("sqlite"), games=3, turns=0, think=0.0, seed=1, guilds=2, rate=6.0, seconds=1.0
    )
    assert steady.report.failures == [] and len(steady.report.latencies) == 6
    assert steady.traffic is not None and steady.traffic.total >= 6
    assert steady.traffic.calls["POST /interactions/{interaction_id}/{token}/callback"] == 6
    printed = steady.render_traffic()
    assert "a turn" in printed and "against the global limit" in printed and "429s" in printed
    assert "6 turns/s for 1 s" in steady.report.render()

    bursty = await benchmark(Mode("sqlite"), games=2, turns=2, think=0.0, seed=1)
    assert bursty.report.failures == [] and len(bursty.report.latencies) == 4
    assert "p99" in bursty.report.render()
