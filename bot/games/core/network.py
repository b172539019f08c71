"""The DVONN network's place in the core (issue 41): its id among the servers' (its ratings and
its championship are rows of guild :data:`NETWORK`), and where a network game is played for
each of its players (:func:`homes_for`, :func:`make_homes`) with the announcement that makes
each home ready (:data:`NETWORK_HOME`), which whatever begins a network game uses (the
network's challenges, its championship)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from bot.storage import (
    NETWORK_GUILD_ID,
    Game,
    GuildId,
    HomeSeat,
    NetworkServer,
    NewHome,
    NewNotification,
    Notification,
    UserId,
    Writer,
)

NETWORK: Final[GuildId] = NETWORK_GUILD_ID
"""The network's "server": its ratings (``ratings.guild_id``) and its championship
(``tournaments.guild_id``). No Discord id is 0."""

NETWORK_HOME: Final = "network_home"
"""A network game's home to make: its thread in the home server's network channel (its line
names the players by their network names), or the bot's DM channel with its player; then the
service is told (:meth:`bot.games.network.games.NetworkGames.home_ready`). A home moved (its
server left, or refused the bot's posts) says the game goes on there, with the current board."""


def network_home(game_id: int, seat: HomeSeat, *, moved: bool = False) -> NewNotification:
    """Make ``game_id``'s home ``seat`` ready; ``moved``: it was elsewhere before."""
    payload: dict[str, Any] = {"game": game_id, "seat": seat.value}
    if moved:
        payload["moved"] = True
    return NewNotification(NETWORK_HOME, payload=payload)


def read_network_home(notification: Notification) -> tuple[int, HomeSeat, bool]:
    """The game, the seat of its home, and whether the home moved."""
    payload = notification.payload
    return int(payload["game"]), HomeSeat(payload["seat"]), bool(payload.get("moved"))


async def home_server(tx: Writer, user_id: UserId) -> NetworkServer | None:
    """The server whose network channel hosts ``user_id``'s network games: their home, if they
    are a member and it takes part now; ``None``: their DMs."""
    member = await tx.member(user_id, lock=False)
    if member is None or not member.is_member or member.home_guild_id is None:
        return None
    server = await tx.network_server(member.home_guild_id, lock=False)
    return server if server is not None and server.is_live else None


async def homes_for(tx: Writer, white: UserId, black: UserId) -> list[NewHome]:
    """The homes of a new network game between ``white`` and ``black``: each player's in their
    home server's network channel (a thread to be made there), or in their DMs with the bot
    (a member without a live home, or not a member any more); one home of both (seat ``*``)
    when both are homed in the same server."""
    servers = {user: await home_server(tx, user) for user in {white, black}}
    white_server, black_server = servers[white], servers[black]
    if white_server is not None and white_server == black_server:
        return [_in(HomeSeat.BOTH, white_server)]
    return [
        _in(HomeSeat.WHITE, white_server, white),
        _in(HomeSeat.BLACK, black_server, black),
    ]


def _in(seat: HomeSeat, server: NetworkServer | None, user_id: UserId | None = None) -> NewHome:
    if server is None:
        return NewHome(seat, user_id=user_id)
    return NewHome(seat, guild_id=server.guild_id, parent_channel_id=server.channel_id)


async def make_homes(tx: Writer, game: Game, now: datetime) -> list[int]:
    """Give ``game``, a network game just inserted pending in ``tx``, its homes
    (:func:`homes_for`) and a row to make each ready (:data:`NETWORK_HOME`); returns those
    rows. The game begins when the last home is ready."""
    await tx.add_homes(game.id, await homes_for(tx, game.white_id, game.black_id), now)
    return [await tx.enqueue(network_home(game.id, h.seat), now) for h in await tx.homes(game.id)]
