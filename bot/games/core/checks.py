"""The checks a use case makes on a game before acting in it, in the order players expect, and
who runs a tournament (whose games its organisers may call off)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.games.core.errors import GameChanged, GameFinished, GameNotFound, NotAPlayer
from bot.storage import Game, Tournament, UserId


def check_running(game: Game, expected_version: int | None = None) -> None:
    """Raises :class:`GameFinished` or (at another version than expected) :class:`GameChanged`."""
    if not game.is_active:
        raise GameFinished(game.id)
    if expected_version is not None and expected_version != game.version:
        raise GameChanged(game.id, expected_version)


async def game_for_action(
    load: Callable[[int], Awaitable[Game | None]],
    game_id: int,
    user_id: UserId,
    expected_version: int | None = None,
) -> Game:
    """The game (read with ``load``, in the caller's transaction) a player is about to act
    in: raises :class:`GameNotFound`, :class:`NotAPlayer`, :class:`GameFinished`,
    :class:`GameChanged`."""
    game = await load(game_id)
    if game is None:
        raise GameNotFound(game_id)
    if not game.is_player(user_id):
        raise NotAPlayer(game_id, user_id)
    check_running(game, expected_version)
    return game


def runs(tournament: Tournament, by: UserId, *, organiser: bool) -> bool:
    """Whether ``by`` runs ``tournament`` (``organiser``: they may run the server's): a
    players' own tournament is run by whoever made it (and the server's organisers); a
    server's by its organisers."""
    return organiser or (tournament.players_own and tournament.organiser_id == by)
