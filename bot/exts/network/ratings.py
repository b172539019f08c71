"""``/network leaderboard``: the network's best ratings (Glicko-2, from network games only),
of players in the network now with at least :data:`LEADERBOARD_MIN_GAMES` rated network games,
by their network names (Discord global names, never a server's nickname).

Public in a network channel of a server that takes part (where the network's games are played),
private anywhere else. The table is the one ``/dvonn leaderboard`` draws
(:func:`bot.posting.leaderboards.leaderboard_lines`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.app_commands import locale_str

from bot.games.core.ratings import LEADERBOARD_MIN_GAMES
from bot.i18n import n_
from bot.interactions.feature import Feature
from bot.interactions.places import answers_only
from bot.interactions.replies import finish
from bot.posting.leaderboards import leaderboard_lines

if TYPE_CHECKING:
    from bot.app import DvonnBot, Interaction


async def add_to(bot: DvonnBot, network: app_commands.Group) -> None:
    await bot.add_feature(
        NetworkRatings(bot.service, bot.publisher, bot.deliverer, bot.inflight), group=network
    )


class NetworkRatings(Feature, name="Network ratings"):
    """The network's leaderboard."""

    @app_commands.command(
        name="leaderboard", description=locale_str("The DVONN network's best players")
    )
    async def leaderboard(self, interaction: Interaction) -> None:
        async with self.inflight.track():
            public = await self._in_network_channel(interaction)
            await interaction.response.defer(ephemeral=not public, thinking=True)
            reader = (
                await self.publisher.public_reader(interaction.guild_id, interaction)
                if public
                else self.publisher.private_reader(interaction)
            )
            board, names = [], []
            for row in await self.service.ratings.network_leaderboard():
                member = await self.service.network.member(row.user_id)
                if member is not None and member.is_member:  # (not left since)
                    board.append(row)
                    names.append(member.name)
            if not board:
                text = n_(
                    "Nobody in the DVONN network has played {count} rated network game yet.",
                    "Nobody in the DVONN network has played {count} rated network games yet.",
                    LEADERBOARD_MIN_GAMES,
                )
                await finish(interaction, reader(text))
                return
            heading = n_(
                "Ratings in the DVONN network (at least {count} network game):",
                "Ratings in the DVONN network (at least {count} network games):",
                LEADERBOARD_MIN_GAMES,
            )
            lines = leaderboard_lines(heading, board, names)
            await finish(interaction, "\n".join(reader(line) for line in lines))

    async def _in_network_channel(self, interaction: Interaction) -> bool:
        """Whether the command is used in the network channel of a server taking part."""
        if interaction.guild_id is None or answers_only(interaction):
            return False
        server = await self.service.network.servers.server(interaction.guild_id)
        return server is not None and server.is_live and server.channel_id == interaction.channel_id
