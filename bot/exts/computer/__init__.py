"""The computer opponent: the bot's own turns (thought out in worker processes, started when a
game moves on, and again after a restart), and ``/dvonn hint``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.computer.commands import Computer
from bot.exts.computer.player import ComputerPlayer

if TYPE_CHECKING:
    from bot.app import DvonnBot


async def setup(bot: DvonnBot) -> None:
    player = ComputerPlayer(
        bot.service,
        bot.publisher,
        bot.deliverer,
        bot.inflight,
        engine=bot.engine,
        thinking_time=bot.thinking_time,
    )
    await bot.add_feature(Computer(player, bot.service, bot.publisher, bot.deliverer, bot.inflight))
    # Turns left by an error, a restart, or another process that was killed.
    bot.add_poll(player.resume)
