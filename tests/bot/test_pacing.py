"""The bot's pace under Discord's global limit: never more than its share in any second."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.pacing import GLOBAL_LIMIT, HEADROOM, Pace


def test_a_process_s_share_is_its_part_of_the_shards() -> None:
    whole = Pace.share(1, 1)
    assert whole.rate + whole.burst == GLOBAL_LIMIT * HEADROOM < GLOBAL_LIMIT
    half = Pace.share(2, 4)
    assert half.rate + half.burst == GLOBAL_LIMIT * HEADROOM / 2
    with pytest.raises(ValueError):
        Pace(0, 1)


async def test_no_second_holds_more_than_the_rate_and_the_burst() -> None:
    pace = Pace(40, 10)
    started: list[float] = []

    async def request() -> None:
        await pace.take()
        started.append(time.monotonic())

    began = time.monotonic()
    await asyncio.gather(*(request() for _ in range(70)))
    took = time.monotonic() - began
    assert took >= (70 - 10) / 40 * 0.95  # the burst at once, then 40 a second
    busiest = max(sum(1 for t in started if s <= t < s + 1.0) for s in started)
    assert busiest <= 50, busiest
    assert pace.waited > 1.0
