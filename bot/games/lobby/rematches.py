"""Rematches: a finished game played again by its two players, colours swapped, on the same
clock and setup.

A game's end post carries a Rematch button for either player (:func:`offers_rematch` says
which ends do). Against a person it makes a challenge to the other player
(:meth:`bot.games.lobby.challenges.Lobby.offer_rematch`), which they accept or decline like any
other; against the bot the new game starts at once
(:meth:`bot.games.lobby.challenges.Lobby.start_computer_game` with ``rematch_of``). A game has
one rematch: whoever asks second, or asks again, is told what became of the first
(:func:`check_rematch`, under the old game's row lock, so two processes asking at once take
turns and the second is told); only an offer its own player cancelled (or whose post could not
be made) may be made again.
"""

from __future__ import annotations

from datetime import datetime

from bot.games.core.errors import GameNotFound, NotAPlayer
from bot.games.lobby.errors import (
    RematchAlreadyOffered,
    RematchOfAbortedGame,
    RematchOfferedToYou,
    RematchOfFormerPlayer,
    RematchOfTournamentGame,
    RematchPlayed,
    RematchRefused,
    RematchTooEarly,
)
from bot.storage import (
    ChallengeStatus,
    EndReason,
    Game,
    GameStatus,
    UserId,
    Writer,
    is_placeholder,
)
from rules import PLACEMENT_PLIES, Colour


def offers_rematch(game: Game) -> bool:
    """Whether ``game``'s end post offers a rematch: it ended with a result (not called off),
    it was not a tournament's (a challenge's game, or one against the bot), and its loser did
    not lose on time without a move of their own in it (a player who never came, or went
    away: Discord does not tell a bot who left, and a rematch would only wait for them).

    Said from the game alone, as its post is drawn: a loser whose time ran out at their own
    first ply (White's is a standard game's first, or a random setup's first move; Black's the
    ply after) made no move of their own, as :func:`bot.games.tournaments.rounds` counts them (a
    random setup's placements are not the players' own)."""
    if game.status is not GameStatus.FINISHED:
        return False
    if game.challenge_id is None and game.computer_id is None:
        return False  # a tournament's game (paired, not challenged)
    winner = None if game.result is None else game.result.winner
    if game.end_reason is EndReason.TIME and winner is not None:
        first = PLACEMENT_PLIES if game.setup_seed is not None else 0
        if game.ply <= first + (winner is Colour.WHITE):  # the loser's first ply, or before
            return False
    return True


def rematch_colour(game: Game, user_id: UserId) -> Colour:
    """The colour ``user_id`` plays in ``game``'s rematch: the other one."""
    colour = game.colour_of(user_id)
    if colour is None:
        raise NotAPlayer(game.id, user_id)
    return colour.opponent


async def check_rematch(tx: Writer, game_id: int, user_id: UserId, now: datetime) -> Game:
    """The game ``user_id`` may have a rematch of now, read (and its row locked) in ``tx``.

    Raises :class:`GameNotFound`, :class:`NotAPlayer`, :class:`RematchTooEarly`,
    :class:`RematchOfAbortedGame`, :class:`RematchOfTournamentGame`,
    :class:`RematchOfFormerPlayer`, and, when the game had its
    rematch: :class:`RematchAlreadyOffered`, :class:`RematchOfferedToYou`,
    :class:`RematchPlayed` or :class:`RematchRefused`."""
    game = await tx.game(game_id)
    if game is None:
        raise GameNotFound(game_id)
    if not game.is_player(user_id):
        raise NotAPlayer(game_id, user_id)
    if game.status is GameStatus.ABORTED:
        raise RematchOfAbortedGame(game_id)
    if game.status is not GameStatus.FINISHED:
        raise RematchTooEarly(game_id)
    if await tx.pairing_of_game(game_id) is not None:
        raise RematchOfTournamentGame(game_id)
    if is_placeholder(game.opponent_of(user_id)):
        raise RematchOfFormerPlayer(game_id)
    played = await tx.rematch_game(game_id)
    if played is not None:
        raise RematchPlayed(game_id, played.id, played.channel_id)
    offered = await tx.rematch_challenge(game_id)
    if offered is None:
        return game
    if offered.status is ChallengeStatus.OPEN and not offered.is_expired(now):
        if offered.challenger_id == user_id:
            raise RematchAlreadyOffered(game_id, offered.id)
        raise RematchOfferedToYou(game_id, offered.id)
    raise RematchRefused(game_id)
