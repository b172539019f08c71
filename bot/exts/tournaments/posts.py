"""Posting tournaments' announcements: the tournament's post (with Join) and its own thread,
each game's thread (then the game begins there and its first board is posted, in the game's
own lane), and the standings image after every game, replacing the last one.

Each is idempotent across a crash: the posts carry the row's nonce (Discord returns the message
made the first time), and a thread started from a message that has one already is that message's
thread (Discord's thread ids are their starting message's)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.exts.tournaments.buttons import join_view
from bot.exts.tournaments.texts import (
    FORMAT_NAMES,
    game_line,
    match_lines,
    season_over_lines,
    standings_lines,
    standings_tables,
    terms_line,
    thread_name,
    tournament_line,
    tournament_winners,
)
from bot.games.core.models import Notification, Tournament, TournamentStatus
from bot.games.service import GameService
from bot.games.tournaments.announcements import TournamentNews, read_tournament_news
from bot.games.tournaments.reading import Standing
from bot.i18n import Text, _
from bot.interactions.replies import MAX_CONTENT
from bot.posting.descriptions import MAX_ALT_TEXT
from bot.posting.publisher import Publisher, Reader
from bot.posting.texts import discord_time, mention
from bot.posting.threads import thread_id_from
from render.standings import StandingsTable

if TYPE_CHECKING:
    from bot.app import DvonnBot

log = logging.getLogger(__name__)

THREAD_EXISTS: Final = 160004
"""Discord's code for a thread asked of a message that has one."""


