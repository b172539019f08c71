"""Alpha-beta search: iterative deepening, a transposition table, move ordering, a clock.

The search works on :class:`rules.Position` objects through :func:`rules.legal_moves` and
:func:`rules.play`, so every move it returns is legal by construction; it only reads a
position's bit masks for the evaluation and the move ordering.

The clock is checked at every node: when the deadline (or the node limit) is reached the search
unwinds with :class:`SearchTimeout` and the caller keeps the best move of the last completed
iteration, or of the interrupted one if its first, principal move was already searched.

A subtree whose leaves were all finished games has an exact value; such values are stored with
:data:`EXACT_DEPTH` and reused at any depth, so near the end of a game the search solves it and
stops deepening.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ai.evaluation import (
    DEFAULT_MOVEMENT,
    DEFAULT_PLACEMENT,
    INFINITY,
    MovementWeights,
    PlacementWeights,
    evaluate_movement,
    evaluate_placement,
    final_value,
    movement_value,
    piece_table,
    white_to_act,
)
from rules import PASS, Jump, Move, Place, Position, legal_moves, play
from rules.board import BIT
from rules.position import PLACEMENT_PLIES

EXACT_DEPTH: Final = 1_000
"""The stored depth of a value that no deeper search can change (all its leaves were final)."""

_EXACT, _LOWER, _UPPER = 0, 1, 2
_CAPTURE: Final = 1 << 30
_ONTO_DVONN: Final = 1 << 29
# Entries (several hundred bytes each). A 2 s search stores about 80,000; a much longer one
# starts afresh rather than take a worker's memory.
_TT_LIMIT: Final = 400_000
_CELLS: Final = 49  # the history table is indexed by source * 49 + target

TTEntry = tuple[int, int, int, Move | None]
"""(depth, value, bound kind, best move)."""


class SearchTimeout(Exception):
    """Raised inside the search when its deadline or node limit is reached."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the move, its value for the mover, and how hard it looked."""

    move: Move
    value: int
    depth: int
    nodes: int
    exact: bool
    elapsed: float


def position_key(pos: Position) -> tuple[tuple[str, ...], int]:
    """A transposition-table key: the stacks and who is to act in which phase."""
    ply = pos.ply
    if ply < PLACEMENT_PLIES:
        return pos.stacks, 2 + (ply & 1)
    return pos.stacks, (ply - PLACEMENT_PLIES) & 1


