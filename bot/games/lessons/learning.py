"""The lessons as a player takes them: where they are, each try judged, progress kept.

The lessons are :mod:`bot.games.lessons.book`'s; this keeps a player's place in them.

* **One lesson at a time.** A player takes one lesson at a time (:meth:`Learning.start`: a
  lesson begun leaves the one running; asked for again, the running one is shown again). They
  are on one task of it (``task``); every change (a try, a move in the game lesson) counts a
  ``step``, and a button carries the step its board showed, so an older board's buttons are
  refused (:class:`~bot.games.lessons.errors.LessonMovedOn`).
* **A try.** A move task's try (typed, or tapped) is judged by :func:`book.judge` (the rules'
  error, a miss and why, or right); a right one moves the player on to the next task. A
  question's answer is right when it is :func:`book.answer_of`'s. The last task right finishes
  the lesson: it is marked done (a replay counts again), and the next one not done is offered.
* **The game lesson.** The learner's move is checked by the rules and kept with the computer's
  replies (``played``); the computer's reply is chosen by the Discord layer's engine and saved
  with :meth:`Learning.reply` (it is the computer's turn until then, after a restart too:
  :attr:`LessonShown.computer_to_move`). Hints asked for are counted. The game over, the
  lesson is done.
* **The offer.** The lessons are offered once to a player new to DVONN (no game before the one
  just begun, no lesson begun): :meth:`Learning.offer`, once whatever the processes.
* **Safe across processes.** Every use case that writes is one transaction that first locks
  the learner's row (:meth:`bot.storage.lessons.LessonWrites.lock_learner`); a lesson moves on
  only from the step it was read at.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from datetime import datetime

import rules
from bot.games.core.parts import UseCases
from bot.games.lessons import book
from bot.games.lessons.errors import (
    LessonMovedOn,
    NoLessonRunning,
    NotThisKindOfTask,
    NotYourLesson,
    UnknownChoice,
    UnknownLesson,
)
from bot.storage import LessonAttempt, LessonState, UserId, Writer
from rules import Colour, Move, Position

log = logging.getLogger(__name__)


def find_lesson(key: str) -> book.Lesson:
    """The lesson named ``key``; raises :class:`UnknownLesson`."""
    try:
        return book.lesson(key)
    except KeyError:
        raise UnknownLesson(key) from None


def game_position(task: book.GameTask, played: tuple[str, ...]) -> Position:
    """Where the game lesson stands after ``played``."""
    position = task.position
    for text in played:
        position = rules.play(position, rules.parse_move(text))
    return position


@dataclass(frozen=True, slots=True)
class LessonShown:
    """A player's lesson, as they are shown it."""

    attempt: LessonAttempt
    lesson: book.Lesson
    done: frozenset[str]
    """The lessons the player has finished (this one too, once it is over)."""
    resumed: bool = False
    """It was running already (shown again, not begun)."""

    @property
    def over(self) -> bool:
        return not self.attempt.running

    @property
    def task(self) -> book.Task:
        """The task the player is on (once over, the last)."""
        return self.lesson.tasks[min(self.attempt.task, len(self.lesson.tasks) - 1)]

    @property
    def position(self) -> Position:
        """The position of the task the player is on (the game lesson's, as it stands)."""
        task = self.task
        if isinstance(task, book.GameTask):
            return game_position(task, self.attempt.played)
        return task.position

    @property
    def learner(self) -> Colour:
        """The learner's colour: the one to move in the task's position."""
        return self.task.position.turn

    @property
    def computer_to_move(self) -> bool:
        """In the game lesson, the computer's reply is owed."""
        if self.over or not isinstance(self.task, book.GameTask):
            return False
        position = self.position
        return not rules.is_over(position) and position.turn is not self.learner

    @property
    def next_lesson(self) -> book.Lesson | None:
        """The lesson to take after this one: the first not done after it (then before it)."""
        keys = [each.key for each in book.LESSONS]
        here = keys.index(self.lesson.key) if self.lesson.key in keys else -1
        after = [*book.LESSONS[here + 1 :], *book.LESSONS[: here + 1]]
        return next((each for each in after if each.key not in self.done), None)


