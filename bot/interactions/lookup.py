"""Finding the game a command is about: the one in this channel, or the one named."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.core.errors import NoGameHere
from bot.games.core.models import Game
from bot.games.service import GameService
from bot.i18n import _
from bot.interactions.errors import UserError


async def game_here(service: GameService, interaction: discord.Interaction[Any]) -> Game:
    """The running game in this channel or thread, or an error that points to the user's."""
    channel_id = interaction.channel_id
    assert channel_id is not None
    game = await service.game_in_channel(channel_id)
    if game is not None:
        return game
    elsewhere = [
        g
        for g in await service.active_games(interaction.user.id)
        if g.guild_id == interaction.guild_id
    ]
    if elsewhere:
        raise UserError(
            _(
                "There is no game in this channel. Your games are in: {channels}.",
                channels=", ".join(f"<#{g.channel_id}>" for g in elsewhere),
            )
        )
    raise NoGameHere(channel_id)


async def game_for_record(
    service: GameService, interaction: discord.Interaction[Any], game_id: int | None
) -> Game:
    """A game by number, or the channel's running game, or the last one played here."""
    if game_id is not None:
        return await service.get_game(game_id)
    assert interaction.channel_id is not None
    latest = await service.latest_game_in_channel(interaction.channel_id)
    if latest is None:
        return await game_here(service, interaction)  # raises, pointing to the user's games
    return latest
