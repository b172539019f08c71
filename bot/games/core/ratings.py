"""Glicko-2 ratings per server, and one of the network (its games, between players of any
servers: guild 0, :data:`bot.games.core.network.NETWORK`), one rating period per game (as online
servers do for correspondence), and the use cases that read them.

The maths is the ``glicko2`` package's (Glickman's algorithm); this module only adapts it to
immutable values and our results. A game is rated in the transaction that ends it
(:func:`rate_in`, called by :func:`bot.games.core.endings.finish`), claimed so that it counts once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

import glicko2  # type: ignore[import-untyped]  # the package ships no type hints

from bot.storage import (
    NETWORK_GUILD_ID,
    EndReason,
    Game,
    GuildId,
    PuzzleRating,
    RatingRow,
    Result,
    Store,
    UserId,
    Writer,
)

START_RATING: Final = 1500.0
START_DEVIATION: Final = 350.0
START_VOLATILITY: Final = 0.06
PROVISIONAL_DEVIATION: Final = 110.0
"""A rating whose deviation is at least this is provisional: shown with a "?" (as lichess
does), since too few games were played to be sure of it."""
LEADERBOARD_MIN_GAMES: Final = 3
LEADERBOARD_SIZE: Final = 10
_SCORES: Final = {Result.WHITE: 1.0, Result.BLACK: 0.0, Result.DRAW: 0.5}


def new_rating(guild_id: GuildId, user_id: UserId) -> RatingRow:
    return RatingRow(guild_id, user_id, START_RATING, START_DEVIATION, START_VOLATILITY)


@dataclass(frozen=True, slots=True)
class Glicko:
    """A Glicko-2 rating: the rating, its deviation and its volatility."""

    rating: float
    deviation: float
    volatility: float


def glicko_step(
    me: Glicko, opponent_rating: float, opponent_deviation: float, score: float
) -> Glicko:
    """``me`` after one rating period of one game (or puzzle) against an opponent of
    ``opponent_rating`` and ``opponent_deviation``; ``score`` is 1 (won), 0.5 or 0 (lost).
    The one Glicko-2 step of the game ratings and the puzzle ratings."""
    player = glicko2.Player(rating=me.rating, rd=me.deviation, vol=me.volatility)
    player.update_player([opponent_rating], [opponent_deviation], [score])
    return Glicko(float(player.getRating()), float(player.getRd()), float(player.vol))


def _updated(me: RatingRow, opponent: RatingRow, score: float) -> RatingRow:
    after = glicko_step(
        Glicko(me.rating, me.deviation, me.volatility),
        opponent.rating,
        opponent.deviation,
        score,
    )
    return dataclasses.replace(
        me,
        rating=after.rating,
        deviation=after.deviation,
        volatility=after.volatility,
        games=me.games + 1,
        wins=me.wins + (score == 1.0),
        losses=me.losses + (score == 0.0),
        draws=me.draws + (score == 0.5),
    )


def rate(white: RatingRow, black: RatingRow, white_score: float) -> tuple[RatingRow, RatingRow]:
    """Both players' ratings after one game; ``white_score`` is 1 (won), 0.5 or 0 (lost)."""
    if white_score not in (0.0, 0.5, 1.0):
        raise ValueError(f"a game's score is 0, 0.5 or 1, not {white_score}")
    return _updated(white, black, white_score), _updated(black, white, 1.0 - white_score)


def rating_key(game: Game) -> GuildId | None:
    """Whose ratings ``game`` goes into: the network's (guild 0) for a network game, else its
    server's; ``None``: nobody's (a private game, played in no server)."""
    return NETWORK_GUILD_ID if game.network else game.guild_id


def counts(game: Game) -> bool:
    """Whether ``game``'s result goes into ratings (:func:`rating_key`): a rated game (not
    against the bot) in a server or in the network, finished with a result (not aborted)."""
    return (
        game.rated
        and rating_key(game) is not None
        and game.result is not None
        and game.end_reason is not EndReason.ABORT
    )


