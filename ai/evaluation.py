"""Static evaluation of positions, from the point of view of the side to act.

Movement phase: the features that decide DVONN games between engines (PrimaDvonna, the CodeCup
2011 winner, published a similar set): how many stacks each side controls (every stack is a unit
that can move and capture), how many moves they have (mobility, and the threat of running the
opponent out of moves), moves onto DVONN stacks (control of what keeps pieces alive), moves onto
enemy stacks (captures available) and, weakly, the pieces held. Finished games are scored exactly
and outweigh any heuristic value.

Placement phase: pieces one or two steps from a DVONN piece are hard to cut off, pieces near all
DVONN pieces less so, edge pieces can move first, and own pieces bunched together block each
other.

Values are integers; :data:`WIN` bounds every heuristic value from above.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ai.geometry import ALL, DISTANCE, EDGE_MASK, NEIGHBOUR_MASK, TARGET_MASK
from rules import Position
from rules.board import BIT, CELL_OF_BIT, CELLS, IS_EDGE, NEIGHBOURS
from rules.position import PLACEMENT_PLIES

PIECE_VALUE: Final = 10_000
"""What one piece of final score is worth; any finished game outweighs any heuristic value."""
WIN_BONUS: Final = 100_000
WIN: Final = WIN_BONUS + 49 * PIECE_VALUE
INFINITY: Final = 10 * WIN


@dataclass(frozen=True, slots=True)
class MovementWeights:
    """Weights of the movement-phase features (per unit of difference between the sides)."""

    stacks: int = 100
    score: int = 2
    moves: int = 30
    to_dvonn: int = 20
    to_enemy: int = 20


@dataclass(frozen=True, slots=True)
class PlacementWeights:
    """Weights of the placement-phase features of one piece.

    Fitted by least squares to the final score margin of 4,000 games whose placements were
    varied at random and whose moves were played by the medium level; PrimaDvonna's weights
    (15, 0, 2, 1, 5) scored 43% against these in 200 games between two strongest players.
    """

    next_to_dvonn: int = 11
    near_dvonn: int = 9
    edge: int = 7
    dvonn_distance: int = 2
    bunched: int = 4


DEFAULT_MOVEMENT: Final = MovementWeights()
DEFAULT_PLACEMENT: Final = PlacementWeights()


def final_value(pos: Position) -> int:
    """The exact value of a finished game for the side to act (its score minus the other's)."""
    # The rules' count (rules.score), written out: the search calls this at every finished
    # leaf, and the call and the tuple of rules.score cost about 15% more here. A test keeps
    # the two counts the same.
    white = black = 0
    for stack in pos.stacks:
        if stack:
            top = stack[-1]
            if top == "W":
                white += len(stack)
            elif top == "B":
                black += len(stack)
    diff = white - black if white_to_act(pos.ply) else black - white
    if diff > 0:
        return WIN_BONUS + diff * PIECE_VALUE
    if diff < 0:
        return -WIN_BONUS + diff * PIECE_VALUE
    return 0


def white_to_act(ply: int) -> bool:
    """Whether White acts at ``ply`` (as :func:`rules.colour_to_act`, without the enum)."""
    if ply < PLACEMENT_PLIES:
        return ply % 2 == 0
    return (ply - PLACEMENT_PLIES) % 2 == 0


def evaluate_movement(pos: Position, weights: MovementWeights = DEFAULT_MOVEMENT) -> int:
    """Value of a movement-phase position for the side to act: heuristic, or exact if over."""
    return movement_value(pos, weights)[0]


def movement_value(pos: Position, weights: MovementWeights = DEFAULT_MOVEMENT) -> tuple[int, bool]:
    """``(value, exact)``: :func:`final_value` and ``True`` when neither side can move (found
    on the way, so the search need not generate moves at its leaves), else the heuristic."""
    stacks = pos.stacks
    occupied = pos._occupied
    dvonn = pos._dvonn
    white = pos._white
    black = pos._black
    empty = ALL & ~occupied
    # Stacks next to an empty cell or on the edge are not surrounded.
    free = (
        empty
        | (empty << 1)
        | (empty >> 1)
        | (empty << 12)
        | (empty >> 12)
        | (empty << 13)
        | (empty >> 13)
        | EDGE_MASK
    )
    tall = 0
    w_score = b_score = w_moves = b_moves = w_life = b_life = w_enemy = b_enemy = 0
    can_move = False  # whether either side has a move now
    # Stacks of two or more pieces one by one; single pieces all at once with shifts below.
    for cell in [c for c, stack in enumerate(stacks) if len(stack) > 1]:
        height = len(stacks[cell])
        bit = BIT[cell]
        tall |= bit
        targets = TARGET_MASK[cell][height] & occupied
        if white & bit:
            w_score += height
            if targets:
                w_moves += targets.bit_count()
                if free & bit:
                    can_move = True
                    w_life += (targets & dvonn).bit_count()
                    w_enemy += (targets & black).bit_count()
        elif black & bit:
            b_score += height
            if targets:
                b_moves += targets.bit_count()
                if free & bit:
                    can_move = True
                    b_life += (targets & dvonn).bit_count()
                    b_enemy += (targets & white).bit_count()
    w1 = white & ~tall
    b1 = black & ~tall
    w1_free = w1 & free
    b1_free = b1 & free
    if not can_move:
        single = w1_free | b1_free
        if (
            not (
                (single << 1)
                | (single >> 1)
                | (single << 12)
                | (single >> 12)
                | (single << 13)
                | (single >> 13)
            )
            & occupied
        ):
            return final_value(pos), True
    w_score += w1.bit_count()
    b_score += b1.bit_count()
    for shift in (1, 12, 13):
        up, down = w1 << shift, w1 >> shift
        w_moves += (up & occupied).bit_count() + (down & occupied).bit_count()
        up, down = b1 << shift, b1 >> shift
        b_moves += (up & occupied).bit_count() + (down & occupied).bit_count()
        up, down = w1_free << shift, w1_free >> shift
        w_life += (up & dvonn).bit_count() + (down & dvonn).bit_count()
        w_enemy += (up & black).bit_count() + (down & black).bit_count()
        up, down = b1_free << shift, b1_free >> shift
        b_life += (up & dvonn).bit_count() + (down & dvonn).bit_count()
        b_enemy += (up & white).bit_count() + (down & white).bit_count()
    value = (
        weights.stacks * (white.bit_count() - black.bit_count())
        + weights.score * (w_score - b_score)
        + weights.moves * (w_moves - b_moves)
        + weights.to_dvonn * (w_life - b_life)
        + weights.to_enemy * (w_enemy - b_enemy)
    )
    return (value if white_to_act(pos.ply) else -value), False


# --- placement -----------------------------------------------------------------------------------

_PIECE_TABLES: dict[tuple[int, PlacementWeights], tuple[int, ...]] = {}


def piece_table(dvonn: int, weights: PlacementWeights = DEFAULT_PLACEMENT) -> tuple[int, ...]:
    """``table[cell]``: what a piece on ``cell`` is worth given the DVONN cells (a mask).

    Ignores the neighbours, which :func:`evaluate_placement` adds.
    """
    key = (dvonn, weights)
    table = _PIECE_TABLES.get(key)
    if table is None:
        dvonn_cells = [c for c in CELLS if dvonn & BIT[c]]
        values = []
        for cell in CELLS:
            distances = [DISTANCE[cell][d] for d in dvonn_cells]
            value = -weights.dvonn_distance * sum(distances)
            nearest = min(distances, default=0)
            if nearest == 1:
                value += weights.next_to_dvonn
            elif nearest == 2:
                value += weights.near_dvonn
            if IS_EDGE[cell]:
                value += weights.edge
            values.append(value)
        table = tuple(values)
        if len(_PIECE_TABLES) > 4096:  # one entry per game's DVONN cells: never in practice
            _PIECE_TABLES.clear()
        _PIECE_TABLES[key] = table
    return table


_NEIGHBOUR_COUNT: Final = tuple(len(n) for n in NEIGHBOURS)


def _side_value(mine: int, table: tuple[int, ...], bunched: int) -> int:
    value = 0
    rest = mine
    while rest:
        low = rest & -rest
        rest ^= low
        cell = CELL_OF_BIT[low]
        value += table[cell]
        # A piece with fewer than two neighbour cells not held by its own side is hemmed in
        # by its own pieces.
        others = _NEIGHBOUR_COUNT[cell] - (NEIGHBOUR_MASK[cell] & mine).bit_count()
        if others < 2:
            value -= bunched * (2 - others)
    return value


def evaluate_placement(pos: Position, weights: PlacementWeights = DEFAULT_PLACEMENT) -> int:
    """Heuristic value of a placement-phase position for the side to act (0 before 3 DVONNs)."""
    if pos.ply <= 3:
        return 0
    table = piece_table(pos._dvonn, weights)
    value = _side_value(pos._white, table, weights.bunched) - _side_value(
        pos._black, table, weights.bunched
    )
    return value if white_to_act(pos.ply) else -value
