"""Delivering the outbox: the announcements the game service wrote with its changes.

Each announcement has a kind; the room that owns the kind registers how to post it
(:meth:`Deliverer.handle`): the posting side itself announces games' ends, the clocks feature
its reminders and vacation notices. Whoever made a change delivers its announcements right
after the commit (:meth:`Deliverer.deliver`): they are leased to it. The housekeeping pass
delivers whatever is still pending once the lease has run out (:meth:`Deliverer.deliver_pending`):
a crash or a restart in between delays an announcement, never loses it.

In one process, one lock keeps two deliveries of the same row apart, and a row is read again
under it before it is posted, so the caller and the housekeeping pass never both post it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

from bot.games import GameOver, Notification
from bot.games.endings import GAME_ENDED
from bot.games.outbox import Outbox
from bot.posting.publisher import Publisher
from bot.posting.texts import ended_post

log = logging.getLogger(__name__)

Handler = Callable[[Notification], Awaitable[None]]
"""Posts one announcement (raises if it could not)."""


class Deliverer:
    """Sends what the outbox holds, each row once, by the handler of its kind."""

    def __init__(self, outbox: Outbox, publisher: Publisher) -> None:
        self._outbox = outbox
        self._publisher = publisher
        self._handlers: dict[str, Handler] = {}
        self._lock = asyncio.Lock()
        self.handle(GAME_ENDED, self._game_ended)

    def handle(self, kind: str, handler: Handler) -> None:
        """Post announcements of ``kind`` with ``handler`` (one handler a kind)."""
        if kind in self._handlers:
            raise ValueError(f"announcements of kind {kind!r} have a handler already")
        self._handlers[kind] = handler

    async def deliver(self, notification_ids: Iterable[int]) -> int:
        """Post these announcements now (the caller's own, right after its commit); returns
        how many were posted."""
        sent = 0
        for notification_id in notification_ids:
            async with self._lock:
                notification = await self._outbox.get(notification_id)
                if notification is not None:
                    sent += await self._deliver(notification)
        return sent

    async def settle(self, notification_id: int) -> None:
        """The caller announced this in its own post: mark it sent without posting it."""
        async with self._lock:
            await self._outbox.sent(notification_id)

    async def deliver_pending(self) -> int:
        """Post every announcement not leased any more (the housekeeping pass); returns how
        many were posted."""
        return await self.deliver([n.id for n in await self._outbox.pending()])

    async def _deliver(self, notification: Notification) -> int:
        handler = self._handlers.get(notification.kind)
        try:
            if handler is None:
                raise LookupError(f"no handler for announcements of kind {notification.kind!r}")
            await handler(notification)
        except Exception:
            give_up = await self._outbox.failed(notification)
            log.exception(
                "could not deliver announcement %s (%s)%s",
                notification.id,
                notification.kind,
                ": giving up" if give_up else "; trying again later",
            )
            return 0
        await self._outbox.sent(notification.id)
        return 1

    async def _game_ended(self, notification: Notification) -> None:
        assert notification.game_id is not None
        game = await self._publisher.game(notification.game_id)
        players = await self._publisher.players(game)
        await self._publisher.send_to_game(game, ended_post(game, players, GameOver.of(game)))
