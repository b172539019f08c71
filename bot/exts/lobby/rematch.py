"""The Rematch button under a finished game's last post (issue 24): either player plays the
game again, colours swapped, on the same clock and setup. Against a person it posts a
challenge to the other player, here (in the game's thread or channel), which they accept or
decline like any other; against the bot the new game starts at once. Whatever cannot be (a
third person, a second click, a rematch made already) is answered privately."""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING, Any

import discord

import ai
from bot.exts.lobby.buttons import challenge_view
from bot.exts.lobby.starts import start_computer_game
from bot.exts.lobby.texts import REMATCH, challenge_text
from bot.exts.lobby.threads import check_room_for_a_game
from bot.games.core.models import Game
from bot.games.lobby.rematches import offers_rematch, rematch_colour
from bot.interactions.buttons import BotButton, label
from bot.posting.publisher import Reader

if TYPE_CHECKING:
    from bot.app import Interaction


class RematchButton(BotButton, template=r"dvonn:rematch:(?P<id>\d+)"):
    def __init__(self, game_id: int, reader: Reader | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=label(reader, REMATCH),
                style=discord.ButtonStyle.primary,
                custom_id=f"dvonn:rematch:{game_id}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> RematchButton:
        return cls(int(match["id"]))

    async def run(self, interaction: Interaction) -> None:
        bot = interaction.client
        service, publisher = bot.service, bot.publisher
        user = interaction.user
        # Whether it may be is answered at once, privately, before anything is posted.
        game = await service.check_rematch(self.game_id, user.id)
        if game.computer_id is not None:
            level = ai.Level.parse(game.computer_level or ai.Level.MEDIUM.value)
            await start_computer_game(
                interaction,
                level,
                rematch_colour(game, user.id),
                game.setup,
                rematch_of=game.id,
            )
            return
        assert interaction.channel_id is not None
        await check_room_for_a_game(service, interaction)
        channel = interaction.channel
        challenge = await service.offer_rematch(
            game.id,
            user.id,
            channel_id=interaction.channel_id,
            parent_channel_id=channel.parent_id if isinstance(channel, discord.Thread) else None,
        )
        opponent = game.opponent_of(user.id)
        reader = await publisher.public_reader(interaction.guild_id, interaction)
        try:
            await interaction.response.send_message(
                reader(challenge_text(challenge, user.display_name)),
                view=challenge_view(challenge, reader),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(opponent)]),
            )
        except Exception:
            # Nobody can see it: take it back, so that a click later may offer it again.
            with contextlib.suppress(Exception):
                await service.cancel_challenge(challenge.id, user.id)
            raise


def rematch_view(game: Game, reader: Reader) -> discord.ui.View | None:
    """The Rematch button under a finished game's last post, when it offers one
    (:func:`bot.games.lobby.rematches.offers_rematch`)."""
    if game.is_active or not offers_rematch(game):
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game.id, reader))
    return view
