"""Puzzles: a position to win from, tried privately, and a puzzle rating per player.

The puzzles are :mod:`ai.puzzles`' (a position, and the winning line: the solver's move, the
forced or best reply, the solver's next move... ending with the solver's). A player asks for
one (``/puzzle``) or taps a server's daily post; the bot answers each move: a right one is
followed by the reply from the line, and the last right one solves the puzzle; a wrong one
(or giving up) fails it.

* **Choice.** A puzzle near the player's puzzle rating (within
  :data:`~bot.games.puzzles.book.WINDOWS`, widened until there is one), drawn at random among
  those they never tried; when they tried them all, one they never solved (unrated); none
  left: :class:`NoPuzzleLeft`. A player's running try is shown again rather than a new one
  begun.
* **Rating.** Glicko-2, as :mod:`bot.games.puzzles.book` rates a try. Global: the same in
  every server and in DMs. Rated is the first try of a puzzle the bot chose for the player (by
  rating, or the day's); a puzzle asked for by name, or tried before, is practice. Streaks
  count rated puzzles solved in a row.
* **Safe across processes.** Every use case is one transaction that first locks the player's
  rating row (:meth:`bot.storage.puzzles.PuzzleWrites.lock_puzzle_rating`); a try moves on
  only from the step it was read at. Two taps at once: one plays, the other is told the puzzle
  moved on, and a puzzle is rated once.
* **The daily puzzle.** Each day (UTC) the housekeeping pass chooses the day's puzzle, the
  same for every server (once: the day is its key), and queues one post in each server that
  chose a channel (once a server a day: the post's row and its outbox row are written
  together); the next day it counts, for each server, the players who tried it from that
  post by how their first try from there went (solved, not solved, still running), and queues
  the count to be shown on the post (once: counted posts are marked in the same transaction).
  A try from a counted post that ends later updates the count, and queues the post's edit,
  in the transaction that ends it: the post's row is locked before it is counted, by the
  day's count and by such a try alike, so neither counts without the other's change.
"""

from __future__ import annotations

import dataclasses
import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime

import rules
from ai.puzzles import Puzzle
from bot.games.core.parts import Shared, UseCases
from bot.games.puzzles.announcements import daily_puzzle, daily_puzzle_count
from bot.games.puzzles.book import PuzzleBook, rated, start_rating
from bot.games.puzzles.errors import (
    NoDailyPuzzle,
    NoPuzzleLeft,
    NoPuzzleRunning,
    NotYourPuzzle,
    PuzzleMovedOn,
    PuzzleOver,
)
from bot.storage import (
    ChannelId,
    DailyPuzzlePost,
    GuildId,
    NewAttempt,
    PuzzleAttempt,
    PuzzleRating,
    UserId,
    Writer,
)
from bot.storage.puzzles import DailyCount
from rules import Cell, Colour, Move, Position, Stack

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PuzzleShown:
    """A running try, as the player is shown it."""

    attempt: PuzzleAttempt
    puzzle: Puzzle
    rating: PuzzleRating
    """The player's puzzle rating now."""
    resumed: bool = False
    """It was running already (shown again, not begun)."""

    @property
    def position(self) -> Position:
        """Where the solver is to move now."""
        return self.puzzle.position_at(self.attempt.step)

    @property
    def solver(self) -> Colour:
        return self.puzzle.solver()

    @property
    def moves_left(self) -> int:
        """The solver's moves still to find."""
        return self.puzzle.solver_moves - self.attempt.step // 2


@dataclass(frozen=True, slots=True)
class PuzzleMoved:
    """A move played in a try (or a try given up: ``move`` is ``None``), and what followed."""

    attempt: PuzzleAttempt
    """The try as saved after it."""
    puzzle: Puzzle
    before: Position
    """Where the move was played."""
    move: Move | None
    right: bool
    reply: Move | None
    """The reply played after a right move that did not end the puzzle."""
    rating_before: PuzzleRating
    rating_after: PuzzleRating
    """The same as before unless the try was rated and is over."""
    announcements: tuple[int, ...] = ()
    """What the move wrote to the outbox: a daily post's count updated, when the try came
    from a post already counted and ended now."""

    @property
    def over(self) -> bool:
        return not self.attempt.running

    @property
    def solved(self) -> bool:
        return bool(self.attempt.solved)

    @property
    def step(self) -> int:
        """The step the move was played at."""
        return self.attempt.step if self.over else self.attempt.step - 2

    @property
    def expected(self) -> Move:
        """The line's move where this one was played (the solution, after a wrong one)."""
        return self.puzzle.expects(self.step)

    @property
    def position(self) -> Position:
        """The position to show now: after the reply (running), after the last move
        (solved), or before the wrong move (failed: the solution is drawn on it)."""
        if not self.over:
            return self.puzzle.position_at(self.attempt.step)
        return self.puzzle.position_at(self.step + 1) if self.solved else self.before

    @property
    def rated(self) -> bool:
        return self.attempt.rated and self.over

    @property
    def cut_off(self) -> Mapping[Cell, Stack]:
        """What the player's move cut off and removed (nothing when they gave up)."""
        return {} if self.move is None else rules.apply(self.before, self.move).removed

    @property
    def reply_cut_off(self) -> Mapping[Cell, Stack]:
        """What the reply played after a right move cut off and removed."""
        if self.move is None or self.reply is None:
            return {}
        return rules.apply(rules.play(self.before, self.move), self.reply).removed


