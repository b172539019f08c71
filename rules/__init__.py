"""DVONN's rules: the board, positions, legal moves and notation. Standard library only.

>>> import rules
>>> pos = rules.new_game()
>>> pos = rules.play(pos, rules.parse_move("e3"))
>>> str(rules.legal_moves(pos)[0])
'A1'
"""

from rules.board import (
    CELL_COUNT,
    CELL_NAMES,
    CELLS,
    DIRECTIONS,
    HEXES,
    NEIGHBOURS,
    RAYS,
    Cell,
    Hex,
    cell_name,
    distance_in_line,
    lookup_cell,
)
from rules.errors import (
    IllegalMoveError,
    IllegalReason,
    InvalidMoveError,
    InvalidReason,
    RulesError,
)
from rules.moves import PASS, Jump, Move, Pass, Place, jump, parse_move
from rules.position import (
    PLACEMENT_PLIES,
    Colour,
    MoveResult,
    Outcome,
    Phase,
    Piece,
    Position,
    PositionTextError,
    Stack,
    apply,
    colour_to_act,
    destinations,
    empty_cells,
    is_over,
    legal_moves,
    movable_cells,
    new_game,
    outcome,
    play,
    score,
)
from rules.record import (
    Transcript,
    TranscriptError,
    format_little_golem,
    format_record,
    parse_little_golem,
    parse_record,
    replay,
)

# Cell constants, as python-chess has chess.E4: rules.E3 == 24.
globals().update({name: cell for cell, name in enumerate(CELL_NAMES)})

__all__ = [
    "CELLS",
    "CELL_COUNT",
    "CELL_NAMES",
    "DIRECTIONS",
    "HEXES",
    "NEIGHBOURS",
    "PASS",
    "PLACEMENT_PLIES",
    "RAYS",
    "Cell",
    "Colour",
    "Hex",
    "IllegalMoveError",
    "IllegalReason",
    "InvalidMoveError",
    "InvalidReason",
    "Jump",
    "Move",
    "MoveResult",
    "Outcome",
    "Pass",
    "Phase",
    "Piece",
    "Place",
    "Position",
    "PositionTextError",
    "RulesError",
    "Stack",
    "Transcript",
    "TranscriptError",
    "apply",
    "cell_name",
    "colour_to_act",
    "destinations",
    "distance_in_line",
    "empty_cells",
    "format_little_golem",
    "format_record",
    "is_over",
    "jump",
    "legal_moves",
    "lookup_cell",
    "movable_cells",
    "new_game",
    "outcome",
    "parse_little_golem",
    "parse_move",
    "parse_record",
    "play",
    "replay",
    "score",
]
