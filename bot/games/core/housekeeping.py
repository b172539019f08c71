"""The housekeeping pass: one registry of periodic jobs, to which each feature adds its own.

A periodic job does what has come due (a deadline passed, a reminder or a digest due, the day's
puzzle, a tournament's start) and returns what it did, whose :attr:`JobDone.announcements` are
the outbox rows it wrote leased to its caller, to deliver right after the pass (what it wrote
for nobody in particular the outbox's deliverer takes). The service composes the registry
(:attr:`bot.games.service.GameService.housekeeping`), each feature's jobs added in the order the
pass runs them; :meth:`~bot.games.service.GameService.sweep` runs one pass. The bot runs it
every minute in one process at a time (the lease :data:`bot.games.core.leases.HOUSEKEEPING`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol


class JobDone(Protocol):
    """What a periodic job did."""

    @property
    def announcements(self) -> tuple[int, ...]:
        """The outbox rows it wrote, leased to its caller to deliver now."""
        ...


PeriodicJob = Callable[[], Awaitable[JobDone]]
"""A periodic job: does what has come due, each change in a transaction of its own."""


@dataclass(frozen=True, slots=True)
class Job:
    """A periodic job and its name (for the logs and a reader)."""

    name: str
    run: PeriodicJob


class PeriodicJobs:
    """The housekeeping pass's jobs, run in the order added."""

    def __init__(self) -> None:
        self._jobs: list[Job] = []

    def add(self, name: str, run: PeriodicJob) -> None:
        """Run ``run`` on every pass, after the jobs added before it."""
        if any(job.name == name for job in self._jobs):
            raise ValueError(f"a periodic job is named {name!r} already")
        self._jobs.append(Job(name, run))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(job.name for job in self._jobs)

    async def run(self) -> tuple[JobDone, ...]:
        """One pass: every job in order; what each did."""
        return tuple([await job.run() for job in self._jobs])
