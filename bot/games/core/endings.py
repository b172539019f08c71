"""How a game ends: the one code path every ending takes.

A game ends by the rules (nobody can move: the score decides), by resignation, by a loss on
time, or by an abort (by agreement or by a moderator); games against the bot end the same ways.
Whatever the reason, :func:`finish` writes the same things in the caller's transaction:

* the game's final row: status, result, reason, who ended it, the score, and nothing left
  pending (no deadline, no takeback or abort request, no planned line:
  :mod:`bot.games.plans.lines`);
* the server's ratings, for a rated game with a result (claimed in the same transaction, so a
  game is rated exactly once);
* for a tournament's game, its result, and whatever that moves on (the next round, the end:
  :mod:`bot.games.tournaments.rounds`);
* one announcement in the outbox, claimed by whoever ended the game: that process posts it right
  after the commit, and another deliverer takes it over only if the claim runs out first (a
  crash in between delays the post, never loses it). It is :data:`GAME_ENDED` (the final post),
  or for a game ended by a move, that move's turn post, which shows the ending.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

import rules
from bot.games.core import announcements, ratings
from bot.games.core.ratings import RatingChange
from bot.games.core.results import GameEnded, GameOver
from bot.games.tournaments import rounds
from bot.storage import (
    Claim,
    EndReason,
    Game,
    GameStatus,
    NewMove,
    NewNotification,
    Result,
    UserId,
    Writer,
)
from rules import Position


@dataclass(frozen=True, slots=True)
class Ending:
    """Why and how a game ends: the reason, the result (``None`` for an abort), and who ended
    it (the player who resigned, aborted or ran out of time; ``None`` when the rules did)."""

    reason: EndReason
    result: Result | None
    by: UserId | None = None

    @classmethod
    def by_rules(cls, position: Position) -> Ending:
        outcome = rules.outcome(position)
        if outcome is None:
            raise ValueError("the rules have not ended this game")
        return cls(EndReason.SCORE, Result.won_by(outcome.winner))

    @classmethod
    def resignation(cls, game: Game, user_id: UserId) -> Ending:
        colour = game.colour_of(user_id)
        assert colour is not None, "only a player resigns"
        return cls(EndReason.RESIGNATION, Result.won_by(colour.opponent), user_id)

    @classmethod
    def on_time(cls, game: Game) -> Ending:
        loser = game.position.turn
        return cls(EndReason.TIME, Result.won_by(loser.opponent), game.player(loser))

    @classmethod
    def abort(cls, user_id: UserId) -> Ending:
        return cls(EndReason.ABORT, None, user_id)


def ended(game: Game, ending: Ending, now: datetime, position: Position | None = None) -> Game:
    """``game`` as it is once over (in ``position``, if the ending move changed it)."""
    final = game.position if position is None else position
    return dataclasses.replace(
        game,
        position=final,
        status=GameStatus.ABORTED if ending.reason is EndReason.ABORT else GameStatus.FINISHED,
        result=ending.result,
        end_reason=ending.reason,
        ended_by=ending.by,
        score=rules.score(final),
        deadline_at=None,
        abort_requested_by=None,
        takeback_requested_by=None,
        takeback_ply=None,
        updated_at=now,
        finished_at=now,
    )


async def finish(
    tx: Writer,
    game: Game,
    ending: Ending,
    now: datetime,
    claim: Claim,
    *,
    position: Position | None = None,
    moves: Sequence[NewMove] = (),
    announce: Callable[[Game, RatingChange | None], NewNotification] = announcements.ended,
) -> GameEnded:
    """End ``game`` (read in this transaction, at its current version) in ``tx``: save its
    final row and ``moves``, rate it, and write its announcement (``announce`` of the ended
    game and the rating change), held by ``claim``. Raises
    :class:`~bot.storage.VersionConflict` if the game moved on."""
    saved = await tx.save_game(ended(game, ending, now, position), game.version, moves)
    await tx.drop_plans(game.id)  # nothing is left to answer
    paired = await rounds.lock_for_end(tx, saved)  # a tournament's locks before the ratings'
    change = await ratings.rate_in(tx, saved, now)
    notice = await tx.enqueue(announce(saved, change), now, claim)
    if paired is not None:  # a tournament's game: it goes on
        await rounds.game_over(tx, saved, paired, now)
    return GameEnded(saved, GameOver.of(saved), notice)
