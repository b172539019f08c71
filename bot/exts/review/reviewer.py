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
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from ai.engine import Engine
from ai.review import DEFAULT_BUDGET, Estimate, Review, ReviewPlan
from bot.i18n import Text
from bot.posting.texts import Players
from rules import Move

log = logging.getLogger(__name__)

REVIEW_BUDGET: Final = DEFAULT_BUDGET
"""Seconds of search per position of the movement phase (0.3 s; the placement's searches take
milliseconds): the engine still sees seven plies or so ahead in the middle game and solves the
last ten moves, and a whole game (78 actions) was reviewed in 9 s with one worker process and in
5 s with two, on a busy 2-core machine. Much less and its verdicts turn to noise; much more and
players wait, and games against the bot with them."""
MAX_REVIEWS: Final = 3
KEEP: Final = 64
"""Reviews kept in memory (each a few kilobytes)."""


@dataclass(frozen=True, slots=True)
class Subject:
    """A game to review: a stored game (``key`` ``g12``) or a transcript (``t`` and a digest of
    it), its actions from the start, its players' names and how it ended."""

    key: str
    moves: tuple[Move, ...]
    players: Players
    ending: Text
    game_id: int | None = None


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
        budget: float | None = REVIEW_BUDGET,
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

    def busy(self, key: str) -> bool:
        """Whether a review of ``key`` would have to wait for others to finish first (it is
        neither kept nor running, and :data:`MAX_REVIEWS` are running)."""
        return (
            key not in self._done
            and key not in self._running
            and len(self._running) >= self._at_once
        )

    async def review(self, subject: Subject) -> Review:
        """The review of ``subject``: kept, being made for someone else, or made now."""
        kept = self.reviewed(subject.key)
        if kept is not None and kept.subject.moves == subject.moves:
            return kept.review
        task = self._running.get(subject.key)
        if task is None:
            task = asyncio.create_task(self._run(subject), name=f"review-{subject.key}")
            self._running[subject.key] = task
            task.add_done_callback(lambda done: self._finished(subject, done))
        # Shielded: one asker giving up (an interaction cancelled) must not stop it for another.
        return await asyncio.shield(task)

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
        for search in (plan.first_round, lambda: plan.second_round(found)):
            wanted = search()
            answers = await asyncio.gather(
                *(
                    self._engine.estimate(
                        position, self.budget, max_nodes=self._max_nodes, game=queue
                    )
                    for position in wanted.values()
                )
            )
            found.update(zip(wanted, answers, strict=True))
        return plan.review(found)

    async def close(self) -> None:
        """Stop the reviews under way."""
        running = list(self._running.values())
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