@dataclass(frozen=True, slots=True)
class LessonTried:
    """A try at a task (a move, a question's answer) and where it left the lesson."""

    shown: LessonShown
    """The lesson after the try."""
    task: book.Task
    """The task tried."""
    before: Position
    """Where the move was tried (for a question: its position)."""
    verdict: book.Verdict | None = None
    """A move's (for a question: ``None``)."""
    choice: str | None = None
    """A question's answer chosen."""
    right: bool = False

    @property
    def finished(self) -> bool:
        """The try finished the lesson."""
        return self.shown.over


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a player stands in the lessons: their running lesson, those done."""

    running: LessonShown | None
    done: frozenset[str]

    @property
    def next_lesson(self) -> book.Lesson | None:
        """The first lesson not done."""
        return next((each for each in book.LESSONS if each.key not in self.done), None)


class Learning(UseCases):
    """The lessons' use cases, over the store."""

    async def progress(self, user_id: UserId) -> Progress:
        """Where the player stands. A running lesson the book no longer has (an update took
        it out) is not shown: the next lesson begun leaves it."""
        running = await self._store.running_lesson(user_id)
        done = frozenset(await self._store.lessons_done(user_id))
        known = {each.key for each in book.LESSONS}
        if running is None or running.lesson_key not in known:
            return Progress(None, done & known)
        return Progress(
            LessonShown(running, find_lesson(running.lesson_key), done, True), done & known
        )

    async def start(self, user_id: UserId, lesson_key: str) -> LessonShown:
        """Begin (or replay) ``lesson_key``, leaving the lesson running if another; the running
        one is shown again if it is that lesson. Raises :class:`UnknownLesson`."""
        lesson = find_lesson(lesson_key)
        now = self._now()
        async with self._store.write() as tx:
            await self._lock(tx, user_id, now)
            done = frozenset(await tx.lessons_done(user_id))
            running = await tx.running_lesson(user_id)
            if running is not None and running.lesson_key == lesson.key:
                return LessonShown(running, lesson, done, resumed=True)
            if running is not None:
                await tx.leave_lesson(running.id, now)
            attempt = await tx.insert_lesson_attempt(user_id, lesson.key, now)
        log.info("lesson %s: %s begins it", lesson.key, user_id)
        return LessonShown(attempt, lesson, done)

    async def current(self, user_id: UserId) -> LessonShown:
        """The player's running lesson; raises :class:`NoLessonRunning`."""
        running = (await self.progress(user_id)).running
        if running is None:
            raise NoLessonRunning(user_id)
        return running

    async def shown(self, user_id: UserId, attempt_id: int, step: int) -> LessonShown:
        """The player's lesson ``attempt_id`` if it is theirs, running, and still at ``step``.
        Raises :class:`NotYourLesson`, :class:`LessonMovedOn` (over, left, or moved on),
        :class:`NoLessonRunning` (no such lesson)."""
        attempt = _check(await self._store.lesson_attempt(attempt_id), attempt_id, user_id, step)
        done = frozenset(await self._store.lessons_done(user_id))
        return LessonShown(attempt, find_lesson(attempt.lesson_key), done, resumed=True)

    async def looked_at(self, user_id: UserId, attempt_id: int) -> LessonShown:
        """The player's lesson ``attempt_id``, running or over (a finished lesson's board and
        its Next). Raises :class:`NotYourLesson`, :class:`NoLessonRunning` (no such lesson)."""
        attempt = await self._store.lesson_attempt(attempt_id)
        if attempt is None:
            raise NoLessonRunning(user_id)
        if attempt.user_id != user_id:
            raise NotYourLesson(attempt_id, user_id)
        done = frozenset(await self._store.lessons_done(user_id))
        return LessonShown(attempt, find_lesson(attempt.lesson_key), done, resumed=True)

    async def try_move(
        self,
        user_id: UserId,
        move: Move | str,
        *,
        attempt_id: int | None = None,
        step: int | None = None,
    ) -> LessonTried:
        """A try at the task the player is on, typed or tapped, in their lesson ``attempt_id``
        (``None``: their running one) shown at ``step`` (``None``: wherever it is). A move task
        is judged by the book (right: on to the next task); in the game lesson a legal move is
        played (the computer's reply is :meth:`reply`'s). A text that is no move, or an illegal
        move, is explained by its verdict and changes nothing but the step.

        Raises :class:`NoLessonRunning`, :class:`NotYourLesson`, :class:`LessonMovedOn`,
        :class:`NotThisKindOfTask` (a question, or the computer's turn)."""
        now = self._now()
        async with self._store.write() as tx:
            shown = await self._shown(tx, user_id, attempt_id, step, now)
            attempt = shown.attempt
            task = shown.task
            before = shown.position
            if isinstance(task, book.Question) or shown.computer_to_move:
                raise NotThisKindOfTask(attempt.id)
            if isinstance(task, book.MoveTask):
                verdict = book.judge(task, move)
                right = verdict.right
                after = _on(attempt, right=right)
            else:
                verdict = _played(before, move)
                right = verdict.result is not None
                played = attempt.played
                if right and verdict.move is not None:
                    played = (*played, str(verdict.move))
                over = right and rules.is_over(game_position(task, played))
                after = _on(dataclasses.replace(attempt, played=played), right=over)
            saved = await self._save(tx, attempt, after, now)
        # The move as the rules read it, never the text typed (a player's words stay out of
        # the logs at INFO: docs/operators/personal-data.md).
        tried = "not a move" if verdict.move is None else verdict.move
        log.info("lesson %s: %s tried %s (right: %s)", attempt.lesson_key, user_id, tried, right)
        return LessonTried(saved, task, before, verdict, right=right)

    async def answer(
        self, user_id: UserId, choice: str, *, attempt_id: int, step: int
    ) -> LessonTried:
        """An answer to the question the player is on (right: on to the next task). Raises
        :class:`NotThisKindOfTask` (not a question), :class:`UnknownChoice`, and as
        :meth:`try_move`."""
        now = self._now()
        async with self._store.write() as tx:
            shown = await self._shown(tx, user_id, attempt_id, step, now)
            attempt = shown.attempt
            task = shown.task
            if not isinstance(task, book.Question):
                raise NotThisKindOfTask(attempt.id)
            if choice not in task.choices:
                raise UnknownChoice(choice)
            right = choice == book.answer_of(task)
            saved = await self._save(tx, attempt, _on(attempt, right=right), now)
        return LessonTried(saved, task, task.position, choice=choice, right=right)

    async def reply(self, user_id: UserId, attempt_id: int, step: int, move: Move) -> LessonShown:
        """Save the computer's reply in the game lesson, chosen at ``step`` (the game over after
        it, the lesson is done). Raises :class:`NotThisKindOfTask` (not the computer's turn),
        the rules' errors for an illegal move, and as :meth:`try_move`."""
        now = self._now()
        async with self._store.write() as tx:
            shown = await self._shown(tx, user_id, attempt_id, step, now)
            attempt = shown.attempt
            task = shown.task
            if not isinstance(task, book.GameTask) or not shown.computer_to_move:
                raise NotThisKindOfTask(attempt.id)
            after = rules.play(shown.position, move)
            played = dataclasses.replace(attempt, played=(*attempt.played, str(move)))
            changed = _on(played, right=rules.is_over(after))
            return await self._save(tx, attempt, changed, now)

    async def hint_asked(self, user_id: UserId, attempt_id: int, step: int) -> LessonShown:
        """Count a hint asked for in the game lesson (the board stays: the step too). Raises
        :class:`NotThisKindOfTask` outside the game lesson, and as :meth:`try_move`."""
        now = self._now()
        async with self._store.write() as tx:
            shown = await self._shown(tx, user_id, attempt_id, step, now)
            attempt = shown.attempt
            if not isinstance(shown.task, book.GameTask) or shown.computer_to_move:
                raise NotThisKindOfTask(attempt.id)
            counted = dataclasses.replace(attempt, hints=attempt.hints + 1)
            if not await tx.save_attempt(counted, attempt.step, now):
                raise LessonMovedOn(attempt.id)
            return dataclasses.replace(shown, attempt=counted)

    async def offer(self, user_id: UserId, game_id: int | None = None) -> bool:
        """Whether to offer the lessons to the player now: they are new to DVONN (no game but
        ``game_id``, the one just begun, and no lesson begun) and were never offered them. The
        offer is recorded in the same transaction: ``True`` once per player, whatever the
        processes."""
        now = self._now()
        async with self._store.write() as tx:
            if not await tx.lesson_newcomer(user_id, game_id):
                return False
            await self._lock(tx, user_id, now)
            offered = await tx.mark_offered(user_id, now)
        if offered:
            log.info("lessons offered to %s", user_id)
        return offered

    @staticmethod
    async def _lock(tx: Writer, user_id: UserId, now: datetime) -> None:
        await tx.ensure_players([user_id], now)
        await tx.lock_learner(user_id, now)

    async def _shown(
        self,
        tx: Writer,
        user_id: UserId,
        attempt_id: int | None,
        step: int | None,
        now: datetime,
    ) -> LessonShown:
        """The learner locked, and their lesson ``attempt_id`` (``None``: the running one) as
        shown at ``step`` (``None``: wherever it is), checked theirs and not moved on."""
        await self._lock(tx, user_id, now)
        attempt = await self._attempt(tx, user_id, attempt_id, step)
        done = frozenset(await tx.lessons_done(user_id))
        return LessonShown(attempt, find_lesson(attempt.lesson_key), done)

    @staticmethod
    async def _attempt(
        tx: Writer, user_id: UserId, attempt_id: int | None, step: int | None
    ) -> LessonAttempt:
        if attempt_id is None:
            running = await tx.running_lesson(user_id)
            if running is None:
                raise NoLessonRunning(user_id)
            attempt_id = running.id
        return _check(await tx.lesson_attempt(attempt_id), attempt_id, user_id, step)

    async def _save(
        self, tx: Writer, attempt: LessonAttempt, after: LessonAttempt, now: datetime
    ) -> LessonShown:
        if not await tx.save_attempt(after, attempt.step, now):
            raise LessonMovedOn(attempt.id)
        if after.state is LessonState.DONE:
            await tx.mark_lesson_done(attempt.user_id, attempt.lesson_key, now)
            log.info("lesson %s: %s finished it", attempt.lesson_key, attempt.user_id)
        done = frozenset(await tx.lessons_done(attempt.user_id))
        return LessonShown(after, find_lesson(after.lesson_key), done)


