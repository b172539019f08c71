"""The tournaments' announcements: a tournament opened, a game paired, its news (the pattern of
every announcement: :mod:`bot.games.core.announcements`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from bot.storage import Game, NewNotification, Notification, Tournament, UserId

TOURNAMENT_OPENED: Final = "tournament_opened"
"""A tournament was made: its post in its channel (to join), and its own thread."""


TOURNAMENT_GAME: Final = "tournament_game"
"""A tournament's game was paired: its thread is made, then it begins (its first post)."""


TOURNAMENT_NEWS: Final = "tournament_news"
"""A tournament moved on (it began, a game ended, a round was paired, it ended, a league's
season ended): the standings in its thread, replacing the last."""


def tournament_opened(tournament: Tournament) -> NewNotification:
    return NewNotification(TOURNAMENT_OPENED, payload={"tournament": tournament.id})


def tournament_game(game: Game, tournament: Tournament) -> NewNotification:
    """A tournament's game to begin: its thread, then its first post (in its own lane). Its
    posts name it by the game's own number (its id), as every other post of the game does."""
    return NewNotification(TOURNAMENT_GAME, game_id=game.id, payload={"tournament": tournament.id})


def tournament_news(
    tournament: Tournament,
    *,
    started: bool = False,
    game_id: int | None = None,
    final: bool = False,
    season_over: int | None = None,
    withdrawn: UserId | None = None,
    cancelled: bool = False,
) -> NewNotification:
    """What happened to ``tournament``; its post shows the standings as they are when it is
    made (a later post replaces it)."""
    payload: dict[str, Any] = {"tournament": tournament.id}
    if started:
        payload["started"] = True
    if game_id is not None:
        payload["game"] = game_id
    if final:
        payload["final"] = True
    if season_over is not None:
        payload["season_over"] = season_over
    if withdrawn is not None:
        payload["withdrawn"] = withdrawn
    if cancelled:
        payload["cancelled"] = True
    return NewNotification(TOURNAMENT_NEWS, payload=payload)


@dataclass(frozen=True, slots=True)
class TournamentNews:
    """A tournament's post, read back."""

    tournament_id: int
    started: bool
    game_id: int | None
    final: bool
    season_over: int | None
    withdrawn: UserId | None
    cancelled: bool


def read_tournament_news(notification: Notification) -> TournamentNews:
    payload = notification.payload
    game = payload.get("game")
    season = payload.get("season_over")
    withdrawn = payload.get("withdrawn")
    return TournamentNews(
        tournament_id=int(payload["tournament"]),
        started=bool(payload.get("started")),
        game_id=None if game is None else int(game),
        final=bool(payload.get("final")),
        season_over=None if season is None else int(season),
        withdrawn=None if withdrawn is None else int(withdrawn),
        cancelled=bool(payload.get("cancelled")),
    )
