"""Every word the image shows, in one replaceable object, so the bot can pass translations.

Templates use named fields (``"{player} to move"``) so that a translation may put the words in
any order (``"{player} 차례"``). Only the fields shown are filled in; a template may leave
any of them out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

import rules
from rules import Colour, Move, Pass, Phase, Piece, Position
from rules.position import piece_placed_at


@dataclass(frozen=True, slots=True)
class Labels:
    """The header's words. English by default; replace any with :meth:`replace` or a mapping."""

    white: str = "White"
    black: str = "Black"
    placement: str = "Placement"
    """Phase 1's name."""
    movement: str = "Movement"
    """Phase 2's name."""
    move_number: str = "Move {number}"
    """``number``: the action about to be played, counting from 1 (placements and passes too)."""
    to_move: str = "{player} to move"
    to_place_dvonn: str = "{player} to place a DVONN piece"
    """While the three DVONN pieces are placed (the first three placements)."""
    passed: str = "{player} passed"
    """Shown after a pass; ``player`` is the side who passed."""
    wins: str = "{player} wins"
    draw: str = "Draw"
    game_over: str = "Game over"
    separator: str = " · "
    """Between two parts of a status line."""

    def replace(self, **labels: str) -> Labels:
        """These labels with some replaced; raises :class:`ValueError` on an unknown key."""
        return resolve_labels(self, labels)

    def colour(self, colour: Colour) -> str:
        """The name of a side's colour."""
        return self.white if colour is Colour.WHITE else self.black


ENGLISH: Final = Labels()
_FIELDS: Final = frozenset(f.name for f in dataclasses.fields(Labels))


def resolve_labels(base: Labels, overrides: Mapping[str, str] | None = None) -> Labels:
    """``base`` with ``overrides`` applied; raises :class:`ValueError` on an unknown key."""
    overrides = dict(overrides or {})
    unknown = sorted(set(overrides) - _FIELDS)
    if unknown:
        raise ValueError(f"unknown labels {unknown}; known: {sorted(_FIELDS)}")
    return dataclasses.replace(base, **overrides)


@dataclass(frozen=True, slots=True)
class Status:
    """The header's status line: what matters now (bold), then the details (muted)."""

    headline: str
    details: str
    highlighted: Colour | None
    """The side whose card is outlined: the one to move, or the winner."""


def _fill(template: str, **values: object) -> str:
    # A bad translation (an unknown or positional field, a stray brace) must never stop a board
    # from being drawn: unknown fields stay visible, and a template that cannot be filled at
    # all is shown as it is.
    try:
        return template.format_map(_Lenient(values))
    except (ValueError, IndexError, AttributeError, TypeError):
        return template


class _Lenient(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def compute_status(
    pos: Position,
    labels: Labels,
    names: tuple[str, str],
    *,
    last_move: Move | None = None,
) -> Status:
    """The status lines for ``pos``; ``names`` are White's and Black's display names."""

    def name(colour: Colour) -> str:
        return names[0] if colour is Colour.WHITE else names[1]

    result = rules.outcome(pos)
    if result is not None:
        winner = result.winner
        headline = labels.draw if winner is None else _fill(labels.wins, player=name(winner))
        return Status(headline, labels.game_over, winner)
    turn = pos.turn
    placing_dvonn = pos.is_placement and piece_placed_at(pos.ply) is Piece.DVONN
    headline = _fill(labels.to_place_dvonn if placing_dvonn else labels.to_move, player=name(turn))
    number = _fill(labels.move_number, number=pos.ply + 1)
    if isinstance(last_move, Pass):
        detail = _fill(labels.passed, player=name(turn.opponent))
    else:
        detail = labels.placement if pos.phase is Phase.PLACEMENT else labels.movement
    return Status(headline, detail + labels.separator + number, turn)
