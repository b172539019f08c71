"""The lessons as data, and how a try at one of their tasks is judged: pure, by the rules.

A :class:`Lesson` is a few :class:`Task` s, each set in a position of the real board. A task is
one of three kinds:

* :class:`MoveTask`: play a move that meets its :class:`Goal` (any legal move, one of a few
  named moves, a move that cuts off some of the opponent's pieces and none of one's own, a
  pass, ...). :func:`judge` says whether a try (a typed text or a tapped move) is right, and
  why not: a text that is no move or an illegal move is explained by the rules' own error
  (:class:`rules.RulesError`: its reason and params), a legal move that misses the goal by the
  goal's :class:`Miss` (a stable key and the params that fill its text).
* :class:`Question`: choose one of a few answers (:class:`Ask`: who wins at the count, by how
  much, who controls a stack); the right one is worked out from the position by the rules
  (:func:`answer_of`), never written by hand. While one asks for the count, the board drawn for
  it hides the score (:func:`shows_score`).
* :class:`GameTask`: play the position out against the computer at the beginner level, with
  hints offered; done when the game is over.

Texts are not here: every lesson, task, goal and miss has a stable ``key``, and the Discord
layer names its text in the player's language (``bot/exts/lessons``). The tests check every
lesson against the rules: each task has a right answer, each legal move of a move task is
either right or a miss with its reason.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
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


class Ask(enum.Enum):
    """What a :class:`Question` asks about its position (its choices' keys in brackets)."""

    WINNER = "winner"
    """Who wins at the count (``"white"``, ``"black"``, ``"draw"``)."""
    MARGIN = "margin"
    """By how many pieces the winner wins (numbers, ``"3"``)."""
    OWNER = "owner"
    """Who controls the stack on :attr:`Question.cell` (``"white"``, ``"black"``)."""


@dataclass(frozen=True, slots=True)
class Question:
    """Choose one of :attr:`choices` (stable keys, e.g. ``"white"``, ``"black"``, ``"draw"``)
    about :attr:`position`; the right one is :func:`answer_of`'s."""

    key: str
    position: rules.Position
    choices: tuple[str, ...]
    ask: Ask = Ask.WINNER
    cell: rules.Cell | None = None
    """The stack asked about (:attr:`Ask.OWNER`)."""


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
    if goal.aim is Aim.ANY:
        return None
    if goal.aim is Aim.PASS:
        # A pass task's position has no legal move but PASS (the tests check every one), so the
        # only legal try is the pass itself.
        return None
    if goal.aim is Aim.ONE_OF:
        return None if result.move in goal.moves else _other_move(goal, result.move)
    removal = Removal.of(result)
    own = {
        "count": removal.mine,
        "cells": removal.mine_cells,
        "theirs": removal.theirs,
        "their_cells": removal.their_cells,
    }
    if goal.aim is Aim.KEEP_LINKED:
        return _miss_of("keep_linked.cut_own", **own) if removal.mine else None
    # Aim.CUT_OFF
    if removal.mine:
        return _miss_of("cut_off.own", **own)
    if not removal.theirs:
        return _miss_of("cut_off.nothing", count=goal.count)
    if removal.theirs < goal.count:
        return _miss_of(
            "cut_off.too_few",
            count=goal.count,
            removed=removal.theirs,
            cells=removal.their_cells,
        )
    return None


def _miss_of(key: str, **params: Any) -> Miss:
    return Miss(key, MappingProxyType(params))


def _other_move(goal: Goal, move: rules.Move) -> Miss:
    """A :attr:`Aim.ONE_OF` miss: what the move did instead of one of the goal's moves."""
    if isinstance(move, rules.Jump):
        source, target = rules.cell_name(move.source), rules.cell_name(move.target)
        targets = _names(
            m.target for m in goal.moves if isinstance(m, rules.Jump) and m.source == move.source
        )
        if targets:
            return _miss_of("one_of.other_target", source=source, target=target, targets=targets)
        sources = _names({m.source for m in goal.moves if isinstance(m, rules.Jump)})
        return _miss_of("one_of.other_stack", source=source, target=target, sources=sources)
    if isinstance(move, rules.Place):
        cells = _names(m.cell for m in goal.moves if isinstance(m, rules.Place))
        return _miss_of("one_of.other_cell", cell=rules.cell_name(move.cell), cells=cells)
    return _miss_of("one_of.passed")


def _names(cells: Iterable[rules.Cell]) -> tuple[str, ...]:
    return tuple(rules.cell_name(cell) for cell in sorted(set(cells)))


@dataclass(frozen=True, slots=True)
class Removal:
    """What a move cut off, by side: the pieces in the removed stacks each side controlled (as
    they would have counted at the end), and where they stood."""

    mine: int
    theirs: int
    mine_cells: tuple[str, ...]
    their_cells: tuple[str, ...]

    @classmethod
    def of(cls, result: rules.MoveResult) -> Removal:
        mover = result.mover.value
        mine = {cell: stack for cell, stack in result.removed.items() if stack[-1] == mover}
        theirs = {cell: stack for cell, stack in result.removed.items() if stack[-1] != mover}
        return cls(
            mine=sum(map(len, mine.values())),
            theirs=sum(map(len, theirs.values())),
            mine_cells=_names(mine),
            their_cells=_names(theirs),
        )


def solutions(task: MoveTask) -> tuple[rules.Move, ...]:
    """The legal moves of ``task`` that meet its goal (what a hint may point to)."""
    return tuple(
        move
        for move in rules.legal_moves(task.position)
        if _miss(task.goal, rules.apply(task.position, move)) is None
    )


def learner(task: Task) -> rules.Colour:
    """The colour the learner plays in ``task``: always the colour to move."""
    return task.position.turn


def shows_score(task: Task) -> bool:
    """Whether the board drawn for ``task`` may show the score (the players' cards): not while
    a question asks who wins at the count or by how much, which the score would answer."""
    return not (isinstance(task, Question) and task.ask in {Ask.WINNER, Ask.MARGIN})


def answer_of(question: Question) -> str:
    """The right choice of ``question``, from its position by the rules."""
    position = question.position
    if question.ask is Ask.OWNER:
        if question.cell is None:
            raise ValueError(f"{question.key} asks who controls a stack but names no cell")
        owner = position.owner(question.cell)
        return "nobody" if owner is None else owner.name.lower()
    white, black = rules.score(position)
    if question.ask is Ask.MARGIN:
        return str(abs(white - black))
    if white == black:
        return "draw"
    return "white" if white > black else "black"


# --- the lessons ---------------------------------------------------------------------------------
# Positions are written cell by cell (``"E3=BW"``: the stack on E3, bottom to top) with the ply,
# which says whose turn it is: in the moves, White at an odd ply from 49 on, Black at an even one.
# Every stack of a movement position is linked to a DVONN piece, so that whatever a try cuts off,
# the try did it. Placement positions are played, placement by placement, from the empty board.

WHITE_MOVES: Final = 71
"""A ply of the moves at which White is to move (some moves into the game)."""
BLACK_MOVES: Final = 72


def _board(ply: int, layout: str) -> rules.Position:
    """The position at ``ply`` with the stacks of ``layout`` (``"E3=BW F3=D"``), others empty."""
    stacks = [""] * rules.CELL_COUNT
    for item in layout.split():
        name, stack = item.split("=")
        cell = rules.lookup_cell(name)
        if cell is None or stacks[cell]:
            raise ValueError(f"a layout names each cell of the board once: {item!r}")
        stacks[cell] = stack
    return rules.Position(stacks, ply)


def _placed(cells: str) -> rules.Position:
    """The position after placing on ``cells`` in turn from the empty board (DVONN pieces
    first)."""
    position = rules.new_game()
    for name in cells.split():
        position = rules.play(position, rules.parse_move(name))
    return position


def _moves(*texts: str) -> frozenset[rules.Move]:
    return frozenset(rules.parse_move(text) for text in texts)


def _any() -> Goal:
    return Goal(Aim.ANY)


def _one_of(*texts: str) -> Goal:
    return Goal(Aim.ONE_OF, _moves(*texts))


_DISTANCE_ONE = _board(WHITE_MOVES, "C3=D E3=D G3=D D2=B D3=W F3=B E4=W F4=B")
_DISTANCE_TWO = _board(WHITE_MOVES, "C2=D E4=D G4=D C3=B D3=BW F3=B D4=B F4=W")
_LANDING = _board(WHITE_MOVES, "C2=D E3=D G3=D D2=B E2=BWW G2=B E4=B F4=W E5=B")
_SURROUNDED = _board(BLACK_MOVES, "C2=D D3=D B4=D A2=W B2=W A3=WB B3=W C3=WB C4=W D4=B C5=W")

_CONTROL = _board(WHITE_MOVES, "D2=D E4=D G4=D D3=B E3=WWB F3=W G3=BW H4=B")
_CUT_OFF = _board(BLACK_MOVES, "C2=D D3=D D4=D E3=B F3=W G3=W B4=W C4=B E4=B")
_KEEP_LINKED = _board(WHITE_MOVES, "C1=D E1=D D3=D C2=W D2=BB E3=W F3=W G3=WW")
_DVONN = _board(BLACK_MOVES, "C2=D D3=D C3=B F3=DB G3=W H3=W G4=W")
_PASS = _board(WHITE_MOVES, "A2=D D3=D E4=D B2=B A3=BW E3=BBW F4=B")
_PASS_NOT = _board(WHITE_MOVES, "A2=D D3=D E4=D B2=B A3=BW B3=B E3=BBW F4=B")
_COUNT = _board(BLACK_MOVES, "C3=D E3=D F3=D E2=BW D3=WWWWB F4=BW")
_GAME = rules.Position.from_text(
    "67 W,.,.,.,B,.,.,.,./B,BW,WB,.,B,B,BW,.,.,./W,D,B,WB,.,W,WWB,D,.,.,./.,WBBBW,D,BW,.,W,WWB,.,"
    ".,./.,BW,.,.,WB,B,B,.,."
)
"""Some moves from the end of a game between two computers at the easy level: White to move,
with about as many pieces as Black; two beginners win it about as often each."""

LESSONS: Final[tuple[Lesson, ...]] = (
    Lesson(
        "placing",
        (
            MoveTask("placing.dvonn", _placed("D3 H3"), _any()),
            MoveTask("placing.colours", _placed("D3 H3 F3 E2"), _any()),
            MoveTask(
                "placing.last",
                _placed(
                    "D3 H3 F3 J2 C3 C5 B2 G3 A2 C4 H4 D2 D1 I4 E1 K5 I3 C2 G4 K3 E5 F5 D4 E2 J3 "
                    "B3 E3 F4 H5 A1 A3 H2 J5 D5 K4 I5 C1 B4 F1 J4 G1 I1 F2 G2 I2 B1 H1 G5"
                ),
                _any(),
            ),
        ),
    ),
    Lesson(
        "distance",
        (
            MoveTask("distance.one", _DISTANCE_ONE, _any()),
            MoveTask("distance.two", _DISTANCE_TWO, _one_of("D3F3")),
        ),
    ),
    Lesson("landing", (MoveTask("landing.three", _LANDING, _one_of("E2E5")),)),
    Lesson(
        "surrounded",
        (
            MoveTask("surrounded.free", _SURROUNDED, _one_of("D4C4", "D4D3", "D4C3")),
            MoveTask("surrounded.edge", _SURROUNDED, _one_of("A3C3", "A3C5")),
        ),
    ),
    Lesson(
        "control",
        (
            Question("control.owner", _CONTROL, ("white", "black"), Ask.OWNER, rules.E3),
            MoveTask("control.capture", _CONTROL, _one_of("F3E3", "G3E3")),
        ),
    ),
    Lesson("cut_off", (MoveTask("cut_off.bridge", _CUT_OFF, Goal(Aim.CUT_OFF, count=2)),)),
    Lesson("keep_linked", (MoveTask("keep_linked.bridge", _KEEP_LINKED, Goal(Aim.KEEP_LINKED)),)),
    Lesson("dvonn", (MoveTask("dvonn.carry", _DVONN, Goal(Aim.CUT_OFF, count=3)),)),
    Lesson(
        "pass",
        (
            MoveTask("pass.must", _PASS, Goal(Aim.PASS)),
            MoveTask("pass.not_allowed", _PASS_NOT, _any()),
        ),
    ),
    Lesson(
        "count",
        (
            Question("count.winner", _COUNT, ("white", "black", "draw")),
            Question("count.margin", _COUNT, ("1", "3", "5"), Ask.MARGIN),
        ),
    ),
    Lesson("game", (GameTask("game.end", _GAME),)),
)
"""Every lesson, in the order they are taught (the last, a game against the beginner)."""


def lesson(key: str) -> Lesson:
    """The lesson named ``key``; :class:`KeyError` if there is none."""
    for each in LESSONS:
        if each.key == key:
            return each
    raise KeyError(key)


def tasks() -> Iterator[tuple[Lesson, Task]]:
    """Every task of every lesson, in order, with its lesson."""
    for each in LESSONS:
        for task in each.tasks:
            yield each, task
