"""The bot removed from a server (kicked, banned, the app taken out): the server leaves the
network as by ``/network server stop`` (its open network challenges called off, its network
games moved to their players' DMs by the service's job).

Only the process holding the server's shard hears of it (discord.py's ``on_guild_remove``, from
a GUILD_DELETE without ``unavailable``); it only writes the database, so the other processes,
which post over REST by channel id, need to hear of nothing. An outage (a GUILD_DELETE with
``unavailable``, discord.py's ``on_guild_unavailable``) is no removal: the server stays."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.games.service import GameService

log = logging.getLogger(__name__)


class ServerRemovals(commands.Cog):
    """Listens for the bot's removal from servers."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        if guild.unavailable:  # an outage, not a removal (discord.py fires no remove then)
            return
        stopped = await self.service.network.server_removed(guild.id)
        if stopped is not None:
            log.info(
                "network: the bot was removed from server %s, which left the network (%d open "
                "challenges called off)",
                guild.id,
                len(stopped.cancelled),
            )
