"""DVONN puzzles with proven answers: positions where exactly one move wins.

>>> from ai import puzzles
>>> puzzle = puzzles.by_id("p0001")
>>> puzzle.accepts(0, puzzle.expects(0)), len(puzzle.line) % 2
(True, 1)

A puzzle is a position from a real game and a *line*: the solver's move, the opponent's reply,
the solver's next move, ..., ending with a move of the solver's. Everything in it is proven by
the exact solver: at each of the solver's steps the line's move is the *only* winning move, so
:meth:`Puzzle.accepts` accepts exactly that move; at each of the opponent's steps the reply is
the only legal move or one of the best (``PASS`` when the opponent has no move); and
:attr:`Puzzle.margin` is the win, in pieces, with best play on both sides.

The set ships as ``ai/puzzles.txt`` (one line a puzzle, tab-separated, see :func:`parse_line`),
read once by :func:`load`: this module is all the bot needs of it. The generator and the prover
that made it, and that prove it again, are the developer's (``python -m tools.puzzles``, see
:mod:`tools.puzzles`), never run by the bot.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from rules import Colour, Move, Position, parse_move, play

DATA: Final = Path(__file__).with_name("puzzles.txt")
"""The shipped puzzles (packaged by pyproject's ``"*" = ["*.txt", ...]`` package data)."""
MIN_RATING, MAX_RATING = 600, 2600
"""The range of a puzzle's rating (:attr:`Puzzle.rating`)."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle: the position, the proven line, and how hard it is.

    ``line[0]``, ``line[2]``, ... are the solver's moves, ``line[1]``, ``line[3]``, ... the
    opponent's replies (``PASS`` when the opponent has no move); it ends with a solver's move.
    Steps are indices into ``line``.
    """

    id: str
    position: Position
    """Where the solver starts; the side to act is the solver."""
    line: tuple[Move, ...]
    rating: int
    """Difficulty on a Glicko-like scale (600..2600), from :func:`tools.puzzles.rating_of`."""
    margin: int
    """By how many pieces the solver wins with best play on both sides."""
    search_depth: int = 1
    """The shallowest search depth (plies) from which the engine's search finds every solver's
    move of the line; ``tools.puzzles.MAX_SEARCH_DEPTH + 1`` if none did."""
    effort: int = 0
    """Thousands of nodes the exact solver took to prove the first step (every legal move)."""
    source: str = ""
    """Where the position came from: a match, the oracle's games, self-play."""

    def solver(self) -> Colour:
        """The colour the player solving the puzzle plays."""
        return self.position.turn

    @property
    def solver_moves(self) -> int:
        """How many moves the solver must find."""
        return (len(self.line) + 1) // 2

    def expects(self, step: int) -> Move:
        """The move at ``line[step]`` (the solver's at even steps, the reply at odd ones)."""
        return self.line[step]

    def accepts(self, step: int, move: Move) -> bool:
        """Whether ``move`` is right at the solver's step ``step`` (an even index of the line).

        Exactly the line's move: at every solver's step it is proven the only move that wins
        (every other one draws or loses), so accepting only ``line[step]`` is exact, not strict.
        """
        if step % 2 or not 0 <= step < len(self.line):
            raise ValueError(
                f"step {step} is not one of the solver's steps (0, 2, ... < {len(self.line)})"
            )
        return move == self.line[step]

    def position_at(self, step: int) -> Position:
        """The position before ``line[step]`` (``len(line)``: after the last move)."""
        pos = self.position
        for move in self.line[:step]:
            pos = play(pos, move)
        return pos


# --- the data file ---------------------------------------------------------------------------


def parse_line(text: str) -> Puzzle:
    """Read one line of the data file (:func:`format_line`); ``ValueError`` if it is not one."""
    fields = text.rstrip("\n").split("\t")
    if len(fields) != 8:
        raise ValueError(f"a puzzle line has 8 tab-separated fields, not {len(fields)}: {text!r}")
    pid, position, line, rating, margin, depth, effort, source = fields
    return Puzzle(
        id=pid,
        position=Position.from_text(position),
        line=tuple(parse_move(token) for token in line.split()),
        rating=int(rating),
        margin=int(margin),
        search_depth=int(depth),
        effort=int(effort),
        source=source,
    )


def read(path: Path) -> tuple[Puzzle, ...]:
    """Every puzzle in a data file, in its order."""
    with path.open(encoding="utf-8") as lines:
        return tuple(
            parse_line(line) for line in lines if line.strip() and not line.startswith("#")
        )


@functools.cache
def load() -> tuple[Puzzle, ...]:
    """Every shipped puzzle, read once per process."""
    return read(DATA)


@functools.cache
def _by_id() -> dict[str, Puzzle]:
    return {puzzle.id: puzzle for puzzle in load()}


def by_id(puzzle_id: str) -> Puzzle:
    """The shipped puzzle ``puzzle_id``; ``KeyError`` if there is none."""
    return _by_id()[puzzle_id]
