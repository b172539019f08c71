"""Buttons and menus that keep working after a restart, run like commands.

Each is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries what it acts on
(``dvonn:challenge:12:accept``); discord.py rebuilds it from the id on any click, so no view has
to be in memory. A feature defines its buttons next to its commands and registers them in its
``setup()`` (``bot.add_dynamic_items``). The ids are a contract with posts already on Discord:
never change one (``tests/bot/test_command_tree.py`` keeps them).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
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


async def run_like_a_command(
    interaction: discord.Interaction[Any],
    run: Callable[[discord.Interaction[Any]], Awaitable[None]],
) -> None:
    """Run a click or a choice like a command: refused while the bot shuts down, tracked so a
    shutdown waits for it, errors answered by the bot's one error handler."""
    host = cast(ButtonHost, interaction.client)
    host.names.remember(interaction.user)
    if not host.accepting:
        await host.errors.reply(interaction, RESTARTING)
        return
    async with host.inflight.track():
        try:
            await run(interaction)
        except Exception as error:  # one handler for every error, as for commands
            host.count_interaction(interaction, await host.errors.report(interaction, error))
        else:
            host.count_interaction(interaction, "ok")


class BotButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dvonn:base:(?P<id>\d+)"):
    """A button whose click runs like a command (:func:`run_like_a_command`)."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await run_like_a_command(interaction, self.run)

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError


class BotMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"dvonn:menu:(?P<id>\d+)"):
    """A select menu whose choice runs like a command (:func:`run_like_a_command`)."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await run_like_a_command(interaction, self.run)

    @property
    def chosen(self) -> str | None:
        """The option chosen (these menus take one)."""
        values = self.item.values
        return values[0] if values else None

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError
