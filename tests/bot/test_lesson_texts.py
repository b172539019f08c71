"""Every text of the lessons, for every lesson, task, try and choice, rendered in every language:
each one exists, fills all its params, and names what the try did."""

from __future__ import annotations

import logging
import string
from collections.abc import Iterator

import pytest

import ai
import rules
from bot.exts.lessons import texts
from bot.games.lessons import book
from bot.games.lessons.book import GameTask, MoveTask, Question, Task
from bot.i18n import COLOUR_NAMES, ENGLISH, Catalogues, Text

CATALOGUES = Catalogues()
LANGUAGES = CATALOGUES.languages
TASKS = [task for _lesson, task in book.tasks()]
MOVE_TASKS = [task for task in TASKS if isinstance(task, MoveTask)]
QUESTIONS = [task for task in TASKS if isinstance(task, Question)]
GAMES = [task for task in TASKS if isinstance(task, GameTask)]


def ids(task: Task) -> str:
    return task.key


def msgids(text: Text) -> Iterator[str]:
    """The message ids of ``text`` and of the texts in its params."""
    yield text.msgid
    for value in text.params.values():
        if isinstance(value, Text):
            yield from msgids(value)


def rendered(text: Text, caplog: pytest.LogCaptureFixture) -> dict[str, str]:
    """``text`` in every language; fails if a translation is missing its params or broken."""
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        out = {language: CATALOGUES.render(text, language) for language in LANGUAGES}
    assert not caplog.records, [record.getMessage() for record in caplog.records]
    for language, words in out.items():
        fields = [name for _l, name, _s, _c in string.Formatter().parse(words) if name]
        assert not fields, f"{language}: unfilled {fields} in {words!r}"
        assert words.strip(), language
    return out


def test_the_texts_speak_every_language() -> None:
    assert set(LANGUAGES) == {"en", "fr", "ko", "pl", "ru"}


@pytest.mark.parametrize("lesson", book.LESSONS, ids=lambda lesson: lesson.key)
def test_every_lesson_has_a_title_and_an_introduction(
    lesson: book.Lesson, caplog: pytest.LogCaptureFixture
) -> None:
    rendered(texts.lesson_title(lesson.key), caplog)
    rendered(texts.lesson_intro(lesson.key), caplog)


@pytest.mark.parametrize("task", TASKS, ids=ids)
def test_every_prompt_says_which_colour_the_learner_plays(
    task: Task, caplog: pytest.LogCaptureFixture
) -> None:
    words = rendered(texts.task_prompt(task), caplog)
    colour = book.learner(task)
    assert str(colour) in words["en"]
    for language in LANGUAGES:
        assert CATALOGUES.render(COLOUR_NAMES[colour], language) in words[language]


@pytest.mark.parametrize("task", MOVE_TASKS, ids=ids)
def test_every_legal_try_is_answered_with_what_it_did(
    task: MoveTask, caplog: pytest.LogCaptureFixture
) -> None:
    for move in rules.legal_moves(task.position):
        verdict = book.judge(task, move)
        text = texts.right_text(task, verdict) if verdict.right else texts.miss_text(task, verdict)
        words = rendered(text, caplog)["en"]
        if isinstance(move, rules.Jump):
            target = rules.cell_name(move.target)
            assert str(move) in words or target in words, words
        if verdict.miss is not None:
            assert str(move) in words
        assert verdict.result is not None
        for cell in verdict.result.removed:
            assert rules.cell_name(cell) in words, f"{move} cut off {rules.cell_name(cell)}"


@pytest.mark.parametrize("task", MOVE_TASKS, ids=ids)
def test_every_refused_try_is_answered_with_the_rules_reason(
    task: MoveTask, caplog: pytest.LogCaptureFixture
) -> None:
    seen = set()
    attempts: list[str | rules.Move] = ["hello", "Z9", "pass"]
    for source, stack in enumerate(task.position.stacks):
        if stack:
            attempts += [rules.jump(source, t) for ray in rules.RAYS[source] for t in ray]
            attempts.append(rules.Place(source))
    for attempt in attempts:
        verdict = book.judge(task, attempt)
        if verdict.error is None:
            continue
        text = texts.error_text(task, verdict)
        assert verdict.error.reason.value in set(msgids(text))
        if verdict.error.reason not in seen:
            seen.add(verdict.error.reason)
            rendered(text, caplog)
    assert seen


@pytest.mark.parametrize("task", QUESTIONS, ids=ids)
def test_every_choice_and_answer_has_its_text(
    task: Question, caplog: pytest.LogCaptureFixture
) -> None:
    answer = book.answer_of(task)
    white, black = rules.score(task.position)
    for choice in task.choices:
        rendered(texts.choice_text(task, choice), caplog)
        if choice != answer:
            words = rendered(texts.question_wrong(task, choice), caplog)["en"]
            if task.ask is not book.Ask.OWNER:
                assert str(white) in words and str(black) in words
    words = rendered(texts.question_right(task), caplog)["en"]
    assert str(white) in words or task.ask is book.Ask.OWNER


@pytest.mark.parametrize("task", GAMES, ids=ids)
def test_the_game_ends_with_the_count(task: GameTask, caplog: pytest.LogCaptureFixture) -> None:
    for seed in range(4):
        position = task.position
        while not rules.is_over(position):
            move = ai.choose_move(position, level=ai.Level.BEGINNER, seed=seed)
            position = rules.play(position, move)
        over = rules.outcome(position)
        assert over is not None
        words = rendered(texts.game_over_text(task, position), caplog)["en"]
        assert f"White {over.white}, Black {over.black}" in words
    with pytest.raises(ValueError, match="not over"):
        texts.game_over_text(task, task.position)


def test_a_right_move_is_not_a_miss_nor_an_error() -> None:
    task = MOVE_TASKS[0]
    verdict = book.judge(task, book.solutions(task)[0])
    with pytest.raises(ValueError):
        texts.miss_text(task, verdict)
    with pytest.raises(ValueError):
        texts.error_text(task, verdict)
    assert ENGLISH.render(texts.right_text(task, verdict))