@dataclass(frozen=True, slots=True)
class RatingChange:
    """Both players' ratings before and after one game."""

    white_before: RatingRow
    white_after: RatingRow
    black_before: RatingRow
    black_after: RatingRow


def is_provisional(rating: RatingRow | PuzzleRating) -> bool:
    """Too few games (or puzzles) to be sure of the rating: shown with a "?"."""
    return rating.deviation >= PROVISIONAL_DEVIATION


async def rate_in(tx: Writer, game: Game, now: datetime) -> RatingChange | None:
    """Put a finished game's result into its server's ratings (a network game's: into the
    network's, and no server's), in ``tx``, exactly once.

    Returns both players' ratings before and after, or ``None`` if there was nothing to do
    (the game does not count, or it was rated already)."""
    if not counts(game) or not await tx.claim_for_rating(game.id, now):
        return None
    guild = rating_key(game)
    assert guild is not None and game.result is not None
    # Every player's row exists, then is locked, in the order of their ids: a game of the
    # same player ending in another process waits for this one and starts from its result
    # (PostgreSQL; SQLite's transactions take turns anyway).
    players = sorted({game.white_id, game.black_id})
    for user_id in players:
        await tx.add_rating(new_rating(guild, user_id), now)
    current = {user_id: await tx.rating(guild, user_id) for user_id in players}
    white = current[game.white_id] or new_rating(guild, game.white_id)
    black = current[game.black_id] or new_rating(guild, game.black_id)
    new_white, new_black = rate(white, black, _SCORES[game.result])
    await tx.save_rating(new_white, now)
    await tx.save_rating(new_black, now)
    return RatingChange(white, new_white, black, new_black)


@dataclass(frozen=True, slots=True)
class Profile:
    user_id: UserId
    rating: RatingRow | None
    active: tuple[Game, ...]


@dataclass(frozen=True, slots=True)
class Rated:
    """What the housekeeping pass's rating job did: how many games it rated (it posts
    nothing)."""

    games: int = 0

    @property
    def announcements(self) -> tuple[int, ...]:
        return ()


class Ratings:
    """The ratings' use cases: a player's profile, a server's leaderboard and the network's,
    catching up."""

    def __init__(self, store: Store, now: Callable[[], datetime]) -> None:
        self._store = store
        self._now = now

    async def rate_game(self, game: Game) -> RatingChange | None:
        """Rate a finished game in a transaction of its own (:func:`rate_in`)."""
        if not counts(game):
            return None
        async with self._store.write() as tx:
            return await rate_in(tx, game, self._now())

    async def rate_unrated(self) -> Rated:
        """The housekeeping pass's job: :meth:`rate_finished_games`."""
        return Rated(await self.rate_finished_games())

    async def rate_finished_games(self) -> int:
        """Rate the finished games a crash left unrated (before version 5 of the database, a
        game was rated after the transaction that ended it); each exactly once."""
        count = 0
        for game in await self._store.games_to_rate():
            if await self.rate_game(game) is not None:
                count += 1
        return count

    async def rating(self, guild_id: GuildId, user_id: UserId) -> RatingRow | None:
        return await self._store.rating(guild_id, user_id)

    async def profile(self, guild_id: GuildId, user_id: UserId) -> Profile:
        rating = await self._store.rating(guild_id, user_id)
        active = await self._store.active_games_of(user_id)
        return Profile(user_id, rating, tuple(g for g in active if g.guild_id == guild_id))

    async def leaderboard(self, guild_id: GuildId) -> list[RatingRow]:
        return await self._store.leaderboard(
            guild_id, min_games=LEADERBOARD_MIN_GAMES, limit=LEADERBOARD_SIZE
        )

    async def network_rating(self, user_id: UserId) -> RatingRow | None:
        """A player's rating in the network (``None``: no network game rated yet)."""
        return await self._store.rating(NETWORK_GUILD_ID, user_id)

    async def network_leaderboard(self) -> list[RatingRow]:
        """The network's best ratings, of players in the network now (one who left drops off)."""
        return await self._store.network_leaderboard(
            min_games=LEADERBOARD_MIN_GAMES, limit=LEADERBOARD_SIZE
        )
