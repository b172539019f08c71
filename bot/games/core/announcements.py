"""What the game service announces: the kinds of outbox row of every game (a turn, a game's
start and end, a channel lost), and the data its post is drawn from. Each feature's own kinds
are in its package's ``announcements`` module (or flat beside this one, until it has a package).

A use case writes its announcement in the transaction of the change (so a crash cannot lose
it), with everything the post needs *as it was then*: a turn's post shows the board after that
turn even if it goes out after later moves were made. The posting side reads them back with
the ``read_*`` functions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

import rules
from bot.games.core.ratings import RatingChange, is_provisional
from bot.games.core.results import PlayedMove
from bot.storage import Game, GameStatus, NewNotification, Notification, UserId
from bot.storage.models import optional_time
from rules import CELL_NAMES, Colour, Position

TURN: Final = "turn"
"""A move was played (with the passes recorded after it): the board, and who is to move."""
GAME_STARTED: Final = "game_started"
"""A game began: its first post, pinging White."""
GAME_ENDED: Final = "game_ended"
"""A game ended other than by a move (resignation, time, abort): the final post."""
CHANNEL_LOST: Final = "channel_lost"
"""A game's thread or channel refused the bot's posts: a player is told, by DM."""


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
    the rating change it made); ``answer``: the command whose answer its post may be (in a
    network game, its post in the mover's home);
    ``followed``: a planned reply was played right after it (see :class:`TurnPost`)."""
    payload: dict[str, Any] = {
        "position": game.position.to_text(),
        "deadline": time_text(game.deadline_at),
        **banks_payload(game),
        "moves": [_played(m) for m in moves],
        "over": over,
    }
    if followed:
        payload["followed"] = True
    if change is not None:
        payload["ratings"] = _ratings(change)
    # A network game's turn is posted in each of its homes: the command's answer is the post
    # in the mover's own (their seat; a home of both players keeps it too).
    mover = moves[0].colour.value if moves and answer is not None else None
    return NewNotification(TURN, game_id=game.id, payload=payload, answer=answer, answer_home=mover)


def channel_lost(game: Game, user_id: UserId) -> NewNotification:
    """A player is told that the bot can no longer post where ``game`` is played (no game
    id: the game's own posts are given up, and this one goes by DM)."""
    return NewNotification(
        CHANNEL_LOST, user_id=user_id, payload={"game": game.id, "channel": game.channel_id}
    )


def started(game: Game) -> NewNotification:
    """A game's first post; a random setup's shows the board it begins with."""
    payload: dict[str, Any] = {"deadline": time_text(game.deadline_at), **banks_payload(game)}
    if game.setup_seed is not None:
        payload["position"] = game.position.to_text()
    return NewNotification(GAME_STARTED, game_id=game.id, payload=payload)


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
    game = current if over else as_then(current, payload)
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


def as_then(current: Game, payload: Mapping[str, Any]) -> Game:
    then = dataclasses.replace(
        current,
        position=Position.from_text(str(payload["position"])),
        deadline_at=optional_time(payload.get("deadline")),
        status=GameStatus.ACTIVE,
    )
    return _with_banks(then, payload)


def time_text(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def banks_payload(game: Game) -> dict[str, list[float]]:
    """Both banks of a time-bank game, in seconds (nothing for other games)."""
    if game.white_bank is None or game.black_bank is None:
        return {}
    return {"banks": [game.white_bank.total_seconds(), game.black_bank.total_seconds()]}


def _with_banks(game: Game, payload: Mapping[str, Any]) -> Game:
    """``game`` with the banks ``payload`` keeps (as :func:`banks_payload` wrote them), if any."""
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
