"""The records: ``/dvonn history``, ``replay`` and ``export`` of a game, ``import`` of a
Little Golem transcript as an analysis board, and the ratings: ``profile`` and
``leaderboard``."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str

import rules
from bot.games.core.models import Game, PuzzleRating
from bot.games.core.ratings import LEADERBOARD_MIN_GAMES, is_provisional
from bot.games.core.results import GameOver
from bot.i18n import COLOUR_NAMES, Text, _, n_
from bot.interactions.feature import Feature
from bot.interactions.lookup import game_for_record
from bot.interactions.places import server_of
from bot.interactions.replies import finish, fit_lines
from bot.interactions.transcripts import read_transcript, transcript_players
from bot.posting.descriptions import board_alt_text, board_summary, replay_alt_text
from bot.posting.leaderboards import leaderboard_lines
from bot.posting.texts import Players, ending_line, image_labels, rating_text

if TYPE_CHECKING:
    from bot.app import DvonnBot, Interaction

PROVISIONAL: Final = _(
    "A “?” after a rating means it is provisional: too few rated games yet to be sure of it. "
    "It settles as more games are played."
)


async def setup(bot: DvonnBot) -> None:
    records = Records(bot.service, bot.publisher, bot.deliverer, bot.inflight)
    records.network = bot.settings.network
    await bot.add_feature(records)


class Records(Feature):
    network = False
    """The DVONN network is on (``DVONN_NETWORK``): a member's profile shows their network
    rating."""

    @app_commands.command(
        name="history", description=locale_str("The game's record, and a Little Golem transcript")
    )
    @app_commands.describe(game=locale_str("A game number (default: the game in this channel)"))
    async def history(self, interaction: Interaction, game: int | None = None) -> None:
        async with self.inflight.track():
            found = await game_for_record(self.service, interaction, game)
            record = await self.service.record(found.id)
            players = await self.publisher.players(found)
            reader = self.publisher.private_reader(interaction)
            body = record.text or reader(_("(no moves yet)"))
            heading = reader(_("Record of game #{game}:", game=found.id))
            if found.setup_seed is not None:  # placements nobody chose: say so
                heading += "\n" + reader(
                    _(
                        "Random setup (seed {seed}): the bot made the 49 placements, at random.",
                        seed=found.setup_seed,
                    )
                )
            await interaction.response.send_message(
                heading + f"\n```\n{body}\n```"[:1900],
                file=self.publisher.transcript_file(record, players),
                ephemeral=True,
            )

    @app_commands.command(name="replay", description=locale_str("An animated replay of a game"))
    @app_commands.describe(game=locale_str("A game number (default: the last game here)"))
    async def replay(self, interaction: Interaction, game: int | None = None) -> None:
        async with self.inflight.track():
            found = await game_for_record(self.service, interaction, game)
            await interaction.response.defer(thinking=True)
            record = await self.service.record(found.id)
            players = await self.publisher.players(found)
            reader = await self.publisher.public_reader(found.guild_id, interaction)
            gif = await self.publisher.renderer.replay_gif(
                [m.move for m in record.moves],
                players=players.as_tuple(),
                labels=image_labels(reader.catalogues, reader.locale),
                theme=await self.publisher.public_theme(interaction),
            )
            await finish(
                interaction,
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
                file=discord.File(
                    io.BytesIO(gif),
                    filename=f"dvonn-{found.id}.gif",
                    description=replay_alt_text(
                        reader.plain,
                        game_id=found.id,
                        players=players,
                        moves=[m.move for m in record.moves],
                        result=_result(record.game, players),
                    ),
                ),
            )

    @app_commands.command(
        name="export", description=locale_str("A game as a Little Golem transcript")
    )
    @app_commands.describe(game=locale_str("A game number (default: the last game here)"))
    async def export(self, interaction: Interaction, game: int | None = None) -> None:
        async with self.inflight.track():
            found = await game_for_record(self.service, interaction, game)
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
        async with self.inflight.track():
            parsed = await read_transcript(transcript)
            moves = list(parsed.moves)
            upto = len(moves) if ply is None else min(ply, len(moves))
            positions = rules.replay(moves[:upto])
            await interaction.response.defer(thinking=True)
            result = rules.apply(positions[-2], moves[upto - 1]) if upto else None
            reader = self.publisher.private_reader(interaction)
            labels = image_labels(reader.catalogues, reader.locale)
            named = transcript_players(parsed)
            white, black = named.white or labels.white, named.black or labels.black

            png = await self.publisher.renderer.board_png(
                positions[-1],
                last_move=None if result is None else result.move,
                removed=None if result is None else result.removed,
                players=(white, black),
                labels=labels,
                theme=await self.publisher.public_theme(interaction),  # an answer all see
            )
            await finish(
                interaction,
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
                file=discord.File(
                    io.BytesIO(png),
                    filename="board.png",
                    description=board_alt_text(
                        positions[-1],
                        reader.plain,
                        summary=(
                            _("Analysis board (not a game)."),
                            *board_summary(
                                positions[-1],
                                named,
                                last_move=None if result is None else result.move,
                                removed=None if result is None else result.removed,
                            ),
                        ),
                    ),
                ),
            )

    # --- the server's settings -----------------------------------------------------------------
    @app_commands.command(
        name="profile", description=locale_str("A player's rating and games here")
    )
    @app_commands.describe(user=locale_str("Whose profile (default: yours)"))
    async def profile(self, interaction: Interaction, user: discord.User | None = None) -> None:
        async with self.inflight.track():
            # Names may have to be fetched from Discord (a cold cache after a restart): take
            # the time that needs, not Discord's three seconds.
            await interaction.response.defer(ephemeral=True, thinking=True)
            who = user or interaction.user
            self.publisher.names.remember(who)
            profile = await self.service.ratings.profile(server_of(interaction), who.id)
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
                        rating=rating_text(rating.rating, provisional=is_provisional(rating)),
                        deviation=round(2 * rating.deviation),
                        wins=rating.wins,
                        losses=rating.losses,
                        draws=rating.draws,
                    )
                )
                if is_provisional(rating):
                    lines.append(PROVISIONAL)
            if self.network:
                network = await self._network_lines(who.id)
                lines.extend(line for line in network if line not in lines)  # PROVISIONAL once
            lines.append(_puzzle_line(await self.service.puzzles.rating(who.id)))
            for game in profile.active:
                opponent = await self.publisher.opponent_name(game, who.id)
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

            def more(count: int) -> str:
                return reader(n_("…and {count} more game.", "…and {count} more games.", count))

            rendered = [reader(line) for line in lines]
            await finish(interaction, fit_lines(rendered, more))

    @app_commands.command(name="leaderboard", description=locale_str("The server's best players"))
    async def leaderboard(self, interaction: Interaction) -> None:
        async with self.inflight.track():
            # Names may have to be fetched from Discord (a cold cache after a restart): take
            # the time that needs, not Discord's three seconds.
            await interaction.response.defer(ephemeral=True, thinking=True)
            board = await self.service.ratings.leaderboard(server_of(interaction))
            reader = self.publisher.private_reader(interaction)
            if not board:
                text = n_(
                    "Nobody has played {count} rated game here yet.",
                    "Nobody has played {count} rated games here yet.",
                    LEADERBOARD_MIN_GAMES,
                )
                await finish(interaction, reader(text))
                return
            heading = n_(
                "Ratings on this server (at least {count} game):",
                "Ratings on this server (at least {count} games):",
                LEADERBOARD_MIN_GAMES,
            )
            names = [await self.publisher.names.get(row.user_id) for row in board]
            lines = [reader(line) for line in leaderboard_lines(heading, board, names)]
            await finish(interaction, "\n".join(lines))

    async def _network_lines(self, user_id: int) -> list[Text]:
        """A network member's network rating, for whoever views their profile in any server:
        they made it visible by joining (and hide it by leaving). Nothing else of their network
        life (their home, their games, their opponents) is told; nothing at all of a player who
        is not in the network, not even that they are not."""
        member = await self.service.network.member(user_id)
        if member is None or not member.is_member:
            return []
        rating = await self.service.ratings.network_rating(user_id)
        if rating is None:
            return [_("DVONN network: no rated network game yet.")]
        return [
            n_(
                "DVONN network: rating {rating} (± {deviation}) · {count} network game",
                "DVONN network: rating {rating} (± {deviation}) · {count} network games",
                rating.games,
                rating=rating_text(rating.rating, provisional=is_provisional(rating)),
                deviation=round(2 * rating.deviation),
            ),
            *([PROVISIONAL] if is_provisional(rating) else []),
        ]

    # --- records -------------------------------------------------------------------------------


def _puzzle_line(rating: PuzzleRating | None) -> Text:
    """A player's puzzle rating (the same in every server) and record."""
    if rating is None or rating.tried == 0:
        return _("Puzzles: no rated puzzle yet (/puzzle).")
    return n_(
        "Puzzles: rating {rating} · {count} rated puzzle: {solved} solved · streak {streak} "
        "(best {best})",
        "Puzzles: rating {rating} · {count} rated puzzles: {solved} solved · streak {streak} "
        "(best {best})",
        rating.tried,
        rating=rating_text(rating.rating, provisional=is_provisional(rating)),
        solved=rating.solved,
        streak=rating.streak,
        best=rating.best_streak,
    )


def _result(game: Game, players: Players) -> Text:
    """How a game ended, or who is to play in it (a replay's alt text says it)."""
    if game.is_active:
        turn = game.position.turn
        return _(
            "{player} ({colour}) is to play.",
            player=players.name(turn),
            colour=COLOUR_NAMES[turn],
        )
    return ending_line(GameOver.of(game), players, game)
