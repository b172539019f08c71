"""What the game service announces: each kind of outbox row, and the data its post is drawn from.

A use case writes its announcement in the transaction of the change (so a crash cannot lose
it), with everything the post needs *as it was then*: a turn's post shows the board after that
turn even if it goes out after later moves were made. The posting side reads them back with
the ``read_*`` functions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final

import rules
from bot.games.ratings import RatingChange, is_provisional
from bot.games.results import PlayedMove
from bot.storage import (
    DailyPuzzlePost,
    Game,
    GameStatus,
    NewNotification,
    Notification,
    Tournament,
    UserId,
)
from bot.storage.models import optional_time
from rules import CELL_NAMES, Colour, Position

TURN: Final = "turn"
"""A move was played (with the passes recorded after it): the board, and who is to move."""
GAME_STARTED: Final = "game_started"
"""A game began: its first post, pinging White."""
TAKEBACK: Final = "takeback"
"""A takeback was accepted: the board again, and who is to move."""
GAME_ENDED: Final = "game_ended"
"""A game ended other than by a move (resignation, time, abort): the final post."""
REMINDER: Final = "reminder"
"""A player's deadlines draw near (a DM)."""
DIGEST: Final = "digest"
"""A player's daily digest of the games where it is their turn (a DM)."""
VACATION: Final = "vacation"
"""A player went on vacation: their opponent is told."""
CHANNEL_LOST: Final = "channel_lost"
"""A game's thread or channel refused the bot's posts: a player is told, by DM."""
TOURNAMENT_OPENED: Final = "tournament_opened"
"""A tournament was made: its post in its channel (to join), and its own thread."""
TOURNAMENT_GAME: Final = "tournament_game"
"""A tournament's game was paired: its thread is made, then it begins (its first post)."""
TOURNAMENT_NEWS: Final = "tournament_news"
"""A tournament moved on (it began, a game ended, a round was paired, it ended, a league's
season ended): the standings in its thread, replacing the last."""
DAILY_PUZZLE: Final = "daily_puzzle"
"""The day's puzzle, posted in the channel a server chose for it."""
DAILY_PUZZLE_COUNT: Final = "daily_puzzle_count"
"""How many solved a server's daily puzzle, shown on its post once the day is over."""


@dataclass(frozen=True, slots=True)
class TurnPost:
    """A turn as its post shows it."""

    game: Game
    """The game as it was right after the turn."""
    moves: tuple[PlayedMove, ...]
    over: bool
    followed: bool = False
    """A planned reply was played at once after this turn (its own post follows): nobody is
    called to move by this one."""


def turn(
    game: Game,
    moves: Sequence[PlayedMove],
    *,
    over: bool = False,
    change: RatingChange | None = None,
    answer: str | None = None,
    followed: bool = False,
) -> NewNotification:
    """The announcement of a turn: ``game`` as saved after ``moves`` (and, for the last turn,
    the rating change it made); ``answer``: the command whose answer its post may be;
    ``followed``: a planned reply was played right after it (see :class:`TurnPost`)."""
    payload: dict[str, Any] = {
        "position": game.position.to_text(),
        "deadline": _time(game.deadline_at),
        **_banks(game),
        "moves": [_played(m) for m in moves],
        "over": over,
    }
    if followed:
        payload["followed"] = True
    if change is not None:
        payload["ratings"] = _ratings(change)
    return NewNotification(TURN, game_id=game.id, payload=payload, answer=answer)


def channel_lost(game: Game, user_id: UserId) -> NewNotification:
    """A player is told that the bot can no longer post where ``game`` is played (no game
    id: the game's own posts are given up, and this one goes by DM)."""
    return NewNotification(
        CHANNEL_LOST, user_id=user_id, payload={"game": game.id, "channel": game.channel_id}
    )


def started(game: Game) -> NewNotification:
    """A game's first post; a random setup's shows the board it begins with."""
    payload: dict[str, Any] = {"deadline": _time(game.deadline_at), **_banks(game)}
    if game.setup_seed is not None:
        payload["position"] = game.position.to_text()
    return NewNotification(GAME_STARTED, game_id=game.id, payload=payload)


def takeback(game: Game, undone: Sequence[str]) -> NewNotification:
    return NewNotification(
        TAKEBACK,
        game_id=game.id,
        payload={
            "position": game.position.to_text(),
            "deadline": _time(game.deadline_at),
            **_banks(game),
            "undone": list(undone),
        },
    )


def ended(game: Game, change: RatingChange | None = None) -> NewNotification:
    payload = {} if change is None else {"ratings": _ratings(change)}
    return NewNotification(GAME_ENDED, game_id=game.id, payload=payload)


@dataclass(frozen=True, slots=True)
class RatingShift:
    """One player's rating before and after a game, as the game's last post shows it."""

    before: float
    after: float
    provisional: bool
    """The rating after is still provisional (too few games to be sure of it)."""


def read_ratings(notification: Notification) -> tuple[RatingShift, RatingShift] | None:
    """White's and Black's rating shifts, for an announcement of a rated game's end."""
    found = notification.payload.get("ratings")
    if not found:
        return None
    white, black = (RatingShift(*found[side]) for side in ("white", "black"))
    return white, black


