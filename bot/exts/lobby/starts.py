"""Starting a game against the bot: from ``/dvonn play-bot`` or a challenge to the bot, and from
the Rematch button under a finished game against it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

import ai
import rules
from bot.exts.lobby.texts import computer_game_text
from bot.exts.lobby.threads import check_room_for_a_game, game_thread
from bot.games.core.models import Setup
from bot.i18n import _
from bot.interactions import events
from bot.interactions.places import answers_only, remember_reply_route
from bot.posting.outbox import REPLY_WAIT

if TYPE_CHECKING:
    from bot.app import Interaction


async def start_computer_game(
    interaction: Interaction,
    level: ai.Level,
    colour: rules.Colour | None,
    setup: Setup = Setup.STANDARD,
    *,
    rematch_of: int | None = None,
) -> None:
    """Say so where ``interaction`` came from, give the game a thread there if it may have one
    (in a thread, or where threads are off, it is played right there), start it, and post its
    first board. ``rematch_of``: the finished game against the bot it plays again."""
    bot = interaction.client
    service, publisher = bot.service, bot.publisher
    me = bot.user
    assert me is not None and interaction.channel_id is not None
    await check_room_for_a_game(service, interaction)
    reader = await publisher.public_reader(interaction.guild_id, interaction)
    name = interaction.user.display_name
    await interaction.response.send_message(reader(computer_game_text(name, level, rematch_of)))
    message = await interaction.original_response()
    thread_name = reader(_("DVONN: {player} vs the bot", player=name))
    thread = await game_thread(service, interaction, message, thread_name)
    channel = interaction.channel
    parent = channel.parent_id if thread is None and isinstance(channel, discord.Thread) else None
    try:
        started = await service.start_computer_game(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            human_id=interaction.user.id,
            computer_id=me.id,
            level=level.value,
            human_colour=colour,
            thread_id=None if thread is None else thread.id,
            private=answers_only(interaction),
            setup=setup,
            rematch_of=rematch_of,
            parent_channel_id=parent,
        )
    except Exception:
        if thread is not None:
            await thread.delete()
        raise
    publisher.names.remember(me)
    await remember_reply_route(service, interaction, started.game)
    await bot.deliverer.announce(started.announcement, game_id=started.game.id, timeout=REPLY_WAIT)
    bot.dispatch(events.TURN, started.game)
    bot.dispatch(events.FIRST_STEPS, interaction, started.game.id)