@dataclass(frozen=True, slots=True)
class DailyQueued:
    """What the daily puzzle's pass wrote to the outbox."""

    posts: tuple[int, ...] = ()
    counts: tuple[int, ...] = ()

    @property
    def announcements(self) -> tuple[int, ...]:
        return self.posts + self.counts


class Puzzles(UseCases):
    """The puzzles' use cases, over the store."""

    def __init__(
        self,
        shared: Shared,
        rng: random.Random,
        book: PuzzleBook | Callable[[], PuzzleBook] = PuzzleBook.standard,
    ) -> None:
        """``book``: the puzzles, or what reads them when first needed."""
        super().__init__(shared)
        self._rng = rng
        self._book = book

    @property
    def book(self) -> PuzzleBook:
        if not isinstance(self._book, PuzzleBook):
            self._book = self._book()
        return self._book

    # --- a player's tries ---------------------------------------------------------------------

    async def start(
        self,
        user_id: UserId,
        *,
        puzzle_id: str | None = None,
        daily: date | None = None,
        guild_id: GuildId | None = None,
    ) -> PuzzleShown:
        """A puzzle for ``user_id``: their running try if they have one, else a new one near
        their rating; with ``puzzle_id``, that puzzle (practice); with ``daily``, that day's
        puzzle, from ``guild_id``'s post (rated if they never tried it). A running try of the
        puzzle asked for is shown again. Raises :class:`UnknownPuzzle`,
        :class:`NoDailyPuzzle`, :class:`NoPuzzleLeft`."""
        if daily is not None:
            puzzle_id = await self._store.daily_puzzle(daily)
            if puzzle_id is None:
                raise NoDailyPuzzle(daily.isoformat())
        asked = None if puzzle_id is None else self.book.get(puzzle_id)
        now = self._now()
        async with self._store.write() as tx:
            rating = await self._lock(tx, user_id, now)
            running = await tx.running_attempts(user_id)
            if asked is None and running:
                return self._shown(running[0], rating, resumed=True)
            if asked is not None:
                again = next((a for a in running if a.puzzle_id == asked.id), None)
                if again is not None:
                    return self._shown(again, rating, resumed=True)
            tried = await tx.tried_puzzles(user_id)
            if asked is None:
                puzzle = self.book.near(rating.rating, self._rng, leave_out=tried)
                first = puzzle is not None
                if puzzle is None:  # every one tried: one never solved, for practice
                    unsolved = {p for p in self.book.ids() if not tried.get(p, False)}
                    puzzle = self.book.near(
                        rating.rating, self._rng, leave_out=set(tried) - unsolved
                    )
                if puzzle is None:
                    raise NoPuzzleLeft(user_id, len(self.book))
            else:
                puzzle, first = asked, daily is not None and asked.id not in tried
            attempt = await tx.insert_attempt(
                NewAttempt(
                    user_id=user_id,
                    puzzle_id=puzzle.id,
                    rated=first,
                    started_at=now,
                    daily_day=daily,
                    guild_id=None if daily is None else guild_id,
                )
            )
        log.info("puzzle %s: %s begins it (rated: %s)", puzzle.id, user_id, first)
        return PuzzleShown(attempt, puzzle, rating)

    async def current(self, user_id: UserId) -> PuzzleShown:
        """The player's running try (the newest, if several); raises
        :class:`NoPuzzleRunning`."""
        running = await self._store.running_puzzle_attempts(user_id)
        if not running:
            raise NoPuzzleRunning(user_id)
        rating = await self._store.puzzle_rating(user_id) or start_rating(user_id)
        return self._shown(running[0], rating, resumed=True)

    async def shown(self, user_id: UserId, attempt_id: int) -> PuzzleShown:
        """One of the player's running tries. Raises :class:`NoPuzzleRunning` (no such try),
        :class:`NotYourPuzzle`, :class:`PuzzleOver`."""
        running = await self._store.running_puzzle_attempts(user_id)
        found = next((a for a in running if a.id == attempt_id), None)
        if found is None:  # why not: whose, or over
            _check(await self._store.puzzle_attempt(attempt_id), attempt_id, user_id)
            raise NoPuzzleRunning(user_id)
        rating = await self._store.puzzle_rating(user_id) or start_rating(user_id)
        return self._shown(found, rating, resumed=True)

    async def play(
        self,
        user_id: UserId,
        move: Move | str,
        *,
        attempt_id: int | None = None,
        step: int | None = None,
    ) -> PuzzleMoved:
        """Play ``move`` in the player's try ``attempt_id`` (``None``: their newest running
        one), shown at ``step`` (``None``: wherever it is). Right: the line's reply is played
        (or, the last move, the puzzle is solved); wrong: the puzzle is failed. A rated try is
        rated as it ends.

        Raises the rules' errors for a move that is not one or is illegal there (nothing
        changes), :class:`NoPuzzleRunning`, :class:`NotYourPuzzle`, :class:`PuzzleOver`,
        :class:`PuzzleMovedOn`."""
        parsed = rules.parse_move(move) if isinstance(move, str) else move
        return await self._move(user_id, parsed, attempt_id, step)

    async def give_up(self, user_id: UserId, attempt_id: int, step: int) -> PuzzleMoved:
        """The player gives up the try (the solution is shown): failed, and rated as such if
        it is rated. Raises as :meth:`play`."""
        return await self._move(user_id, None, attempt_id, step)

    async def rating(self, user_id: UserId) -> PuzzleRating | None:
        """A player's puzzle rating, if they ever began a puzzle."""
        return await self._store.puzzle_rating(user_id)

    async def _move(
        self, user_id: UserId, move: Move | None, attempt_id: int | None, step: int | None
    ) -> PuzzleMoved:
        now = self._now()
        async with self._store.write() as tx:
            rating = await self._lock(tx, user_id, now)
            if attempt_id is None:
                running = await tx.running_attempts(user_id)
                if not running:
                    raise NoPuzzleRunning(user_id)
                attempt = running[0]
            else:
                attempt = _check(await tx.puzzle_attempt(attempt_id), attempt_id, user_id)
            if step is not None and attempt.step != step:
                raise PuzzleMovedOn(attempt.id)
            puzzle = self.book.get(attempt.puzzle_id)
            before = puzzle.position_at(attempt.step)
            if move is not None:
                rules.play(before, move)  # an illegal move changes nothing: the rules say why
            right = move is not None and puzzle.accepts(attempt.step, move)
            played = attempt.played if move is None else (*attempt.played, str(move))
            last = attempt.step + 1 >= len(puzzle.line)
            if right and not last:
                reply = puzzle.line[attempt.step + 1]
                played = (*played, str(reply))
                to = attempt.step + 2
                if not await tx.advance_attempt(attempt.id, attempt.step, to, played):
                    raise PuzzleMovedOn(attempt.id)
                saved = dataclasses.replace(attempt, step=to, played=played)
                return PuzzleMoved(saved, puzzle, before, move, True, reply, rating, rating)
            after = rated(rating, puzzle.rating, solved=right) if attempt.rated else rating
            ended = await tx.end_attempt(
                attempt.id,
                attempt.step,
                played,
                solved=right,
                now=now,
                rating_before=rating.rating if attempt.rated else None,
                rating_after=after.rating if attempt.rated else None,
            )
            if not ended:
                raise PuzzleMovedOn(attempt.id)
            if attempt.rated:
                await tx.save_puzzle_rating(after, now)
            recounted = await self._recount_daily(tx, attempt, now)
        log.info("puzzle %s: %s %s it", puzzle.id, user_id, "solved" if right else "failed")
        saved = dataclasses.replace(
            attempt,
            played=played,
            ended_at=now,
            solved=right,
            rating_before=rating.rating if attempt.rated else None,
            rating_after=after.rating if attempt.rated else None,
        )
        return PuzzleMoved(
            saved, puzzle, before, move, right, None, rating, after, announcements=recounted
        )

    async def _recount_daily(
        self, tx: Writer, attempt: PuzzleAttempt, now: datetime
    ) -> tuple[int, ...]:
        """A try from a daily post ended: if that post was counted already, count it again
        (the post's row locked first) and queue the edit of the post when the count changed.
        A post not counted yet needs nothing: its count, later, takes the try in."""
        if attempt.daily_day is None or attempt.guild_id is None:
            return ()
        post = await tx.lock_daily_post(attempt.guild_id, attempt.daily_day)
        if post is None or post.solvers is None:
            return ()
        counted = await tx.daily_first_tries(post.guild_id, post.day)
        if (counted.solvers, counted.tried) == (post.solvers, post.tried):
            return ()  # not the player's first try from there: the count stands
        return (await self._save_count(tx, post, counted, now),)

    async def _save_count(
        self, tx: Writer, post: DailyPuzzlePost, counted: DailyCount, now: datetime
    ) -> int:
        """Store ``counted`` as ``post``'s count (its row locked by the caller) and queue the
        post's edit to show it; returns the outbox row."""
        await tx.update_daily_count(post.guild_id, post.day, counted.solvers, counted.tried)
        notice = daily_puzzle_count(
            dataclasses.replace(
                post, solvers=counted.solvers, tried=counted.tried, still_open=counted.still_open
            )
        )
        return await tx.enqueue(notice, now, self._outbox.claim())

    @staticmethod
    async def _lock(tx: Writer, user_id: UserId, now: datetime) -> PuzzleRating:
        """The player's rating row, locked: every puzzle use case of theirs takes turns."""
        await tx.ensure_players([user_id], now)
        return await tx.lock_puzzle_rating(start_rating(user_id), now)

    def _shown(self, attempt: PuzzleAttempt, rating: PuzzleRating, *, resumed: bool) -> PuzzleShown:
        return PuzzleShown(attempt, self.book.get(attempt.puzzle_id), rating, resumed)

    # --- the daily puzzle ---------------------------------------------------------------------

    async def queue_daily(self) -> DailyQueued:
        """The housekeeping pass's part: count the daily posts of days gone by and queue each
        count to be shown on its post; choose today's puzzle (UTC) and queue its post in every
        server that chose a channel and has none today. Each once, whatever the processes."""
        now = self._now()
        today = now.date()
        counts: list[int] = []
        for post in await self._store.uncounted_daily_posts(today):
            async with self._store.write() as tx:
                locked = await tx.lock_daily_post(post.guild_id, post.day)
                if locked is None or locked.solvers is not None:
                    continue  # counted by another process meanwhile
                counted = await tx.daily_first_tries(post.guild_id, post.day)
                counts.append(await self._save_count(tx, locked, counted, now))
        posts: list[int] = []
        awaiting = await self._store.servers_awaiting_daily(today)
        if awaiting and len(self.book):
            async with self._store.write() as tx:
                chosen = self.book.daily(today, await tx.daily_puzzle_ids())
                puzzle_id = await tx.choose_daily_puzzle(today, chosen.id, now)
            for guild_id, channel_id in awaiting:
                posted = await self._queue_post(guild_id, channel_id, today, puzzle_id, now)
                if posted is not None:
                    posts.append(posted)
        if posts or counts:
            log.info("daily puzzle: %d posts and %d counts queued", len(posts), len(counts))
        return DailyQueued(tuple(posts), tuple(counts))

    async def _queue_post(
        self, guild_id: GuildId, channel_id: ChannelId, day: date, puzzle_id: str, now: datetime
    ) -> int | None:
        async with self._store.write() as tx:
            if not await tx.insert_daily_post(guild_id, day, channel_id, now):
                return None  # queued by another process meanwhile
            notice = daily_puzzle(guild_id, channel_id, day, puzzle_id)
            return await tx.enqueue(notice, now, self._outbox.claim())

    async def daily_post_made(self, guild_id: GuildId, day: date, message_id: int) -> None:
        """Keep the message of a server's daily post (its count is shown on it later)."""
        async with self._store.write() as tx:
            await tx.set_daily_message(guild_id, day, message_id)

    async def daily_post(self, guild_id: GuildId, day: date) -> DailyPuzzlePost | None:
        """A server's post of a day's puzzle, as stored now (its message, its count)."""
        return await self._store.daily_post(guild_id, day)


def _check(attempt: PuzzleAttempt | None, attempt_id: int, user_id: UserId) -> PuzzleAttempt:
    """``attempt`` if it is ``user_id``'s and running; raises :class:`NotYourPuzzle`,
    :class:`PuzzleOver`, :class:`NoPuzzleRunning` (there is no such try)."""
    if attempt is None:
        raise NoPuzzleRunning(user_id)
    if attempt.user_id != user_id:
        raise NotYourPuzzle(attempt_id, user_id)
    if not attempt.running:
        raise PuzzleOver(attempt_id)
    return attempt
