"""The daily puzzle's posts: the day's puzzle in the channel a server chose (its board, what is
asked, and **Solve it**), and, once the day is over, how many solved it, added to that post.

The post carries its outbox row's nonce (posted again after a crash, Discord returns the message
made the first time); its message is kept for the count. A server that cleared its channel, or
chose another, since the post was queued gets none that day; a channel that refuses the post
for good (403, or gone) stops the server's daily puzzle until an admin chooses a channel again.
The count edits the post (a post deleted since: nothing to do)."""

from __future__ import annotations

import dataclasses
import io
import logging
from typing import TYPE_CHECKING

import discord

import render
from bot.exts.puzzles.picker import daily_view
from bot.exts.puzzles.texts import daily_count_line, daily_lines, details, to_play_and_win
from bot.games.core.models import DailyPuzzlePost, Notification
from bot.games.puzzles.announcements import read_daily_puzzle
from bot.games.service import GameService
from bot.posting.descriptions import board_alt_text, board_summary
from bot.posting.publisher import BOARD_FILENAME, Publisher, Reader
from bot.posting.texts import image_labels

if TYPE_CHECKING:
    from bot.app import DvonnBot

log = logging.getLogger(__name__)


class DailyPosts:
    def __init__(self, bot: DvonnBot, service: GameService, publisher: Publisher) -> None:
        self._bot = bot
        self._service = service
        self._publisher = publisher

    def _content(self, post: DailyPuzzlePost, reader: Reader) -> str:
        puzzle = self._service.puzzles.book.get(post.puzzle_id)
        lines = daily_lines(
            puzzle.solver(), puzzle.solver_moves, puzzle.rating, post.day.isoformat()
        )
        if post.solvers is not None and post.tried is not None:
            lines.append(daily_count_line(post.solvers, post.tried, post.still_open or 0))
        return "\n".join(reader(line) for line in lines)

    async def post(self, notification: Notification) -> discord.Message | None:
        """The day's puzzle in the server's channel."""
        post = read_daily_puzzle(notification)
        settings = await self._service.guild_settings(post.guild_id)
        if settings.puzzle_channel_id != post.channel_id:
            log.info("daily puzzle of %s: server %s changed its channel", post.day, post.guild_id)
            return None
        puzzle = self._service.puzzles.book.get(post.puzzle_id)
        reader = await self._publisher.public_reader(post.guild_id)
        headline = to_play_and_win(puzzle.solver())
        png = await self._publisher.renderer.board_png(
            puzzle.position,
            labels=image_labels(reader.catalogues, reader.locale),
            status=render.Status(
                headline=reader(headline),
                details=reader(details(puzzle.id)),
                highlighted=puzzle.solver(),
            ),
            theme=reader.theme,
        )
        alt = board_alt_text(
            puzzle.position,
            reader.plain,
            summary=(headline, *board_summary(puzzle.position, None)),
        )
        channel = self._bot.get_partial_messageable(post.channel_id, guild_id=post.guild_id)
        try:
            message = await channel.send(
                self._content(post, reader),
                file=discord.File(io.BytesIO(png), filename=BOARD_FILENAME, description=alt),
                view=daily_view(post.day, reader),
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=notification.nonce,
            )
        except (discord.Forbidden, discord.NotFound) as refused:
            await self._stop_posting(post, refused)
            return None
        await self._service.puzzles.daily_post_made(post.guild_id, post.day, message.id)
        return message

    async def _stop_posting(self, post: DailyPuzzlePost, refused: discord.HTTPException) -> None:
        """The channel refused the day's post for good (the bot lost its permissions there, or
        the channel is gone): the server's daily puzzle stops, rather than one refused post a
        day for ever; an admin who chooses a channel again with /dvonn settings brings it back
        (the settings then show none chosen)."""
        settings = await self._service.guild_settings(post.guild_id)
        if settings.puzzle_channel_id == post.channel_id:
            await self._service.save_guild_settings(
                dataclasses.replace(settings, puzzle_channel_id=None)
            )
        log.warning(
            "daily puzzle of %s: channel %s of server %s refused it (%s %s): no daily puzzle "
            "there until an admin chooses a channel again",
            post.day,
            post.channel_id,
            post.guild_id,
            refused.status,
            refused.text,
        )

    async def count(self, notification: Notification) -> discord.Message | None:
        """How many solved it, added to the day's post."""
        counted = read_daily_puzzle(notification)
        stored = await self._service.puzzles.daily_post(counted.guild_id, counted.day)
        if stored is None or stored.message_id is None:
            return None  # never posted (refused, or the server changed its channel)
        if (stored.solvers, stored.tried) != (counted.solvers, counted.tried):
            # Counted again since (a try from there ended: each end adds to ``tried``), and
            # that count is queued too: an older count never overwrites a newer one.
            log.info("daily puzzle of %s: an older count for %s", counted.day, counted.guild_id)
            return None
        reader = await self._publisher.public_reader(counted.guild_id)
        channel = self._bot.get_partial_messageable(stored.channel_id, guild_id=stored.guild_id)
        return await channel.get_partial_message(stored.message_id).edit(
            content=self._content(counted, reader)
        )
