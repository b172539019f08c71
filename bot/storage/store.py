"""The bot's one storage interface, composed of one part per aggregate.

:class:`Store` reads on the reader connections and hands out :class:`Writer` objects, each
bound to one write transaction, for the service to compose its writes in. Each is made of the
parts below; every SQL statement lives in the module of the aggregate it is about:

* :mod:`bot.storage.games`: games and their moves;
* :mod:`bot.storage.game_saves`: saving a game after a move (the hot path), the moves that
  arrive together committed in one transaction (group commit);
* :mod:`bot.storage.challenges`: challenges;
* :mod:`bot.storage.players`: players' preferences (notify, language, vacations, reminders) and
  their ratings;
* :mod:`bot.storage.outbox`: announcements to deliver and their claims, leases on background
  work, reply routes, lost channels;
* :mod:`bot.storage.settings`: servers' settings and languages;
* :mod:`bot.storage.tournaments`: tournaments and leagues, their players and pairings;
* :mod:`bot.storage.plans`: the lines of moves players plan while waiting (conditional moves);
* :mod:`bot.storage.puzzles`: puzzle ratings, players' tries, the daily puzzle and its posts;
* :mod:`bot.storage.network`: the network's members, servers, blocks, network games' homes and
  open network challenges;
* :mod:`bot.storage.lessons`: players' lessons (tries, lessons done, the offer made once);
* :mod:`bot.storage.forget`: forgetting a player (an operator's command), across all of them;
* :mod:`bot.storage.sql_helpers`: what they share.

A new aggregate is a new module with its ``...Writes`` and ``...Reads`` parts, and a line for
each in :class:`Writer` and :class:`Store`.

The statements are written once for both backends (:mod:`bot.storage.interface`): SQLite's and
PostgreSQL's common SQL, ``?`` placeholders, ids returned with ``RETURNING``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime

from bot.storage.challenges import ChallengeReads, ChallengeWrites, NewChallenge
from bot.storage.forget import ForgetWrites, Forgotten
from bot.storage.game_saves import GameSaves, Saved
from bot.storage.games import GameReads, GameWrites, NewGame, NewMove, PositionCache
from bot.storage.interface import Connection, Database
from bot.storage.lessons import LessonReads, LessonWrites
from bot.storage.models import UserId
from bot.storage.network import NetworkReads, NetworkWrites, NewHome
from bot.storage.outbox import NewNotification, OutboxReads, OutboxWrites
from bot.storage.plans import PlanReads, PlanWrites
from bot.storage.players import PlayerReads, PlayerWrites
from bot.storage.puzzles import PuzzleReads, PuzzleWrites
from bot.storage.settings import SettingsReads, SettingsWrites
from bot.storage.tournaments import TournamentReads, TournamentWrites

__all__ = [
    "NewChallenge",
    "NewGame",
    "NewHome",
    "NewMove",
    "NewNotification",
    "Saved",
    "Store",
    "Writer",
]


class Writer(
    GameWrites,
    ChallengeWrites,
    PlayerWrites,
    OutboxWrites,
    SettingsWrites,
    ForgetWrites,  # before TournamentWrites, whose remove_entrant it uses
    NetworkWrites,  # the same
    TournamentWrites,
    PlanWrites,
    PuzzleWrites,
    LessonWrites,
):
    """The writes (and consistent reads) of one write transaction.

    Get one from :meth:`Store.write`; it is valid only inside that ``async with`` block. What it
    reads of a row it will change cannot change under it: on SQLite the transaction
    (``BEGIN IMMEDIATE``) holds the whole file; on PostgreSQL, where other processes'
    transactions run beside it, such reads lock their rows (``FOR UPDATE``) until it ends.
    Where a row may not exist yet, the write makes it first, then locks it (ratings).
    """

    def __init__(self, conn: Connection, positions: PositionCache) -> None:
        self._conn = conn
        self._positions = positions


class Store(
    GameReads,
    GameSaves,
    ChallengeReads,
    PlayerReads,
    OutboxReads,
    SettingsReads,
    TournamentReads,
    PlanReads,
    PuzzleReads,
    NetworkReads,
    LessonReads,
):
    """All reads and writes of the bot's data, over one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        # Per store, not global: a store lives in one event loop, the cache needs no lock.
        self._positions = PositionCache(4096)
        self._queue = []
        self._flusher = None

    async def close(self) -> None:
        """Finish the queued saves, then close the database."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)
        await self.db.close()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Writer]:
        """A :class:`Writer` for one transaction, committed when the block ends normally and
        rolled back if it raises."""
        async with self.db.transaction() as conn:
            yield Writer(conn, self._positions)

    async def forget_player(
        self, user_id: UserId, now: datetime, *, dry_run: bool = False
    ) -> Forgotten:
        """Forget ``user_id`` in one transaction (:meth:`Writer.forget_player`); what was done.
        ``dry_run``: do all of it, count it, then roll it all back."""
        try:
            async with self.write() as tx:
                forgotten = await tx.forget_player(user_id, now)
                if dry_run:
                    raise _RolledBack(forgotten)
        except _RolledBack as rolled_back:
            return rolled_back.forgotten
        return forgotten


class _RolledBack(Exception):
    """Ends a dry run's transaction, rolling it back, with what it would have done."""

    def __init__(self, forgotten: Forgotten) -> None:
        self.forgotten = forgotten