class TournamentPosts:
    def __init__(self, bot: DvonnBot, service: GameService, publisher: Publisher) -> None:
        self._bot = bot
        self._service = service
        self._publisher = publisher
        self._news_locks: dict[int, asyncio.Lock] = {}
        self._posting: dict[int, asyncio.Lock] = {}

    async def _thread_from(
        self, channel_id: int, guild_id: int, text: str, nonce: str, name: str, **kwargs: Any
    ) -> tuple[discord.Message, int]:
        """Post ``text`` in the channel and start a thread from it (once, whatever the tries)."""
        channel = self._bot.get_partial_messageable(channel_id, guild_id=guild_id)
        # A round's posts one at a time in a channel: sent together, discord.py learns of the
        # channel's limit from answers that cross the next requests, and runs into it.
        async with self._posting.setdefault(channel_id, asyncio.Lock()):
            message = await channel.send(
                text,
                nonce=nonce,
                allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
                **kwargs,
            )
        try:
            # Any process may deliver the row, whether or not it holds the server's shard.
            thread_id = await thread_id_from(self._bot.http, message, name)
        except discord.HTTPException as error:
            if error.code != THREAD_EXISTS:
                raise
            return message, message.id  # made on an earlier try: its id is the message's
        return message, thread_id

    async def opened(self, notification: Notification) -> discord.Message | None:
        tournament = await self._service.tournaments.get(int(notification.payload["tournament"]))
        if tournament.is_over:
            return None
        reader = await self._publisher.public_reader(tournament.guild_id)
        lines: list[Text] = [
            _(
                "🏆 {tournament}: a {format} made by {organiser}.",
                tournament=tournament_line(tournament),
                format=FORMAT_NAMES[tournament.format],
                organiser=mention(tournament.organiser_id),
            )
        ]
        lines.append(terms_line(tournament))
        if tournament.max_players is not None:
            lines.append(_("At most {count} players.", count=tournament.max_players))
        if tournament.starts_at is not None:
            lines.append(_("It begins {when}.", when=discord_time(tournament.starts_at)))
        elif tournament.max_players is not None:
            lines.append(_("It begins when full, or when its organiser starts it."))
        if tournament.role_id is not None:
            lines.append(_("Open to <@&{role}>.", role=tournament.role_id))
        lines.append(
            _("Join with the button or `/dvonn tournament join`; standings in this thread.")
        )
        text = "\n".join(reader(line) for line in lines)
        message, thread_id = await self._thread_from(
            tournament.channel_id,
            tournament.guild_id,
            text,
            notification.nonce,
            tournament.name,
            view=join_view(tournament.id, reader),
        )
        await self._service.tournaments.set_thread(tournament.id, thread_id)
        return message

    async def game(self, notification: Notification) -> discord.Message | None:
        """A paired game's thread; then the game begins (its first post follows in its lane)."""
        assert notification.game_id is not None
        game = await self._service.tournaments.pending_game(notification.game_id)
        if game is None:
            return None  # begun on an earlier try, or ended without play
        place = await self._service.tournaments.place(int(notification.payload["tournament"]))
        tournament = place.tournament
        reader = await self._publisher.public_reader(game.guild_id)
        white = await self._publisher.names.get(game.white_id)
        black = await self._publisher.names.get(game.black_id)
        text = reader(game_line(place, game))
        name = reader.plain(thread_name(place, game, white, black))  # names show as they are
        assert game.guild_id is not None
        message, thread_id = await self._thread_from(
            tournament.channel_id,
            game.guild_id,
            text,
            notification.nonce,
            name,
        )
        await self._service.tournaments.begin_game(game.id, thread_id, tournament.channel_id)
        return message

    async def news(self, notification: Notification) -> discord.Message | None:
        news = read_tournament_news(notification)
        tournament = await self._service.tournaments.get(news.tournament_id)
        # One standings post at a time a tournament (this process's): each replaces the one
        # before, and the newest must be the one left.
        async with self._news_locks.setdefault(tournament.id, asyncio.Lock()):
            return await self._post_news(notification, news, tournament.id)

    async def _post_news(
        self, notification: Notification, news: TournamentNews, tournament_id: int
    ) -> discord.Message | None:
        standing = await self._service.tournaments.standing(tournament_id)
        tournament = standing.tournament
        over = tournament.status is TournamentStatus.FINISHED
        if over and news.game_id is not None and not news.final:
            return None  # its last game: the post that it is over shows the final standings
        reader = await self._publisher.public_reader(tournament.guild_id)
        if news.season_over is not None:
            return await self._season_over(notification, standing, news.season_over, reader)
        lines: list[Text] = []
        if news.started:
            lines.append(_("{tournament} has begun.", tournament=tournament_line(tournament)))
        if news.withdrawn is not None:
            lines.append(
                _("{player} withdrew from the tournament.", player=mention(news.withdrawn))
            )
        if news.cancelled:
            lines.append(_("{tournament} is called off.", tournament=tournament_line(tournament)))
        if news.game_id is not None:
            lines.extend(match_lines(standing, news.game_id))
        if over and news.final:
            lines.append(_("{tournament} is over.", tournament=tournament_line(tournament)))
            lines.extend(_winners_line(standing))
        kwargs = await self._standings_kwargs(standing, reader, lines)
        where = tournament.thread_id or tournament.channel_id
        channel = self._bot.get_partial_messageable(where, guild_id=tournament.guild_id)
        message = await channel.send(**kwargs, nonce=notification.nonce)

        deleted = {message.id}

        async def delete(replaced: int | None) -> None:
            if replaced is not None and replaced not in deleted:
                deleted.add(replaced)
                with contextlib.suppress(discord.NotFound):  # deleted by hand already
                    await channel.get_partial_message(replaced).delete()

        # The post this one replaces is deleted before this one is recorded: recorded first, a
        # crash before the delete left it for good (the next try found this one the last).
        await delete(tournament.standings_message_id)
        recorded = self._service.tournaments.set_standings_message
        await delete(await recorded(tournament.id, message.id))  # another process's, meanwhile
        if news.cancelled or (not tournament.is_league and (news.started or news.final)):
            await self._close_entries(tournament)
        return message

    async def _close_entries(self, tournament: Tournament) -> None:
        """Take the Join button off the tournament's post once entries are closed (a league
        takes them while it runs): a button that could only be refused is not offered."""
        if tournament.thread_id is None:
            return
        channel = self._bot.get_partial_messageable(
            tournament.channel_id, guild_id=tournament.guild_id
        )
        # The post's id is its thread's (Discord's threads take their starting message's).
        with contextlib.suppress(discord.NotFound, discord.Forbidden):  # deleted by hand
            await channel.get_partial_message(tournament.thread_id).edit(view=None)

    async def _season_over(
        self, notification: Notification, league: Standing, season: int, reader: Reader
    ) -> discord.Message:
        """A league's season ended: the final tables of its divisions with who moves up and
        down, and where everyone plays next, in a post of its own that stays (the standings
        posts replace only each other)."""
        ended = await self._service.tournaments.standing(league.tournament.id, season=season)
        latest = league.divisions[0].tournament.season if league.divisions else None
        following = league.divisions if latest != season else ()
        lines = season_over_lines(league.tournament, ended, following)
        kwargs = await self._standings_kwargs(ended, reader, lines, following=following)
        if len(kwargs["content"]) > MAX_CONTENT:  # a big league's moves: as many as fit
            kwargs["content"] = kwargs["content"][: MAX_CONTENT - 2].rsplit("\n", 1)[0] + "\n…"
        tournament = league.tournament
        where = tournament.thread_id or tournament.channel_id
        channel = self._bot.get_partial_messageable(where, guild_id=tournament.guild_id)
        return await channel.send(**kwargs, nonce=notification.nonce)

    async def standings_message(
        self,
        tournament_id: int,
        reader: Reader,
        lines: list[Text] | None = None,
        *,
        viewer: int | None = None,
    ) -> dict[str, Any]:
        """The standings as a message: the image (each division's for a league, the
        ``viewer``'s among them) and a line; the ``viewer``'s row outlined."""
        standing = await self._service.tournaments.standing(tournament_id)
        return await self._standings_kwargs(standing, reader, lines, viewer=viewer)

    async def _standings_kwargs(
        self,
        standing: Standing,
        reader: Reader,
        lines: list[Text] | None = None,
        *,
        following: Sequence[Standing] = (),
        viewer: int | None = None,
    ) -> dict[str, Any]:
        tables = await standings_tables(
            standing, self._publisher.names.get, reader, following=following, viewer=viewer
        )
        files = []
        for number, table in enumerate(tables, start=1):
            png = await self._publisher.renderer.standings_png(table, theme=reader.theme)
            files.append(
                discord.File(
                    io.BytesIO(png),
                    filename=f"standings-{number}.png",
                    description=standings_alt_text(table),
                )
            )
        shown = lines or standings_lines(standing, viewer)
        text = "\n".join(reader(line) for line in shown)
        return {"content": text, "files": files, "allowed_mentions": discord.AllowedMentions.none()}


def _winners_line(standing: Standing) -> list[Text]:
    """Who won a finished tournament: those its standings star (a knockout's last match's
    winner, else first place, shared when level on everything); nobody for a league."""
    first = tournament_winners(standing)
    if len(first) == 1:
        return [_("{player} wins.", player=mention(first[0]))]
    if first:
        return [_("{players} share first place.", players=", ".join(map(mention, first)))]
    return []


def standings_alt_text(table: StandingsTable) -> str:
    """The standings image as words, its alt text (what a screen reader says of it, and what
    shows where the image does not load): the title, then a line a player with their rank,
    marks and every column, as many as fit."""
    lines = [f"{table.title}: {table.subtitle}" if table.subtitle else table.title]
    for row in table.rows:
        mark = table.legend.get(row.mark) if row.mark is not None else None
        name = f"{row.name} ({mark})" if mark else row.name
        cells = ", ".join(
            f"{column.header} {cell}"
            for column, cell in zip(table.columns, row.cells, strict=False)
        )
        lines.append(f"{row.rank}. {name}: {cells}")
    text = "\n".join(lines)
    if len(text) <= MAX_ALT_TEXT:
        return text
    return text[: MAX_ALT_TEXT - 1].rsplit("\n", 1)[0] + "\n…"
