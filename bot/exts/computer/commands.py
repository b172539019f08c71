"""``/dvonn hint``, and the listener that starts the bot's turn when a game moves on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.exts.computer.player import ComputerPlayer
from bot.games.core.models import Game
from bot.games.service import GameService
from bot.i18n import _
from bot.interactions import events
from bot.interactions.errors import UserError
from bot.interactions.feature import Feature
from bot.interactions.inflight import InFlight
from bot.interactions.lookup import game_here
from bot.interactions.replies import finish
from bot.posting.outbox import Deliverer
from bot.posting.publisher import Publisher

if TYPE_CHECKING:
    from bot.app import Interaction


class Computer(Feature):
    def __init__(
        self,
        player: ComputerPlayer,
        service: GameService,
        publisher: Publisher,
        deliverer: Deliverer,
        inflight: InFlight,
    ) -> None:
        super().__init__(service, publisher, deliverer, inflight)
        self.player = player

    async def cog_load(self) -> None:
        await self.player.resume()  # the bot's turns left waiting by a restart

    async def cog_unload(self) -> None:
        await self.player.close()

    @commands.Cog.listener(events.TURN_LISTENER)
    async def on_turn(self, game: Game) -> None:
        self.player.play_if_its_turn(game)

    @app_commands.command(
        name="hint", description=locale_str("A suggestion, in a game against the bot")
    )
    async def hint(self, interaction: Interaction) -> None:
        async with self.inflight.track():
            game = await game_here(self.service, interaction)
            if game.computer_id is None:
                raise UserError(_("Hints are only for games against the bot."))
            if game.to_move_id != interaction.user.id:
                raise UserError(_("A hint is for the player to move, when it is their turn."))
            await interaction.response.defer(ephemeral=True, thinking=True)
            move = await self.player.hint(game)
            reader = self.publisher.private_reader(interaction)
            await finish(interaction, reader(_("The bot would play {move}.", move=move)))
