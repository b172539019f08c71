"""Helpers for tests of code that uses the game service: a clock that moves only when told.

Give it to the service (``GameService(store, clock=clock)``), then move time by hand:

>>> clock = ManualClock()
>>> clock.advance(days=3)  # a deadline passes, without sleeping
datetime.datetime(2025, 1, 4, 12, 0, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

DEFAULT_START = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


class ManualClock:
    """A :data:`~bot.games.service.Clock` that stands still until :meth:`advance` moves it."""

    def __init__(self, start: datetime = DEFAULT_START) -> None:
        if start.tzinfo is None:
            raise ValueError("the clock's time must be aware (have a time zone)")
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta | None = None, **units: float) -> datetime:
        """Move the clock forward by ``delta`` or ``timedelta(**units)``; returns the new time."""
        step = delta if delta is not None else timedelta(**units)
        if step < timedelta(0):
            raise ValueError("time does not go backwards")
        self.now += step
        return self.now
