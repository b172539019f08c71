"""A turn, as every move of a game is recorded: the move (a player's own, a planned one, or a
random setup's placement) and the passes it forces, and their rows in the game's record.

A pass is never a choice: a turn records at once every pass its move forces, so the turn goes
to the player who can move (possibly the mover again).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import rules
from bot.games.core.results import PlayedMove
from bot.storage import Game, NewMove
from rules import Move, MoveResult, Position


@dataclass(frozen=True, slots=True)
class Turn:
    """One move played (a player's own, or a planned one) and the passes forced after it."""

    played: MoveResult
    passes: tuple[MoveResult, ...] = ()
    planned: bool = False

    @property
    def after(self) -> Position:
        """The position once the move and its passes are recorded."""
        return (self.passes[-1] if self.passes else self.played).after

    @property
    def results(self) -> tuple[MoveResult, ...]:
        """The move, then its passes."""
        return (self.played, *self.passes)


def turn(position: Position, move: Move, *, planned: bool = False) -> Turn:
    """Play ``move`` and record the passes it forces (a player with no legal move passes, so
    the turn goes to the one who can move, possibly the mover again). Raises the rules' errors
    for a move that cannot be played."""
    played = rules.apply(position, move)
    passes: list[MoveResult] = []
    at = played.after
    while rules.legal_moves(at) == (rules.PASS,):
        forced = rules.apply(at, rules.PASS)
        passes.append(forced)
        at = forced.after
    return Turn(played, tuple(passes), planned)


def played_turn(game: Game, turn: Turn, now: datetime) -> list[PlayedMove]:
    """A turn's move and the passes it forced, as recorded."""
    return [
        played_move(game, result, now, automatic=index > 0, planned=turn.planned and index == 0)
        for index, result in enumerate(turn.results)
    ]


def played_move(
    game: Game,
    result: rules.MoveResult,
    now: datetime,
    *,
    automatic: bool,
    planned: bool = False,
) -> PlayedMove:
    """One action of ``game`` as recorded: its player's (``planned`` in advance), or a pass
    recorded for them (``automatic``)."""
    return PlayedMove(
        ply=result.before.ply,
        colour=result.mover,
        player_id=game.player(result.mover),
        move=result.move,
        automatic=automatic,
        removed=dict(result.removed),
        played_at=now,
        planned=planned,
    )


def new_moves(played: Sequence[PlayedMove], before: Game, after: Game) -> list[NewMove]:
    """The records of ``played``, with the banks as they were when each ply's turn began:
    ``before``'s for the first, ``after``'s for the passes recorded after it."""
    records: list[NewMove] = []
    for index, m in enumerate(played):
        banked = before if index == 0 else after
        records.append(
            NewMove(
                m.ply,
                m.colour,
                m.player_id,
                m.move,
                m.automatic,
                m.played_at,
                banked.white_bank,
                banked.black_bank,
            )
        )
    return records
