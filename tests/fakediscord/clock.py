"""Time in the fake: a monotonic clock tests can move forward, and Discord-style snowflakes."""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime

DISCORD_EPOCH_MS = 1_420_070_400_000


class FakeClock:
    """``time.monotonic()`` plus an offset that :meth:`advance` moves forward.

    The interaction deadlines (3 s, 15 min) are measured on this clock, so a test can expire a
    token by advancing the clock instead of sleeping for fifteen minutes.
    """

    def __init__(self) -> None:
        self._offset = 0.0

    def now(self) -> float:
        return time.monotonic() + self._offset

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the fake clock only moves forward")
        self._offset += seconds

    def utcnow(self) -> datetime:
        """Wall-clock time, moved forward like :meth:`now` (for timestamps in payloads)."""
        return datetime.fromtimestamp(time.time() + self._offset, tz=UTC)


class SnowflakeFactory:
    """Unique, increasing Discord ids whose timestamp part is the creation time.

    discord.py reads creation times from ids (e.g. to pick the bulk-delete rate limit), so ids
    must look real, not be 1, 2, 3.
    """

    def __init__(self, clock: FakeClock) -> None:
        self._clock = clock
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> int:
        ms = int(self._clock.utcnow().timestamp() * 1000) - DISCORD_EPOCH_MS
        # Worker/process bits stay 0; the low 12 bits are the increment, as on Discord.
        candidate = (ms << 22) | (next(self._counter) & 0xFFF)
        self._last = max(candidate, self._last + 1)
        return self._last


def iso(moment: datetime) -> str:
    """Discord's timestamp format (ISO 8601 with microseconds and offset)."""
    return moment.isoformat(timespec="microseconds")
