"""Positions, legal moves and playing them: the DVONN rules proper.

A :class:`Position` is immutable: the 49 stacks and the ply (how many actions were played).
Whose turn it is and which phase is running follow from the ply alone, because placements
alternate White, Black, White, ... for 49 plies, White also acts first in phase 2, and after
that the sides alternate strictly, a pass counting as a turn.

A stack is a ``str`` of piece letters from bottom to top: ``"W"`` white, ``"B"`` black,
``"D"`` DVONN; ``""`` is an empty cell. Its top letter says who owns it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from rules.board import (
    ALL_CELLS_MASK,
    BIT,
    CELL_COUNT,
    CELL_NAMES,
    CELL_OF_BIT,
    CELLS,
    HEXES,
    IS_EDGE,
    NEIGHBOURS,
    TARGETS_AT_DISTANCE,
    Cell,
    cell_at,
    cells_of,
    distance_in_line,
    spread,
)
from rules.errors import IllegalMoveError, IllegalReason
from rules.moves import JUMPS, PASS, PLACES, Jump, Move, Pass, Place

Stack = str
"""Piece letters from bottom to top (``"WBD"``); ``""`` is an empty cell."""

PLACEMENT_PLIES: Final = CELL_COUNT
"""Plies 0..48 place the 49 pieces; ply 49 is White's first move."""
DVONN_PIECES: Final = 3
PIECES_PER_COLOUR: Final = 23


class Piece(enum.StrEnum):
    """The letters that make up a :data:`Stack`."""

    WHITE = "W"
    BLACK = "B"
    DVONN = "D"


class Colour(enum.Enum):
    """A side. ``value`` is the letter of its pieces."""

    WHITE = "W"
    BLACK = "B"

    @property
    def opponent(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE

    @property
    def piece(self) -> Piece:
        return Piece(self.value)

    def __str__(self) -> str:
        return self.name.capitalize()


class Phase(enum.Enum):
    """Phase 1 places pieces; phase 2 moves them."""

    PLACEMENT = "place"
    MOVEMENT = "move"


def colour_to_act(ply: int) -> Colour:
    """Who acts at ``ply``: W, B, W, ... for the 49 placements, W again at ply 49, then W, B..."""
    if ply < PLACEMENT_PLIES:
        return Colour.WHITE if ply % 2 == 0 else Colour.BLACK
    return Colour.WHITE if (ply - PLACEMENT_PLIES) % 2 == 0 else Colour.BLACK


def piece_placed_at(ply: int) -> Piece:
    """The piece placed at placement ply ``ply``: three DVONN pieces first, then the mover's own."""
    if ply < DVONN_PIECES:
        return Piece.DVONN
    return colour_to_act(ply).piece


_EMPTY_BOARD: Final[tuple[Stack, ...]] = ("",) * CELL_COUNT
_NEIGHBOUR_MASK: Final[tuple[int, ...]] = tuple(sum(BIT[n] for n in NEIGHBOURS[c]) for c in CELLS)
# A stack is surrounded when `occupied & mask == mask` for this mask. Edge cells get a bit that
# no board ever sets, so the one test also says "never surrounded" for them.
_NEVER: Final = 1 << 100
_SURROUNDED_MASK: Final[tuple[int, ...]] = tuple(
    _NEVER if IS_EDGE[c] else _NEIGHBOUR_MASK[c] for c in CELLS
)
_EDGE_MASK: Final = sum(BIT[c] for c in CELLS if IS_EDGE[c])

# The six neighbours in turning order around a hex: consecutive ones touch each other.
_RING: Final = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))


def _may_split(cell: Cell, occupied_neighbours: int) -> bool:
    """Whether emptying ``cell`` can disconnect its occupied neighbours (given as a mask).

    Neighbours that form one unbroken arc around the hex stay linked through each other; two or
    more arcs may only have been linked through ``cell``.
    """
    hexes = HEXES[cell]
    ring = [cell_at(hexes.letter + dl, hexes.row + dr) for dl, dr in _RING]
    filled = [c is not None and bool(occupied_neighbours & BIT[c]) for c in ring]
    arcs = sum(1 for i in range(6) if filled[i] and not filled[i - 1])
    return arcs >= 2


def _subsets(mask: int) -> list[int]:
    subsets, subset = [], mask
    while True:
        subsets.append(subset)
        if subset == 0:
            return subsets
        subset = (subset - 1) & mask


