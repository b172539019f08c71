"""Players for matches: the levels, a uniformly random player and a greedy one-ply player."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from ai.choose import choose_move, move_rng
from ai.evaluation import white_to_act
from ai.levels import Level
from rules import Move, Position, legal_moves, play, score


class Player(Protocol):
    """Something that picks a legal move; ``budget`` is seconds per move (``None``: no clock)."""

    @property
    def name(self) -> str: ...

    def choose(self, pos: Position, *, budget: float | None, seed: int) -> Move: ...


@dataclass(frozen=True, slots=True)
class LevelPlayer:
    """A level of the computer opponent; ``budget`` overrides the match's budget if given."""

    level: Level
    budget: float | None = None

    @property
    def name(self) -> str:
        suffix = f"@{self.budget:g}s" if self.budget is not None else ""
        return f"level:{self.level.value}{suffix}"

    def choose(self, pos: Position, *, budget: float | None, seed: int) -> Move:
        own = self.budget if self.budget is not None else budget
        return choose_move(pos, level=self.level, budget=own, seed=seed)


@dataclass(frozen=True, slots=True)
class RandomPlayer:
    """Any legal move, uniformly at random."""

    @property
    def name(self) -> str:
        return "random"

    def choose(self, pos: Position, *, budget: float | None, seed: int) -> Move:
        return move_rng(seed, pos).choice(legal_moves(pos))


@dataclass(frozen=True, slots=True)
class GreedyPlayer:
    """The move that maximises the score difference right after it (ties at random).

    While placing, every placement adds one piece to the mover's score, so it places at random.
    """

    @property
    def name(self) -> str:
        return "greedy"

    def choose(self, pos: Position, *, budget: float | None, seed: int) -> Move:
        rng = move_rng(seed, pos)
        white = white_to_act(pos.ply)
        best: list[Move] = []
        best_value = -1_000
        for move in legal_moves(pos):
            w, b = score(play(pos, move))
            value = w - b if white else b - w
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return rng.choice(best)


def parse_player(text: str) -> Player:
    """``random``, ``greedy``, or a level (``strong``, ``level:strong``, ``strong@0.5`` for a
    budget of its own)."""
    name, _, budget_text = text.strip().lower().partition("@")
    if name == "random":
        return RandomPlayer()
    if name == "greedy":
        return GreedyPlayer()
    budget = float(budget_text.removesuffix("s")) if budget_text else None
    return LevelPlayer(Level.parse(name), budget)


def random_opening(plies: int, seed: int) -> Position:
    """The position after ``plies`` uniformly random placements (a match's shared opening)."""
    rng = random.Random(f"opening/{seed}")
    pos = Position()
    for _ in range(plies):
        pos = play(pos, rng.choice(legal_moves(pos)))
    return pos
