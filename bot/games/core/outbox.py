"""The outbox as the service sees it: announcements waiting to be delivered, and their claims.

Use cases write announcements (:mod:`bot.games.core.announcements`) in the transaction of the change
they announce, claimed by this process (:meth:`Outbox.claim`) so that it posts them right after
the commit. A deliverer claims what it posts with a lease that runs out: a crashed process's
rows are taken over by whoever claims them next, a live one's are left to it. The claims map
onto PostgreSQL's ``SELECT ... FOR UPDATE SKIP LOCKED`` (see :meth:`Outbox.claimable`).

A network game is played in two homes (a thread in each player's server, or their DMs): each
announcement of it is a row per home (:func:`bot.storage.outbox.write_notification`), and a
home's rows are claimed and posted in order among themselves only, so that one home's rate limit
or refusal never holds back the other's.

That a row was posted is recorded in batches, after the post (lazily: a row posted but not yet
marked, after a crash, is posted again with the same Discord nonce, and Discord returns the
first message instead of making another).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Final

from bot.storage import Claim, Game, Notification, Store
from bot.storage.models import ChannelId, GameHome, HomeSeat
from bot.storage.outbox import ONE_PLACE as _ONE_PLACE

log = logging.getLogger(__name__)

MAX_ATTEMPTS: Final = 5
"""Deliveries of one announcement tried before it is given up (and logged)."""
DEFAULT_LEASE: Final = timedelta(seconds=30)
"""How long a claim holds: a crashed deliverer's rows wait this long before another takes them.
Well within the few minutes in which Discord recognises a message nonce."""
RETRY_AFTER: Final = (5.0, 30.0, 120.0, 600.0)
"""Seconds before the next try after each failed one."""
ONE_PLACE: Final = _ONE_PLACE
"""The home of every post that is not a network game's: its game's one place (or its user)."""
REMEMBERED_GAMES: Final = 10_000
"""Games remembered as played in one place or in homes (:meth:`Outbox.homes_of`)."""


class Outbox:
    def __init__(
        self, store: Store, now: Callable[[], datetime], lease: timedelta = DEFAULT_LEASE
    ) -> None:
        self._store = store
        self._now = now
        self.lease = lease
        self.claimant = secrets.token_hex(8)
        """This process's name in claims (a new one at every start)."""
        self._marks: dict[int, tuple[datetime, int | None, bool]] = {}
        """Rows posted, not recorded yet: when, the message, whether it answered a command."""
        self._flusher: asyncio.Task[None] | None = None
        self._kinds: OrderedDict[int, bool] = OrderedDict()
        """Whether games seen are played in homes (network games), the latest seen last."""

    def claim(self) -> Claim:
        """This process's claim, from now on for one lease."""
        return Claim(self.claimant, self._now() + self.lease)

    async def claimable(self, limit: int = 100) -> list[Notification]:
        """Announcements a deliverer may take now, oldest first: unsent, unclaimed or their
        claim run out, and each the oldest unsent one of its game."""
        if self._marks:
            # The posts this process made are recorded first: a game's next row is the oldest
            # unsent only once the one before it is marked in the database, and a mark still
            # waiting for its batch would hide it until the next look (the next poll).
            await self._flush_marks()
        marked = set(self._marks)  # before the read: see claim_next
        found = await self._store.claimable_notifications(self._now(), limit)
        return [n for n in found if n.id not in marked]

    async def claim_next(self, game_id: int, home: str = ONE_PLACE) -> Notification | None:
        """Claim the next announcement to post of a game's ``home`` (the oldest unsent; of an
        ordinary game, played in one place: of the game), unless another live deliverer
        holds it; ``None`` if there is none or it is held."""
        # The rows this process posted, as they were before the read: a batch of marks that
        # commits during the read leaves the marks, yet the read may still see its rows unsent
        # (and this process would post one again).
        marked = set(self._marks)
        if home == ONE_PLACE:  # an ordinary game's rows are all of its one place
            unsent = [n for n in await self._store.unsent_notifications(game_id) if not n.home]
        else:
            unsent = await self._store.unsent_notifications(game_id, home=home)
        pending = [n for n in unsent if n.id not in marked]
        if not pending:
            return None
        head, now = pending[0], self._now()
        if head.claimed_by == self.claimant and head.leased_until and head.leased_until > now:
            return head  # ours already (we wrote it): no write needed
        if len(pending) != len(unsent):
            await self._flush_marks()  # the rows ahead of it must be marked before a claim
        async with self._store.write() as tx:
            claimed = await tx.claim_next(game_id, self.claim(), now, home)
            if claimed is None:
                # Another process holds the row ahead: it posts the home's later rows after
                # it, so this process lets go of those it wrote (or they would wait for its
                # claim to run out). Whatever it misses, the next poll takes.
                await tx.release_game(game_id, self.claimant, home)
            return claimed

    def has_homes(self, game_id: int) -> bool | None:
        """Whether a game is played in homes (a network game), if known without a look (seen
        before by :meth:`homes_of`), else ``None``."""
        homes = self._kinds.get(game_id)
        if homes is not None:
            self._kinds.move_to_end(game_id)
        return homes

    async def homes_of(self, game_id: int) -> tuple[str, ...]:
        """The homes whose posts of a game go out each in their own order: its seats
        (a network game), else its one place (``""``). Which of the two a game is, is
        remembered (it never changes); a network game's homes are read each time (a home of
        both players may be split in two)."""
        if self.has_homes(game_id) is False:
            return (ONE_PLACE,)
        seats = await self._store.home_seats(game_id)
        self._kinds[game_id] = bool(seats)
        while len(self._kinds) > REMEMBERED_GAMES:
            self._kinds.popitem(last=False)
        return tuple(seats) if seats else (ONE_PLACE,)

    async def home(self, game_id: int, seat: str) -> GameHome | None:
        """One home of a network game, as stored now."""
        return next((h for h in await self._store.homes(game_id) if h.seat == seat), None)

    async def network_names(self, game: Game) -> tuple[str, str]:
        """The names a network game's posts show for its white and black players: those they
        joined the network with (``#id`` for one forgotten since)."""
        names = await self._store.names((game.white_id, game.black_id))
        return (
            names.get(game.white_id, f"#{game.white_id}"),
            names.get(game.black_id, f"#{game.black_id}"),
        )

    async def lose_home(self, game_id: int, seat: str, refused: ChannelId) -> bool:
        """A home of a network game refused the bot's posts in channel ``refused``: recorded,
        and its unsent posts given up (the other home's go on); ``False`` if that was recorded
        already, or if the home has moved from that channel since (a late refusal)."""
        async with self._store.write() as tx:
            return await tx.lose_home(game_id, HomeSeat(seat), self._now(), refused=refused)

    async def claim_one(self, notification_id: int) -> Notification | None:
        """Claim an announcement that belongs to no game (a reminder), unless it is held."""
        if notification_id in self._marks:
            return None
        async with self._store.write() as tx:
            return await tx.claim_one(notification_id, self.claim(), self._now())

    async def renew(self, notification_id: int) -> bool:
        """Hold an announcement one lease longer; ``False`` if another deliverer took it."""
        async with self._store.write() as tx:
            return await tx.renew(notification_id, self.claim())

    def sent(
        self, notification_id: int, message_id: int | None = None, *, answered: bool = False
    ) -> None:
        """Record that an announcement went out (or needs no post any more), in the next
        batch. ``answered``: it was the answer to the command whose route the row keeps (else
        the route is forgotten: the post was not made through it)."""
        self._marks[notification_id] = (self._now(), message_id, answered)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_marks(), name="outbox-marks")

    async def failed(self, notification: Notification) -> bool:
        """Record a failed delivery; returns whether it was the last try (then it is given
        up). The next try waits a while, and the game's later announcements with it."""
        attempts = notification.attempts + 1
        give_up = attempts >= MAX_ATTEMPTS
        now = self._now()
        retry_at = now + timedelta(seconds=RETRY_AFTER[min(attempts, len(RETRY_AFTER)) - 1])
        async with self._store.write() as tx:
            await tx.mark_failed(
                notification.id, self.claimant, give_up=give_up, now=now, retry_at=retry_at
            )
        return give_up

    async def last_turn_post(self, notification: Notification) -> tuple[Notification, int] | None:
        """The turn announced before ``notification`` in its game's home (of an ordinary game:
        in the game), and the id of the message that posted it, if it was posted; the row's
        ``answer`` is the route of the command that post answered, if it did. A home's rows go
        out in order, so whoever posts ``notification`` finds the row before it marked: in the
        database, or (not flushed yet) among this process's marks."""
        if notification.game_id is None:
            return None
        marked = dict(self._marks)  # before the read: a batch may commit meanwhile
        found = await self._store.last_turn(
            notification.game_id, notification.id, notification.home
        )
        if found is None:
            return None
        earlier, message_id = found
        if earlier.id in marked:
            _, message_id, answered = marked[earlier.id]
            if not answered:
                earlier = dataclasses.replace(earlier, answer=None)
        return None if message_id is None else (earlier, message_id)

    async def postpone(self, notification: Notification, seconds: float) -> None:
        """Try an announcement again in ``seconds``, not counting this try (a rate limit:
        Discord did not refuse the post, it asked to wait); the game's later ones wait too."""
        async with self._store.write() as tx:
            await tx.postpone(
                notification.id, self.claimant, self._now() + timedelta(seconds=seconds)
            )

    async def lag(self) -> float:
        """Seconds the oldest announcement not delivered yet has waited (0: none waits)."""
        oldest = await self._store.oldest_unsent_at()
        return 0.0 if oldest is None else max(0.0, (self._now() - oldest).total_seconds())

    async def get(self, notification_id: int) -> Notification | None:
        """An announcement by id, if it is still unsent."""
        if notification_id in self._marks:
            return None
        return await self._store.notification(notification_id)

    async def flush(self) -> None:
        """Record now what :meth:`sent` noted."""
        await self._flush_marks()

    async def record(self, notification_id: int) -> None:
        """Record a row's mark now if it still waits for its batch (nothing to do once it is
        recorded, by this process or another)."""
        if notification_id in self._marks:
            await self._flush_marks()

    async def _flush_marks(self) -> None:
        while self._marks:
            batch = dict(self._marks)
            try:
                async with self._store.write() as tx:
                    for notification_id, (at, message_id, answered) in batch.items():
                        await tx.mark_sent(notification_id, at, message_id, answered=answered)
            except Exception:
                log.exception("could not record %d announcements as sent; trying again", len(batch))
                await asyncio.sleep(1.0)
                continue
            for notification_id, mark in batch.items():
                if self._marks.get(notification_id) == mark:
                    del self._marks[notification_id]

    async def close(self) -> None:
        """Record what was sent, and let go of the claims on the rest, before the database
        closes (a restart takes them up at once instead of after the lease)."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)
        await self._flush_marks()
        async with self._store.write() as tx:
            released = await tx.release(self.claimant)
        if released:
            log.info("left %d announcements to the next start", released)