# _SPLITS[cell]: the occupied-neighbour masks for which emptying `cell` may cut something off.
_SPLITS: Final[tuple[frozenset[int], ...]] = tuple(
    frozenset(m for m in _subsets(_NEIGHBOUR_MASK[c]) if _may_split(c, m)) for c in CELLS
)


class _JumpTable:
    """The jumps from one cell for one stack height, memoised by which targets are occupied.

    At most six cells lie at a given distance, so there are at most 64 answers per table; the
    move generator looks one up with a single mask instead of testing every target.
    """

    __slots__ = ("cache", "mask", "source", "targets")

    def __init__(self, source: Cell, targets: tuple[Cell, ...]) -> None:
        self.source = source
        self.targets = targets
        self.mask = sum(BIT[t] for t in targets)
        self.cache: dict[int, tuple[Jump, ...]] = {}

    def jumps(self, occupied: int) -> tuple[Jump, ...]:
        hit = occupied & self.mask
        found = self.cache.get(hit)
        if found is None:
            found = tuple(JUMPS[self.source, t] for t in self.targets if hit & BIT[t])
            self.cache[hit] = found
        return found


# _JUMP_TABLES[cell][height]; padded up to the tallest possible stack, so no bounds checks.
_MAX_HEIGHT: Final = CELL_COUNT
_JUMP_TABLES: Final[tuple[tuple[_JumpTable, ...], ...]] = tuple(
    tuple(
        _JumpTable(c, TARGETS_AT_DISTANCE[c][h] if h < len(TARGETS_AT_DISTANCE[c]) else ())
        for h in range(_MAX_HEIGHT + 1)
    )
    for c in CELLS
)
_NO_MOVES: Final[tuple[Move, ...]] = ()
_ONLY_PASS: Final[tuple[Move, ...]] = (PASS,)


class PositionTextError(ValueError):
    """A position text (see :meth:`Position.from_text`) that does not describe a position."""


def _masks(stacks: Sequence[Stack]) -> tuple[int, int, int, int]:
    """Bit masks of the occupied cells, DVONN-holding cells, white-topped and black-topped cells."""
    occupied = dvonn = white = black = 0
    for cell, stack in enumerate(stacks):
        if stack:
            bit = BIT[cell]
            occupied |= bit
            if "D" in stack:
                dvonn |= bit
            if stack[-1] == "W":
                white |= bit
            elif stack[-1] == "B":
                black |= bit
    return occupied, dvonn, white, black


