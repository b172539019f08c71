"""Keeping the bot under Discord's global rate limit, instead of learning it from 429s.

A bot token may make 50 requests a second in all, across all its processes; Discord's
interaction endpoints (answers, followups, and editing or deleting them through the
interaction's token) are not counted. discord.py learns the global limit only from a 429,
and until then sends whatever it is asked to: a burst of work (hundreds of games starting at
once) meets a wall of 429s, each an invalid request (10,000 in 10 minutes get the bot's IP
banned for an hour). So every request discord.py's HTTP client makes, which are exactly those
the global limit counts (interactions go through its webhook adapter instead), first takes a
token from :class:`Pace`: a token bucket whose rate and burst together never exceed the
process's share of the limit in any second.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Final

import discord

GLOBAL_LIMIT: Final = 50
"""Requests a second Discord allows one bot token, in all its processes."""
HEADROOM: Final = 0.9
"""The part of the limit the processes plan to use. Discord counts a request when it arrives,
in windows of a second, and the way there takes longer for some requests than for others:
requests spread over a little more than a second by the pace may land within one window."""
BURST_SHARE: Final = 0.2
"""The part of a process's share that may go out at once (the rest flows at a steady rate),
so that no second ever holds more than the share."""


class Pace:
    """At most ``burst`` requests at once, then ``rate`` a second: never more than ``burst +
    rate`` in any second."""

    def __init__(
        self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError(f"a pace needs a positive rate and burst, not {rate}, {burst}")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._at = clock()
        self._lock = asyncio.Lock()
        self.waited = 0.0
        """Seconds requests have waited for a token, in all (for the operator and the tests)."""

    @classmethod
    def share(cls, shards: int, shard_count: int) -> Pace:
        """The pace of a process serving ``shards`` of ``shard_count`` shards: its part of the
        token's limit (less the headroom), as the work is spread over the processes by their
        shards."""
        part = GLOBAL_LIMIT * HEADROOM * min(1.0, shards / max(1, shard_count))
        burst = max(1, int(part * BURST_SHARE))
        return cls(max(1.0, part - burst), burst)

    async def take(self) -> None:
        """Wait for a token (requests queue up in the order they asked)."""
        async with self._lock:
            self._refill()
            if self._tokens < 1:
                wait = (1 - self._tokens) / self.rate
                self.waited += wait
                await asyncio.sleep(wait)
                self._refill()
            self._tokens -= 1

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now


def pace_requests(http: discord.http.HTTPClient, pace: Pace) -> None:
    """Make every request of ``http`` (discord.py's REST client: every call the global limit
    counts) take a token from ``pace`` first."""
    request = http.request

    async def paced(route: discord.http.Route, **kwargs: Any) -> Any:
        await pace.take()
        return await request(route, **kwargs)

    http.request = paced  # type: ignore[method-assign]
