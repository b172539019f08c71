"""The lessons in the service, on each backend: a lesson begun, tried (right, a miss, an illegal
move, a text that is no move), answered, finished and replayed; the game lesson played to its
end with the computer's replies and a hint counted; a stale step and another player's lesson
refused; one lesson running at a time; the offer made once, to a newcomer only, also when two
processes ask at once; progress kept across a restart.

The lessons here are a small book of the test's own (the shipped ones are tested by the book's
own tests): what is tested is the keeping of a player's place, whatever the lessons say."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

import rules
from bot.games.lessons import book
from bot.games.lessons.errors import (
    LessonMovedOn,
    NoLessonRunning,
    NotThisKindOfTask,
    NotYourLesson,
    UnknownChoice,
    UnknownLesson,
)
from bot.games.service import GameService
from bot.storage import LessonState, Store, open_database
from tests.bot.clock import ManualClock
from tests.bot.games.test_service import play_moves, start_game

ALICE, BOB = 11, 22


def _endgame() -> rules.Position:
    """A position a few moves before the end of a game of random moves (the same every run)."""
    rng = random.Random(42)
    positions = [rules.new_game()]
    while not rules.is_over(positions[-1]):
        moves = rules.legal_moves(positions[-1])
        positions.append(rules.play(positions[-1], rng.choice(moves)))
    return next(p for p in reversed(positions[:-6]) if rules.legal_moves(p) != (rules.PASS,))


START = rules.new_game()
FIRST_DVONN = rules.Place(rules.E3)
PLACED = rules.play(START, FIRST_DVONN)
ENDGAME = _endgame()
LESSONS = (
    book.Lesson(
        "first",
        (
            book.MoveTask("place", START, book.Goal(book.Aim.ONE_OF, frozenset({FIRST_DVONN}))),
            book.Question("who", PLACED, ("white", "black")),
        ),
    ),
    book.Lesson("game", (book.GameTask("play", ENDGAME),)),
)


def answer(question: book.Question) -> str:
    """The test's questions ask who is to move."""
    return "white" if question.position.turn is rules.Colour.WHITE else "black"


