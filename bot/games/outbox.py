"""The outbox as the service sees it: announcements waiting to be delivered.

Use cases write announcements (:meth:`bot.storage.Writer.enqueue`) in the transaction of the
change they announce, leased to the caller for a while. The Discord layer's deliverer reads the
pending ones here and records each delivery, so that what a crash left unsent is sent later,
and nothing is marked sent before it was.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Final

from bot.storage import Notification, Store

MAX_ATTEMPTS: Final = 5
"""Deliveries of one announcement tried before it is given up (and logged)."""


class Outbox:
    def __init__(self, store: Store, now: Callable[[], datetime]) -> None:
        self._store = store
        self._now = now

    async def pending(self) -> list[Notification]:
        """Announcements to deliver now, oldest first: unsent, and not leased to their writer."""
        return await self._store.pending_notifications(self._now())

    async def get(self, notification_id: int) -> Notification | None:
        """An announcement by id, if it is still unsent."""
        return await self._store.notification(notification_id)

    async def sent(self, notification_id: int) -> None:
        """Record that an announcement went out (or needs no post any more)."""
        now = self._now()
        async with self._store.write() as tx:
            await tx.mark_sent(notification_id, now)

    async def failed(self, notification: Notification) -> bool:
        """Record a failed delivery; returns whether it was the last try (then it is given
        up). Its lease ends, so the deliverer tries it again on its next pass."""
        give_up = notification.attempts + 1 >= MAX_ATTEMPTS
        now = self._now()
        async with self._store.write() as tx:
            await tx.mark_failed(notification.id, give_up=give_up, now=now)
        return give_up
