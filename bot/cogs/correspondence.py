"""``/dvonn`` commands for correspondence play: vacations, reminders, takebacks, ratings,
replays, import/export, and the server's settings.

A mixin of :class:`bot.cogs.dvonn.DvonnCog` (one ``/dvonn`` group holds every subcommand).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

import rules
from bot.client import UserError
from bot.components import TakebackButton
from bot.games.correspondence import LEADERBOARD_MIN_GAMES, VACATION_DAYS_PER_YEAR
from bot.games.service import CLOCK_CHOICES
from bot.i18n import COLOUR_NAMES, Text, _, n_, transcript_error_text
from bot.presenter import discord_time, mention
from bot.storage.models import Game, GuildSettings

if TYPE_CHECKING:
    from bot.client import DvonnBot
    from bot.games.service import GameService
    from bot.posting import Publisher

Interaction: TypeAlias = "discord.Interaction[DvonnBot]"

LANGUAGE_NAMES: Final = {
    "en": "English",
    "ru": "Русский",
    "ko": "한국어",
    "pl": "Polski",
    "fr": "Français",
}
"""Each language by its own name, as language menus show them."""
AUTOMATIC: Final = "auto"
MAX_TRANSCRIPT_BYTES: Final = 64 * 1024


class CorrespondenceCommands(commands.Cog):
    """The commands; ``self`` is the :class:`DvonnCog`."""

    bot: DvonnBot
    publisher: Publisher

    if TYPE_CHECKING:

        @property
        def service(self) -> GameService: ...

        async def _game_here(self, interaction: Interaction) -> Game: ...

    async def _game_for_record(self, interaction: Interaction, game_id: int | None) -> Game:
        """A game by number, or the channel's running game, or the last one played here."""
        if game_id is not None:
            found: Game = await self.service.get_game(game_id)
            return found
        assert interaction.channel_id is not None
        latest = await self.bot.correspondence.queries.latest_game_in_channel(
            interaction.channel_id
        )
        if latest is None:
            return await self._game_here(interaction)  # raises, pointing to the user's games
        return latest

    # --- the player's own time -----------------------------------------------------------------

    @app_commands.command(
        name="vacation", description=locale_str("Pause your clocks in all your games for some days")
    )
    @app_commands.describe(days=locale_str("How many days (14 a year)"))
    async def vacation(
        self, interaction: Interaction, days: app_commands.Range[int, 1, VACATION_DAYS_PER_YEAR]
    ) -> None:
        async with self.bot.inflight.track():
            vacation = await self.bot.correspondence.start_vacation(interaction.user.id, days)
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
                + reader(_("Vacation days left this year: {left}.", left=vacation.days_left)),
                ephemeral=True,
            )
            await self.bot.notifier.deliver_pending()  # tell the opponents now

    @app_commands.command(
        name="notify", description=locale_str("Turn deadline reminders on or off")
    )
    @app_commands.describe(enabled=locale_str("Whether the bot reminds you before a deadline"))
    async def notify(self, interaction: Interaction, enabled: bool) -> None:
        async with self.bot.inflight.track():
            await self.bot.correspondence.set_notify(interaction.user.id, enabled)
            reader = self.publisher.private_reader(interaction)
            text = (
                _("You will be reminded (by DM where you allow it) when a deadline draws near.")
                if enabled
                else _("You will not be reminded of deadlines any more.")
            )
            await interaction.response.send_message(reader(text), ephemeral=True)

    # --- takebacks -----------------------------------------------------------------------------

    @app_commands.command(
        name="takeback", description=locale_str("Ask your opponent to undo your last move")
    )
    async def takeback(self, interaction: Interaction) -> None:
        async with self.bot.inflight.track():
            game = await self._game_here(interaction)
            asked = await self.bot.correspondence.request_takeback(game.id, interaction.user.id)
            opponent = asked.opponent_of(interaction.user.id)
            if asked.computer_id is not None and opponent == asked.computer_id:
                await self._computer_accepts_takeback(interaction, asked)
                return
            reader = await self.publisher.public_reader(game.guild_id, interaction)
            view = discord.ui.View(timeout=None)
            view.add_item(TakebackButton(game.id, "accept", reader))
            view.add_item(TakebackButton(game.id, "decline", reader))
            await interaction.response.send_message(
                reader(
                    _(
                        "{player} asks to take back their last move. {opponent}, do you accept?",
                        player=interaction.user.display_name,
                        opponent=mention(opponent),
                    )
                ),
                view=view,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(opponent)]),
            )

    async def _computer_accepts_takeback(self, interaction: Interaction, game: Game) -> None:
        """The bot is a patient opponent: it always lets a human take a move back."""
        from bot.presenter import takeback_post

        assert game.computer_id is not None
        answer = await self.bot.correspondence.answer_takeback(game.id, game.computer_id, True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        players = await self.publisher.players(answer.game)
        post = takeback_post(answer.game, players, answer.undone)
        await self.publisher.send_to_game(answer.game, post, interaction, players)
        reader = self.publisher.private_reader(interaction)
        await interaction.edit_original_response(content=reader(_("The bot let you take it back.")))

    # --- ratings -------------------------------------------------------------------------------

    @app_commands.command(
        name="profile", description=locale_str("A player's rating and games here")
    )
    @app_commands.describe(user=locale_str("Whose profile (default: yours)"))
    @app_commands.guild_only()
    async def profile(self, interaction: Interaction, user: discord.User | None = None) -> None:
        async with self.bot.inflight.track():
            who = user or interaction.user
            self.bot.names.remember(who)
            assert interaction.guild_id is not None
            profile = await self.bot.correspondence.profile(interaction.guild_id, who.id)
            reader = self.publisher.private_reader(interaction)
            lines: list[Text] = [_("**{player}**", player=who.display_name)]
            rating = profile.rating
            if rating is None:
                lines.append(_("No rated games on this server yet."))
            else:
                lines.append(
                    n_(
                        "Rating {rating} (± {deviation}) · {count} game: {wins} won, "
                        "{losses} lost, {draws} drawn",
                        "Rating {rating} (± {deviation}) · {count} games: {wins} won, "
                        "{losses} lost, {draws} drawn",
                        rating.games,
                        rating=round(rating.rating),
                        deviation=round(2 * rating.deviation),
                        wins=rating.wins,
                        losses=rating.losses,
                        draws=rating.draws,
                    )
                )
            for game in profile.active:
                opponent = await self.bot.names.get(game.opponent_of(who.id))
                colour = game.colour_of(who.id)
                lines.append(
                    _(
                        "Playing #{game} vs {opponent} ({colour}) in <#{channel}>",
                        game=game.id,
                        opponent=opponent,
                        colour=COLOUR_NAMES[colour] if colour else "",
                        channel=game.channel_id,
                    )
                )
            await interaction.response.send_message(
                "\n".join(reader(line) for line in lines), ephemeral=True
            )

    @app_commands.command(name="leaderboard", description=locale_str("The server's best players"))
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction) -> None:
        async with self.bot.inflight.track():
            assert interaction.guild_id is not None
            board = await self.bot.correspondence.leaderboard(interaction.guild_id)
            reader = self.publisher.private_reader(interaction)
            if not board:
                text = n_(
                    "Nobody has played {count} rated game here yet.",
                    "Nobody has played {count} rated games here yet.",
                    LEADERBOARD_MIN_GAMES,
                )
                await interaction.response.send_message(reader(text), ephemeral=True)
                return
            lines = [
                reader(
                    n_(
                        "Ratings on this server (at least {count} game):",
                        "Ratings on this server (at least {count} games):",
                        LEADERBOARD_MIN_GAMES,
                    )
                )
            ]
            for place, row in enumerate(board, start=1):
                name = await self.bot.names.get(row.user_id)
                lines.append(
                    reader(
                        n_(
                            "{place}. {player}: {rating} ({count} game)",
                            "{place}. {player}: {rating} ({count} games)",
                            row.games,
                            place=place,
                            player=name,
                            rating=round(row.rating),
                        )
                    )
                )
            await interaction.response.send_message("\n".join(lines), ephemeral=True)

    # --- records -------------------------------------------------------------------------------

    @app_commands.command(name="replay", description=locale_str("An animated replay of a game"))
    @app_commands.describe(game=locale_str("A game number (default: the last game here)"))
    async def replay(self, interaction: Interaction, game: int | None = None) -> None:
        async with self.bot.inflight.track():
            found = await self._game_for_record(interaction, game)
            await interaction.response.defer(thinking=True)
            record = await self.service.record(found.id)
            players = await self.publisher.players(found)
            reader = await self.publisher.public_reader(found.guild_id, interaction)
            from bot.presenter import image_labels

            gif = await self.bot.renderer.replay_gif(
                [m.move for m in record.moves],
                players=players.as_tuple(),
                labels=image_labels(reader.catalogues, reader.locale),
            )
            await interaction.followup.send(
                reader(
                    n_(
                        "Game #{game}: {white} vs {black}, {count} action.",
                        "Game #{game}: {white} vs {black}, {count} actions.",
                        len(record.moves),
                        game=found.id,
                        white=players.white,
                        black=players.black,
                    )
                )
                + f"\n```\n{record.text or '-'}\n```"[:1800],
                file=discord.File(io.BytesIO(gif), filename=f"dvonn-{found.id}.gif"),
            )

    @app_commands.command(
        name="export", description=locale_str("A game as a Little Golem transcript")
    )
    @app_commands.describe(game=locale_str("A game number (default: the last game here)"))
    async def export(self, interaction: Interaction, game: int | None = None) -> None:
        async with self.bot.inflight.track():
            found = await self._game_for_record(interaction, game)
            record = await self.service.record(found.id)
            players = await self.publisher.players(found)
            reader = self.publisher.private_reader(interaction)
            await interaction.response.send_message(
                reader(_("Game #{game} as a Little Golem transcript:", game=found.id)),
                file=self.publisher.transcript_file(record, players),
                ephemeral=True,
            )

    @app_commands.command(
        name="import", description=locale_str("Look at a Little Golem transcript on a board")
    )
    @app_commands.describe(
        transcript=locale_str("A .txt file with the transcript"),
        ply=locale_str("Show the position after this many actions (default: the end)"),
    )
    async def import_(
        self,
        interaction: Interaction,
        transcript: discord.Attachment,
        ply: app_commands.Range[int, 0, 200] | None = None,
    ) -> None:
        async with self.bot.inflight.track():
            if transcript.size > MAX_TRANSCRIPT_BYTES:
                raise UserError(_("That file is too big to be a DVONN transcript."))
            raw = await transcript.read()
            try:
                parsed = rules.parse_little_golem(raw.decode("utf-8", errors="replace"))
            except rules.TranscriptError as error:
                text = _(
                    "This is not a transcript I can read: {error}",
                    error=transcript_error_text(error),
                )
                raise UserError(text) from error
            moves = list(parsed.moves)
            upto = len(moves) if ply is None else min(ply, len(moves))
            positions = rules.replay(moves[:upto])
            await interaction.response.defer(thinking=True)
            result = rules.apply(positions[-2], moves[upto - 1]) if upto else None
            reader = self.publisher.private_reader(interaction)
            from bot.presenter import image_labels

            labels = image_labels(reader.catalogues, reader.locale)
            white = parsed.headers.get("White") or labels.white
            black = parsed.headers.get("Black") or labels.black

            png = await self.bot.renderer.board_png(
                positions[-1],
                last_move=None if result is None else result.move,
                removed=None if result is None else result.removed,
                players=(white, black),
                labels=labels,
            )
            await interaction.followup.send(
                reader(
                    n_(
                        "Analysis board (not a game): {white} vs {black} after {ply} of "
                        "{count} action.",
                        "Analysis board (not a game): {white} vs {black} after {ply} of "
                        "{count} actions.",
                        len(moves),
                        white=white,
                        black=black,
                        ply=upto,
                    )
                ),
                file=discord.File(io.BytesIO(png), filename="board.png"),
            )

    # --- the server's settings -----------------------------------------------------------------

    @app_commands.command(
        name="settings", description=locale_str("The server's DVONN settings (Manage Server)")
    )
    @app_commands.describe(
        clock=locale_str("Default clock for new challenges"),
        threads=locale_str("Whether each game gets its own thread"),
        language=locale_str("Language of game posts (auto: the server's)"),
        allow=locale_str("Add a channel where games may start"),
        disallow=locale_str("Remove a channel from that list"),
    )
    @app_commands.choices(
        clock=[
            Choice(name=locale_str("No clock"), value=0),
            Choice(name=locale_str("1 day per move"), value=1),
            Choice(name=locale_str("2 days per move"), value=2),
            Choice(name=locale_str("3 days per move"), value=3),
            Choice(name=locale_str("5 days per move"), value=5),
            Choice(name=locale_str("7 days per move"), value=7),
            Choice(name=locale_str("14 days per move"), value=14),
        ]
    )
    @app_commands.choices(
        language=[
            Choice(name=locale_str("Automatic (the server's language)"), value=AUTOMATIC),
            Choice(name="English", value="en"),
            Choice(name="Русский", value="ru"),
            Choice(name="한국어", value="ko"),
            Choice(name="Polski", value="pl"),
            Choice(name="Français", value="fr"),
        ]
    )
    @app_commands.guild_only()
    async def settings(  # noqa: PLR0917 - a slash command's options are its parameters
        self,
        interaction: Interaction,
        clock: int | None = None,
        threads: bool | None = None,
        language: str | None = None,
        allow: discord.TextChannel | None = None,
        disallow: discord.TextChannel | None = None,
    ) -> None:
        async with self.bot.inflight.track():
            assert interaction.guild_id is not None
            changes: dict[str, Any] = {}
            if clock is not None:
                assert clock == 0 or clock in CLOCK_CHOICES
                changes["default_clock_days"] = clock
            if threads is not None:
                changes["use_threads"] = threads
            if language is not None:
                changes["locale"] = None if language == AUTOMATIC else language
            current = await self.service.guild_settings(interaction.guild_id)
            channels = set(current.channels)
            if allow is not None:
                channels.add(allow.id)
            if disallow is not None:
                channels.discard(disallow.id)
            if channels != current.channels:
                changes["channels"] = frozenset(channels)
            if changes and not interaction.permissions.manage_guild:
                raise UserError(
                    _("Only members who may manage the server can change its settings.")
                )
            if changes:
                import dataclasses

                current = await self.service.save_guild_settings(
                    dataclasses.replace(current, **changes)
                )
            reader = self.publisher.private_reader(interaction)
            await interaction.response.send_message(
                "\n".join(reader(line) for line in settings_lines(current, bool(changes))),
                ephemeral=True,
            )


def settings_lines(settings: GuildSettings, changed: bool) -> list[Text]:
    days = settings.default_clock_days
    clock: Text = (
        _("not set (no clock)")
        if days is None
        else _("no clock")
        if days == 0
        else n_("{count} day per move", "{count} days per move", days)
    )
    channels = ", ".join(f"<#{c}>" for c in sorted(settings.channels))
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
    ]
