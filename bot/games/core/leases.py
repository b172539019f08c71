"""Leases on background work: what must run in one process at a time, whichever holds it.

Several bot processes may share one database. Work that is not an interaction — the
housekeeping sweep, the computer opponent's turn in a game — is taken by a lease named after
it (``"housekeeping"``, ``"computer:<game id>"``), held by this process's claimant until the
lease runs out. The holder renews it while it works and gives it up when done; a killed
process's leases run out, and the next process that looks takes the work over. What the work
writes is guarded by the database besides (versions, statuses), so a lease that ran out under a
stalled holder costs at worst some work done twice, never a change made twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta

from bot.storage import Store

log = logging.getLogger(__name__)

HOUSEKEEPING = "housekeeping"


def computer_turn(game_id: int) -> str:
    """The lease of the computer opponent's turn in a game."""
    return f"computer:{game_id}"


COMPUTER_TURNS = "computer:"


class Leases:
    def __init__(
        self, store: Store, now: Callable[[], datetime], holder: str, duration: timedelta
    ) -> None:
        self._store = store
        self._now = now
        self.holder = holder
        self.duration = duration

    async def take(self, name: str) -> bool:
        """Take (or renew) the lease ``name``; ``False`` if another process holds it."""
        now = self._now()
        async with self._store.write() as tx:
            return await tx.take_lease(name, self.holder, now + self.duration, now)

    async def release(self, name: str) -> None:
        async with self._store.write() as tx:
            await tx.release_lease(name, self.holder)

    async def release_all(self) -> int:
        """Give up every lease of this process (a clean shutdown: the others need not wait)."""
        async with self._store.write() as tx:
            return await tx.release_leases(self.holder)

    async def held_by_others(self, prefix: str) -> set[str]:
        """The names of live leases starting with ``prefix`` that another process holds."""
        return await self._store.live_leases(prefix, self._now(), besides=self.holder)

    @contextlib.asynccontextmanager
    async def holding(self, name: str) -> AsyncIterator[bool]:
        """Hold the lease ``name`` for the block, renewing it meanwhile, and give it up after;
        yields whether this process got it (if not, another does the work)."""
        if not await self.take(name):
            yield False
            return
        renewer = asyncio.create_task(self._renew(name), name=f"lease-{name}")
        try:
            yield True
        finally:
            renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewer
            try:
                await asyncio.shield(self.release(name))
            except Exception:
                log.warning("could not give up the lease %s; it runs out by itself", name)

    async def _renew(self, name: str) -> None:
        while True:
            await asyncio.sleep(self.duration.total_seconds() / 3)
            try:
                if not await self.take(name):
                    log.warning("lost the lease %s to another process (this one stalled)", name)
                    return
            except Exception:
                log.warning("could not renew the lease %s", name, exc_info=True)