class Position:
    """An immutable DVONN position: the stacks on the 49 cells and the ply.

    ``Position()`` is the empty board with White to place (:func:`new_game`). Build others with
    :func:`play`, or from a text with :meth:`from_text` (what ``repr`` shows).
    """

    # Immutable as fractions.Fraction is: private slots behind read-only properties. (Plain slot
    # stores keep building a position cheap: a __setattr__ guard would cost 4x per ply.)
    __slots__ = ("_black", "_dvonn", "_legal", "_occupied", "_ply", "_settled", "_stacks", "_white")

    _stacks: tuple[Stack, ...]
    _ply: int
    _occupied: int  # bit mask (rules.board.BIT) of the occupied cells
    _dvonn: int  # bit mask of the cells whose stack holds a DVONN piece
    _white: int  # bit mask of the cells topped by a white piece
    _black: int  # bit mask of the cells topped by a black piece
    # Every stack is connected to a DVONN piece (true after any move, and on the full board at
    # ply 49); a move then cuts pieces off only if it splits the mover's neighbours or moves a
    # DVONN piece away.
    _settled: bool
    _legal: tuple[Move, ...] | None  # legal_moves(), computed on first use

    def __init__(self, stacks: Sequence[Stack] = _EMPTY_BOARD, ply: int = 0) -> None:
        stacks = tuple(stacks)
        _validate(stacks, ply)
        occupied, dvonn, white, black = _masks(stacks)
        _init(self, stacks, ply, occupied, dvonn, white, black)
        self._settled = ply >= PLACEMENT_PLIES and _connected(occupied, dvonn) == occupied

    @property
    def stacks(self) -> tuple[Stack, ...]:
        """``stacks[cell]``: the stack on each cell, bottom to top; ``""`` when empty."""
        return self._stacks

    @property
    def ply(self) -> int:
        """How many actions (placements, moves, passes) led here; 0 on the empty board."""
        return self._ply

    # --- derived facts -----------------------------------------------------------------------

    @property
    def turn(self) -> Colour:
        """The side to act."""
        return colour_to_act(self.ply)

    @property
    def phase(self) -> Phase:
        return Phase.PLACEMENT if self.ply < PLACEMENT_PLIES else Phase.MOVEMENT

    @property
    def is_placement(self) -> bool:
        return self.ply < PLACEMENT_PLIES

    def stack(self, cell: Cell) -> Stack:
        """The stack on ``cell`` (bottom to top), ``""`` when empty."""
        return self.stacks[cell]

    def owner(self, cell: Cell) -> Colour | None:
        """Who controls the stack on ``cell``: its top piece's colour (a lone DVONN: nobody)."""
        stack = self.stacks[cell]
        if not stack or stack[-1] == "D":
            return None
        return Colour(stack[-1])

    def has_dvonn(self, cell: Cell) -> bool:
        """Whether the stack on ``cell`` contains a DVONN piece."""
        return bool(self._dvonn & BIT[cell])

    def is_surrounded(self, cell: Cell) -> bool:
        """Whether all six neighbours of ``cell`` are occupied (never true on the edge)."""
        mask = _SURROUNDED_MASK[cell]
        return self._occupied & mask == mask

    def occupied_cells(self) -> list[Cell]:
        return [cell for cell, stack in enumerate(self.stacks) if stack]

    def pieces_on_board(self) -> int:
        return sum(map(len, self.stacks))

    def board(self) -> dict[str, Stack]:
        """``{cell name: stack}`` for the occupied cells, as in the oracle files."""
        return {CELL_NAMES[c]: s for c, s in enumerate(self.stacks) if s}

    # --- text form ---------------------------------------------------------------------------

    def to_text(self) -> str:
        """A compact text that :meth:`from_text` reads back exactly.

        ``"<ply> <row 1>/<row 2>/<row 3>/<row 4>/<row 5>"``, each row its cells' stacks from the
        lowest letter, comma-separated, ``.`` for an empty cell; e.g. the empty board is
        ``"0 .,.,.,.,.,.,.,.,./.,.,...``.
        """
        cells = [stack or "." for stack in self.stacks]
        rows, start = [], 0
        for width in _ROW_WIDTHS:
            rows.append(",".join(cells[start : start + width]))
            start += width
        return f"{self.ply} {'/'.join(rows)}"

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Read a :meth:`to_text` string; raises :class:`PositionTextError` if it is not one."""
        try:
            ply_text, board_text = text.strip().split(" ", 1)
            ply = int(ply_text)
        except ValueError:
            raise PositionTextError(f"not a position text: {text!r}") from None
        rows = board_text.split("/")
        cells = [cell for row in rows for cell in row.split(",")]
        if [len(row.split(",")) for row in rows] != list(_ROW_WIDTHS):
            raise PositionTextError(f"a position has rows of {_ROW_WIDTHS} cells: {text!r}")
        stacks = tuple("" if cell == "." else cell for cell in cells)
        return cls(stacks, ply)

    # --- dunder ------------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.ply == other.ply and self.stacks == other.stacks

    def __hash__(self) -> int:
        return hash((self.ply, self.stacks))

    def __repr__(self) -> str:
        return f"Position.from_text({self.to_text()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Position, (self.stacks, self.ply))


_ROW_WIDTHS: Final = (9, 10, 11, 10, 9)


def _init(  # noqa: PLR0917 - internal fast path
    pos: Position,
    stacks: tuple[Stack, ...],
    ply: int,
    occupied: int,
    dvonn: int,
    white: int,
    black: int,
) -> None:
    pos._stacks = stacks
    pos._ply = ply
    pos._occupied = occupied
    pos._dvonn = dvonn
    pos._white = white
    pos._black = black
    pos._legal = None
    pos._settled = True


def _make(  # noqa: PLR0917 - internal fast path
    stacks: tuple[Stack, ...], ply: int, occupied: int, dvonn: int, white: int, black: int
) -> Position:
    pos = object.__new__(Position)
    _init(pos, stacks, ply, occupied, dvonn, white, black)
    return pos


def _connected(occupied: int, dvonn: int) -> int:
    """The occupied cells linked to a DVONN piece through occupied neighbours (a flood fill)."""
    reached = dvonn
    while True:
        # spread() inlined: this loop is hot.
        grown = (
            reached
            | (reached << 1)
            | (reached >> 1)
            | (reached << 12)
            | (reached >> 12)
            | (reached << 13)
            | (reached >> 13)
        ) & occupied
        if grown == reached:
            return reached
        reached = grown


def _validate(stacks: tuple[Stack, ...], ply: int) -> None:
    if len(stacks) != CELL_COUNT:
        raise PositionTextError(f"a board has {CELL_COUNT} cells, not {len(stacks)}")
    if not isinstance(ply, int) or ply < 0:
        raise PositionTextError(f"the ply must be a whole number from 0, not {ply!r}")
    for cell, stack in enumerate(stacks):
        if not isinstance(stack, str) or stack.strip("WBD"):
            raise PositionTextError(
                f"the stack on {CELL_NAMES[cell]} must be letters W, B, D: {stack!r}"
            )
    text = "".join(stacks)
    counts = {piece: text.count(piece) for piece in "WBD"}
    if counts["W"] > PIECES_PER_COLOUR or counts["B"] > PIECES_PER_COLOUR:
        raise PositionTextError(f"each side has {PIECES_PER_COLOUR} pieces: {counts}")
    if ply < PLACEMENT_PLIES:
        expected = {
            "W": sum(1 for p in range(DVONN_PIECES, ply) if p % 2 == 0),
            "B": sum(1 for p in range(DVONN_PIECES, ply) if p % 2 == 1),
            "D": min(ply, DVONN_PIECES),
        }
        if counts != expected or any(len(stack) > 1 for stack in stacks):
            raise PositionTextError(
                f"after {ply} placements the board holds single pieces {expected}, not {counts}"
            )
    elif counts["D"] != DVONN_PIECES:
        raise PositionTextError("all three DVONN pieces stay on the board in phase 2")


def new_game() -> Position:
    """The empty board, White to place the first DVONN piece."""
    return _START


_START: Final = Position()


# --- move generation ---------------------------------------------------------------------------


def _mobile(pos: Position, letter: str) -> int:
    """Mask of the side's stacks that are not surrounded: on the edge or next to an empty cell."""
    occupied = pos._occupied
    empty = ALL_CELLS_MASK & ~occupied
    mine = pos._white if letter == "W" else pos._black
    return mine & (spread(empty) | _EDGE_MASK)