class Searcher:
    """One search tree's state: the clock, the node count, the table and the history scores.

    ``deadline`` is a :func:`time.perf_counter` value or ``None``; ``max_nodes`` bounds the work
    whatever the clock says (and alone makes a search deterministic).
    """

    def __init__(
        self,
        *,
        deadline: float | None = None,
        max_nodes: int | None = None,
        movement: MovementWeights = DEFAULT_MOVEMENT,
        placement: PlacementWeights = DEFAULT_PLACEMENT,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.movement = movement
        self.placement = placement
        self.clock = clock
        self.nodes = 0
        self.heuristic_leaves = 0
        self.table: dict[tuple[tuple[str, ...], int], TTEntry] = {}
        self.history = [0] * (_CELLS * _CELLS)  # by source * 49 + target

    # --- limits ------------------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchTimeout
        if self.deadline is not None and self.clock() >= self.deadline:
            raise SearchTimeout

    # --- evaluation and ordering -----------------------------------------------------------

    def evaluate(self, pos: Position) -> int:
        """The heuristic value of a position that is not over, for the side to act."""
        if pos.ply >= PLACEMENT_PLIES:
            return evaluate_movement(pos, self.movement)
        return evaluate_placement(pos, self.placement)

    def order(self, pos: Position, moves: Sequence[Move], first: Move | None) -> list[Move]:
        """Likely best moves first: ``first`` (the table's move), captures, DVONN, history."""
        if pos.ply < PLACEMENT_PLIES:
            if pos.ply <= 3:
                ordered = list(moves)
            else:
                table = piece_table(pos._dvonn, self.placement)
                ordered = sorted(
                    moves, key=lambda m: table[m.cell] if isinstance(m, Place) else 0, reverse=True
                )
        else:
            stacks = pos.stacks
            enemy = pos._black if white_to_act(pos.ply) else pos._white
            dvonn = pos._dvonn
            history = self.history
            scored: list[tuple[int, Move]] = []
            for move in moves:
                if isinstance(move, Jump):
                    target = move.target
                    score = history[move.source * _CELLS + target]
                    bit = BIT[target]
                    if enemy & bit:
                        score += _CAPTURE + len(stacks[target])
                    elif dvonn & bit:
                        score += _ONTO_DVONN
                    scored.append((score, move))
                else:
                    scored.append((0, move))
            scored.sort(key=_first, reverse=True)
            ordered = [move for _, move in scored]
        if first is not None:
            # Moves are interned (rules.moves), so identity finds the table's move quickly.
            for index, move in enumerate(ordered):
                if move is first:
                    if index:
                        del ordered[index]
                        ordered.insert(0, first)
                    break
        return ordered

    # --- the search proper -------------------------------------------------------------------

    def negamax(self, pos: Position, depth: int, alpha: int, beta: int) -> int:
        """The value of ``pos`` for the side to act, searched ``depth`` plies (fail-soft)."""
        self._tick()
        key = position_key(pos)
        entry = self.table.get(key)
        first: Move | None = None
        if entry is not None:
            e_depth, e_value, e_kind, first = entry
            if e_depth >= depth and (
                e_kind == _EXACT
                or (e_kind == _LOWER and e_value >= beta)
                or (e_kind == _UPPER and e_value <= alpha)
            ):
                if e_depth < EXACT_DEPTH:
                    self.heuristic_leaves += 1
                return e_value
        if depth <= 0 and pos.ply >= PLACEMENT_PLIES:
            # The evaluation sees a finished game itself: no move generation at the leaves.
            value, exact = movement_value(pos, self.movement)
            if exact:
                self.table[key] = (EXACT_DEPTH, value, _EXACT, None)
            else:
                self.heuristic_leaves += 1
                self.table[key] = (0, value, _EXACT, None)
            return value
        moves = legal_moves(pos)
        if not moves:
            value = final_value(pos)
            self.table[key] = (EXACT_DEPTH, value, _EXACT, None)
            return value
        if moves[0] is PASS:
            # A forced pass costs no depth: the other side, who has a move, acts next.
            return -self.negamax(play(pos, PASS), depth, -beta, -alpha)
        if depth <= 0:
            self.heuristic_leaves += 1
            value = evaluate_placement(pos, self.placement)
            self.table[key] = (0, value, _EXACT, None)
            return value
        leaves_before = self.heuristic_leaves
        best = -INFINITY
        best_move: Move | None = None
        low = alpha
        for index, move in enumerate(self.order(pos, moves, first)):
            child = play(pos, move)
            if index == 0:
                value = -self.negamax(child, depth - 1, -beta, -low)
            else:
                # Principal variation search: prove the move no better with a null window first.
                value = -self.negamax(child, depth - 1, -low - 1, -low)
                if low < value < beta:
                    value = -self.negamax(child, depth - 1, -beta, -value)
            if value > best:
                best, best_move = value, move
                if value > low:
                    low = value
                    if low >= beta:
                        if isinstance(move, Jump):
                            self.history[move.source * _CELLS + move.target] += depth * depth
                        break
        kind = _UPPER if best <= alpha else _LOWER if best >= beta else _EXACT
        stored = EXACT_DEPTH if self.heuristic_leaves == leaves_before else depth
        if len(self.table) >= _TT_LIMIT:
            self.table.clear()
        self.table[key] = (stored, best, kind, best_move)
        return best

    def search_root(
        self, pos: Position, depth: int, moves: Sequence[Move], found: list[tuple[Move, int]]
    ) -> tuple[Move, int]:
        """Search every root move to ``depth``; append each move that got a value to ``found``.

        ``found[0]`` is the best so far when the search is interrupted; later entries may be
        only bounds.
        """
        best_move, best = moves[0], -INFINITY
        for index, move in enumerate(moves):
            child = play(pos, move)
            if index == 0:
                value = -self.negamax(child, depth - 1, -INFINITY, INFINITY)
            else:
                value = -self.negamax(child, depth - 1, -best - 1, -best)
                if value > best:
                    value = -self.negamax(child, depth - 1, -INFINITY, -best)
            if value > best:
                best_move, best = move, value
                found.insert(0, (move, value))
            else:
                found.append((move, value))
        return best_move, best

    def iterate(
        self,
        pos: Position,
        *,
        rng: random.Random,
        max_depth: int,
        min_depth: int = 1,
        soft_deadline: float | None = None,
        fallback: Move | None = None,
    ) -> SearchResult:
        """Iterative deepening from ``min_depth`` to ``max_depth``.

        Stops early when the position is solved or when an iteration ends after
        ``soft_deadline`` (the next one would most likely not finish). Returns ``fallback`` (or
        the first ordered move) if not even the first iteration's first move was searched.
        """
        start = self.clock()
        moves = list(legal_moves(pos))
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        # A seeded shuffle first, so equally ordered moves are tried (and ties won) in an order
        # that depends on the seed only.
        rng.shuffle(moves)
        moves = self.order(pos, moves, fallback)
        best_move, best_value, best_depth, exact = moves[0], 0, 0, False
        if len(moves) == 1:
            return SearchResult(moves[0], 0, 0, 0, False, self.clock() - start)
        for depth in range(min_depth, max_depth + 1):
            found: list[tuple[Move, int]] = []
            leaves_before = self.heuristic_leaves
            try:
                move, value = self.search_root(pos, depth, moves, found)
            except SearchTimeout:
                # The first move searched was the previous best: anything ahead of it now is
                # a proven improvement.
                if found:
                    best_move, best_value = found[0]
                    best_depth = depth
                break
            best_move, best_value, best_depth = move, value, depth
            exact = self.heuristic_leaves == leaves_before
            if exact:
                break
            moves.remove(move)
            moves.insert(0, move)
            if soft_deadline is not None and self.clock() >= soft_deadline:
                break
        return SearchResult(
            best_move, best_value, best_depth, self.nodes, exact, self.clock() - start
        )


def _first(item: tuple[int, Move]) -> int:
    return item[0]
