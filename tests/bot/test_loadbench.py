"""The real bot's load benchmark runs, tiny, with Discord's rate limits on in the fake (so it
cannot rot): both ways of offering turns, what it prints of the bot's REST calls, and its
network mode (network games posted in two homes)."""

from __future__ import annotations

from tests.bot.loadbench import Mode, benchmark, steady_schedule
from tests.bot.networkload import homes_of_members, network_benchmark, pairs


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


async def test_a_tiny_network_run_posts_every_board_once_in_both_homes() -> None:
    """Network mode: two servers and a member homed in DMs, three games between members of
    different servers, two rounds of moves at once; each home gets every board once."""
    run = await network_benchmark(Mode("sqlite"), games=3, servers=2, dm_share=0.2, turns=2)
    assert (run.members, run.dm_members) == (6, 1)
    assert run.failures == [] and run.home_errors == [] and not run.failed
    assert run.homes_checked == 6 and len(run.rounds) == 2
    assert run.moves == 6 and len(run.mover_home) == 6 and len(run.other_home) == 6
    assert run.board_posts >= 12  # a board a move in each home (placement boards replaced too)
    assert run.bot_rss and run.harness_rss > 0
    printed = run.render()
    for figure in (
        "mover's home",
        "other home",
        "/s",
        "429s while playing: global 0",
        "unanswered",
        "RSS",
    ):
        assert figure in printed
    assert "exactly once, in order, pinging only its player: yes" in printed


def test_network_pairs_never_share_a_server() -> None:
    homes = homes_of_members(20, servers=3, dm_share=0.1)
    assert homes.count(None) == 2
    matches = pairs(homes)
    assert len(matches) == 10 and len({m for pair in matches for m in pair}) == 20
    assert all(homes[w] is None or homes[w] != homes[b] for w, b in matches)
