"""``/dvonn challenge`` and ``/dvonn play-bot``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str

import ai
from bot.exts.lobby.buttons import challenge_view
from bot.exts.lobby.starts import start_computer_game
from bot.exts.lobby.texts import challenge_text
from bot.exts.lobby.threads import check_room_for_a_game
from bot.games.core.models import Setup
from bot.games.lobby.challenges import SERVER_DEFAULT
from bot.i18n import _
from bot.interactions import choices, events
from bot.interactions.errors import UserError
from bot.interactions.feature import Feature

if TYPE_CHECKING:
    from bot.app import Interaction


SETUPS: Final = [
    app_commands.Choice(
        name=locale_str("Standard: the players place the 49 pieces"), value=Setup.STANDARD.value
    ),
    app_commands.Choice(
        name=locale_str("Random: the bot places them, the movement starts at once"),
        value=Setup.RANDOM.value,
    ),
]
"""Who places the pieces: the players, as the rules say, or the bot at random (issue 24)."""
SETUP_DESCRIPTION: Final = locale_str(
    "Who places the 49 pieces (default: the players, as the rules say)"
)


def _setup(value: str | None) -> Setup:
    return Setup.STANDARD if value is None else Setup(value)


class Lobby(Feature):
    @app_commands.command(
        name="challenge", description=locale_str("Challenge someone to a game of DVONN")
    )
    @app_commands.describe(
        opponent=locale_str("Who to play (leave empty: anyone in this channel may accept)"),
        colour=locale_str("Your colour (default: drawn at random)"),
        clock=locale_str(
            "Days per move, or a time bank, before a player loses on time (default: the server's)"
        ),
        setup=SETUP_DESCRIPTION,
    )
    @app_commands.choices(colour=choices.COLOURS)
    @app_commands.choices(clock=choices.CLOCKS)
    @app_commands.choices(setup=SETUPS)
    async def challenge(
        self,
        interaction: Interaction,
        opponent: discord.User | None = None,
        colour: str | None = None,
        clock: str | None = None,
        setup: str | None = None,
    ) -> None:
        async with self.inflight.track():
            me = interaction.client.user
            chosen = SERVER_DEFAULT if clock is None else choices.clock(clock)
            if opponent is not None and me is not None and opponent.id == me.id:
                if chosen is not None and chosen is not SERVER_DEFAULT:
                    raise UserError(
                        _("Games against the bot have no clock: challenge it without one.")
                    )
                await start_computer_game(
                    interaction, ai.Level.MEDIUM, choices.colour(colour), _setup(setup)
                )
                return
            if opponent is not None and opponent.bot:
                raise UserError(_("Bots cannot accept challenges: challenge a person."))
            assert interaction.channel_id is not None
            await check_room_for_a_game(self.service, interaction)
            challenge = await self.service.create_challenge(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                challenger_id=interaction.user.id,
                opponent_id=None if opponent is None else opponent.id,
                colour=choices.colour(colour),
                clock=chosen,
                setup=_setup(setup),
            )
            if opponent is not None:
                self.publisher.names.remember(opponent)
            reader = await self.publisher.public_reader(interaction.guild_id, interaction)
            await interaction.response.send_message(
                reader(challenge_text(challenge, interaction.user.display_name)),
                view=challenge_view(challenge, reader),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(opponent.id)] if opponent is not None else []
                ),
            )
            interaction.client.dispatch(events.FIRST_STEPS, interaction, None)

    @app_commands.command(name="play-bot", description=locale_str("Play a game against the bot"))
    @app_commands.describe(
        level=locale_str("How strongly the bot plays"),
        colour=locale_str("Your colour (default: drawn at random)"),
        setup=SETUP_DESCRIPTION,
    )
    @app_commands.choices(
        setup=SETUPS,
        level=[
            app_commands.Choice(name=locale_str("Beginner"), value=ai.Level.BEGINNER.value),
            app_commands.Choice(name=locale_str("Easy"), value=ai.Level.EASY.value),
            app_commands.Choice(name=locale_str("Medium"), value=ai.Level.MEDIUM.value),
            app_commands.Choice(name=locale_str("Strong"), value=ai.Level.STRONG.value),
            app_commands.Choice(name=locale_str("Strongest"), value=ai.Level.STRONGEST.value),
        ],
        colour=choices.COLOURS,
    )
    async def play_bot(
        self,
        interaction: Interaction,
        level: str = ai.Level.MEDIUM.value,
        colour: str | None = None,
        setup: str | None = None,
    ) -> None:
        async with self.inflight.track():
            await start_computer_game(
                interaction, ai.Level.parse(level), choices.colour(colour), _setup(setup)
            )
