"""``/dvonn notify``: how the bot tells a player of their turns (a ping on every turn, a daily
digest at their hour, or nothing) and whether it reminds them before a deadline, always
answered privately with what now stands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.exts.notices import zones
from bot.games.core.models import PlayerPrefs, TurnNotices
from bot.i18n import Text, _
from bot.interactions.errors import UserError
from bot.interactions.feature import Feature
from bot.posting.texts import discord_time

if TYPE_CHECKING:
    from bot.app import Interaction

TURNS: Final = [
    Choice(name=locale_str("A ping on every turn"), value=TurnNotices.PING.value),
    Choice(name=locale_str("One DM a day: the daily digest"), value=TurnNotices.DIGEST.value),
    Choice(name=locale_str("Nothing (reminders still come)"), value=TurnNotices.NONE.value),
]


def hour_text(hour: int) -> str:
    """An hour of the 24-hour clock: "08:00"."""
    return f"{hour:02d}:00"


HOURS: Final = [Choice(name=hour_text(hour), value=hour) for hour in range(24)]
"""The digest's hours, on a 24-hour clock that no one reads as morning for evening."""


def _turns(value: str | None) -> TurnNotices | None:
    if value is None:
        return None
    try:
        return TurnNotices(value)
    except ValueError:
        raise UserError(
            _("Choose how to hear of your turns from the list of the `turns` option.")
        ) from None


def notices_text(prefs: PlayerPrefs) -> list[Text]:
    """What stands now: turns, the digest's time, reminders."""
    lines: list[Text] = []
    if prefs.turns is TurnNotices.DIGEST:
        assert prefs.next_digest_at is not None and prefs.digest_hour is not None
        lines.append(
            _(
                "Your turns: one DM a day at {hour} ({zone}), listing every game where it is "
                "your move, with links and the time left. The next: {when} ({relative}).",
                hour=hour_text(prefs.digest_hour),
                zone=prefs.time_zone,
                when=discord_time(prefs.next_digest_at, "F"),
                relative=discord_time(prefs.next_digest_at),
            )
        )
        lines.append(
            _(
                "Discord shows that time in your own time zone: if it does not say {hour}, "
                "choose your time zone again with the `timezone` option.",
                hour=hour_text(prefs.digest_hour),
            )
        )
    elif prefs.turns is TurnNotices.NONE:
        lines.append(_("Your turns: no ping and no digest; look at your games with /dvonn games."))
    else:
        lines.append(_("Your turns: a ping in the game's post on every turn."))
        if prefs.digest_hour is not None and prefs.time_zone is not None:
            lines.append(
                _(
                    "Your digest would come at {hour} ({zone}): choose `turns: One DM a day` "
                    "to get it instead of pings.",
                    hour=hour_text(prefs.digest_hour),
                    zone=prefs.time_zone,
                )
            )
    lines.append(
        _("Deadline reminders: on (by DM where you allow it), whatever you chose for your turns.")
        if prefs.notify
        else _("Deadline reminders: off.")
    )
    return lines


class Notices(Feature):
    @app_commands.command(
        name="notify",
        description=locale_str("How the bot tells you of your turns, and deadline reminders"),
    )
    @app_commands.describe(
        enabled=locale_str("Whether the bot reminds you before a deadline"),
        turns=locale_str("When it is your turn: a ping, one DM a day, or nothing"),
        hour=locale_str("The hour of your daily digest, on your own clock"),
        timezone=locale_str("Your time zone, once: start typing your city"),
    )
    @app_commands.choices(turns=TURNS)
    @app_commands.choices(hour=HOURS)
    async def notify(
        self,
        interaction: Interaction,
        enabled: bool | None = None,
        turns: str | None = None,
        hour: int | None = None,
        timezone: str | None = None,
    ) -> None:
        async with self.inflight.track():
            chosen = await self.service.digests.choose(
                interaction.user.id,
                turns=_turns(turns),
                hour=hour,
                zone=timezone,
                reminders=enabled,
            )
            reader = self.publisher.private_reader(interaction)
            text = "\n".join(reader(line) for line in notices_text(chosen.prefs))
            await interaction.response.send_message(text, ephemeral=True)

    @notify.autocomplete("timezone")
    async def time_zone_choices(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        now = self.service.now()
        locale = str(interaction.locale.value) if interaction.locale is not None else None
        return [
            Choice(name=zones.label(zone, now), value=zone)
            for zone in zones.suggest(current, now, locale)
        ]
