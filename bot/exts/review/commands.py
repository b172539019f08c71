"""``/dvonn review [game] [transcript]``, and the buttons under a review that show a mistake."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import re
from typing import TYPE_CHECKING, Any, Final, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str

import render
import rules
from ai.review import FIRST_JUDGED_PLY, Review
from bot.exts.review.reviewer import Reviewed, Reviewer, ReviewsBusy, ReviewStopped, Subject
from bot.exts.review.texts import (
    course,
    footnote,
    graph_description,
    listing_rule,
    mistake_lines,
    mistake_marks,
    move_text,
    pieces,
    review_title,
    transcript_ending,
)
from bot.games.core.models import Game, GameStatus
from bot.games.core.results import GameOver
from bot.games.service import GameService
from bot.i18n import Text, _
from bot.interactions.buttons import BotButton, label
from bot.interactions.errors import UserError
from bot.interactions.feature import Feature
from bot.interactions.inflight import InFlight
from bot.interactions.lookup import game_for_record
from bot.interactions.replies import MAX_CONTENT, finish
from bot.interactions.transcripts import read_transcript, transcript_players
from bot.posting.descriptions import MAX_ALT_TEXT, board_alt_text, board_summary, fit
from bot.posting.outbox import Deliverer
from bot.posting.publisher import Publisher, Reader
from bot.posting.texts import IMAGE_LABELS, Players, ending_line, image_labels

if TYPE_CHECKING:
    from bot.app import DvonnBot, Interaction

COG_NAME: Final = "Review"
GRAPH_FILENAME: Final = "review.png"
STALE = _("This review does not match the game any more: ask for a new one with /dvonn review.")


class ReviewFeature(Feature, name=COG_NAME):
    def __init__(
        self,
        reviewer: Reviewer,
        service: GameService,
        publisher: Publisher,
        deliverer: Deliverer,
        inflight: InFlight,
    ) -> None:
        super().__init__(service, publisher, deliverer, inflight)
        self.reviewer = reviewer

    async def cog_unload(self) -> None:
        await self.reviewer.close()

    @app_commands.command(
        name="review",
        description=locale_str("The engine's review of a finished game: the lead, the mistakes"),
    )
    @app_commands.describe(
        game=locale_str("A game number (default: the last game here)"),
        transcript=locale_str("Or a Little Golem transcript (.txt) of a finished game"),
    )
    async def review(
        self,
        interaction: Interaction,
        game: int | None = None,
        transcript: discord.Attachment | None = None,
    ) -> None:
        async with self.inflight.track():
            if game is not None and transcript is not None:
                raise UserError(_("Review a game number or a transcript, not both at once."))
            # What can be refused is looked at before the answer starts (an error then stays
            # private); the players' names, which may take a request to Discord, come after.
            stored: Game | None = None
            if transcript is not None:
                subject = await self._transcript(transcript)
            else:
                found = await game_for_record(self.service, interaction, game)
                subject, stored = await self._stored(found.id)
            if len(subject.moves) <= FIRST_JUDGED_PLY:
                raise UserError(
                    _(
                        "This game ended before its first white or black piece: there is "
                        "nothing to review."
                    )
                )
            try:
                reviewing = self.reviewer.start(subject)
            except ReviewsBusy:
                raise UserError(
                    _("The bot is reviewing other games right now: try again in a minute.")
                ) from None
            await interaction.response.defer(thinking=True)
            subject = dataclasses.replace(subject, players=await self._players(subject, stored))
            try:
                review = await reviewing()
            except ReviewStopped:
                raise UserError(
                    _("The bot is restarting and stopped this review: ask again in a minute.")
                ) from None
            if stored is not None and stored.setup_seed is not None:
                review = _placed_at_random(review)
            # The answer to the player who asked, in their language (also where others see it:
            # in the theme of the place).
            reader = self.publisher.reader(interaction.locale)
            theme = await self.publisher.public_theme(interaction)
            reader = dataclasses.replace(reader, theme=theme)
            await finish(interaction, **await self._message(subject, review, reader))

    async def _stored(self, game_id: int) -> tuple[Subject, Game]:
        """A stored game to review, and the game; without its players' names, which may take a
        request to Discord (:meth:`_players`, once the answer has started)."""
        record = await self.service.record(game_id)
        if record.game.is_active:
            raise UserError(_still_played(game_id))
        if record.game.status is GameStatus.ABORTED:
            # However long it ran: no result to explain, and the players chose to stop.
            raise UserError(
                _(
                    "Game #{game} was called off without a result: there is nothing to review.",
                    game=game_id,
                )
            )
        over = GameOver.of(record.game)
        subject = Subject(
            key=f"g{game_id}",
            moves=tuple(m.move for m in record.moves),
            players=Players("", ""),
            ending=lambda named: ending_line(over, named, record.game),
            game_id=game_id,
        )
        return subject, record.game

    async def _players(self, subject: Subject, stored: Game | None = None) -> Players:
        """The players' names: a stored game's (``stored``, or read again), a transcript's own."""
        if subject.game_id is None:
            return subject.players
        game = stored if stored is not None else await self.publisher.game(subject.game_id)
        return await self.publisher.players(game)

    async def _transcript(self, attachment: discord.Attachment) -> Subject:
        parsed = await read_transcript(attachment)
        if not parsed.moves:  # empty, or headers alone: before anything is said of its end
            raise UserError(
                _("This transcript has no moves: there is nothing to review. Send a whole game.")
            )
        final = rules.replay(parsed.moves)[-1]
        if parsed.resigned is None and rules.legal_moves(final):
            raise UserError(
                _(
                    "The game in this transcript is not over: a review now could help one of its "
                    "players. Send it again when the game has ended."
                )
            )
        # A "resigned" transcript may be a game still being played here, exported and cut
        # short: its review must not help that game's players either.
        running = await self.service.running_game_through(parsed.moves)
        if running is not None:
            raise UserError(_still_played(running))
        players = transcript_players(parsed)
        record = rules.format_record(parsed.moves)
        digest = hashlib.sha256(f"{record}\n{players.white}\n{players.black}".encode())
        return Subject(
            key=f"t{digest.hexdigest()[:16]}",
            moves=parsed.moves,
            players=players,
            ending=lambda named: transcript_ending(final, parsed.resigned, named),
        )

    async def _message(self, subject: Subject, review: Review, reader: Reader) -> dict[str, Any]:
        language = reader.catalogues.language_for(reader.locale)
        players = _named(subject.players, reader)
        lines: list[Text] = [review_title(subject.game_id, players), subject.ending(players)]
        lines += course(review, players)
        lines += mistake_lines(review, players, language)
        lines.append(listing_rule())
        lines.append(footnote(self.reviewer.budget, language))
        content = "\n".join(reader(line) for line in lines)
        labels = image_labels(reader.catalogues, reader.locale)
        png = await self.publisher.renderer.graph_png(
            review.curve(),
            marks=mistake_marks(review),
            players=players.as_tuple(),
            caption=reader(_("Lead in pieces, as the engine sees it")),
            labels=labels,
            theme=reader.theme,
        )
        view = discord.ui.View(timeout=None)
        for number, mistake in enumerate(review.mistakes(), start=1):
            view.add_item(
                MistakeButton(subject.key, mistake.ply, move_text(mistake.best), number, reader)
            )
        return {
            "content": content[:MAX_CONTENT],
            "file": discord.File(
                io.BytesIO(png),
                filename=GRAPH_FILENAME,
                description=fit([graph_description(review, players)], reader.plain, MAX_ALT_TEXT),
            ),
            "view": view,
        }

    async def show_mistake(
        self, interaction: Interaction, source: str, ply: int, better: str
    ) -> None:
        """The board before the action at ``ply`` of ``source``, ``better`` drawn on it, to
        the one who tapped, in their language."""
        reviewed = self.reviewer.reviewed(source)
        stored: Game | None = None
        if reviewed is not None:
            subject = reviewed.subject
        elif source.startswith("g"):
            subject, stored = await self._stored(int(source[1:]))
        else:
            raise UserError(
                _(
                    "This review is no longer in the bot's memory (it restarted since): send the "
                    "transcript to /dvonn review again to see its boards."
                )
            )
        if ply >= len(subject.moves):
            raise UserError(STALE)
        before = rules.replay(subject.moves[:ply])[-1]
        best = rules.parse_move(better)
        if best not in rules.legal_moves(before):
            raise UserError(STALE)
        await interaction.response.defer(ephemeral=True, thinking=True)
        reader = await self.publisher.own_reader(interaction)  # for them alone: their theme
        played = subject.moves[ply]
        named = await self._players(subject, stored)
        players = _named(named, reader)
        mover = players.name(before.turn)
        labels = image_labels(reader.catalogues, reader.locale)
        number = reader(IMAGE_LABELS["move_number"]).format(number=ply + 1)
        status = render.Status(
            headline=reader(_("Better: {move}", move=move_text(best))),
            details=reader(_("{player} played {move}", player=mover, move=move_text(played)))
            + labels.separator
            + number,
            highlighted=before.turn,
        )
        png = await self.publisher.renderer.board_png(
            before,
            last_move=best,
            players=players.as_tuple(),
            labels=labels,
            status=status,
            theme=reader.theme,
        )
        text = _(
            "Move {number}: {player} played {move}; the engine prefers {best} (the arrow).",
            number=ply + 1,
            player=mover,
            move=move_text(played),
            best=move_text(best),
        )
        line = reader(text)
        cost = _cost(reviewed, ply)
        if cost is not None:
            language = reader.catalogues.language_for(reader.locale)
            line += " " + reader(
                _("Cost: about {loss} in pieces of final margin.", loss=pieces(cost, language))
            )
        alt = board_alt_text(before, reader.plain, summary=(text, *board_summary(before, named)))
        await finish(
            interaction,
            line,
            file=discord.File(io.BytesIO(png), filename="board.png", description=alt),
        )


