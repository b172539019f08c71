"""Making network games' homes (the outbox's ``network_home`` rows): a thread in the home
server's network channel, grown from a post that names the players by their network names, or
the bot's own DM channel with the player; then the service is told
(:meth:`bot.games.network.games.NetworkGames.home_ready`), and the last home made begins the
game (its first post goes to every home). A home moved to DMs (its server left the network, or
the bot may no longer post there) says so there, with the board as it stands.

Each is idempotent across a crash: the post carries the row's nonce (Discord returns the message
made the first time), a thread asked again of that message is the message's own (Discord's
thread ids are their starting message's), and a home made already is left as it is.

A home that refuses the bot's posts (403, 404) is moved to its player's DMs
(:meth:`bot.games.network.games.NetworkGames.lose_home`), which the deliverer calls as its
``home_lost``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Final

import discord

from bot.exts.network.seek_texts import game_line, moved_line, thread_name
from bot.games.core.models import Game, GameHome, GameStatus, Notification
from bot.games.network.announcements import read_network_home
from bot.games.service import GameService
from bot.posting.outbox import Deliverer
from bot.posting.publisher import Publisher, Reader
from bot.posting.texts import Players, board_post, for_home, players_at_home
from bot.posting.threads import thread_id_from

if TYPE_CHECKING:
    from bot.app import DvonnBot

log = logging.getLogger(__name__)

THREAD_EXISTS: Final = 160004
"""Discord's code for a thread asked of a message that has one."""
NO_MENTIONS: Final = discord.AllowedMentions.none()


class Homes:
    """The ``network_home`` handler and the deliverer's ``home_lost``."""

    def __init__(
        self, bot: DvonnBot, service: GameService, publisher: Publisher, deliverer: Deliverer
    ) -> None:
        self._bot = bot
        self._service = service
        self._publisher = publisher
        self._deliverer = deliverer
        self._posting: dict[int, asyncio.Lock] = {}

    async def make(self, notification: Notification) -> discord.Message | None:
        game_id, seat, _moved = read_network_home(notification)
        game = await self._service.get_game(game_id)
        if game.status not in (GameStatus.ACTIVE, GameStatus.PENDING):
            return None  # over before its home was made
        homes = await self._service.network.games.homes(game_id)
        home = next((h for h in homes if h.seat is seat), None)
        if home is None or home.ready:
            return None  # split since, or made on an earlier try
        names = await self._service.network.names(game)
        white = names.get(game.white_id, f"#{game.white_id}")
        black = names.get(game.black_id, f"#{game.black_id}")
        message: discord.Message | None
        players = Players(white=white, black=black)
        if home.guild_id is not None:
            try:
                message, channel_id = await self._thread(game, home, notification, white, black)
            except (discord.Forbidden, discord.NotFound):
                # The network channel refuses the bot (its permissions, or gone): this home
                # moves to its player's DMs, to be made there.
                log.info(
                    "game %s: no thread in server %s; home %s to DMs", game_id, home.guild_id, seat
                )
                lost, refused = self._service.network.lose_home, home.parent_channel_id
                assert refused is not None  # a home in a server: its network channel
                for written in await lost(game_id, seat.value, refused):
                    await self._deliverer.announce(written, game_id=None, timeout=0)
                return None
        else:
            message, channel_id = await self._dm(game, home, notification, players)
        ready = await self._service.network.home_ready(
            game_id, seat, channel_id, home.parent_channel_id
        )
        for written in ready.announcements:
            # The game's first post, to every home: in their lanes (not waited for here).
            await self._deliverer.announce(written, game_id=game_id, timeout=0)
        return message

    async def _thread(
        self, game: Game, home: GameHome, notification: Notification, white: str, black: str
    ) -> tuple[discord.Message, int]:
        assert home.guild_id is not None and home.parent_channel_id is not None
        reader = await self._publisher.public_reader(home.guild_id)
        channel = self._bot.get_partial_messageable(home.parent_channel_id, guild_id=home.guild_id)
        async with self._posting.setdefault(home.parent_channel_id, asyncio.Lock()):
            message = await channel.send(
                reader(game_line(game, white, black)),
                nonce=notification.nonce,
                allowed_mentions=NO_MENTIONS,
            )
        try:
            # Any process may make the home (a row of the outbox), whether or not it holds
            # the server's shard.
            thread_id = await thread_id_from(
                self._bot.http, message, thread_name(game, white, black)
            )
        except discord.HTTPException as error:
            if error.code != THREAD_EXISTS:
                raise
            return message, message.id  # made on an earlier try: its id is the message's
        return message, thread_id

    async def _dm(
        self,
        game: Game,
        home: GameHome,
        notification: Notification,
        players: Players,
    ) -> tuple[discord.Message | None, int]:
        assert home.user_id is not None
        channel = await self._bot.create_dm(discord.Object(home.user_id))
        reader = self._publisher.reader((await self._service.prefs(home.user_id)).locale)
        try:
            message = await self._dm_post(
                game, home, notification, channel, reader=reader, players=players
            )
        except discord.Forbidden:
            # Closed DMs: the home is made all the same (the game may begin); its posts are
            # refused there and given up, and the player plays with /dvonn games and the
            # buttons, or the clock decides.
            log.info("game %s: %s's DMs are closed to the bot", game.id, home.user_id)
            return None, channel.id
        return message, channel.id

    async def _dm_post(
        self,
        game: Game,
        home: GameHome,
        notification: Notification,
        channel: discord.DMChannel,
        *,
        reader: Reader,
        players: Players,
    ) -> discord.Message:
        """A DM home's first post: the game's line, or (moved here mid-game) what happened and
        the board as it stands."""
        white, black = players.as_tuple()
        moved = read_network_home(notification)[2]
        if not moved or game.status is not GameStatus.ACTIVE:
            return await channel.send(
                reader(game_line(game, white, black)), nonce=notification.nonce
            )
        # Moved here mid-game: what happened, and the board as it stands.
        seats = players_at_home(game, home.seat.value)
        post = for_home(
            board_post(game, players), seats, {game.white_id: white, game.black_id: black}
        )
        kwargs = await self._publisher.message(game, post, reader, players)
        content = reader(moved_line(game))
        kwargs["content"] = f"{content}\n{kwargs['content']}" if kwargs.get("content") else content
        return await channel.send(**kwargs, nonce=notification.nonce)

    async def lost(self, game_id: int, home: str, refused: int) -> list[int]:
        """The deliverer's ``home_lost``: the home moves to its player's DMs (unless it is no
        longer in the channel ``refused``)."""
        return await self._service.network.lose_home(game_id, home, refused)
