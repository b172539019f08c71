"""What the service's use cases return: everything the Discord layer needs for its message.

The layer should not have to re-derive anything: a :class:`MoveOutcome` says who played what,
which cells were cut off (and which stacks stood on them), which passes the service recorded by
itself, who is to move next, and whether and how the game ended.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

import rules
from bot.storage.models import Challenge, EndReason, Game, GameStatus, RecordedMove, Result, UserId
from rules import CELL_NAMES, Cell, Colour, Move, Position, Stack


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """One action just recorded: the player's own, or a PASS recorded for them."""

    ply: int
    """Its index in the record (0..48 are the placements)."""
    colour: Colour
    player_id: UserId
    move: Move
    automatic: bool
    """``True`` for a PASS the service recorded because the player had no legal move."""
    removed: Mapping[Cell, Stack]
    """The stacks cut off and removed by this action, by cell (bottom to top)."""
    played_at: datetime
    planned: bool = False
    """``True`` for a reply the player planned in advance (:mod:`bot.games.plans.lines`), played
    for them as soon as the move it answered was."""

    @property
    def text(self) -> str:
        """The canonical spelling: ``E3``, ``E3F4`` or ``PASS``."""
        return str(self.move)

    @property
    def is_pass(self) -> bool:
        return isinstance(self.move, rules.Pass)

    @property
    def pieces_removed(self) -> int:
        return sum(map(len, self.removed.values()))

    @property
    def removed_cells(self) -> list[Cell]:
        """The cells emptied by the cut-off, in cell order."""
        return sorted(self.removed)

    @property
    def removed_cell_names(self) -> list[str]:
        return [CELL_NAMES[cell] for cell in self.removed_cells]


@dataclass(frozen=True, slots=True)
class GameOver:
    """How a game ended."""

    reason: EndReason
    result: Result | None
    """``None`` for an aborted game, which has no result."""
    score: tuple[int, int]
    """``(white, black)`` at the end: pieces in the stacks each side controls."""
    winner_id: UserId | None
    """``None`` for a draw or an aborted game."""
    loser_id: UserId | None
    ended_by: UserId | None
    """Who resigned or aborted; ``None`` when the rules ended the game."""

    @classmethod
    def of(cls, game: Game) -> GameOver:
        """The ending of a game that has ended."""
        if game.is_active or game.end_reason is None:
            raise ValueError(f"game {game.id} has not ended")
        winner = game.result.winner if game.result is not None else None
        return cls(
            reason=game.end_reason,
            result=game.result,
            score=game.score if game.score is not None else rules.score(game.position),
            winner_id=None if winner is None else game.player(winner),
            loser_id=None if winner is None else game.player(winner.opponent),
            ended_by=game.ended_by,
        )

    @property
    def is_draw(self) -> bool:
        return self.result is Result.DRAW


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """The result of :meth:`GameService.play`: what happened, as recorded."""

    game: Game
    """The game as saved after the move (and any automatic pass, and any planned reply)."""
    before: Position
    moves: tuple[PlayedMove, ...]
    """The player's move, then any PASS recorded automatically for the next player."""
    ended: GameEnded | None
    """How the game ended, if this move (or a planned reply after it) ended it."""
    announcement: int
    """The outbox row of the turn's post (which shows the ending, if the move ended the game)."""
    replies: tuple[PlayedMove, ...] = ()
    """What was played after the move as planned (:mod:`bot.games.plans.lines`): each planned
    reply, with the passes it forced; each has its own post, after the move's."""

    @property
    def game_over(self) -> GameOver | None:
        return None if self.ended is None else self.ended.over

    @property
    def move(self) -> PlayedMove:
        """The player's own move."""
        return self.moves[0]

    @property
    def automatic_passes(self) -> tuple[PlayedMove, ...]:
        """Passes recorded for players who had no legal move after :attr:`move`."""
        return self.moves[1:]

    @property
    def position(self) -> Position:
        """The position now."""
        return self.game.position

    @property
    def score(self) -> tuple[int, int]:
        """``(white, black)`` now (the final score once the game is over)."""
        return rules.score(self.game.position)

    @property
    def next_player_id(self) -> UserId | None:
        """Who is to move now; ``None`` if the game is over."""
        return self.game.to_move_id

    @property
    def next_colour(self) -> Colour | None:
        return self.game.to_move


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game just started (from a challenge, or against the bot), and its first post."""

    challenge: Challenge | None
    """The challenge accepted; ``None`` for a game against the bot."""
    game: Game
    announcement: int
    """The outbox row of the game's first post."""


@dataclass(frozen=True, slots=True)
class GameEnded:
    """A game that has just ended, and the announcement of it waiting in the outbox."""

    game: Game
    over: GameOver
    announcement: int
    """The outbox row announcing the end, leased to the caller (:mod:`bot.games.core.endings`)."""


@dataclass(frozen=True, slots=True)
class AbortOutcome:
    """The result of :meth:`GameService.abort`: either the game was aborted (``ended``), or a
    player asked for it and the opponent's agreement is awaited."""

    game: Game
    requested_by: UserId
    ended: GameEnded | None
    by_moderator: bool = False
    waiting_for: UserId | None = None
    """The player whose agreement is needed, when not aborted yet."""

    @property
    def aborted(self) -> bool:
        return self.ended is not None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game and its whole record."""

    game: Game
    moves: tuple[RecordedMove, ...]

    @property
    def text(self) -> str:
        """The canonical record: ``"E3 D4 ... E3F4 PASS ..."``."""
        return rules.format_record(m.move for m in self.moves)

    def positions(self) -> list[Position]:
        """Every position: ``[start, after move 1, ..., now]`` (index = ply)."""
        return rules.replay([m.move for m in self.moves])

    def little_golem(self, headers: Mapping[str, str] | None = None) -> str:
        """A Little Golem transcript of the game.

        A transcript can only say that the player *to move* resigned; a resignation out of turn
        is left out.
        """
        resigned = (
            self.game.status is GameStatus.FINISHED
            and self.game.end_reason is EndReason.RESIGNATION
            and self.game.ended_by == self.game.player(self.game.position.turn)
        )
        return rules.format_little_golem(
            [m.move for m in self.moves], headers=headers, resigned=resigned
        )
