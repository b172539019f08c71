"""Choosing a move: the opening DVONN placements, one-move lookahead for the low levels and the
alpha-beta search for the others, all within the time budget."""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Final

from ai import native
from ai.evaluation import final_value
from ai.levels import Level, LevelSpec
from ai.search import Searcher, SearchResult
from rules import Move, Place, Position, legal_moves, play
from rules.board import CELLS, IS_EDGE
from rules.position import PLACEMENT_PLIES

DVONN_PLIES: Final = 3
SAFETY_MARGIN: Final = 0.01
"""Seconds kept back from the budget for returning the answer (and a process boundary)."""
SOFT_SHARE: Final = 0.5
"""Do not start another iteration after this share of the time: it would rarely finish."""

Clock = Callable[[], float]


def move_rng(seed: int, pos: Position) -> random.Random:
    """A generator that depends on the seed and the position only, never on earlier calls."""
    return random.Random(f"{seed}/{pos.to_text()}")


def choose_move(
    position: Position,
    *,
    level: Level,
    budget: float | None = None,
    seed: int = 0,
    clock: Clock = time.perf_counter,
) -> Move:
    """The move ``level`` plays in ``position``, thinking at most ``budget`` seconds.

    ``budget=None`` means no clock: the level's node limit alone bounds the search, and the
    answer depends only on the position, the level and ``seed``. With a budget the search stops
    at the deadline, so how deep it got (and, for the searching levels, maybe the move) depends
    on the machine; the seed still fixes every random choice. Returns ``PASS`` when that is the
    only legal move; raises ``ValueError`` when the game is over.
    """
    return think(position, level=level, budget=budget, seed=seed, clock=clock).move


def think(
    position: Position,
    *,
    level: Level,
    budget: float | None = None,
    seed: int = 0,
    clock: Clock = time.perf_counter,
    spec: LevelSpec | None = None,
) -> SearchResult:
    """Like :func:`choose_move`, with the search's statistics (depth, nodes, value, time).

    ``spec`` replaces the level's settings (for experiments with new levels or weights).
    """
    # The transposition table holds many small tuples; a full garbage collection in the middle
    # of a search would cost the clock up to a tenth of a second, and the search makes no cycles.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _think(position, level=level, budget=budget, seed=seed, clock=clock, spec=spec)
    finally:
        if collecting:
            gc.enable()


def _think(
    position: Position,
    *,
    level: Level,
    budget: float | None,
    seed: int,
    clock: Clock,
    spec: LevelSpec | None,
) -> SearchResult:
    start = clock()
    moves = legal_moves(position)
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    if budget is not None and budget <= 0:
        raise ValueError(f"the time budget must be positive, not {budget}")
    if len(moves) == 1:
        return SearchResult(moves[0], 0, 0, 0, False, clock() - start)
    spec = spec or level.spec
    rng = move_rng(seed, position)
    if position.ply < DVONN_PLIES:
        move: Move = place_dvonn(position, rng)
        return SearchResult(move, 0, 0, 0, False, clock() - start)
    deadline = None
    if budget is not None:
        usable = budget * spec.time_share
        deadline = start + max(usable - SAFETY_MARGIN, usable * 0.5)
    if spec.max_depth == 0 or (position.ply < PLACEMENT_PLIES and spec.placement_temperature):
        return one_ply(
            position, moves, spec=spec, rng=rng, start=start, clock=clock, deadline=deadline
        )
    if spec.compiled and native.available():
        remaining = PLACEMENT_PLIES - position.ply
        early = remaining > spec.compiled_late_placement  # placing, with many cells left
        return native.search(
            position,
            # From now: the time already spent here is the budget's too.
            hard=None if deadline is None else deadline - clock(),
            soft=None if deadline is None else (deadline - start) * spec.compiled_soft_share,
            max_nodes=spec.compiled_nodes if deadline is None else None,
            max_depth=spec.compiled_placement_depth if early else spec.max_depth,
            seed=rng.getrandbits(64),
            weights=spec.native,
        )
    soft = None if deadline is None else start + (deadline - start) * SOFT_SHARE
    searcher = Searcher(
        deadline=deadline,
        # With a clock, the clock alone limits the work (and the level's depth limit).
        max_nodes=spec.max_nodes if deadline is None else None,
        movement=spec.movement,
        placement=spec.placement,
        clock=clock,
    )
    if position.ply < PLACEMENT_PLIES:
        quick = searcher.iterate(
            position, rng=rng, max_depth=spec.placement_depth, soft_deadline=soft
        )
        remaining = PLACEMENT_PLIES - position.ply
        if remaining > spec.late_placement:
            return quick
        # Few empty cells: search through the rest of the placement into the moves, where the
        # evaluation knows more. Too slow to finish? Then the quick answer stands.
        deep = searcher.iterate(
            position,
            rng=move_rng(seed, position),
            min_depth=remaining + 1,
            max_depth=remaining + 1 + spec.max_depth,
            soft_deadline=soft,
            fallback=quick.move,
        )
        return deep if deep.depth > 0 else quick
    return searcher.iterate(position, rng=rng, max_depth=spec.max_depth, soft_deadline=soft)


def one_ply(
    pos: Position,
    moves: Sequence[Move],
    *,
    spec: LevelSpec,
    rng: random.Random,
    start: float,
    clock: Clock,
    deadline: float | None,
) -> SearchResult:
    """Weigh every move by its value one ply ahead; pick one at random, by softmax weight.

    Moves are weighed in a seeded random order, so if the deadline comes first the choice is
    among a random sample of the moves.
    """
    if spec.blunder_rate and rng.random() < spec.blunder_rate:
        return SearchResult(rng.choice(list(moves)), 0, 0, len(moves), False, clock() - start)
    placing = pos.ply < PLACEMENT_PLIES
    searcher = Searcher(movement=spec.movement, placement=spec.placement)
    candidates = list(moves)
    rng.shuffle(candidates)
    weighed: list[Move] = []
    values: list[int] = []
    for move in candidates:
        if weighed and deadline is not None and clock() >= deadline:
            break
        child = play(pos, move)
        weighed.append(move)
        values.append(-searcher.evaluate(child) if legal_moves(child) else -final_value(child))
    temperature = spec.placement_temperature if placing else spec.temperature
    best = max(values)
    if temperature <= 0:
        move = rng.choice([m for m, v in zip(weighed, values, strict=True) if v == best])
    else:
        weights = [math.exp((v - best) / temperature) for v in values]
        move = rng.choices(weighed, weights=weights)[0]
    return SearchResult(move, best, 1, len(weighed), False, clock() - start)


def place_dvonn(pos: Position, rng: random.Random) -> Place:
    """A DVONN placement: any empty cell off the edge, at random.

    No rule about where the three DVONN pieces go measured better than chance: in 4,000 games
    with random inner DVONN cells, the final margin did not depend on how far apart or how
    central they were, and spreading them out scored 45% against random inner cells in 100
    games between two strongest players.
    """
    return Place(rng.choice([c for c in CELLS if not pos.stacks[c] and not IS_EDGE[c]]))
