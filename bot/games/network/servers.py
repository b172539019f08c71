"""Servers taking part: a moderator names the network channel (or moves it), or takes the
server out; the bot removed from a server does the same. A server's running network games are
moved out of it by :meth:`bot.games.network.games.NetworkGames.move_homes_out` (in batches: a
server may host hundreds)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.games.core.parts import UseCases
from bot.games.network.errors import NoNetworkChannel, ServerLeftNetwork
from bot.games.network.seeking import edit_posts
from bot.storage import Challenge, ChannelId, GuildId, NetworkMember, NetworkServer, UserId

log = logging.getLogger(__name__)

STATUS_GAMES = 25
"""The most network games homed in a server its status lists."""


@dataclass(frozen=True, slots=True)
class ServerStopped:
    """A server that left the network, and its open network challenges cancelled."""

    server: NetworkServer
    cancelled: tuple[Challenge, ...] = ()


@dataclass(frozen=True, slots=True)
class ServerStatus:
    """What a server's moderators see of the network: their server's part (``None``: it never
    took part), their members in it (homed there) and the network games homed there; nothing
    of other servers."""

    server: NetworkServer | None
    members: tuple[NetworkMember, ...] = ()
    games: tuple[int, ...] = ()


class Servers(UseCases):
    """The servers' part in the network."""

    async def set_channel(
        self, guild_id: GuildId, channel_id: ChannelId, by: UserId
    ) -> NetworkServer:
        """``guild_id`` takes part with ``channel_id`` as its network channel (named by ``by``,
        who may manage the server: the Discord layer checks), or moves it there; a server that
        had left comes back. Running network games keep their threads."""
        now = self._now()
        async with self._store.write() as tx:
            server = await tx.set_channel(guild_id, channel_id, by, now)
        log.info("network: server %s takes part in channel %s", guild_id, channel_id)
        return server

    async def stop(self, guild_id: GuildId, by: UserId) -> ServerStopped:
        """A moderator takes ``guild_id`` out of the network: its open network challenges are
        cancelled, and its running network games move to their players' DMs (the job). Raises
        :class:`NoNetworkChannel`, :class:`ServerLeftNetwork`."""
        stopped = await self._leave(guild_id)
        if stopped is None:
            server = await self._store.network_server(guild_id)
            if server is None:
                raise NoNetworkChannel(guild_id)
            raise ServerLeftNetwork(guild_id)
        log.info("network: server %s left, by %s", guild_id, by)
        return stopped

    async def removed(self, guild_id: GuildId) -> ServerStopped | None:
        """The bot was removed from ``guild_id``: it leaves the network as by :meth:`stop`;
        ``None`` if it was not in it."""
        stopped = await self._leave(guild_id)
        if stopped is not None:
            log.info("network: server %s left (the bot was removed)", guild_id)
        return stopped

    async def _leave(self, guild_id: GuildId) -> ServerStopped | None:
        now = self._now()
        async with self._store.write() as tx:
            if not await tx.leave_server(guild_id, now):
                return None
            cancelled = await tx.cancel_network_challenges(now, guild_id=guild_id)
            if any(c.is_open_to_anyone for c in cancelled):
                await tx.bump_seeks()
            await edit_posts(tx, cancelled, now)  # their own posts, by the next poll
            server = await tx.network_server(guild_id)
            assert server is not None
        return ServerStopped(server, tuple(cancelled))

    async def server(self, guild_id: GuildId) -> NetworkServer | None:
        """A server's part in the network (``None``: it never took part)."""
        return await self._store.network_server(guild_id)

    async def status(self, guild_id: GuildId) -> ServerStatus:
        """What ``guild_id``'s moderators may see (:class:`ServerStatus`)."""
        server = await self._store.network_server(guild_id)
        if server is None:
            return ServerStatus(None)
        members = await self._store.members_homed_in(guild_id)
        games = await self._store.games_homed_in(guild_id, STATUS_GAMES)
        return ServerStatus(server, tuple(members), tuple(games))