@pytest.fixture(autouse=True)
def test_book(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(book, "LESSONS", LESSONS)
    monkeypatch.setattr(book, "answer_of", answer)

    def miss(goal: book.Goal, result: rules.MoveResult) -> book.Miss | None:
        return None if result.move in goal.moves else book.Miss("one_of.other")

    monkeypatch.setattr(book, "_miss", miss)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


async def open_service(database_target: str, clock: ManualClock) -> GameService:
    return GameService(Store(await open_database(database_target)), clock=clock)


@pytest.fixture
async def service(database_target: str, clock: ManualClock) -> AsyncIterator[GameService]:
    service = await open_service(database_target, clock)
    yield service
    await service.close()


async def test_a_lesson_taken_to_its_end_with_right_and_wrong_tries(service: GameService) -> None:
    lessons = service.lessons
    shown = await lessons.start(ALICE, "first")
    assert (shown.attempt.task, shown.attempt.step, shown.resumed) == (0, 0, False)
    assert (await lessons.start(ALICE, "first")).resumed  # asked again: the same, shown again

    typo = await lessons.try_move(ALICE, "E9")  # typed, no move: the rules' error, no change
    assert isinstance(typo.verdict.error, rules.InvalidMoveError) if typo.verdict else False
    assert not typo.right and typo.shown.attempt.task == 0 and typo.shown.attempt.step == 1

    at = typo.shown.attempt
    miss = await lessons.try_move(ALICE, rules.Place(rules.A1), attempt_id=at.id, step=at.step)
    assert miss.verdict is not None and miss.verdict.miss == book.Miss("one_of.other")
    assert miss.verdict.result is not None  # legal: what it did, for the board after it
    assert miss.shown.attempt.task == 0

    with pytest.raises(LessonMovedOn):  # the board before the miss: stale
        await lessons.try_move(ALICE, FIRST_DVONN, attempt_id=at.id, step=at.step)
    with pytest.raises(NotThisKindOfTask):
        await lessons.answer(ALICE, "white", attempt_id=at.id, step=miss.shown.attempt.step)

    right = await lessons.try_move(ALICE, "e3")
    assert right.right and right.shown.attempt.task == 1 and not right.finished
    question = right.shown.attempt
    with pytest.raises(NotThisKindOfTask):
        await lessons.try_move(ALICE, "A1", attempt_id=question.id, step=question.step)
    with pytest.raises(UnknownChoice):
        await lessons.answer(ALICE, "draw", attempt_id=question.id, step=question.step)
    wrong = await lessons.answer(ALICE, "white", attempt_id=question.id, step=question.step)
    assert not wrong.right and not wrong.finished
    done = await lessons.answer(
        ALICE, "black", attempt_id=question.id, step=wrong.shown.attempt.step
    )
    assert done.right and done.finished
    assert done.shown.attempt.state is LessonState.DONE
    assert done.shown.done == {"first"} and done.shown.next_lesson == LESSONS[1]

    progress = await lessons.progress(ALICE)
    assert progress.running is None and progress.done == {"first"}
    assert progress.next_lesson == LESSONS[1]
    with pytest.raises(NoLessonRunning):
        await lessons.try_move(ALICE, "E3")


async def test_a_replay_is_a_new_try_and_counts_again(service: GameService) -> None:
    lessons = service.lessons
    for _ in range(2):
        shown = await lessons.start(ALICE, "first")
        assert not shown.resumed
        moved = await lessons.try_move(ALICE, FIRST_DVONN)
        at = moved.shown.attempt
        assert (await lessons.answer(ALICE, "black", attempt_id=at.id, step=at.step)).finished
    row = await service.store.db.fetch_one(
        "SELECT times FROM lessons_done WHERE user_id = ? AND lesson_key = ?", (ALICE, "first")
    )
    assert row is not None and row[0] == 2


async def test_a_lesson_begun_leaves_the_running_one(service: GameService) -> None:
    lessons = service.lessons
    first = await lessons.start(ALICE, "first")
    game = await lessons.start(ALICE, "game")
    assert (await lessons.current(ALICE)).attempt.id == game.attempt.id
    left = await service.store.lesson_attempt(first.attempt.id)
    assert left is not None and left.state is LessonState.LEFT
    with pytest.raises(LessonMovedOn):  # its old board's buttons
        await lessons.shown(ALICE, first.attempt.id, first.attempt.step)
    with pytest.raises(UnknownLesson):
        await lessons.start(ALICE, "no-such-lesson")


async def test_another_players_lesson_is_refused(service: GameService) -> None:
    shown = await service.lessons.start(ALICE, "first")
    at = shown.attempt
    with pytest.raises(NotYourLesson):
        await service.lessons.try_move(BOB, FIRST_DVONN, attempt_id=at.id, step=at.step)
    with pytest.raises(NotYourLesson):
        await service.lessons.shown(BOB, at.id, at.step)
    with pytest.raises(NotYourLesson):
        await service.lessons.looked_at(BOB, at.id)
    assert (await service.lessons.current(ALICE)).attempt == at  # nothing changed


async def test_the_game_lesson_is_played_to_its_end(service: GameService) -> None:
    lessons = service.lessons
    shown = await lessons.start(ALICE, "game")
    learner = shown.learner
    illegal = await lessons.try_move(ALICE, "A1")  # placing, in a game of moves
    assert isinstance(illegal.verdict.error, rules.IllegalMoveError) if illegal.verdict else False
    shown = illegal.shown
    hinted = await lessons.hint_asked(ALICE, shown.attempt.id, shown.attempt.step)
    assert hinted.attempt.hints == 1 and hinted.attempt.step == shown.attempt.step
    shown = hinted
    replies = 0
    while not shown.over:
        at = shown.attempt
        move = rules.legal_moves(shown.position)[0]
        if shown.computer_to_move:
            assert shown.position.turn is not learner
            with pytest.raises(NotThisKindOfTask):  # not the learner's turn
                await lessons.try_move(ALICE, move, attempt_id=at.id, step=at.step)
            shown = await lessons.reply(ALICE, at.id, at.step, move)
            replies += 1
        else:
            with pytest.raises(NotThisKindOfTask):  # not the computer's turn
                await lessons.reply(ALICE, at.id, at.step, move)
            tried = await lessons.try_move(ALICE, move, attempt_id=at.id, step=at.step)
            assert tried.right
            shown = tried.shown
    assert replies >= 1 and rules.is_over(shown.position)
    assert shown.done == {"game"}
    assert shown.attempt.played and shown.attempt.hints == 1
    stored = await service.store.lesson_attempt(shown.attempt.id)
    assert stored == shown.attempt


async def test_progress_survives_a_restart(database_target: str, clock: ManualClock) -> None:
    service = await open_service(database_target, clock)
    await service.lessons.start(ALICE, "game")
    shown = await service.lessons.start(ALICE, "first")
    moved = await service.lessons.try_move(ALICE, FIRST_DVONN)
    await service.close()
    again = await open_service(database_target, clock)
    try:
        current = await again.lessons.current(ALICE)
        assert current.attempt == moved.shown.attempt and current.attempt.task == 1
        assert current.lesson.key == shown.lesson.key
    finally:
        await again.close()


async def test_the_offer_is_made_once_and_only_to_a_newcomer(
    service: GameService, database_target: str, clock: ManualClock
) -> None:
    lessons = service.lessons
    assert await lessons.offer(ALICE)  # her first challenge
    assert not await lessons.offer(ALICE)  # her second, or her first game
    game = await start_game(service, BOB, 33)
    assert not await lessons.offer(BOB)  # he has played before (a game begun is one)
    assert await lessons.offer(33, game.id)  # ...but for Carol it is the game just begun
    game = await play_moves(service, game, ["E3"])
    await lessons.start(44, "first")
    assert not await lessons.offer(44)  # took a lesson already

    # Two processes, the same newcomer, at once: one offer.
    other = await open_service(database_target, clock)
    try:
        offers = await asyncio.gather(lessons.offer(55), other.lessons.offer(55))
    finally:
        await other.close()
    assert sorted(offers) == [False, True]
    assert await service.store.lesson_offered(55)
    assert not await service.store.lesson_offered(BOB)


async def test_two_taps_at_once_in_two_processes_count_once(
    service: GameService, database_target: str, clock: ManualClock
) -> None:
    shown = await service.lessons.start(ALICE, "first")
    at = shown.attempt
    other = await open_service(database_target, clock)
    try:
        outcomes = await asyncio.gather(
            service.lessons.try_move(ALICE, FIRST_DVONN, attempt_id=at.id, step=at.step),
            other.lessons.try_move(ALICE, FIRST_DVONN, attempt_id=at.id, step=at.step),
            return_exceptions=True,
        )
    finally:
        await other.close()
    assert sorted(type(o).__name__ for o in outcomes) == ["LessonMovedOn", "LessonTried"]
    current = await service.lessons.current(ALICE)
    assert (current.attempt.task, current.attempt.step) == (1, 1)


async def test_a_lesson_is_saved_only_from_the_step_it_was_read_at(service: GameService) -> None:
    shown = await service.lessons.start(ALICE, "first")
    at = shown.attempt
    moved = dataclasses.replace(at, step=at.step + 1, task=1)
    async with service.store.write() as tx:
        assert not await tx.save_attempt(moved, at.step + 5, clock_now())
        assert await tx.save_attempt(moved, at.step, clock_now())
        assert not await tx.save_attempt(moved, at.step, clock_now())  # moved on already
    assert await service.store.lesson_attempt(at.id) == dataclasses.replace(
        moved, updated_at=clock_now()
    )


def clock_now() -> datetime:
    return datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def test_a_lesson_taken_out_of_the_book_is_left_behind(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    await service.lessons.start(ALICE, "game")
    monkeypatch.setattr(book, "LESSONS", LESSONS[:1])  # an update took the game lesson out
    progress = await service.lessons.progress(ALICE)
    assert progress.running is None and progress.next_lesson == LESSONS[0]
    shown = await service.lessons.start(ALICE, "first")
    assert (await service.lessons.current(ALICE)).attempt == shown.attempt
