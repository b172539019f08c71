"""The bot within Discord's rate limits, all on as the fake models them (the default).

Games starting in a burst over many channels, a hidden limit on new threads, and what the
bot learns from each answer's headers. A tournament's round of 28 games in one channel, then a
turn in each of them within a second, is tested in tests/bot/e2e/test_tournaments.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import DvonnBot
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import is_board_post
from tests.fakediscord.ratelimits import THREAD_ROUTES, Bucket

pytestmark = pytest.mark.slow


@pytest.fixture
async def bot(table: Table, tmp_path: Path) -> AsyncIterator[DvonnBot]:
    """On SQLite only: the limits are Discord's whichever the database (and the round takes
    a minute, for the threads)."""
    async with BotRunner(table, tmp_path / "dvonn.sqlite3").run() as started:
        yield started


async def test_games_starting_in_a_burst_stay_under_the_global_limit(
    table: Table, bot: DvonnBot
) -> None:
    """Sixty games accepted at once over twelve channels (five each, within the threads'
    limit): a thread and a first post each, over a hundred requests the global limit counts,
    paced by the bot (bot.pacing) rather than refused."""
    fake = table.fake
    channels = [table.guild.add_text_channel(f"round-{i}") for i in range(12)]
    pairs = [
        (fake.add_user(f"w{i}", table.guild), fake.add_user(f"b{i}", table.guild), channel)
        for i, channel in enumerate(channels * 5)
    ]
    challenges = await asyncio.gather(
        *(
            fake.run_command(white, channel, "dvonn challenge", {"opponent": black})
            for white, black, channel in pairs
        )
    )
    before = fake.traffic.snapshot()
    await asyncio.gather(
        *(
            fake.click(black, challenge.message, label="Accept")
            for (_, black, _), challenge in zip(pairs, challenges, strict=True)
            if challenge.message is not None
        )
    )

    def started() -> int:
        threads = [t for c in channels for t in fake.threads_in(c)]
        return sum(1 for t in threads if any(map(is_board_post, fake.messages_in(t))))

    await fake.wait_until(lambda: started() == len(pairs), timeout=60, what="60 games")
    traffic = fake.traffic.snapshot() - before
    print(f"{traffic.global_counted} calls against the global limit; 429s {traffic.rate_limited}")
    assert traffic.global_counted >= 2 * len(pairs)
    assert not traffic.rate_limited, traffic.rate_limited
    assert bot.pace.waited > 0  # the bot held requests back, instead of Discord refusing them


async def test_a_hidden_limit_on_new_threads_is_waited_out(table: Table, bot: DvonnBot) -> None:
    """Discord is reported to refuse thread starts in one channel past an unannounced count
    (429s of scope shared, for minutes): the games still get their threads, later, instead of
    being played in the channel (where only one game fits)."""
    fake = table.fake
    # Ten at once by the announced bucket, one a second by the hidden limit: more tries than
    # discord.py makes for one request (five).
    roomy = Bucket("thread create", 10, 10.0)
    fake.limits.buckets = dict.fromkeys(THREAD_ROUTES, roomy)
    fake.limits.shared_threads = (1, 1.0)
    pairs = [
        (fake.add_user(f"w{i}", table.guild), fake.add_user(f"b{i}", table.guild)) for i in range(8)
    ]
    challenges = await asyncio.gather(
        *(
            fake.run_command(white, table.games, "dvonn challenge", {"opponent": black})
            for white, black in pairs
        )
    )
    await asyncio.gather(
        *(
            fake.click(black, challenge.message, label="Accept")
            for (_, black), challenge in zip(pairs, challenges, strict=True)
            if challenge.message is not None
        )
    )

    def in_threads() -> int:
        threads = fake.threads_in(table.games)
        return sum(1 for t in threads if any(map(is_board_post, fake.messages_in(t))))

    await fake.wait_until(lambda: in_threads() == len(pairs), timeout=60, what="10 threads")
    assert fake.traffic.rate_limited.get("shared", 0) > 0  # the hidden limit was met
    assert await bot.service.game_in_channel(table.games.id) is None
