"""``/dvonn takeback`` and the opponent's answer buttons."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.games.takebacks.requests import TakebackAnswer
from bot.i18n import _
from bot.interactions.buttons import BotButton, label
from bot.interactions.feature import Feature
from bot.interactions.lookup import game_here
from bot.interactions.places import remember_reply_route
from bot.posting.outbox import REPLY_WAIT, Deliverer
from bot.posting.publisher import Reader
from bot.posting.texts import mention

if TYPE_CHECKING:
    from bot.app import Interaction


class Takebacks(Feature):
    @app_commands.command(
        name="takeback", description=locale_str("Ask your opponent to undo your last move")
    )
    async def takeback(self, interaction: Interaction) -> None:
        async with self.inflight.track():
            game = await game_here(self.service, interaction)
            await remember_reply_route(self.service, interaction, game)
            asked = await self.service.takebacks.request(game.id, interaction.user.id)
            if isinstance(asked, TakebackAnswer):  # the bot is a patient opponent
                # Where the bot can only answer, the board is the answer (public).
                await interaction.response.defer(ephemeral=not game.private, thinking=True)
                await _post_takeback(self.deliverer, asked)
                if game.private:
                    return
                reader = self.publisher.private_reader(interaction)
                await interaction.edit_original_response(
                    content=reader(_("The bot let you take it back."))
                )
                return
            opponent = asked.opponent_of(interaction.user.id)
            reader = await self.publisher.public_reader(game.guild_id, interaction)
            view = discord.ui.View(timeout=None)
            view.add_item(TakebackButton(game.id, "accept", reader))
            view.add_item(TakebackButton(game.id, "decline", reader))
            await interaction.response.send_message(
                reader(
                    _(
                        "{player} asks to take back their last move. {opponent}, do you accept?",
                        player=interaction.user.display_name,
                        opponent=mention(opponent),
                    )
                ),
                view=view,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(opponent)]),
            )


async def _post_takeback(deliverer: Deliverer, answer: TakebackAnswer) -> None:
    """The board after an accepted takeback, pinging who is to move again."""
    assert answer.announcement is not None
    await deliverer.announce(answer.announcement, game_id=answer.game.id, timeout=REPLY_WAIT)


class TakebackButton(BotButton, template=r"dvonn:takeback:(?P<id>\d+):(?P<answer>accept|decline)"):
    LABELS: Final = {"accept": _("Accept the takeback"), "decline": _("Decline")}

    def __init__(self, game_id: int, answer: str, reader: Reader | None = None) -> None:
        self.game_id = game_id
        self.answer = answer
        style = discord.ButtonStyle.success if answer == "accept" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=label(reader, self.LABELS[answer]),
                style=style,
                custom_id=f"dvonn:takeback:{game_id}:{answer}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> TakebackButton:
        return cls(int(match["id"]), match["answer"])

    async def run(self, interaction: Interaction) -> None:
        accept = self.answer == "accept"
        bot = interaction.client
        await remember_reply_route(bot.service, interaction, self.game_id)
        answer = await bot.service.takebacks.answer(self.game_id, interaction.user.id, accept)
        reader = await bot.publisher.public_reader(answer.game.guild_id, interaction)
        name = interaction.user.display_name
        text = (
            _("{player} accepted the takeback.", player=name)
            if accept
            else _("{player} declined the takeback: the game goes on.", player=name)
        )
        await interaction.response.edit_message(content=reader(text), view=None)
        if accept:
            await _post_takeback(bot.deliverer, answer)
