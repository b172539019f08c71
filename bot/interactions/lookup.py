"""Finding the game a command is about: the one in this channel, or the one named.

A network game is played in its homes (a thread of each player's server's network channel, or
the bot's DMs with the player): a command in a home finds the game through its homes; a player
acts from their own home only (in the other player's the service refuses, privately); a
player's DMs may hold several network games, and then the one where it is their turn is meant,
if only one is."""

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
    if game is None:
        game = await _network_game_here(service, interaction.user.id, channel_id)
    if game is not None:
        if game.network:  # raises in the other player's home
            await service.network.home_here(game, interaction.user.id, channel_id)
        return game
    elsewhere = [
        g
        for g in await service.active_games(interaction.user.id)
        if g.guild_id == interaction.guild_id and not g.network
    ]
    if elsewhere:
        raise UserError(
            _(
                "There is no game in this channel. Your games are in: {channels}.",
                channels=", ".join(f"<#{g.channel_id}>" for g in elsewhere),
            )
        )
    raise NoGameHere(channel_id)


async def _network_game_here(service: GameService, user_id: int, channel_id: int) -> Game | None:
    """The network game a command in a home with several (a player's DMs) is about: the one
    where it is the user's turn, if only one is; else the user is asked to use a board's
    buttons."""
    found = await service.network.games.games_in_channel(channel_id)
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    to_move = [g for g in found if g.to_move_id == user_id]
    if len(to_move) == 1:
        return to_move[0]
    raise UserError(
        _(
            "Several of your network games are played here ({games}): use the buttons under "
            "the board of the one you mean.",
            games=", ".join(f"#{g.id}" for g in found),
        )
    )


async def game_for_record(
    service: GameService, interaction: discord.Interaction[Any], game_id: int | None
) -> Game:
    """A game by number, or the channel's running game, or the last one played here (a
    network game's too, in any of its homes)."""
    if game_id is not None:
        return await service.get_game(game_id)
    assert interaction.channel_id is not None
    latest = await service.latest_game_in_channel(interaction.channel_id)
    network = await service.network.games.last_in_channel(interaction.channel_id)
    if network is not None and (latest is None or _later(network, latest)):
        latest = network
    if latest is None:
        return await game_here(service, interaction)  # raises, pointing to the user's games
    return latest


def _later(one: Game, other: Game) -> bool:
    """Whether ``one`` comes before ``other`` as a channel's game: running first, then newest."""
    return (one.is_active, one.id) > (other.is_active, other.id)
