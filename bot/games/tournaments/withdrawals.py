"""Leaving a running tournament: a player's games still to play are lost (a running game as
by resignation, a game not begun as a forfeit), those played count.

A player withdraws by command (:meth:`~bot.games.tournaments.running.Tournaments.withdraw`), or is
withdrawn on losing a game on time without having moved in it (:func:`after_loss_on_time`:
:mod:`bot.games.tournaments.rounds` marks them out before it pairs the next round; their other games
are lost here, right after, both in the tournaments' part of that game's end:
:meth:`~bot.games.tournaments.running.Tournaments.game_ended`). Games end through
:func:`bot.games.core.endings.finish`, whose game-end hooks (the same tournaments' part:
:func:`bot.games.tournaments.rounds.game_over`) move the tournament on.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from bot.games.core import endings
from bot.games.core.endings import GameEndHooks
from bot.games.tournaments import rounds
from bot.storage import Claim, Game, GameStatus, Tournament, TournamentGame, UserId, Writer


async def withdraw(
    tx: Writer,
    tournament: Tournament,
    user_id: UserId,
    now: datetime,
    claim: Claim,
    *,
    hooks: GameEndHooks,
) -> None:
    """``user_id`` leaves running ``tournament`` (a league: the whole league); the games they
    lose end with the features' ``hooks``. Raises
    :class:`~bot.games.tournaments.errors.NotEntered`."""
    await rounds.mark_withdrawn(tx, tournament, user_id, now)
    await forfeit_rest(tx, tournament, user_id, now, claim, hooks=hooks)


async def after_loss_on_time(
    tx: Writer, game: Game, now: datetime, claim: Claim, hooks: GameEndHooks
) -> None:
    """``game`` was just lost on time in ``tx``: if it is a tournament's and its loser never
    moved in it, they were withdrawn, and their other games are lost now (ended with
    ``hooks``)."""
    paired = await tx.pairing_of_game(game.id)
    if paired is None:
        return
    absent = await rounds.absent_loser(tx, game)
    tournament = await tx.tournament(paired.tournament_id)
    if absent is None or tournament is None:
        return
    await forfeit_rest(tx, await rounds.whole_of(tx, tournament), absent, now, claim, hooks=hooks)


async def forfeit_rest(
    tx: Writer,
    tournament: Tournament,
    user_id: UserId,
    now: datetime,
    claim: Claim,
    *,
    hooks: GameEndHooks,
) -> None:
    """Every game of ``user_id`` in ``tournament`` not decided yet is lost."""
    for part in await rounds.parts_of(tx, tournament):
        for paired in await tx.pairings(part.id):
            if user_id in paired.player_ids and not paired.is_decided:
                await _forfeit(tx, paired, user_id, now, claim, hooks=hooks)


async def _forfeit(
    tx: Writer,
    paired: TournamentGame,
    user_id: UserId,
    now: datetime,
    claim: Claim,
    *,
    hooks: GameEndHooks,
) -> None:
    """``user_id`` loses ``paired``'s game: by resignation if it began, else without play
    (not rated, nothing posted but the standings)."""
    assert paired.game_id is not None
    game = await tx.game(paired.game_id)
    if game is None or game.status not in (GameStatus.ACTIVE, GameStatus.PENDING):
        return
    ending = endings.Ending.resignation(game, user_id)
    if game.status is GameStatus.ACTIVE:
        # Its end is posted by whoever looks at the outbox next (the withdrawal's command,
        # the housekeeping pass), not held for the caller, who posts only what it knows of.
        await endings.finish(tx, game, ending, now, rounds.unclaimed(claim, now), hooks=hooks)
        return
    saved = await tx.save_game(endings.ended(game, ending, now), game.version)
    # Not played, so never rated: its rating is claimed with nothing put in, so that the
    # housekeeping pass's catch-up (which rates finished games left unrated) skips it.
    await tx.claim_for_rating(saved.id, now)
    await tx.save_pairing(dataclasses.replace(paired, forfeit=True))
    await rounds.game_over(tx, saved, dataclasses.replace(paired, forfeit=True), now)