def _jumps(pos: Position, letter: str) -> list[Move]:
    """Every jump for the side whose pieces are ``letter``, in cell order."""
    out: list[Move] = []
    stacks = pos._stacks
    occupied = pos._occupied
    # _mobile() and spread() inlined: this is the hottest function of a game of moves.
    empty = ALL_CELLS_MASK & ~occupied
    mobile = (pos._white if letter == "W" else pos._black) & (
        empty
        | (empty << 1)
        | (empty >> 1)
        | (empty << 12)
        | (empty >> 12)
        | (empty << 13)
        | (empty >> 13)
        | _EDGE_MASK
    )
    while mobile:
        low = mobile & -mobile
        mobile ^= low
        cell = CELL_OF_BIT[low]
        table = _JUMP_TABLES[cell][len(stacks[cell])]
        hit = occupied & table.mask
        found = table.cache.get(hit)
        if found is None:
            found = table.jumps(occupied)
        out += found
    return out


def _has_jump(pos: Position, letter: str) -> bool:
    stacks = pos._stacks
    occupied = pos._occupied
    mobile = _mobile(pos, letter)
    while mobile:
        low = mobile & -mobile
        mobile ^= low
        cell = CELL_OF_BIT[low]
        if occupied & _JUMP_TABLES[cell][len(stacks[cell])].mask:
            return True
    return False


def legal_moves(pos: Position) -> tuple[Move, ...]:
    """Every legal action for the side to act, in cell order.

    Placements while placing; jumps while moving; ``(PASS,)`` when the side to act has no jump
    but the opponent has one; ``()`` when the game is over.
    """
    legal = pos._legal
    if legal is None:
        if pos._ply < PLACEMENT_PLIES:
            legal = tuple([PLACES[cell] for cell, stack in enumerate(pos._stacks) if not stack])
        else:
            me = "W" if (pos._ply - PLACEMENT_PLIES) % 2 == 0 else "B"
            jumps = _jumps(pos, me)
            if jumps:
                legal = tuple(jumps)
            elif _has_jump(pos, "B" if me == "W" else "W"):
                legal = _ONLY_PASS
            else:
                legal = _NO_MOVES
        pos._legal = legal
    return legal


def is_over(pos: Position) -> bool:
    """Whether neither side can move."""
    return not legal_moves(pos)


