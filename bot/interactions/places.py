"""Where an interaction comes from, as it matters to what the bot may post there.

In a server that added the bot, and in the bot's own DMs, the bot posts as it likes. A user who
installed the app to their own account can also use it in a DM or group DM with friends, or in
a server without the bot: there the bot may only answer interactions (an answer, and followups
through the interaction's webhook while its token lasts, 15 minutes). Games started there are
*private* (:attr:`bot.games.core.models.Game.private`).
"""

from __future__ import annotations

from typing import Any, Final

import discord
from discord import app_commands

from bot.games.core.models import Game
from bot.games.service import GameService
from bot.i18n import _
from bot.interactions.errors import UserError
from bot.posting.answers import ROUTE_LASTS
from bot.posting.publisher import reply_route

EVERYWHERE: Final = (
    app_commands.AppInstallationType(guild=True, user=True),
    app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True),
)
"""Where the bot's top-level commands (``/dvonn``, ``/puzzle``) are offered: the installs
(servers that add the bot, and people who install the app to their own account) and the
places (servers, the DM with the bot, people's DMs and group DMs with friends)."""


def answers_only(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot may only answer here (a user-installed app's private channel, or a
    server the bot is not in)."""
    context = interaction.context
    if context.private_channel:
        return True
    return interaction.guild_id is not None and not interaction.is_guild_integration()


async def remember_reply_route(
    service: GameService, interaction: discord.Interaction[Any], game: Game | int
) -> None:
    """Before a change to a private game, keep this interaction as the way to post it (see
    :meth:`bot.games.service.GameService.remember_reply_route`): its answer must not be an ephemeral
    "thinking…" then, or the first post would resolve it, privately. ``game``: the game, or
    its id (then it is read only where the bot may only answer)."""
    if not answers_only(interaction):
        return
    if isinstance(game, int):
        game = await service.get_game(game)
    if game.private:
        await service.remember_reply_route(game.id, reply_route(interaction), ROUTE_LASTS)


def may_post(interaction: discord.Interaction[Any], game: Game) -> bool:
    """Whether the bot may post boards where ``game`` is played, by the permissions Discord
    sends with an interaction there (no request needed)."""
    perms = interaction.app_permissions
    send = perms.send_messages_in_threads if game.parent_channel_id else perms.send_messages
    return perms.view_channel and send and perms.embed_links and perms.attach_files


def server_of(interaction: discord.Interaction[Any]) -> int:
    """The server a command about a server's own records or settings is used in; a clear
    refusal in a DM, or in a server that did not add the bot."""
    if interaction.guild_id is None or answers_only(interaction):
        raise UserError(
            _(
                "This works in a server that added the bot: ratings, the leaderboard and "
                "settings are kept per server."
            )
        )
    return interaction.guild_id
