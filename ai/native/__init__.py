"""The strongest level's search, compiled from ``engine.c``: the same rules and the same kind of
search as :mod:`ai.search`, about a hundred times as many positions a second.

``make`` builds the library (``python -m ai.native.build``); where it is missing (no C compiler,
or a container built without one) :func:`available` is false and the levels search in Python,
as before. Nothing here trusts the library blindly: :func:`search` returns a move only if
:func:`rules.legal_moves` has it.

The library is loaded with :mod:`ctypes` (plain C, no Python headers); a position crosses as three
bytes a cell: height, top piece (0 empty, 1 White, 2 Black, 3 DVONN) and whether it holds DVONN.
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import threading
import time
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any, Final

from ai.search import SearchResult
from rules import PASS, Move, Place, Position, jump, legal_moves
from rules.board import CELL_COUNT

LIBRARY: Final = Path(__file__).with_name("_engine.so")
SOURCE: Final = Path(__file__).with_name("engine.c")
SOURCES: Final = (SOURCE, Path(__file__).with_name("placement_model.h"))
"""What the library is built from: the search, and the fitted placement model it includes."""
_TOPS: Final = {"W": 1, "B": 2, "D": 3}
_ONE_AT_A_TIME: Final = threading.Lock()
"""The library keeps one transposition table and one set of weights per process, and ctypes lets
go of the GIL during a call: threads of one process (an engine on a thread pool, in tests) take
turns, each with its full budget once its turn comes."""


MOVEMENT_TERMS: Final = 9
"""engine.c's movement terms: stacks, moves, to_dvonn, to_enemy, score, capture, stuck, guarded
(White's minus Black's), best (for the player to act)."""


PIECE_KINDS: Final = 128
"""How many kinds of piece the placement model tells apart (``placement_model.h``)."""


@dataclass(frozen=True, slots=True)
class NativeWeights:
    """The compiled evaluation's weights (engine.c's ``Weights``, in that order).

    Movement terms are weighed by field values: a cell is worth ``field_base`` plus, for each
    DVONN stack at distance *d*, ``field_bonus >> (field_shift * d)`` (64 is one unit), so stacks
    and targets near the DVONN pieces count more (PrimaDvonna's published idea). The movement
    weights were fitted to the final margins of 1,500 self-play games (``python -m
    tools.engine.movement_fit``, docs/engine.md says how), PrimaDvonna's own four (100, 25, 20, 20)
    standing before, then tuned by self-play (``python -m tools.engine.spsa``): the first set
    with the placement terms (:class:`ai.evaluation.PlacementWeights`' at four times their
    size), then the ``late_`` set with ``field_bonus``.
    """

    stacks: int = 100
    moves: int = 44
    to_dvonn: int = 27
    to_enemy: int = 6
    score: int = 22
    field_base: int = 64
    field_bonus: int = 92
    field_shift: int = 2
    next_to_dvonn: int = 44
    near_dvonn: int = 20
    edge: int = 15
    dvonn_distance: int = 7
    bunched: int = 5
    placement_model: int = 0
    """1: value a placement by the fitted model (``placement_model.h``,
    :mod:`tools.engine.placement_fit`) instead of the five placement terms above."""
    reductions: int = 2
    """1: in the movement phase, moves ordered after the third that take no enemy stack and
    land on no DVONN piece are searched a ply shallower first (late move reductions); 2: the
    later such a move comes and the deeper the search, the shallower, about ln(depth) * ln(i) / 2
    plies for the i-th move (at least one, leaving at least one)."""
    capture: int = 19
    """Movement, per piece in the enemy stacks a stack could jump onto now."""
    stuck: int = -10
    """Movement, per piece in stacks that cannot move now."""
    guarded: int = 14
    """Movement, per piece in stacks next to or holding a DVONN piece."""
    best: int = 13
    """Movement, per piece of the tallest enemy stack the player to act can jump onto now."""
    late_stacks: int = 100
    """The movement weights again (``late_`` and the name), for late in the game: the
    evaluation moves from the first set to the second over the first 40 moves (tapered)."""
    late_moves: int = 44
    late_to_dvonn: int = 39
    late_to_enemy: int = 10
    late_score: int = 22
    late_capture: int = 31
    late_stuck: int = -17
    late_guarded: int = 13
    late_best: int = 15


DEFAULT_WEIGHTS: Final = NativeWeights()


_CELLS: Final = ctypes.c_char_p
_INT: Final = ctypes.c_int
_INTS: Final = ctypes.POINTER(ctypes.c_int)
_SIGNATURES: Final[dict[str, list[Any]]] = {
    # name: argument types (every entry point returns an int)
    "dvonn_search": [
        *(_CELLS, _INT, _INTS, ctypes.c_double, ctypes.c_double, ctypes.c_longlong),
        *(_INT, _INT, ctypes.c_ulonglong, _INTS),
    ],
    "dvonn_moves": [_CELLS, _INT, _INTS],
    "dvonn_play": [_CELLS, _INT, _INT, _INT, ctypes.c_char_p],
    "dvonn_piece_kinds": [_CELLS, _INT, _INTS],
    "dvonn_movement_terms": [_CELLS, _INT, _INTS, _INTS],
    "dvonn_evaluate": [_CELLS, _INT, _INTS, _INTS],
}


@functools.cache
def _library() -> ctypes.CDLL | None:
    if not LIBRARY.exists():
        return None
    try:
        lib = ctypes.CDLL(str(LIBRARY))
        sizes = (ctypes.c_int * 3)()
        lib.dvonn_sizes.restype = None
        lib.dvonn_sizes(sizes)
    except (OSError, AttributeError):  # AttributeError: built before it told its sizes
        return None
    if tuple(sizes) != (len(dataclasses.fields(NativeWeights)), MOVEMENT_TERMS, PIECE_KINDS):
        return None  # built from another engine.c: make builds it again
    for name, argtypes in _SIGNATURES.items():
        function = getattr(lib, name)
        function.restype = ctypes.c_int
        function.argtypes = argtypes
    return lib


def available() -> bool:
    """Whether the compiled search is built and loads."""
    return _library() is not None


def _need() -> ctypes.CDLL:
    lib = _library()
    if lib is None:
        raise RuntimeError(
            f"the compiled search is not built ({LIBRARY}): run python -m ai.native.build"
        )
    return lib


def encode(pos: Position) -> bytes:
    """The position's stacks as the library reads them."""
    out = bytearray(3 * CELL_COUNT)
    for cell, stack in enumerate(pos.stacks):
        if stack:
            out[3 * cell] = len(stack)
            out[3 * cell + 1] = _TOPS[stack[-1]]
            out[3 * cell + 2] = "D" in stack
    return bytes(out)


def _weights(weights: NativeWeights) -> ctypes.Array[ctypes.c_int]:
    values = astuple(weights)
    return (ctypes.c_int * len(values))(*values)


def _move(source: int, target: int) -> Move:
    if source < 0 and target < 0:
        return PASS
    if source < 0:
        return Place(target)
    return jump(source, target)


def search(
    pos: Position,
    *,
    hard: float | None,
    soft: float | None = None,
    max_nodes: int | None = None,
    min_depth: int = 1,
    max_depth: int = 64,
    seed: int = 0,
    weights: NativeWeights = DEFAULT_WEIGHTS,
) -> SearchResult:
    """Iterative deepening on ``pos`` until ``hard`` seconds have passed or ``max_nodes`` nodes
    were searched (the work is deterministic with a node limit alone); no new iteration starts
    after ``soft`` seconds. A ``hard`` of zero or less has passed already: the first move
    searched is the answer. Raises ``ValueError`` for a finished game."""
    lib = _need()
    out = (ctypes.c_int * 8)()
    start = time.perf_counter()
    with _ONE_AT_A_TIME:
        status = lib.dvonn_search(
            encode(pos),
            pos.ply,
            _weights(weights),
            0.0 if hard is None else min(hard, -1e-9) if hard <= 0 else hard,
            soft or 0.0,
            max_nodes or 0,
            min_depth,
            max_depth,
            seed & 0xFFFF_FFFF_FFFF_FFFF,
            out,
        )
    if status == -2:
        raise ValueError("the game is over: there is no move to choose")
    if status != 0:
        raise RuntimeError(f"the compiled search failed ({status})")
    _kind, source, target, value, depth, exact, high, low = out
    move = _move(source, target)
    if move not in legal_moves(pos):
        raise RuntimeError(f"the compiled search chose {move}, which is not legal in {pos!r}")
    return SearchResult(
        move, value, depth, (high << 31) | low, bool(exact), time.perf_counter() - start
    )


def native_moves(pos: Position) -> list[Move]:
    """The library's legal moves in ``pos`` (for the tests that hold it to :mod:`rules`)."""
    out = (ctypes.c_int * 512)()
    with _ONE_AT_A_TIME:
        count = _need().dvonn_moves(encode(pos), pos.ply, out)
    return [_move(out[2 * i], out[2 * i + 1]) for i in range(count)]


def native_play(pos: Position, move: Move) -> bytes:
    """The library's cells after ``move`` (compare with :func:`encode` of ``rules.play``)."""
    if move is PASS:
        source, target = -1, -1
    elif isinstance(move, Place):
        source, target = -1, move.cell
    else:
        source, target = move.source, move.target  # type: ignore[union-attr]
    out = ctypes.create_string_buffer(3 * CELL_COUNT)
    with _ONE_AT_A_TIME:
        _need().dvonn_play(encode(pos), pos.ply, source, target, out)
    return out.raw


def piece_kinds(pos: Position) -> tuple[int, list[int]]:
    """The placement model's features of ``pos``: its stage, and how many pieces of each kind
    White has minus Black's (engine.c's ``piece_kind`` says what a kind is)."""
    counts = (ctypes.c_int * PIECE_KINDS)()
    with _ONE_AT_A_TIME:
        stage = _need().dvonn_piece_kinds(encode(pos), pos.ply, counts)
    if stage < 0:
        raise ValueError(f"the library cannot read {pos!r}")
    return stage, list(counts)


def movement_terms(
    pos: Position, weights: NativeWeights = DEFAULT_WEIGHTS
) -> tuple[bool, list[int]]:
    """Whether anyone can move in ``pos`` (a position of the movement phase), and the movement
    evaluation's terms before they are weighed, by ``weights``' field values (for
    :mod:`tools.engine.movement_fit`)."""
    terms = (ctypes.c_int * MOVEMENT_TERMS)()
    with _ONE_AT_A_TIME:
        status = _need().dvonn_movement_terms(encode(pos), pos.ply, _weights(weights), terms)
    if status < 0:
        raise ValueError(f"the library cannot read {pos!r}")
    return bool(status), list(terms)


def native_evaluate(pos: Position, weights: NativeWeights = DEFAULT_WEIGHTS) -> tuple[int, bool]:
    """The library's static value of ``pos`` for the side to act, and whether it is exact."""
    exact = ctypes.c_int(0)
    with _ONE_AT_A_TIME:
        value = _need().dvonn_evaluate(encode(pos), pos.ply, _weights(weights), ctypes.byref(exact))
    return value, bool(exact.value)
