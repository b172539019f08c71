"""How a game ends: the one code path every ending takes.

A game ends by the rules (nobody can move: the score decides), by resignation, by a loss on
time, or by an abort (by agreement or by a moderator); games against the bot end the same ways.
Whatever the reason, :func:`finish` writes the same things in the caller's transaction:

* the game's final row: status, result, reason, who ended it, the score, and nothing left
  pending (no deadline, no takeback or abort request, no planned line:
  :mod:`bot.games.plans.lines`);
* the server's ratings, for a rated game with a result (claimed in the same transaction, so a
  game is rated exactly once);
* whatever the features that follow games do when one ends (a tournament's game: its result, and
  whatever that moves on), through the hooks they register in :class:`GameEndHooks`;
* one announcement in the outbox, claimed by whoever ended the game: that process posts it right
  after the commit, and another deliverer takes it over only if the claim runs out first (a
  crash in between delays the post, never loses it). It is :data:`GAME_ENDED` (the final post),
  or for a game ended by a move, that move's turn post, which shows the ending.

The core knows no feature that follows games (as lichess's ``round/Finisher`` publishes that a
game finished and its ``tournament`` subscribes), but here everything happens in the ending's one
transaction, since the outbox commits with the change. A feature's hook runs in two phases
around the ratings, so that the locks keep PostgreSQL's one order (see
:mod:`bot.games.tournaments.rounds`): first, before the game is rated, it takes its locks (the
players' ratings are locked last) and returns its step for after (or ``None``: nothing to do); that
step runs once the game's end is announced. The service makes one :class:`GameEndHooks`, registers
the features' hooks, and hands it to every part of it that ends games.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

import rules
from bot.games.core import announcements, ratings
from bot.games.core.ratings import RatingChange
from bot.games.core.results import GameEnded, GameOver
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
class GameEnd:
    """A game ending in ``tx``: ``game`` is its final row, saved and not rated yet; what the
    ending writes is held by ``claim``."""

    tx: Writer
    game: Game
    now: datetime
    claim: Claim


AfterEnd = Callable[[], Awaitable[None]]
"""A feature's step once the game's end is rated and announced, in the same transaction."""
EndingHook = Callable[[GameEnd], Awaitable[AfterEnd | None]]
"""A feature's part in every game's end: called before the game is rated, it takes the locks its
step after needs (the ratings' come last) and returns that step (``None``: the game is none of
its business)."""


class GameEndHooks:
    """What the features do when a game ends, run by :func:`finish` in the order registered."""

    def __init__(self) -> None:
        self._hooks: list[EndingHook] = []

    def register(self, hook: EndingHook) -> None:
        """Run ``hook`` at every game's end, after those registered before it."""
        self._hooks.append(hook)

    async def before_ratings(self, end: GameEnd) -> list[AfterEnd]:
        """Every hook's first phase, in order; their steps for after the announcement."""
        after = []
        for hook in self._hooks:
            step = await hook(end)
            if step is not None:
                after.append(step)
        return after


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
    hooks: GameEndHooks,
    position: Position | None = None,
    moves: Sequence[NewMove] = (),
    announce: Callable[[Game, RatingChange | None], NewNotification] = announcements.ended,
) -> GameEnded:
    """End ``game`` (read in this transaction, at its current version) in ``tx``: save its
    final row and ``moves``, run the features' ``hooks`` (their locks before the ratings,
    their steps after the announcement), rate it, and write its announcement (``announce`` of
    the ended game and the rating change), held by ``claim``. Raises
    :class:`~bot.storage.VersionConflict` if the game moved on."""
    saved = await tx.save_game(ended(game, ending, now, position), game.version, moves)
    await tx.drop_plans(game.id)  # nothing is left to answer
    after = await hooks.before_ratings(GameEnd(tx, saved, now, claim))  # locks before ratings'
    change = await ratings.rate_in(tx, saved, now)
    notice = await tx.enqueue(announce(saved, change), now, claim)
    for step in after:
        await step()
    return GameEnded(saved, GameOver.of(saved), notice)
