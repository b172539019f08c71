"""The text board: a game's position in words, privately (``/dvonn board text: True``, and
"Text board" in the picker).

Plain lines, no code block: a line a row, each cell in order ("Row 3: A3 empty, B3 white,
C3 white 2 (DVONN), …"), which a screen reader reads cell by cell, which wraps on a phone,
and which a sighted player can copy as it is (:func:`bot.posting.descriptions.text_board`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.exts.play.moves import Services
from bot.i18n import _
from bot.interactions.buttons import BotButton, label
from bot.interactions.replies import MAX_CONTENT, finish
from bot.posting.descriptions import game_text_board
from bot.posting.publisher import Reader

if TYPE_CHECKING:
    from bot.app import Interaction


async def send_text_board(interaction: Interaction, host: Services, game_id: int) -> None:
    """Answer ``interaction`` privately with the text board of game ``game_id`` as it is now."""
    # The players' names may take a request to Discord (a cold cache): not within the 3 s.
    await interaction.response.defer(ephemeral=True, thinking=True)
    record = await host.service.record(game_id)
    players = await host.publisher.players(record.game)
    reader = host.publisher.private_reader(interaction)
    text = game_text_board(
        record.game, [m.move for m in record.moves], players, reader, limit=MAX_CONTENT
    )
    await finish(interaction, text, allowed_mentions=discord.AllowedMentions.none())


class TextBoardButton(BotButton, template=r"dvonn:text:(?P<game>\d+)"):
    """ "Text board", in the picker: the game's position as text, to whoever taps it."""

    def __init__(self, game_id: int, reader: Reader | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=label(reader, _("Text board")),
                style=discord.ButtonStyle.secondary,
                custom_id=f"dvonn:text:{game_id}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> TextBoardButton:
        return cls(int(match["game"]))

    async def run(self, interaction: Interaction) -> None:
        await send_text_board(interaction, interaction.client, self.game_id)
