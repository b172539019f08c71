"""``/network championship``: the network championship's standings image, entering and
withdrawing, and its Enter button ``dvonn:net:champ:enter``. The championship opens for entries
the first time someone asks for it here, or at the housekeeping pass after the network's first
member joined; its first season a week later unless the operator set its start
(``DVONN_NETWORK_SEASON_START``).

The standings of one division (``division``, else the caller's, else the top) are posted for
everyone in a server's network channel, privately anywhere else; entering and withdrawing are
answered privately. The service's part is :mod:`bot.games.tournaments.championship`
(``service.championship``); names are the network's (its members' global names), never a
server's nicknames.

Added to ``/network`` by :func:`add_to` (the package's :data:`~bot.exts.network.PARTS`).
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.exts.network.commands import refresh_name
from bot.games.service import GameService
from bot.games.tournaments.championship import DivisionView, Move
from bot.games.tournaments.standings import Standing
from bot.games.tournaments.tables import table
from bot.i18n import _, n_
from bot.interactions.buttons import BotButton, label
from bot.interactions.errors import UserError
from bot.interactions.replies import finish
from bot.posting.descriptions import MAX_ALT_TEXT
from bot.posting.outbox import Deliverer
from bot.posting.publisher import Publisher, Reader
from bot.posting.texts import discord_time
from render.standings import Column, Mark, StandingsRow, StandingsTable

if TYPE_CHECKING:
    from bot.app import DvonnBot, Interaction

ENTER_ID: Final = "dvonn:net:champ:enter"
"""The Enter button's id: a contract with the posts already on Discord."""
CHAMPIONSHIP: Final = _("DVONN network championship")
"""Its name, in the reader's language (the stored one is English)."""


def when(moment: datetime) -> str:
    """When the first season begins, as Discord timestamps every reader sees in their own time
    zone and language: the date and time, and how long from now."""
    return f"{discord_time(moment, 'f')} ({discord_time(moment)})"


