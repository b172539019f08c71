"""Confirming a resignation, and agreeing to call a game off."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import _
from bot.interactions.buttons import BotButton, label
from bot.interactions.organisers import is_organiser
from bot.interactions.places import remember_reply_route
from bot.posting.outbox import REPLY_WAIT
from bot.posting.publisher import Reader

if TYPE_CHECKING:
    from bot.app import Interaction


class ResignButton(BotButton, template=r"dvonn:resign:(?P<id>\d+)"):
    def __init__(self, game_id: int, reader: Reader | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=label(reader, _("Resign game #{game}", game=game_id)),
                style=discord.ButtonStyle.danger,
                custom_id=f"dvonn:resign:{game_id}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> ResignButton:
        return cls(int(match["id"]))

    async def run(self, interaction: Interaction) -> None:
        bot = interaction.client
        await remember_reply_route(bot.service, interaction, self.game_id)
        ended = await bot.service.resign(self.game_id, interaction.user.id)
        reader = bot.publisher.private_reader(interaction)
        await interaction.response.edit_message(
            content=reader(_("You resigned game #{game}.", game=self.game_id)), view=None
        )
        await bot.deliverer.announce(ended.announcement, game_id=self.game_id, timeout=REPLY_WAIT)


class AbortAgreeButton(BotButton, template=r"dvonn:abort:(?P<id>\d+)"):
    def __init__(self, game_id: int, reader: Reader | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=label(reader, _("Agree to call it off")),
                style=discord.ButtonStyle.secondary,
                custom_id=f"dvonn:abort:{game_id}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> AbortAgreeButton:
        return cls(int(match["id"]))

    async def run(self, interaction: Interaction) -> None:
        bot = interaction.client
        game = await bot.service.get_game(self.game_id)
        await remember_reply_route(bot.service, interaction, game)
        player = game.is_player(interaction.user.id)
        moderator = bool(interaction.permissions.manage_threads) and not player
        outcome = await bot.service.abort(
            self.game_id,
            interaction.user.id,
            moderator=moderator,
            # Only a stranger to the game may call it off as its tournament's organiser.
            organiser=not player and not moderator and await is_organiser(bot.service, interaction),
        )
        if outcome.ended is None:
            reader = bot.publisher.private_reader(interaction)
            await interaction.response.send_message(
                reader(_("Waiting for your opponent to agree.")), ephemeral=True
            )
            return
        public = await bot.publisher.public_reader(outcome.game.guild_id, interaction)
        await interaction.response.edit_message(
            content=public(_("Game #{game} was called off.", game=self.game_id)), view=None
        )
        await bot.deliverer.announce(
            outcome.ended.announcement, game_id=self.game_id, timeout=REPLY_WAIT
        )
