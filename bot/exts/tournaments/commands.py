"""``/dvonn tournament …``: a subcommand group (the ``/dvonn`` group holds 25 entries at most,
and this takes one for all of tournaments' commands), and the Join button of a tournament's
post."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.exts.tournaments.buttons import guild_of, join_tournament
from bot.exts.tournaments.posts import TournamentPosts
from bot.exts.tournaments.texts import FORMAT_NAMES, pairings_text, tournament_line
from bot.games.core import timecontrol
from bot.games.core.models import GameStatus, TournamentFormat, TournamentStatus
from bot.games.service import GameService
from bot.i18n import Text, _
from bot.interactions import choices
from bot.interactions.errors import UserError
from bot.interactions.feature import Feature
from bot.interactions.inflight import InFlight
from bot.interactions.organisers import is_organiser
from bot.interactions.replies import MAX_CONTENT, finish
from bot.posting.outbox import Deliverer
from bot.posting.publisher import Publisher

if TYPE_CHECKING:
    from bot.app import Interaction

FORMATS: Final = [
    Choice(name=locale_str(FORMAT_NAMES[f].english()), value=f.value) for f in TournamentFormat
]


def fit_message(text: str) -> str:
    """``text`` within a message's length: its first line, then as many of its last lines as
    fit after an ellipsis (a long tournament's pairings: its latest rounds)."""
    if len(text) <= MAX_CONTENT:
        return text
    first, _sep, rest = text.partition("\n")
    room = MAX_CONTENT - len(first) - len("\n…\n")
    tail = rest[-room:].partition("\n")[2] if room > 0 else ""
    return f"{first}\n…\n{tail}"[:MAX_CONTENT]


SHOWN: Final = (TournamentStatus.OPEN, TournamentStatus.RUNNING, TournamentStatus.FINISHED)
"""The tournaments standings and pairings may show (not those called off)."""


class TournamentCommands(Feature):
    tournament = app_commands.Group(
        name="tournament", description=locale_str("Tournaments and leagues on this server")
    )

    def __init__(
        self,
        service: GameService,
        publisher: Publisher,
        deliverer: Deliverer,
        inflight: InFlight,
        posts: TournamentPosts,
    ) -> None:
        super().__init__(service, publisher, deliverer, inflight)
        self.posts = posts

    async def _tell(self, interaction: Interaction, text: Text) -> None:
        """A private answer, in the user's language."""
        reader = self.publisher.private_reader(interaction)
        await interaction.response.send_message(reader(text), ephemeral=True)

    async def _post_now(self) -> None:
        """Post the announcements a command just wrote (they are nobody's yet)."""
        await self.deliverer.deliver_pending()

    async def _tournament_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[Choice[int]]:
        if interaction.guild_id is None:
            return []
        on = await self.service.tournaments.listed(
            interaction.guild_id, (TournamentStatus.OPEN, TournamentStatus.RUNNING)
        )
        found = [t for t in on if current.lower() in f"#{t.id} {t.name}".lower()]
        return [Choice(name=f"#{t.id} {t.name}"[:100], value=t.id) for t in found[:25]]

    @tournament.command(name="create", description=locale_str("Make a tournament or a league"))
    @app_commands.describe(
        name=locale_str("Its name"),
        format=locale_str("How players are paired"),
        clock=locale_str("Each game's clock (default: the server's)"),
        rated=locale_str("Whether its games count for the server's ratings (default: yes)"),
        max_players=locale_str("The most players; it begins when full unless it has a start time"),
        rounds=locale_str("Swiss: how many rounds (default: 5)"),
        start_in_hours=locale_str("Begin by itself this many hours from now"),
        role=locale_str("Only members of this role may join"),
        division_size=locale_str("League: players in a division (default: 10)"),
        moves_down=locale_str("League: how many go down a division each season (default: 2)"),
    )
    @app_commands.choices(format=FORMATS, clock=choices.CLOCKS)
    async def create(  # noqa: PLR0917 - a slash command's options are its parameters
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 60],
        format: str = TournamentFormat.ROUND_ROBIN.value,
        clock: str | None = None,
        rated: bool | None = None,
        max_players: app_commands.Range[int, 2, 256] | None = None,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        start_in_hours: app_commands.Range[int, 1, 720] | None = None,
        role: discord.Role | None = None,
        division_size: app_commands.Range[int, 3, 30] | None = None,
        moves_down: app_commands.Range[int, 0, 10] | None = None,
    ) -> None:
        async with self.inflight.track():
            guild_id = guild_of(interaction)
            assert interaction.channel_id is not None
            if not isinstance(interaction.channel, discord.TextChannel):
                raise UserError(
                    _("Make a tournament in a text channel: each game gets a thread there.")
                )
            allowed = interaction.app_permissions
            if not (allowed.create_public_threads and allowed.send_messages_in_threads):
                raise UserError(
                    _("I need to create threads here and post in them to run a tournament.")
                )
            control: timecontrol.TimeControl | None
            if clock is None:  # the server's default clock, else Little Golem's bank
                settings = await self.service.guild_settings(guild_id)
                control = (
                    timecontrol.from_columns(settings.default_clock_days, settings.default_bank)
                    or timecontrol.LITTLE_GOLEM
                )
            else:
                control = choices.clock(clock)
            starts_at = (
                None
                if start_in_hours is None
                else self.service.now() + timedelta(hours=start_in_hours)
            )
            tournament = await self.service.tournaments.create(
                guild_id=guild_id,
                channel_id=interaction.channel_id,
                by=interaction.user.id,
                organiser=await is_organiser(self.service, interaction),
                name=name,
                format=TournamentFormat(format),
                clock=timecontrol.to_text(control),
                rated=rated,
                rounds=rounds,
                max_players=max_players,
                starts_at=starts_at,
                role_id=None if role is None else role.id,
                division_size=division_size,
                moves_down=moves_down,
            )
            await self._tell(
                interaction,
                _(
                    "Made {tournament}. Its post here takes entries; players join with "
                    "its button or `/dvonn tournament join`.",
                    tournament=tournament_line(tournament),
                ),
            )
            await self._post_now()

    @tournament.command(name="join", description=locale_str("Enter a tournament or league"))
    @app_commands.describe(tournament=locale_str("Which (default: the one taking entries)"))
    async def join(self, interaction: Interaction, tournament: int | None = None) -> None:
        async with self.inflight.track():
            await join_tournament(self.service, self.publisher, interaction, tournament)
            await self._post_now()

    @tournament.command(name="leave", description=locale_str("Leave a tournament before it begins"))
    @app_commands.describe(tournament=locale_str("Which (default: yours)"))
    async def leave(self, interaction: Interaction, tournament: int | None = None) -> None:
        async with self.inflight.track():
            found = await self.service.tournaments.choose(
                guild_of(interaction), tournament, user_id=interaction.user.id
            )
            await self.service.tournaments.leave(found.id, interaction.user.id)
            await self._tell(
                interaction, _("You left {tournament}.", tournament=tournament_line(found))
            )
            await self._post_now()

    @tournament.command(
        name="withdraw",
        description=locale_str("Withdraw from a running tournament (your games left are lost)"),
    )
    @app_commands.describe(tournament=locale_str("Which (default: yours)"))
    async def withdraw(self, interaction: Interaction, tournament: int | None = None) -> None:
        async with self.inflight.track():
            found = await self.service.tournaments.choose(
                guild_of(interaction), tournament, user_id=interaction.user.id
            )
            await self.service.tournaments.withdraw(found.id, interaction.user.id)
            await self._tell(
                interaction,
                _(
                    "You withdrew from {tournament}: your games still to play are lost, "
                    "those you played count.",
                    tournament=tournament_line(found),
                ),
            )
            await self._post_now()

    @tournament.command(name="start", description=locale_str("Begin a tournament now (organisers)"))
    @app_commands.describe(tournament=locale_str("Which (default: the one taking entries)"))
    async def start(self, interaction: Interaction, tournament: int | None = None) -> None:
        async with self.inflight.track():
            found = await self.service.tournaments.choose(
                guild_of(interaction), tournament, statuses=(TournamentStatus.OPEN,)
            )
            started = await self.service.tournaments.start(
                found.id,
                interaction.user.id,
                organiser=await is_organiser(self.service, interaction),
            )
            await self._tell(
                interaction, _("{tournament} has begun.", tournament=tournament_line(started))
            )
            await self._post_now()

    @tournament.command(name="cancel", description=locale_str("Call a tournament off (organisers)"))
    @app_commands.describe(tournament=locale_str("Which (default: the one on)"))
    async def cancel(self, interaction: Interaction, tournament: int | None = None) -> None:
        async with self.inflight.track():
            found = await self.service.tournaments.choose(guild_of(interaction), tournament)
            cancelled = await self.service.tournaments.cancel(
                found.id,
                interaction.user.id,
                organiser=await is_organiser(self.service, interaction),
            )
            await self._tell(
                interaction,
                _(
                    "{tournament} is called off; its running games are aborted.",
                    tournament=tournament_line(cancelled),
                ),
            )
            await self._post_now()

    @tournament.command(name="standings", description=locale_str("A tournament's standings"))
    @app_commands.describe(tournament=locale_str("Which (default: the one on)"))
    async def standings(self, interaction: Interaction, tournament: int | None = None) -> None:
        async with self.inflight.track():
            found = await self.service.tournaments.choose(
                guild_of(interaction),
                tournament,
                statuses=SHOWN,
            )
            await interaction.response.defer(ephemeral=True, thinking=True)
            reader = await self.publisher.own_reader(interaction)  # for the reader alone
            kwargs = await self.posts.standings_message(
                found.id, reader, viewer=interaction.user.id
            )
            await finish(interaction, **kwargs)

    @tournament.command(
        name="pairings", description=locale_str("A tournament's games, round by round")
    )
    @app_commands.describe(tournament=locale_str("Which (default: the one on)"))
    async def pairings(self, interaction: Interaction, tournament: int | None = None) -> None:
        async with self.inflight.track():
            found = await self.service.tournaments.choose(
                guild_of(interaction),
                tournament,
                statuses=SHOWN,
            )
            # A game and a name read each: more than Discord's 3 s may pass before the text.
            await interaction.response.defer(ephemeral=True, thinking=True)
            standing = await self.service.tournaments.standing(found.id)
            reader = self.publisher.private_reader(interaction)
            threads = {}  # the running games' threads, to link
            for part in standing.divisions or (standing,):
                for pairing in part.pairings:
                    if pairing.game_id is None or pairing.is_decided:
                        continue
                    game = await self.service.get_game(pairing.game_id)
                    if game.status is GameStatus.ACTIVE:
                        threads[game.id] = game.channel_id
            text = await pairings_text(standing, self.publisher.names.get, reader, threads)
            await finish(interaction, fit_message(text))

    for command in (join, leave, withdraw, start, cancel, standings, pairings):
        command.autocomplete("tournament")(_tournament_autocomplete)
    del command