def score(pos: Position) -> tuple[int, int]:
    """``(white, black)``: pieces in the stacks each side controls (top piece of its colour)."""
    white = black = 0
    for stack in pos._stacks:
        if stack:
            top = stack[-1]
            if top == "W":
                white += len(stack)
            elif top == "B":
                black += len(stack)
    return white, black


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game's result: the score and the winner (``None`` for a draw)."""

    white: int
    black: int

    @property
    def winner(self) -> Colour | None:
        if self.white == self.black:
            return None
        return Colour.WHITE if self.white > self.black else Colour.BLACK

    @property
    def is_draw(self) -> bool:
        return self.white == self.black

    def __str__(self) -> str:
        return f"{self.white}-{self.black}"


def outcome(pos: Position) -> Outcome | None:
    """The result if the game is over, else ``None``."""
    if not is_over(pos):
        return None
    return Outcome(*score(pos))


# --- playing -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What one action did: the position before and after, and the stacks it cut off."""

    before: Position
    move: Move
    after: Position
    removed: Mapping[Cell, Stack] = field(default_factory=dict)
    """The stacks removed for losing contact with every DVONN piece, by cell."""

    @property
    def mover(self) -> Colour:
        return self.before.turn

    @property
    def pieces_removed(self) -> int:
        return sum(map(len, self.removed.values()))

    def removed_cells(self) -> list[Cell]:
        return sorted(self.removed)


def _explain_illegal(pos: Position, move: Move) -> IllegalMoveError:
    """Why ``move`` is not legal in ``pos`` (called only once it is known to be illegal)."""
    me = pos.turn
    if is_over(pos):
        return IllegalMoveError(IllegalReason.GAME_OVER)
    if isinstance(move, Place):
        if not pos.is_placement:
            return IllegalMoveError(IllegalReason.PLACEMENT_OVER, cell=CELL_NAMES[move.cell])
        return IllegalMoveError(IllegalReason.CELL_OCCUPIED, cell=CELL_NAMES[move.cell])
    if isinstance(move, Pass):
        if pos.is_placement:
            return IllegalMoveError(IllegalReason.PLACEMENT_NOT_OVER)
        return IllegalMoveError(IllegalReason.PASS_NOT_ALLOWED, count=len(legal_moves(pos)))
    if pos.is_placement:
        return IllegalMoveError(IllegalReason.PLACEMENT_NOT_OVER)
    source, target = move.source, move.target
    names = {"source": CELL_NAMES[source], "target": CELL_NAMES[target]}
    stack = pos._stacks[source]
    if not stack:
        return IllegalMoveError(IllegalReason.SOURCE_EMPTY, **names)
    if stack == "D":
        return IllegalMoveError(IllegalReason.LONE_DVONN, **names)
    owner = pos.owner(source)
    if owner is not me:
        return IllegalMoveError(IllegalReason.NOT_YOUR_STACK, owner=owner, colour=me, **names)
    if source == target:
        return IllegalMoveError(IllegalReason.SAME_CELL, **names)
    if pos.is_surrounded(source):
        return IllegalMoveError(IllegalReason.SURROUNDED, **names)
    distance = distance_in_line(source, target)
    if distance is None:
        return IllegalMoveError(IllegalReason.NOT_IN_LINE, **names)
    if distance != len(stack):
        return IllegalMoveError(
            IllegalReason.WRONG_DISTANCE, height=len(stack), distance=distance, **names
        )
    if not pos._stacks[target]:
        return IllegalMoveError(IllegalReason.TARGET_EMPTY, **names)
    raise AssertionError(f"{move} was judged illegal in {pos!r} for no reason")  # pragma: no cover