def _on(attempt: LessonAttempt, *, right: bool) -> LessonAttempt:
    """``attempt`` one step on: after a right try, on the next task (or done after the last)."""
    step = attempt.step + 1
    if not right:
        return dataclasses.replace(attempt, step=step)
    lesson = find_lesson(attempt.lesson_key)
    if attempt.task + 1 >= len(lesson.tasks):
        return dataclasses.replace(attempt, step=step, state=LessonState.DONE)
    return dataclasses.replace(attempt, step=step, task=attempt.task + 1, played=())


def _played(position: Position, attempt: Move | str) -> book.Verdict:
    """A move of the game lesson, as a verdict: the rules' error, or what it did."""
    try:
        move = rules.parse_move(attempt) if isinstance(attempt, str) else attempt
    except rules.InvalidMoveError as error:
        return book.Verdict(None, error=error)
    try:
        return book.Verdict(move, rules.apply(position, move))
    except rules.IllegalMoveError as error:
        return book.Verdict(move, error=error)


def _check(
    attempt: LessonAttempt | None, attempt_id: int, user_id: UserId, step: int | None
) -> LessonAttempt:
    """``attempt`` if it is ``user_id``'s, running, and at ``step`` (``None``: any)."""
    if attempt is None:
        raise NoLessonRunning(user_id)
    if attempt.user_id != user_id:
        raise NotYourLesson(attempt_id, user_id)
    if not attempt.running or (step is not None and attempt.step != step):
        raise LessonMovedOn(attempt_id)  # over, left for another, or moved on
    return attempt
