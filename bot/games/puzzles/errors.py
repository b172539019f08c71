"""Refusals of a puzzle asked for, played or looked at (the pattern of every service error:
:mod:`bot.games.core.errors`)."""

from __future__ import annotations

from bot.games.core.errors import ServiceError


class PuzzleError(ServiceError):
    """An error about a player's puzzles."""


class NoPuzzleRunning(PuzzleError):
    """A move (or a look at the board) without a puzzle being tried."""

    key = "puzzle.none_running"
    template = "You are not trying a puzzle right now: /puzzle gives you one."

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(user_id=user_id)


class UnknownPuzzle(PuzzleError):
    key = "puzzle.unknown"
    template = "There is no puzzle “{puzzle_id}”: check its name, or let /puzzle choose one."

    def __init__(self, puzzle_id: str) -> None:
        self.puzzle_id = puzzle_id
        super().__init__(puzzle_id=puzzle_id)


class NotYourPuzzle(PuzzleError):
    """Someone acted on another player's try (a message shown only to them, in principle)."""

    key = "puzzle.not_yours"
    template = "This is someone else's puzzle: /puzzle gives you one of your own."

    def __init__(self, attempt_id: int, user_id: int) -> None:
        self.attempt_id = attempt_id
        self.user_id = user_id
        super().__init__(attempt_id=attempt_id, user_id=user_id)


class PuzzleMovedOn(PuzzleError):
    """A move chosen on a board the try has left (a tap on an older board, two taps at
    once): nothing is played."""

    key = "puzzle.moved_on"
    template = (
        "Your puzzle has moved on since this board was shown: play on its newest board "
        "(/puzzle shows it)."
    )

    def __init__(self, attempt_id: int) -> None:
        self.attempt_id = attempt_id
        super().__init__(attempt_id=attempt_id)


class PuzzleOver(PuzzleError):
    key = "puzzle.over"
    template = "This puzzle is over: /puzzle gives you a new one."

    def __init__(self, attempt_id: int) -> None:
        self.attempt_id = attempt_id
        super().__init__(attempt_id=attempt_id)


class NoPuzzleLeft(PuzzleError):
    """The player has solved every puzzle there is."""

    key = "puzzle.none_left"
    template = (
        "You have solved every puzzle the bot has (puzzles: {count}): well done! New ones "
        "come with the bot's updates."
    )

    def __init__(self, user_id: int, count: int) -> None:
        self.user_id = user_id
        self.count = count
        super().__init__(user_id=user_id, count=count)


class NoDailyPuzzle(PuzzleError):
    """A daily post's button for a day without a puzzle (never, unless the data is lost)."""

    key = "puzzle.no_daily"
    template = "There is no daily puzzle of {day}: /puzzle gives you another one."

    def __init__(self, day: str) -> None:
        self.day = day
        super().__init__(day=day)
