"""Refusals of a lesson asked for, played or looked at (the pattern of every service error:
:mod:`bot.games.core.errors`)."""

from __future__ import annotations

from bot.games.core.errors import ServiceError


class LessonError(ServiceError):
    """An error about a player's lessons."""


class NoLessonRunning(LessonError):
    """A try (typed, or a button of a lesson since left) without a lesson being taken."""

    key = "lesson.none_running"
    template = "You are not taking a lesson right now: /learn shows you where you are."

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(user_id=user_id)


class UnknownLesson(LessonError):
    key = "lesson.unknown"
    template = "There is no lesson “{lesson}”: /learn lists them."

    def __init__(self, lesson: str) -> None:
        self.lesson = lesson
        super().__init__(lesson=lesson)


class NotYourLesson(LessonError):
    """Someone acted on another player's lesson (a message shown only to them, in principle)."""

    key = "lesson.not_yours"
    template = "This is someone else's lesson: /learn gives you lessons of your own."

    def __init__(self, attempt_id: int, user_id: int) -> None:
        self.attempt_id = attempt_id
        self.user_id = user_id
        super().__init__(attempt_id=attempt_id, user_id=user_id)


class LessonMovedOn(LessonError):
    """A button of a board the lesson has left (a tap on an older board, two taps at once):
    nothing is done."""

    key = "lesson.moved_on"
    template = (
        "Your lesson has moved on since this board was shown: go on from its newest board "
        "(/learn shows it)."
    )

    def __init__(self, attempt_id: int) -> None:
        self.attempt_id = attempt_id
        super().__init__(attempt_id=attempt_id)


class NotThisKindOfTask(LessonError):
    """A move for a question, an answer for a move task, a hint outside the game lesson."""

    key = "lesson.wrong_kind"
    template = "That is not what this step of the lesson asks: read its board again."

    def __init__(self, attempt_id: int) -> None:
        self.attempt_id = attempt_id
        super().__init__(attempt_id=attempt_id)


class UnknownChoice(LessonError):
    key = "lesson.unknown_choice"
    template = "“{choice}” is not one of this question's answers."

    def __init__(self, choice: str) -> None:
        self.choice = choice
        super().__init__(choice=choice)
