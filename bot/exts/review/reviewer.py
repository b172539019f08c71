"""Reviews, searched in the bot's engine: one at a time per game, kept for a while.

A review is two rounds of searches (:class:`ai.review.ReviewPlan`); they all wait in one queue
of the engine, which serves its queues in turn, so the games being played against the bot keep
their turns while a review runs. Two requests for the same game share one review, and a
finished game's review is kept in memory (the game cannot change), so asking again, or tapping
its mistakes, costs nothing. At most :data:`MAX_REVIEWS` run at once: more would only make each
one slower.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from ai.engine import Engine
from ai.review import DEFAULT_BUDGET, Estimate, Review, ReviewPlan
from bot.i18n import Text
from bot.posting.texts import Players
from rules import Move

log = logging.getLogger(__name__)

MAX_REVIEWS: Final = 3
KEEP: Final = 64
"""Reviews kept in memory (each a few kilobytes)."""


@dataclass(frozen=True, slots=True)
class Subject:
    """A game to review: a stored game (``key`` ``g12``) or a transcript (``t`` and a digest of
    it), its actions from the start, its players' names and how it ended (said with the names
    a reader sees: a transcript may have none, and then the colours stand for them)."""

    key: str
    moves: tuple[Move, ...]
    players: Players
    ending: Callable[[Players], Text]
    game_id: int | None = None


class ReviewsBusy(Exception):
    """:data:`MAX_REVIEWS` reviews of other games are running."""


class ReviewStopped(Exception):
    """The review was stopped: the bot is shutting down."""


@dataclass(frozen=True, slots=True)
class Reviewed:
    subject: Subject
    review: Review


class Reviewer:
    """Runs reviews in ``engine``: ``budget`` seconds per position, or (``budget=None``)
    ``max_nodes`` nodes (tests)."""

    def __init__(
        self,
        engine: Engine,
        *,
        budget: float | None = DEFAULT_BUDGET,
        max_nodes: int | None = None,
        at_once: int = MAX_REVIEWS,
        keep: int = KEEP,
    ) -> None:
        self._engine = engine
        self.budget = budget
        self._max_nodes = max_nodes
        self._at_once = at_once
        self._keep = keep
        self._done: OrderedDict[str, Reviewed] = OrderedDict()
        self._running: dict[str, asyncio.Task[Review]] = {}

    def reviewed(self, key: str) -> Reviewed | None:
        """The review of ``key`` if it is kept."""
        found = self._done.get(key)
        if found is not None:
            self._done.move_to_end(key)
        return found

    def start(self, subject: Subject) -> Callable[[], Awaitable[Review]]:
        """Start (or join) the review of ``subject``; what the returned function awaits is the
        review. Raises :class:`ReviewsBusy` when it would have to wait for :data:`MAX_REVIEWS`
        others. Checking and starting are one step, with no wait between them, so that two
        askers at once cannot both pass the check."""
        kept = self.reviewed(subject.key)
        if kept is not None and kept.subject.moves == subject.moves:
            review = kept.review

            async def at_once() -> Review:
                return review

            return at_once
        task = self._running.get(subject.key)
        if task is None:
            if len(self._running) >= self._at_once:
                raise ReviewsBusy
            task = asyncio.create_task(self._run(subject), name=f"review-{subject.key}")
            self._running[subject.key] = task
            task.add_done_callback(lambda done: self._finished(subject, done))
        return functools.partial(self._wait, task)

    async def review(self, subject: Subject) -> Review:
        """The review of ``subject``: kept, being made for someone else, or made now."""
        return await self.start(subject)()

    @staticmethod
    async def _wait(task: asyncio.Task[Review]) -> Review:
        try:
            # Shielded: one asker giving up (an interaction cancelled) must not stop it for
            # another.
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if task.cancelled() and (current is None or not current.cancelling()):
                raise ReviewStopped from None  # the review was stopped, not the asker
            raise

    def _finished(self, subject: Subject, done: asyncio.Task[Review]) -> None:
        if self._running.get(subject.key) is done:
            del self._running[subject.key]
        if done.cancelled():
            return
        error = done.exception()
        if error is not None:
            log.warning("the review of %s failed: %r", subject.key, error)
            return
        self._done[subject.key] = Reviewed(subject, done.result())
        self._done.move_to_end(subject.key)
        while len(self._done) > self._keep:
            self._done.popitem(last=False)

    async def _run(self, subject: Subject) -> Review:
        plan = ReviewPlan(subject.moves)
        queue = ("review", subject.key)  # all its searches wait their turns in one queue
        found: dict[str, Estimate] = {}
        for searches in (plan.first_round, lambda: plan.second_round(found)):
            wanted = searches()
            # A task group: should one search fail, the others are cancelled instead of going
            # on taking the workers' time from the games being played.
            async with asyncio.TaskGroup() as group:
                answers = [
                    group.create_task(
                        self._engine.estimate(
                            search.position,
                            self.budget,
                            max_nodes=self._max_nodes,
                            depth=search.depth,
                            game=queue,
                        )
                    )
                    for search in wanted.values()
                ]
            found.update(zip(wanted, (answer.result() for answer in answers), strict=True))
        return plan.review(found)

    async def close(self) -> None:
        """Stop the reviews under way."""
        running = list(self._running.values())
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
