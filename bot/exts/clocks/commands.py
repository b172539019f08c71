"""``/dvonn vacation``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.app_commands import locale_str

from bot.games.clocks.timekeeping import VACATION_DAYS_PER_YEAR
from bot.i18n import _, n_
from bot.interactions.feature import Feature
from bot.posting.texts import discord_time

if TYPE_CHECKING:
    from bot.app import Interaction


class Clocks(Feature):
    @app_commands.command(
        name="vacation", description=locale_str("Pause your clocks in all your games for some days")
    )
    @app_commands.describe(days=locale_str("How many days (14 a year)"))
    async def vacation(
        self, interaction: Interaction, days: app_commands.Range[int, 1, VACATION_DAYS_PER_YEAR]
    ) -> None:
        async with self.inflight.track():
            vacation = await self.service.clocks.start_vacation(interaction.user.id, days)
            reader = self.publisher.private_reader(interaction)
            await interaction.response.send_message(
                reader(
                    n_(
                        "Your clock is paused until {until} in your {count} running game.",
                        "Your clocks are paused until {until} in your {count} running games.",
                        len(vacation.game_ids),
                        until=discord_time(vacation.until, "f"),
                    )
                )
                + " "
                + reader(_("Vacation days left this year: {left}.", left=vacation.days_left))
                + "".join(
                    "\n"
                    + reader(
                        _(
                            "Game #{game} in <#{channel}> was not paused: your time to move "
                            "there ran out at {deadline}, so you lost it on time.",
                            game=late.game_id,
                            channel=late.channel_id,
                            deadline=discord_time(late.deadline, "f"),
                        )
                    )
                    for late in vacation.lost_on_time
                ),
                ephemeral=True,
            )
            await self.deliverer.deliver(vacation.announcements)  # tell the opponents now