def _play(pos: Position, move: Move, removed: dict[Cell, Stack] | None) -> Position:
    """The position after ``move``; fills ``removed`` (if given) with the stacks cut off."""
    ply = pos._ply
    stacks = pos._stacks
    if type(move) is Jump and ply >= PLACEMENT_PLIES:
        source, target = move.source, move.target
        moving = stacks[source]
        occupied = pos._occupied
        # Legal: the mover's stack, not surrounded, and the target occupied at distance = height.
        mask = _SURROUNDED_MASK[source]
        if (
            not moving
            or moving[-1] != ("W" if (ply - PLACEMENT_PLIES) % 2 == 0 else "B")
            or occupied & mask == mask
            or not occupied & _JUMP_TABLES[source][len(moving)].mask & BIT[target]
        ):
            raise _explain_illegal(pos, move)
        board = list(stacks)
        board[target] += moving
        board[source] = ""
        source_bit, target_bit = BIT[source], BIT[target]
        occupied &= ~source_bit
        dvonn = pos._dvonn
        if "D" in moving:
            dvonn = (dvonn & ~source_bit) | target_bit
        if moving[-1] == "W":
            white = (pos._white & ~source_bit) | target_bit
            black = pos._black & ~target_bit
        else:
            black = (pos._black & ~source_bit) | target_bit
            white = pos._white & ~target_bit
        if (
            pos._settled
            and "D" not in moving
            and occupied & _NEIGHBOUR_MASK[source] not in _SPLITS[source]
        ):
            reached = occupied  # nothing can have lost its DVONN contact
        else:
            reached = _connected(occupied, dvonn)
        if reached != occupied:
            for cell in cells_of(occupied & ~reached):
                if removed is not None:
                    removed[cell] = board[cell]
                board[cell] = ""
            occupied = reached
            white &= reached
            black &= reached
        return _make(tuple(board), ply + 1, occupied, dvonn, white, black)
    if type(move) is Place and ply < PLACEMENT_PLIES:
        cell = move.cell
        if stacks[cell]:
            raise _explain_illegal(pos, move)
        piece = "D" if ply < DVONN_PIECES else ("W" if ply % 2 == 0 else "B")
        board = list(stacks)
        board[cell] = piece
        bit = BIT[cell]
        child = _make(
            tuple(board),
            ply + 1,
            pos._occupied | bit,
            pos._dvonn | bit if piece == "D" else pos._dvonn,
            pos._white | bit if piece == "W" else pos._white,
            pos._black | bit if piece == "B" else pos._black,
        )
        parent_legal = pos._legal
        if parent_legal is not None and ply + 1 < PLACEMENT_PLIES:
            # The child's placements are the parent's minus this cell: cheaper than a rescan.
            i = (ALL_CELLS_MASK & ~pos._occupied & (bit - 1)).bit_count()  # empties before
            child._legal = parent_legal[:i] + parent_legal[i + 1 :]
        return child
    if type(move) is Pass and legal_moves(pos) == _ONLY_PASS:
        child = _make(stacks, ply + 1, pos._occupied, pos._dvonn, pos._white, pos._black)
        child._settled = pos._settled
        return child
    if not isinstance(move, Place | Jump | Pass):
        raise TypeError(f"not a move: {move!r}")
    raise _explain_illegal(pos, move)


def _check_turn(pos: Position, by: Colour | None) -> None:
    if by is not None and by is not pos.turn:
        if is_over(pos):
            raise IllegalMoveError(IllegalReason.GAME_OVER)
        raise IllegalMoveError(IllegalReason.NOT_YOUR_TURN, turn=pos.turn, colour=by)


def play(pos: Position, move: Move, *, by: Colour | None = None) -> Position:
    """The position after ``move``; ``pos`` is unchanged.

    Raises :class:`IllegalMoveError` (saying why) if the move is not legal, or if ``by`` is given
    and it is not that side's turn.
    """
    if by is not None:
        _check_turn(pos, by)
    return _play(pos, move, None)


def apply(pos: Position, move: Move, *, by: Colour | None = None) -> MoveResult:
    """Like :func:`play`, but also says which stacks were cut off and removed."""
    if by is not None:
        _check_turn(pos, by)
    removed: dict[Cell, Stack] = {}
    after = _play(pos, move, removed)
    return MoveResult(pos, move, after, removed)


# --- helpers for choosing a move (the bot's autocomplete) --------------------------------------


def empty_cells(pos: Position) -> list[Cell]:
    """The empty cells, in cell order."""
    return [cell for cell, stack in enumerate(pos._stacks) if not stack]


def movable_cells(pos: Position) -> list[Cell]:
    """The cells the side to act may move a stack from (none while placing)."""
    sources = {move.source for move in legal_moves(pos) if isinstance(move, Jump)}
    return sorted(sources)


def destinations(pos: Position, source: Cell) -> list[Cell]:
    """The cells the stack on ``source`` may legally move to now."""
    return [m.target for m in legal_moves(pos) if isinstance(m, Jump) and m.source == source]


def iter_positions(moves: Sequence[Move], start: Position = _START) -> Iterator[MoveResult]:
    """Play ``moves`` from ``start``, yielding each :class:`MoveResult`."""
    pos = start
    for move in moves:
        result = apply(pos, move)
        yield result
        pos = result.after