def _ratings(change: RatingChange) -> dict[str, list[Any]]:
    return {
        "white": [
            change.white_before.rating,
            change.white_after.rating,
            is_provisional(change.white_after),
        ],
        "black": [
            change.black_before.rating,
            change.black_after.rating,
            is_provisional(change.black_after),
        ],
    }


def read_turn(notification: Notification, current: Game) -> TurnPost:
    """The turn announced, over the game as it is now (``current``)."""
    payload = notification.payload
    over = bool(payload.get("over"))
    game = current if over else _as_then(current, payload)
    moves = tuple(_read_played(m, game) for m in payload.get("moves", ()))
    return TurnPost(game, moves, over, followed=bool(payload.get("followed")))


def is_placement(notification: Notification) -> bool:
    """Whether a turn's announcement is of a placement (whose board the next one replaces)."""
    moves = notification.payload.get("moves") or ()
    if notification.kind != TURN or not moves:
        return False
    return isinstance(rules.parse_move(str(moves[0]["move"])), rules.Place)


def read_started(notification: Notification, current: Game) -> Game:
    """The game as it began (a random setup's with its pieces placed)."""
    placed = notification.payload.get("position")
    then = dataclasses.replace(
        current,
        status=GameStatus.ACTIVE,
        deadline_at=optional_time(notification.payload.get("deadline")),
        position=rules.new_game() if placed is None else Position.from_text(str(placed)),
    )
    return _with_banks(then, notification.payload)


def read_takeback(notification: Notification, current: Game) -> tuple[Game, tuple[str, ...]]:
    """The game as the takeback left it, and the moves undone."""
    payload = notification.payload
    return _as_then(current, payload), tuple(str(m) for m in payload.get("undone", ()))


def _as_then(current: Game, payload: Mapping[str, Any]) -> Game:
    then = dataclasses.replace(
        current,
        position=Position.from_text(str(payload["position"])),
        deadline_at=optional_time(payload.get("deadline")),
        status=GameStatus.ACTIVE,
    )
    return _with_banks(then, payload)


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _banks(game: Game) -> dict[str, list[float]]:
    """Both banks of a time-bank game, in seconds (nothing for other games)."""
    if game.white_bank is None or game.black_bank is None:
        return {}
    return {"banks": [game.white_bank.total_seconds(), game.black_bank.total_seconds()]}


def _with_banks(game: Game, payload: Mapping[str, Any]) -> Game:
    """``game`` with the banks ``payload`` keeps (as :func:`_banks` wrote them), if any."""
    found = payload.get("banks")
    if not found:
        return game
    white, black = (timedelta(seconds=float(seconds)) for seconds in found)
    return dataclasses.replace(game, white_bank=white, black_bank=black)


def _played(move: PlayedMove) -> dict[str, Any]:
    return {
        "ply": move.ply,
        "colour": move.colour.value,
        "move": move.text,
        "auto": move.automatic,
        "removed": {CELL_NAMES[cell]: stack for cell, stack in move.removed.items()},
        "at": move.played_at.isoformat(),
        **({"planned": True} if move.planned else {}),
    }


def _read_played(data: Mapping[str, Any], game: Game) -> PlayedMove:
    colour = Colour(str(data["colour"]))
    player: UserId = game.player(colour)
    removed: dict[int, str] = {}
    for name, stack in data.get("removed", {}).items():
        cell = rules.lookup_cell(str(name))
        assert cell is not None, f"a stored cell name is always a cell: {name}"
        removed[cell] = str(stack)
    return PlayedMove(
        ply=int(data["ply"]),
        colour=colour,
        player_id=player,
        move=rules.parse_move(str(data["move"])),
        automatic=bool(data.get("auto")),
        removed=removed,
        played_at=datetime.fromisoformat(str(data["at"])),
        planned=bool(data.get("planned")),
    )


# --- tournaments -------------------------------------------------------------------------------


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


def daily_puzzle(guild_id: int, channel_id: int, day: date, puzzle_id: str) -> NewNotification:
    """A server's post of the day's puzzle, in ``channel_id``."""
    return NewNotification(
        DAILY_PUZZLE,
        payload={
            "guild": guild_id,
            "channel": channel_id,
            "day": day.isoformat(),
            "puzzle": puzzle_id,
        },
    )


def daily_puzzle_count(post: DailyPuzzlePost) -> NewNotification:
    """A daily post's count (``post.solvers`` of ``post.tried`` done, ``post.still_open``
    still trying), to show on it."""
    return NewNotification(
        DAILY_PUZZLE_COUNT,
        payload={
            "guild": post.guild_id,
            "channel": post.channel_id,
            "day": post.day.isoformat(),
            "puzzle": post.puzzle_id,
            "solvers": post.solvers,
            "tried": post.tried,
            "open": post.still_open,
        },
    )


def read_daily_puzzle(notification: Notification) -> DailyPuzzlePost:
    """The post a :data:`DAILY_PUZZLE` or :data:`DAILY_PUZZLE_COUNT` announcement is about
    (with its count, for the latter; its message is the store's to say)."""
    payload = notification.payload
    return DailyPuzzlePost(
        guild_id=int(payload["guild"]),
        day=date.fromisoformat(payload["day"]),
        puzzle_id=str(payload["puzzle"]),
        channel_id=int(payload["channel"]),
        solvers=payload.get("solvers"),
        tried=payload.get("tried"),
        still_open=payload.get("open"),
    )