async def in_network_channel(service: GameService, interaction: discord.Interaction[Any]) -> bool:
    """Whether ``interaction`` comes from its server's network channel (a server taking part)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return False
    server = await service.network.servers.server(interaction.guild_id)
    return server is not None and server.is_live and server.channel_id == interaction.channel_id


async def enter_championship(
    service: GameService, publisher: Publisher, interaction: Interaction
) -> None:
    """Enter the caller (the option and the button), answered privately."""
    joined = await service.championship.enter(interaction.user.id)
    if joined.tournament.is_running:
        text = _(
            "You are in the network championship: you play from its next season, in the "
            "lowest level. Your games are played in your network home."
        )
    else:
        assert joined.tournament.starts_at is not None
        text = n_(
            "You are in the network championship ({count} player): its first season begins "
            "{start}. Your games are played in your network home.",
            "You are in the network championship ({count} players): its first season begins "
            "{start}. Your games are played in your network home.",
            joined.players,
            start=when(joined.tournament.starts_at),
        )
    reader = publisher.private_reader(interaction)
    await interaction.response.send_message(reader(text), ephemeral=True)


async def add_to(bot: DvonnBot, network: app_commands.Group) -> None:
    """``/network championship`` and the Enter button (the package's ``setup()`` calls this)."""
    network.add_command(ChampionshipCommand(bot.service, bot.publisher, bot.deliverer).command())
    bot.add_dynamic_items(EnterButton)


class EnterButton(BotButton, template=r"dvonn:net:champ:enter"):
    """Under the championship's standings: enter it."""

    def __init__(self, reader: Reader | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label(reader, _("Enter")),
                style=discord.ButtonStyle.success,
                custom_id=ENTER_ID,
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> EnterButton:
        return cls()

    async def run(self, interaction: Interaction) -> None:
        client = interaction.client
        await refresh_name(interaction)
        await enter_championship(client.service, client.publisher, interaction)
        await client.deliverer.deliver_pending()


def enter_view(reader: Reader) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(EnterButton(reader))
    return view


class ChampionshipCommand:
    """The ``championship`` subcommand of ``/network`` (see the module's wiring)."""

    def __init__(self, service: GameService, publisher: Publisher, deliverer: Deliverer) -> None:
        self.service = service
        self.publisher = publisher
        self.deliverer = deliverer

    def command(self) -> app_commands.Command[Any, ..., None]:
        """The subcommand, to add to the ``/network`` group."""

        @app_commands.command(
            name="championship",
            description=locale_str("The network championship: standings, entering, withdrawing"),
        )
        @app_commands.describe(
            enter=locale_str("Enter it (network players)"),
            withdraw=locale_str("Withdraw from it: your games still to play are lost"),
            division=locale_str("Which division's standings (default: yours)"),
        )
        @app_commands.autocomplete(division=self.divisions)
        async def championship(
            interaction: Interaction,
            enter: bool = False,
            withdraw: bool = False,
            division: app_commands.Range[int, 1, 100_000] | None = None,
        ) -> None:
            await self.run(interaction, enter=enter, withdraw=withdraw, division=division)

        return championship

    async def divisions(self, interaction: Interaction, current: str) -> list[Choice[int]]:
        """This season's divisions, those starting with what was typed."""
        numbers = await self.service.championship.division_numbers()
        found = [n for n in numbers if str(n).startswith(current.strip())]
        return [Choice(name=str(n), value=n) for n in found[:25]]

    async def run(
        self,
        interaction: Interaction,
        *,
        enter: bool = False,
        withdraw: bool = False,
        division: int | None = None,
    ) -> None:
        """The subcommand's handler (also callable from another command's)."""
        if enter and withdraw:
            raise UserError(_("Choose one: `enter` or `withdraw`."))
        if enter:
            await enter_championship(self.service, self.publisher, interaction)
            await self.deliverer.deliver_pending()
            return
        if withdraw:
            await self.service.championship.withdraw(interaction.user.id)
            reader = self.publisher.private_reader(interaction)
            text = _(
                "You withdrew from the network championship: your games still to play are "
                "lost, those played count."
            )
            await interaction.response.send_message(reader(text), ephemeral=True)
            await self.deliverer.deliver_pending()  # the games lost, in their homes
            return
        view = await self.service.championship.view(interaction.user.id, division)
        public = await in_network_channel(self.service, interaction)
        await interaction.response.defer(ephemeral=not public, thinking=True)
        if public:
            reader = await self.publisher.public_reader(interaction.guild_id, interaction)
        else:
            reader = await self.publisher.own_reader(interaction)
        await finish(interaction, **await self.message(view, reader, interaction.user.id))

    async def message(self, view: DivisionView, reader: Reader, viewer: int) -> dict[str, Any]:
        """The standings as a message: a line, the division's image, and Enter for those not
        in."""
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
        if not view.entered:
            kwargs["view"] = enter_view(reader)
        if view.division is None and view.season is not None and view.drawing:
            line = n_(
                "{name}: season {season} is being drawn, {count} division still to make; "
                "its standings show in a few minutes.",
                "{name}: season {season} is being drawn, {count} divisions still to make; "
                "its standings show in a few minutes.",
                view.drawing,
                name=CHAMPIONSHIP,
                season=view.season,
            )
            return {**kwargs, "content": reader(line)}
        if view.division is None or view.season is None:
            starts = view.championship.starts_at
            line = n_(
                "{name}: {count} player entered; its first season begins {start}.",
                "{name}: {count} players entered; its first season begins {start}.",
                view.players,
                name=CHAMPIONSHIP,
                start=when(starts) if starts is not None else "—",
            )
            return {**kwargs, "content": reader(line)}
        picture = division_table(view, reader, viewer)
        png = await self.publisher.renderer.standings_png(picture, theme=reader.theme)
        kwargs["files"] = [
            discord.File(
                io.BytesIO(png), filename="championship.png", description=alt_text(picture)
            )
        ]
        line = n_(
            "{name}: season {season}, division {division} of {divisions} (level {level}); "
            "{count} player in.",
            "{name}: season {season}, division {division} of {divisions} (level {level}); "
            "{count} players in.",
            view.players,
            name=CHAMPIONSHIP,
            season=view.season,
            division=view.division.tournament.division or 1,
            divisions=view.divisions,
            level=view.level or 1,
        )
        return {**kwargs, "content": reader(line)}


def _points(points: float) -> str:
    whole = int(points)
    if not points - whole:
        return str(whole)
    return f"{whole}½" if whole else "½"


def _tie_break(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}".rstrip("0")


MARKS: Final[Mapping[Move, Mark]] = {Move.UP: Mark.PROMOTED, Move.DOWN: Mark.RELEGATED}


def division_table(view: DivisionView, reader: Reader, viewer: int | None) -> StandingsTable:
    """A division's standings image: its players by the league's order (points, then
    Sonneborn-Berger, then the piece margin), who goes up and down, who withdrew, the
    ``viewer`` outlined; names the network's."""
    assert view.division is not None
    part = view.division
    ranked: list[Standing] = table(part.tournament, part.entrants, part.pairings)
    withdrawn = {e.user_id for e in part.entrants if e.withdrawn}
    played = sum(1 for p in part.pairings if p.is_decided and not p.is_bye)
    games = sum(1 for p in part.pairings if not p.is_bye)
    rows = []
    for row in ranked:
        mark = Mark.WITHDRAWN if row.player in withdrawn else None
        if mark is None and played and row.player in view.moves:
            # Who would go up and down were it over now: not before a game is decided (all
            # level, the marks would only show the seeding).
            mark = MARKS[view.moves[row.player]]
        rows.append(
            StandingsRow(
                rank=str(row.rank),
                name=view.names.get(row.player, "?"),
                cells=[
                    _points(row.points),
                    str(row.games),
                    *(_tie_break(v) for _, v in row.tie_breaks),
                    f"{row.margin:+d}" if row.margin else "0",
                ],
                mark=mark,
                highlight=row.player == viewer,
            )
        )
    # The championship's name is in the post's text: the image's title keeps to what tells
    # one division from another, which a longer title lost at its end.
    title = _(
        "Season {season}, division {division}",
        season=view.season,
        division=part.tournament.division or 1,
    )
    subtitle = _(
        "Level {level} · {played} of {games} games played",
        level=view.level or 1,
        played=played,
        games=games,
    )
    return StandingsTable(
        title=reader(title),
        subtitle=reader(subtitle),
        columns=[
            Column(reader(_("Pts")), emphasis=True),
            Column(reader(_("Games"))),
            Column(reader(_("SB"))),
            Column("±"),  # the piece margin sum: a sign every language reads
        ],
        rows=rows,
        legend={
            Mark.PROMOTED: reader(_("moves up")),
            Mark.RELEGATED: reader(_("moves down")),
            Mark.WITHDRAWN: reader(_("withdrew")),
        },
        name_header=reader(_("Player")),
    )


def alt_text(picture: StandingsTable) -> str:
    """The image as words (what a screen reader says, and what shows where it does not
    load): its title, then a line a player."""
    lines = [f"{picture.title}: {picture.subtitle}"]
    for row in picture.rows:
        mark = picture.legend.get(row.mark) if row.mark is not None else None
        name = f"{row.name} ({mark})" if mark else row.name
        lines.append(f"{row.rank}. {name}: {', '.join(row.cells)}")
    text = "\n".join(lines)
    return text if len(text) <= MAX_ALT_TEXT else text[: MAX_ALT_TEXT - 1] + "…"
