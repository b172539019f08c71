"""``/dvonn settings``: a server's default clock, threads, the language of game posts, the
channels where games may start, the role whose members run tournaments besides Manage Server,
the theme of the boards posted there, and the channel of the daily puzzle (changes need Manage
Server); with the DVONN network on, its network channel too, read only (``/network server``
names it)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.games.core.models import BoardTheme, GuildSettings
from bot.games.core.timecontrol import from_columns, to_columns
from bot.games.service import GameService
from bot.i18n import LANGUAGE_NAMES, Text, _
from bot.interactions import choices
from bot.interactions.errors import UserError
from bot.interactions.feature import Feature
from bot.interactions.inflight import InFlight
from bot.interactions.places import server_of
from bot.posting.outbox import Deliverer
from bot.posting.publisher import Publisher
from bot.posting.texts import clock_text

if TYPE_CHECKING:
    from bot.app import DvonnBot, Interaction

AUTOMATIC: Final = "auto"
LANGUAGES: Final = [
    Choice(name=locale_str("Automatic (the server's language)"), value=AUTOMATIC),
    *(Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()),
]


async def setup(bot: DvonnBot) -> None:
    await bot.add_feature(
        ServerSettings(
            bot.service,
            bot.publisher,
            bot.deliverer,
            bot.inflight,
            network=bot.settings.network,
        )
    )


class ServerSettings(Feature):
    def __init__(
        self,
        service: GameService,
        publisher: Publisher,
        deliverer: Deliverer,
        inflight: InFlight,
        *,
        network: bool = False,
    ) -> None:
        """``network``: the DVONN network is on (its channel is shown, read only: it is named
        with ``/network server``)."""
        super().__init__(service, publisher, deliverer, inflight)
        self.network = network

    @app_commands.command(
        name="settings", description=locale_str("The server's DVONN settings (Manage Server)")
    )
    @app_commands.describe(
        clock=locale_str("Default clock for new challenges: days per move, or a time bank"),
        threads=locale_str("Whether each game gets its own thread"),
        language=locale_str("Language of game posts (auto: the server's)"),
        allow=locale_str("Add a channel where games may start"),
        disallow=locale_str("Remove a channel from that list"),
        organiser_role=locale_str(
            "A role whose members may run tournaments (as Manage Server may)"
        ),
        clear_organiser_role=locale_str("Only Manage Server runs tournaments again"),
        theme=locale_str("Colours of every image the bot posts here: dark or light"),
        puzzle_channel=locale_str("Post the daily DVONN puzzle in this channel"),
        clear_puzzle_channel=locale_str("Post no daily puzzle any more"),
    )
    @app_commands.choices(clock=choices.CLOCKS)
    @app_commands.choices(language=LANGUAGES)
    @app_commands.choices(theme=choices.THEMES)
    async def settings(  # noqa: PLR0917 - a slash command's options are its parameters
        self,
        interaction: Interaction,
        clock: str | None = None,
        threads: bool | None = None,
        language: str | None = None,
        allow: discord.TextChannel | None = None,
        disallow: discord.TextChannel | None = None,
        organiser_role: discord.Role | None = None,
        clear_organiser_role: bool = False,
        theme: str | None = None,
        puzzle_channel: discord.TextChannel | None = None,
        clear_puzzle_channel: bool = False,
    ) -> None:
        async with self.inflight.track():
            guild_id = server_of(interaction)
            changes: dict[str, Any] = {}
            if clock is not None:
                days, bank = to_columns(choices.clock(clock))
                # 0: the server wants no clock (None would be "not set")
                changes["default_clock_days"] = None if bank is not None else days or 0
                changes["default_bank"] = bank
            if threads is not None:
                changes["use_threads"] = threads
            if language is not None:
                changes["locale"] = None if language == AUTOMATIC else language
            if theme is not None:
                changes["theme"] = choices.theme(theme)
            current = await self.service.guild_settings(guild_id)
            channels = set(current.channels)
            if allow is not None:
                channels.add(allow.id)
            if disallow is not None:
                channels.discard(disallow.id)
            if channels != current.channels:
                changes["channels"] = frozenset(channels)
            if organiser_role is not None and clear_organiser_role:
                raise UserError(_("Choose a role for organisers, or clear it: not both."))
            if organiser_role is not None and organiser_role.id != current.organiser_role_id:
                changes["organiser_role_id"] = organiser_role.id
            if clear_organiser_role and current.organiser_role_id is not None:
                changes["organiser_role_id"] = None
            if puzzle_channel is not None and clear_puzzle_channel:
                raise UserError(_("Choose a channel for the daily puzzle, or clear it: not both."))
            if puzzle_channel is not None and puzzle_channel.id != current.puzzle_channel_id:
                changes["puzzle_channel_id"] = puzzle_channel.id
            if clear_puzzle_channel and current.puzzle_channel_id is not None:
                changes["puzzle_channel_id"] = None
            if changes and not interaction.permissions.manage_guild:
                raise UserError(
                    _("Only members who may manage the server can change its settings.")
                )
            if puzzle_channel is not None:
                _check_daily_channel(puzzle_channel)
            if changes:
                current = await self.service.save_guild_settings(
                    dataclasses.replace(current, **changes)
                )
            lines = settings_lines(current, bool(changes))
            if self.network:
                server = await self.service.network.servers.server(guild_id)
                live = server is not None and server.is_live
                lines.append(network_line(server.channel_id if server and live else None))
            reader = self.publisher.private_reader(interaction)
            await interaction.response.send_message(
                "\n".join(reader(line) for line in lines), ephemeral=True
            )


def _check_daily_channel(channel: discord.TextChannel) -> None:
    """Refuses a channel the bot cannot post the daily puzzle in (its board and button)."""
    me = channel.guild.me
    allowed = channel.permissions_for(me) if me is not None else None
    if allowed is not None and not (
        allowed.view_channel and allowed.send_messages and allowed.attach_files
    ):
        raise UserError(
            _(
                "I cannot post the daily puzzle in <#{channel}>: I need to see the channel, "
                "send messages and attach files there. Give me those permissions, or choose "
                "another channel.",
                channel=channel.id,
            )
        )


def settings_lines(settings: GuildSettings, changed: bool) -> list[Text]:
    not_set = settings.default_clock_days is None and settings.default_bank is None
    clock: Text = (
        _("not set (no clock)")
        if not_set
        else clock_text(from_columns(settings.default_clock_days, settings.default_bank))
    )
    channels = ", ".join(f"<#{c}>" for c in sorted(settings.channels))
    role = settings.organiser_role_id
    organisers: Text
    if role is None:
        organisers = _("members who may manage the server")
    elif role == settings.guild_id:  # the @everyone role
        organisers = _("everyone")
    else:
        organisers = _("members who may manage the server, and <@&{role}>", role=role)
    return [
        _("Settings saved.") if changed else _("This server's settings:"),
        _("Default clock: {clock}", clock=clock),
        _("Threads for games: {answer}", answer=_("yes") if settings.use_threads else _("no")),
        _(
            "Language of game posts: {language}",
            language=LANGUAGE_NAMES.get(settings.locale, settings.locale)
            if settings.locale
            else _("automatic"),
        ),
        _("Games may start in: {channels}", channels=channels or _("any channel")),
        _("Tournaments are run by: {who}", who=organisers),
        _(
            "Boards and images posted here: {theme}",
            theme=choices.THEME_NAMES[settings.theme or BoardTheme.DARK],
        ),
        _("Daily puzzle: in <#{channel}>", channel=settings.puzzle_channel_id)
        if settings.puzzle_channel_id is not None
        else _("Daily puzzle: not posted (choose a channel with puzzle_channel)"),
    ]


def network_line(channel_id: int | None) -> Text:
    """The server's network channel, read only (named with ``/network server``)."""
    if channel_id is None:
        return _("DVONN network: this server does not take part (see /network server)")
    return _("DVONN network channel: <#{channel}> (see /network server)", channel=channel_id)
