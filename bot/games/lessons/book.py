"""The lessons as data, and how a try at one of their tasks is judged: pure, by the rules.

A :class:`Lesson` is a few :class:`Task` s, each set in a position of the real board. A task is
one of three kinds:

* :class:`MoveTask`: play a move that meets its :class:`Goal` (any legal move, one of a few
  named moves, a move that cuts off some of the opponent's pieces and none of one's own, a
  pass, ...). :func:`judge` says whether a try (a typed text or a tapped move) is right, and
  why not: a text that is no move or an illegal move is explained by the rules' own error
  (:class:`rules.RulesError`: its reason and params), a legal move that misses the goal by the
  goal's :class:`Miss` (a stable key and the params that fill its text).
* :class:`Question`: choose one of a few answers (who wins at the count); the right one is
  worked out from the position by the rules (:func:`answer_of`), never written by hand.
* :class:`GameTask`: play the position out against the computer at the beginner level, with
  hints offered; done when the game is over.

Texts are not here: every lesson, task, goal and miss has a stable ``key``, and the Discord
layer names its text in the player's language (``bot/exts/lessons``). The tests check every
lesson against the rules: each task has a right answer, each legal move of a move task is
either right or a miss with its reason.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

import rules


class Aim(enum.Enum):
    """What a move task asks for; its :class:`Goal` gives the details."""

    ANY = "any"
    """Any legal move (learning how moves are made: placing, moving, jumping)."""
    ONE_OF = "one_of"
    """One of :attr:`Goal.moves` (the legal moves that show the point; other legal ones miss)."""
    CUT_OFF = "cut_off"
    """A move that removes at least :attr:`Goal.count` of the opponent's pieces and none of
    the mover's."""
    KEEP_LINKED = "keep_linked"
    """A move that removes none of the mover's pieces (when some moves would)."""
    PASS = "pass"
    """Pass: the mover has no legal move."""


@dataclass(frozen=True, slots=True)
class Goal:
    """What makes a legal move right (see :class:`Aim`)."""

    aim: Aim
    moves: frozenset[rules.Move] = frozenset()
    count: int = 1


@dataclass(frozen=True, slots=True)
class MoveTask:
    """Play a move in :attr:`position` (the colour to move is the learner's) that meets
    :attr:`goal`."""

    key: str
    position: rules.Position
    goal: Goal


@dataclass(frozen=True, slots=True)
class Question:
    """Choose one of :attr:`choices` (stable keys, e.g. ``"white"``, ``"black"``, ``"draw"``)
    about :attr:`position`; the right one is :func:`answer_of`'s."""

    key: str
    position: rules.Position
    choices: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameTask:
    """Play :attr:`position` out against the computer at :attr:`level`, as the colour to move;
    a hint (the engine's choice) is offered at every turn."""

    key: str
    position: rules.Position
    level: str = "beginner"


Task = MoveTask | Question | GameTask


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: its stable key (``"distance"``), and its tasks in order."""

    key: str
    tasks: tuple[Task, ...]


@dataclass(frozen=True, slots=True)
class Miss:
    """Why a legal move is not what the task asked: a stable key (``"cut_off.nothing"``) and
    the params that fill its text."""

    key: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class Verdict:
    """A try judged: :attr:`right`, or why not (:attr:`error`: the rules refuse the move;
    :attr:`miss`: legal, but not the task's aim). :attr:`result` is what a legal move did (the
    position after it and what it cut off), for the board drawn after the try."""

    move: rules.Move | None
    result: rules.MoveResult | None = None
    error: rules.RulesError | None = None
    miss: Miss | None = None

    @property
    def right(self) -> bool:
        return self.error is None and self.miss is None


def judge(task: MoveTask, attempt: str | rules.Move) -> Verdict:
    """A try at ``task``: typed (``"e3f4"``) or tapped (a :class:`rules.Move`)."""
    try:
        move = rules.parse_move(attempt) if isinstance(attempt, str) else attempt
    except rules.InvalidMoveError as error:
        return Verdict(None, error=error)
    try:
        result = rules.apply(task.position, move)
    except rules.IllegalMoveError as error:
        return Verdict(move, error=error)
    return Verdict(move, result, miss=_miss(task.goal, result))


def _miss(goal: Goal, result: rules.MoveResult) -> Miss | None:
    """Why a legal move misses ``goal``, or ``None`` if it meets it."""
    raise NotImplementedError  # the lessons' helper fills this in, goal by goal


def answer_of(question: Question) -> str:
    """The right choice of ``question``, from its position by the rules."""
    raise NotImplementedError  # the lessons' helper fills this in


LESSONS: Final[tuple[Lesson, ...]] = ()
"""Every lesson, in the order they are taught (the last, a game against the beginner)."""


def lesson(key: str) -> Lesson:
    """The lesson named ``key``; :class:`KeyError` if there is none."""
    for each in LESSONS:
        if each.key == key:
            return each
    raise KeyError(key)
