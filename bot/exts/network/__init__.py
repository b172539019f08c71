"""The DVONN network's Discord side (issue 41): ``/network``, a top-level command of its own
beside ``/dvonn`` (which holds the 25 subcommands Discord allows), loaded unless the operator
turned the network off (``DVONN_NETWORK``, on by default; :data:`bot.app.NETWORK`).

Its subcommands come from several modules of this package, each a cog of its own added to the
one ``/network`` group (:meth:`bot.app.DvonnBot.add_feature` with ``group``): here, joining,
leaving, blocks and a server's part (:mod:`.commands`), and the bot's removal from a server
(:mod:`.server`, a listener). The others (:data:`PARTS`) each have
``async def add_to(bot: DvonnBot, network: app_commands.Group) -> None``, which adds their cogs
(and their buttons, jobs and outbox handlers) as this one does.

The game service's part is :mod:`bot.games.network`; its refusals (:mod:`bot.games.network.errors`)
are answered privately by the one error handler."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

from discord.app_commands import locale_str

from bot.exts.network.commands import NetworkCommands, refresh_name
from bot.exts.network.server import ServerRemovals

if TYPE_CHECKING:
    from bot.app import DvonnBot

COMMAND: Final = "network"

PARTS: Final[tuple[str, ...]] = (
    "bot.exts.network.seeks",  # challenge, seeks (and the board, buttons, homes)
    "bot.exts.network.ratings",  # leaderboard
    "bot.exts.network.championship",  # championship (and its Enter button)
)
"""The modules that add subcommands of ``/network`` besides :mod:`.commands`', in order."""


async def setup(bot: DvonnBot) -> None:
    network = bot.add_top_level_group(
        COMMAND,
        locale_str("Play DVONN with the players of every server, by choice"),
        before=refresh_name,  # a member's global name, renamed since, reaches other servers
    )
    await bot.add_feature(
        NetworkCommands(bot.service, bot.publisher, bot.deliverer, bot.inflight), group=network
    )
    await bot.add_cog(ServerRemovals(bot.service))
    for name in PARTS:
        await importlib.import_module(name).add_to(bot, network)


async def teardown(bot: DvonnBot) -> None:
    bot.tree.remove_command(COMMAND)
