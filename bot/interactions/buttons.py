"""Buttons that keep working after a restart, run like commands.

Each is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries what it acts on
(``dvonn:challenge:12:accept``); discord.py rebuilds it from the id on any click, so no view has
to be in memory. A feature defines its buttons next to its commands and registers them in its
``setup()`` (``bot.add_dynamic_items``). The ids are a contract with posts already on Discord:
never change one (``tests/bot/test_command_tree.py`` keeps them).
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import discord

from bot.i18n import Text
from bot.interactions.errors import RESTARTING, ErrorHandler
from bot.interactions.inflight import InFlight
from bot.posting.names import Names
from bot.posting.publisher import Reader


class ButtonHost(Protocol):
    """What a button needs of the bot it runs in."""

    accepting: bool
    inflight: InFlight
    errors: ErrorHandler
    names: Names

    def count_interaction(self, interaction: discord.Interaction[Any], outcome: str) -> None: ...


def label(reader: Reader | None, text: Text) -> str:
    """A button's label in the reader's language (English when rebuilt from its id: the label
    is not used then)."""
    return reader(text) if reader is not None else text.english()


class BotButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dvonn:base:(?P<id>\d+)"):
    """Runs the click like a command: refused while the bot shuts down, tracked so a shutdown
    waits for it, errors answered by the bot's one error handler."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        host = cast(ButtonHost, interaction.client)
        host.names.remember(interaction.user)
        if not host.accepting:
            await host.errors.reply(interaction, RESTARTING)
            return
        async with host.inflight.track():
            try:
                await self.run(interaction)
            except Exception as error:  # one handler for every error, as for commands
                host.count_interaction(interaction, await host.errors.report(interaction, error))
            else:
                host.count_interaction(interaction, "ok")

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError
