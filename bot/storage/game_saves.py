"""Saving a game after a move, the hot path: :meth:`GameSaves.save_game` commits the saves
that arrive together in one transaction (group commit), one fsync for all of them.

Each save is a game's optimistic update (:mod:`bot.storage.games`), its new moves, and the
announcement of the move (:mod:`bot.storage.outbox`: a row for each home of a network game),
written together. :class:`GameSaves` is
a part of :class:`~bot.storage.store.Store`; one save alone in a transaction of its own is
:meth:`Writer.save_game <bot.storage.games.GameWrites.save_game>`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.storage.errors import StorageError, VersionConflict
from bot.storage.games import (
    INSERT_MOVE,
    UPDATE_GAME,
    NewMove,
    PositionCache,
    move_params,
    update_params,
)
from bot.storage.interface import Connection
from bot.storage.models import Claim, Game
from bot.storage.outbox import NewNotification, write_notification
from bot.storage.plans import PlansWaiting, planned_games
from bot.storage.sql_helpers import StorePart, locking

log = logging.getLogger(__name__)

MAX_BATCH: Final = 200
"""The most game saves committed in one transaction."""


@dataclass(slots=True, eq=False)  # compared and hashed by identity
class _SaveJob:
    game: Game
    expected_version: int
    moves: tuple[NewMove, ...]
    future: asyncio.Future[Saved]
    notice: NewNotification | None = None
    claim: Claim | None = None
    unplanned: bool = False
    """Saved only if the game has no planned lines (:class:`PlansWaiting` otherwise)."""


@dataclass(frozen=True, slots=True)
class Saved:
    """A game saved by :meth:`Store.save_game`, and the announcement written with it."""

    game: Game
    notice_id: int | None


class GameSaves(StorePart):
    """Saving games after moves, many in one transaction."""

    _positions: PositionCache
    _queue: list[_SaveJob]
    _flusher: asyncio.Task[None] | None

    async def save_game(
        self, game: Game, expected_version: int, moves: Sequence[NewMove] = ()
    ) -> Game:
        """Like :meth:`Writer.save_game`, in a transaction shared with the saves queued now.

        Each save succeeds or fails on its own (:class:`VersionConflict` if its game moved on);
        when this returns, the save is committed and synced.
        """
        return (await self.save_announced(game, expected_version, moves)).game

    async def save_announced(
        self,
        game: Game,
        expected_version: int,
        moves: Sequence[NewMove] = (),
        notice: NewNotification | None = None,
        claim: Claim | None = None,
        *,
        unplanned: bool = False,
    ) -> Saved:
        """:meth:`save_game`, writing ``notice`` to the outbox (held by ``claim``) with it.

        ``unplanned``: a move played without looking at the game's planned lines, saved only if
        it has none when its transaction holds its row; else :class:`PlansWaiting`, and
        nothing is saved (see :mod:`bot.storage.plans`)."""
        loop = asyncio.get_running_loop()
        job = _SaveJob(
            game, expected_version, tuple(moves), loop.create_future(), notice, claim, unplanned
        )
        self._queue.append(job)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        return await job.future

    async def _flush(self) -> None:
        """Commit queued saves, a batch per transaction, until the queue is empty."""
        while self._queue:
            batch = [job for job in self._queue[:MAX_BATCH] if not job.future.done()]
            del self._queue[:MAX_BATCH]
            if not batch:
                continue
            try:
                outcomes = await self._save_batch(batch)
            except Exception as error:
                outcomes = await self._retry_singly(batch, error)
            except BaseException as error:  # cancelled: the waiters must not hang
                for job in batch:
                    if not job.future.done():
                        job.future.set_exception(error)
                raise
            for job, outcome in zip(batch, outcomes, strict=True):
                if job.future.done():
                    continue  # the caller gave up waiting
                if isinstance(outcome, BaseException):
                    job.future.set_exception(outcome)
                else:
                    job.future.set_result(outcome)

    async def _retry_singly(
        self, batch: list[_SaveJob], error: Exception
    ) -> list[Saved | BaseException]:
        """After a failed batch: each save in its own transaction, so that one bad save (or a
        passing failure) does not sink the others; each gets its own outcome."""
        if len(batch) == 1:
            return [error]
        log.warning(
            "a batch of %d game saves failed (%s); retrying them one by one", len(batch), error
        )
        outcomes: list[Saved | BaseException] = []
        for job in batch:
            try:
                outcomes.extend(await self._save_batch([job]))
            except Exception as single_error:
                outcomes.append(single_error)
        return outcomes

    async def _save_batch(self, batch: list[_SaveJob]) -> list[Saved | BaseException]:
        notices: dict[_SaveJob, int] = {}
        planned: set[_SaveJob] = set()
        async with self.db.transaction() as conn:
            accepted = set(await self._apply_updates(conn, batch))
            while found := await self._planned(conn, accepted):
                # One of these games has planned lines: its move goes back to be played with
                # them. Begin again without it (only moves in games with lines pay for this).
                planned |= found
                await conn.restart()
                accepted = set(
                    await self._apply_updates(conn, [j for j in batch if j not in planned])
                )
            await conn.execute_many(
                INSERT_MOVE,
                [move_params(j.game.id, move) for j in batch if j in accepted for move in j.moves],
            )
            for job in batch:
                if job in accepted and job.notice is not None:
                    # A network game's post is written once for each of its homes; an
                    # ordinary game's once, without looking for homes (the hot path).
                    notices[job] = await write_notification(
                        conn, job.notice, job.game.updated_at, job.claim, homes=job.game.network
                    )
        return [
            Saved(dataclasses.replace(j.game, version=j.expected_version + 1), notices.get(j))
            if j in accepted
            else PlansWaiting(j.game.id)
            if j in planned
            else VersionConflict(j.game.id, j.expected_version)
            for j in batch
        ]

    @staticmethod
    async def _planned(conn: Connection, accepted: set[_SaveJob]) -> set[_SaveJob]:
        """The saves of ``accepted`` that must not be made without their games' plans."""
        guarded = [job for job in accepted if job.unplanned]
        games = await planned_games(conn, [job.game.id for job in guarded])
        return {job for job in guarded if job.game.id in games}

    def _update_rows(self, jobs: list[_SaveJob]) -> list[tuple[Any, ...]]:
        # In the order of the games' ids (a stable sort keeps two saves of one game in order):
        # transactions of other processes that lock the same rows take them in the same order,
        # so they wait for each other instead of deadlocking.
        ordered = sorted(jobs, key=lambda job: job.game.id)
        return [update_params(j.game, j.expected_version, self._positions) for j in ordered]

    async def _apply_updates(self, conn: Connection, batch: list[_SaveJob]) -> list[_SaveJob]:
        """Run the version-checked UPDATEs of the saves that can win; returns those saves."""
        changed = await conn.execute_many(UPDATE_GAME, self._update_rows(batch))
        if changed == len(batch):
            return batch  # the usual case: nobody else touched these games
        # Some game moved on (or two saves of one game met in this batch). Start the batch
        # again knowing the versions: inside the new transaction they cannot change (SQLite's
        # BEGIN IMMEDIATE holds the file, PostgreSQL's row locks the rows), so this read
        # decides which saves win, and the UPDATEs' version checks merely confirm it.
        # (Rare, so it may cost a new transaction; the usual case saves a SAVEPOINT instead.)
        await conn.restart()
        ids = sorted({job.game.id for job in batch})
        sql = f"SELECT id, version FROM games WHERE id IN ({', '.join('?' * len(ids))}) ORDER BY id"
        rows = await conn.fetch_all(locking(conn, sql), ids)
        current: dict[int, int] = {row[0]: row[1] for row in rows}
        accepted: list[_SaveJob] = []
        for job in batch:
            if current.get(job.game.id) == job.expected_version:
                current[job.game.id] = job.expected_version + 1
                accepted.append(job)
        changed = await conn.execute_many(UPDATE_GAME, self._update_rows(accepted))
        if changed != len(accepted):
            raise StorageError(f"{len(accepted)} game updates were checked, {changed} ran")
        return accepted