def _still_played(game_id: int) -> Text:
    return _(
        "Game #{game} is still being played: a review now could help one of its "
        "players. Ask again when it is over.",
        game=game_id,
    )


def _placed_at_random(review: Review) -> Review:
    """A random setup's review: the bot made its placements, so none is a player's mistake
    (the lead after them still shows who the setup favoured)."""
    plies = tuple(
        dataclasses.replace(p, judged=False) if p.ply < rules.PLACEMENT_PLIES else p
        for p in review.plies
    )
    return dataclasses.replace(review, plies=plies)


def _cost(reviewed: Reviewed | None, ply: int) -> float | None:
    if reviewed is None or ply >= len(reviewed.review.plies):
        return None
    return reviewed.review.plies[ply].loss


def _named(players: Players, reader: Reader) -> Players:
    """Names to show: a transcript without names gets the colours' names."""
    return Players(
        white=players.white or reader(IMAGE_LABELS["white"]),
        black=players.black or reader(IMAGE_LABELS["black"]),
    )


class MistakeButton(
    BotButton,
    template=(
        r"dvonn:review:(?P<source>g\d+|t[0-9a-f]{16}):(?P<ply>\d+)"
        r":(?P<best>[A-K][1-5](?:[A-K][1-5])?)"
    ),
):
    """A mistake's number under a review: the board before it, with the better move, privately.
    Its id says which game (or transcript), which action and which move was better."""

    def __init__(
        self, source: str, ply: int, best: str, number: int = 0, reader: Reader | None = None
    ) -> None:
        self.source, self.ply, self.best = source, ply, best
        super().__init__(
            discord.ui.Button(
                label=label(reader, _("{mark} · move {number}", mark=number, number=ply + 1)),
                style=discord.ButtonStyle.secondary,
                custom_id=f"dvonn:review:{source}:{ply}:{best}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> MistakeButton:
        return cls(match["source"], int(match["ply"]), match["best"])

    async def run(self, interaction: Interaction) -> None:
        feature = _feature(interaction.client)
        await feature.show_mistake(interaction, self.source, self.ply, self.best)


def _feature(bot: DvonnBot) -> ReviewFeature:
    """This feature's cog, which holds the reviews (not isinstance: a reloaded extension has
    new classes)."""
    cog = bot.get_cog(COG_NAME)
    if cog is None:
        raise UserError(_("Reviews are not available right now: try again in a minute."))
    return cast(ReviewFeature, cog)
