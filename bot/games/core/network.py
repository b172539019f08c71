"""The DVONN network's place in the core (issue 41): its id among the servers' (its ratings and
its championship are rows of guild :data:`NETWORK`), and where a network game is played for
each of its players (:func:`homes_for`), which whatever begins a network game uses (the
network's challenges, its championship)."""

from __future__ import annotations

from typing import Final

from bot.storage import NETWORK_GUILD_ID, GuildId, HomeSeat, NetworkServer, NewHome, UserId, Writer

NETWORK: Final[GuildId] = NETWORK_GUILD_ID
"""The network's "server": its ratings (``ratings.guild_id``) and its championship
(``tournaments.guild_id``). No Discord id is 0."""


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
