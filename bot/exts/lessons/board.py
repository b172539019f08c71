"""A lesson's private answer as a message: its lines (the task's prompt, or what a try did and
why), and the board (drawn off the event loop, in the reader's theme, with alt text).

The board shows the task's position; after a legal try, the position after it, the move drawn
and what it cut off marked; in the game lesson, the position after the computer's reply."""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import discord

import render
import rules
from bot.exts.lessons import texts
from bot.games.lessons import book
from bot.games.lessons.learning import LessonShown, LessonTried, game_position
from bot.i18n import Text, _, rules_error_text
from bot.interactions.replies import MAX_CONTENT
from bot.posting.descriptions import board_alt_text, board_summary
from bot.posting.publisher import BOARD_FILENAME, Reader
from bot.posting.renderer import Renderer
from bot.posting.texts import Players, image_labels
from rules import Cell, Move, Position, Stack

TYPED: Final = _("Tap below, or type /learn move: (the menu suggests moves).")


@dataclass(frozen=True, slots=True)
class Answer:
    """What a lesson's message shows: the lesson as it stands, and what just happened in it."""

    shown: LessonShown
    tried: LessonTried | None = None
    """The try just made (``None``: the lesson shown, begun or again)."""
    reply: Move | None = None
    """The computer's reply in the game lesson, played after the learner's move."""
    hint: Move | None = None
    """The engine's choice, asked for in the game lesson."""

    @property
    def wrong(self) -> bool:
        """A move task's or a question's try that was not right: Try again."""
        tried = self.tried
        return tried is not None and not tried.right and not isinstance(tried.task, book.GameTask)

    @property
    def waiting_for_next(self) -> bool:
        """A right try of a task (not the game's): its explanation, then Next."""
        tried = self.tried
        return tried is not None and tried.right and not isinstance(tried.task, book.GameTask)

    @property
    def on_task(self) -> bool:
        """The task is shown to be done (its picker or choices under the board)."""
        return not self.shown.over and not self.wrong and not self.waiting_for_next


def players(shown: LessonShown, reader: Reader) -> Players:
    """The cards' names: "You" for the learner's side, "Opponent" for the other."""
    you, other = reader(_("You")), reader(_("Opponent"))
    if shown.learner is rules.Colour.WHITE:
        return Players(white=you, black=other)
    return Players(white=other, black=you)


def drawn(answer: Answer) -> tuple[Position, Move | None, Mapping[Cell, Stack]]:
    """The position to draw, the move drawn on it, and what that move cut off."""
    tried, shown = answer.tried, answer.shown
    if tried is not None and not isinstance(tried.task, book.GameTask):
        verdict = tried.verdict
        if verdict is not None and verdict.result is not None:
            return verdict.result.after, verdict.result.move, verdict.result.removed
        return tried.before, None, {}
    task = shown.task
    if isinstance(task, book.GameTask) and shown.attempt.played:
        played = shown.attempt.played
        before = game_position(task, played[:-1])
        last = rules.apply(before, rules.parse_move(played[-1]))
        return last.after, last.move, last.removed
    return shown.position, None, {}


def task_line(shown: LessonShown) -> Text:
    """The lesson's title and the task the player is on."""
    count = len(shown.lesson.tasks)
    title = texts.lesson_title(shown.lesson.key)
    if shown.over:
        return _("🎓 {lesson} · done", lesson=title)
    return _(
        "🎓 {lesson} · task {number} of {count}",
        lesson=title,
        number=shown.attempt.task + 1,
        count=count,
    )


def tried_lines(answer: Answer) -> list[Text]:
    """What the try did, and why it is right or not."""
    tried = answer.tried
    if tried is None:
        return []
    task = tried.task
    if isinstance(task, book.Question):
        assert tried.choice is not None
        if tried.right:
            return [texts.question_right(task)]
        return [texts.question_wrong(task, tried.choice)]
    verdict = tried.verdict
    assert verdict is not None
    if verdict.error is not None:
        if isinstance(task, book.GameTask):
            return [rules_error_text(verdict.error)]  # in a game, the rules' own words
        return [texts.error_text(task, verdict)]
    if isinstance(task, book.GameTask):
        assert verdict.move is not None
        lines = [_("You played {move}.", move=str(verdict.move))]
        if answer.reply is not None:
            lines.append(_("The bot answered {move}.", move=str(answer.reply)))
        return lines
    if verdict.right:
        return [texts.right_text(task, verdict)]
    return [texts.miss_text(task, verdict)]


def lines(answer: Answer) -> list[Text]:
    shown = answer.shown
    out = [task_line(shown), *tried_lines(answer)]
    if answer.hint is not None:
        out.append(_("Hint: the bot would play {move}.", move=str(answer.hint)))
    task = shown.task
    if shown.over:
        if isinstance(task, book.GameTask):
            out.append(texts.game_over_text(task, shown.position))
        out.append(_("Lesson done: well done!"))
        following = shown.next_lesson
        if following is None:
            out.append(_("You have done every lesson. Replay any from the menu below."))
        else:
            out.append(_("Next: {lesson}.", lesson=texts.lesson_title(following.key)))
        return out
    if answer.wrong:
        out.append(_("Tap Try again to have another go."))
        return out
    if answer.waiting_for_next:
        out.append(_("Tap Next to go on."))
        return out
    first_look = answer.tried is None and answer.hint is None
    if first_look and shown.attempt.task == 0 and shown.attempt.step == 0:
        out.append(texts.lesson_intro(shown.lesson.key))
    if answer.tried is None or isinstance(task, book.GameTask):
        out.append(texts.task_prompt(task))
    if not isinstance(task, book.Question):
        out.append(TYPED)
    return out


def shows_score(answer: Answer) -> bool:
    """Whether the board may show the score: not while a question asks what the score would
    answer (who wins at the count, by how much), until it is answered right."""
    tried = answer.tried
    if tried is not None and tried.right:
        return True
    return book.shows_score(answer.shown.task if tried is None else tried.task)


async def message(renderer: Renderer, answer: Answer, reader: Reader) -> dict[str, Any]:
    """Keyword arguments for ``send``/``edit`` (``content`` and ``file``) that show ``answer``
    to its player; what can be tapped under it is the picker's to add. While the score would
    give a question's answer away, the board is drawn without the players' cards and status
    (which show the score and the winner), and its alt text says neither."""
    shown = answer.shown
    position, move, removed = drawn(answer)
    named = players(shown, reader)
    headline = texts.lesson_title(shown.lesson.key)
    details = task_line(shown)
    if shown.over:
        status = _("lesson done")
    else:
        status = _(
            "task {number} of {count}", number=shown.attempt.task + 1, count=len(shown.lesson.tasks)
        )
    score = shows_score(answer)
    png = await renderer.board_png(
        position,
        last_move=move,
        removed=removed,
        players=named.as_tuple(),
        labels=image_labels(reader.catalogues, reader.locale),
        status=render.Status(
            headline=reader(headline), details=reader(status), highlighted=shown.learner
        ),
        theme=reader.theme,
        header=score,
    )
    summary: tuple[Text, ...] = (details,)
    if score:
        summary += board_summary(position, named, last_move=move, removed=removed)
    content = "\n".join(reader(line) for line in lines(answer))
    return {
        "content": content[:MAX_CONTENT],
        "file": discord.File(
            io.BytesIO(png),
            filename=BOARD_FILENAME,
            description=board_alt_text(position, reader.plain, summary=summary),
        ),
    }
