"""Errors that players read.

Both error types are :class:`ValueError` subclasses and carry data: a ``reason`` (an enum whose
name is a stable message-catalogue key, e.g. ``"cell_occupied"``) and the ``params`` that fill its
message. ``str(error)`` is the English message; the bot looks the reason up in its catalogues to
answer in the player's language with the same params.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any


class InvalidReason(enum.Enum):
    """Why a text is not a well-formed move."""

    NOT_A_MOVE = (
        "“{text}” is not a move: write a cell such as E3 to place a piece, two cells such as "
        "E3F4 to move, or PASS."
    )
    UNKNOWN_CELL = (
        "“{text}” names no cell of the board: the cells are A1–I1, A2–J2, A3–K3, B4–K4 and C5–K5."
    )

    @property
    def key(self) -> str:
        """The message-catalogue key, e.g. ``"unknown_cell"``."""
        return self.name.lower()


class IllegalReason(enum.Enum):
    """Why a well-formed move is not legal in a position."""

    GAME_OVER = "The game is over: no more moves can be made."
    NOT_YOUR_TURN = "It is {turn}'s turn, not {colour}'s."
    PLACEMENT_OVER = (
        "All 49 pieces are on the board: now move a piece or stack, for example E3F4 "
        "(from E3 to F4)."
    )
    PLACEMENT_NOT_OVER = (
        "Pieces are still being placed: put a piece on an empty cell, for example E3. "
        "Moving starts once all 49 pieces are on the board."
    )
    CELL_OCCUPIED = "{cell} is already occupied: place your piece on an empty cell."
    SOURCE_EMPTY = "{source} is empty: there is nothing there to move."
    NOT_YOUR_STACK = (
        "The stack on {source} has a {owner} piece on top, so it is {owner}'s: "
        "you may move only stacks topped by a {colour} piece."
    )
    LONE_DVONN = "{source} holds a lone DVONN piece, and a lone DVONN piece never moves."
    SURROUNDED = (
        "The stack on {source} is surrounded on all six sides, so it cannot move until a "
        "neighbouring cell is freed."
    )
    SAME_CELL = "A move must go from one cell to another, not from {source} to {source}."
    NOT_IN_LINE = "{target} is not on one of the six straight lines through {source}."
    WRONG_DISTANCE = (
        "The stack on {source} is {height} high, so it moves exactly {height} cells in a straight "
        "line; {target} is {distance} away."
    )
    TARGET_EMPTY = (
        "{target} is empty: a move must land on a piece or stack (it may jump over empty cells)."
    )
    PASS_NOT_ALLOWED = "You may pass only when you have no legal move, and you have {count}."

    @property
    def key(self) -> str:
        """The message-catalogue key, e.g. ``"cell_occupied"``."""
        return self.name.lower()


class RulesError(ValueError):
    """Base of the errors a player can cause; ``str()`` is the English explanation."""

    reason: InvalidReason | IllegalReason
    params: Mapping[str, Any]

    def __init__(self, reason: InvalidReason | IllegalReason, **params: Any) -> None:
        self.reason = reason
        self.params = params
        super().__init__(reason.value.format(**{k: str(v) for k, v in params.items()}))

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({self.reason}{args})"


class InvalidMoveError(RulesError):
    """A text that is not a well-formed move (``Z9``, ``E3E``, ``hello``)."""

    reason: InvalidReason

    def __init__(self, reason: InvalidReason, **params: Any) -> None:
        super().__init__(reason, **params)


class IllegalMoveError(RulesError):
    """A well-formed move that is not legal in the position it was played in."""

    reason: IllegalReason

    def __init__(self, reason: IllegalReason, **params: Any) -> None:
        super().__init__(reason, **params)
