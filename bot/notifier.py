"""Delivering the outbox: losses on time, reminders and vacations, announced on Discord.

The service writes each announcement in the same transaction as the change it announces; this
sends them afterwards and marks them sent, so a crash or a restart in between delays an
announcement but never loses it.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Final

import discord

from bot.games.correspondence import GAME_ENDED, REMINDER, VACATION
from bot.games.results import GameOver
from bot.i18n import Text, _, n_
from bot.posting import Publisher, Reader
from bot.presenter import discord_time, ended_post, mention
from bot.storage.correspondence import Notification
from bot.storage.models import Game

if TYPE_CHECKING:
    from bot.client import DvonnBot

log = logging.getLogger(__name__)

MAX_ATTEMPTS: Final = 5


class Notifier:
    def __init__(self, bot: DvonnBot) -> None:
        self._bot = bot
        self._publisher = Publisher(bot)

    async def deliver_pending(self) -> int:
        """Send what the outbox holds; returns how many were sent."""
        queries = self._bot.correspondence.queries
        sent = 0
        for notification in await queries.pending_notifications():
            now = self._bot.service.now()
            try:
                await self._deliver(notification)
            except Exception:
                give_up = notification.attempts + 1 >= MAX_ATTEMPTS
                log.exception(
                    "could not deliver notification %s (%s)%s",
                    notification.id,
                    notification.kind,
                    ": giving up" if give_up else "",
                )
                await queries.mark_failed(notification.id, give_up=give_up, now=now)
                continue
            await queries.mark_sent(notification.id, now)
            sent += 1
        return sent

    async def _deliver(self, notification: Notification) -> None:
        if notification.kind == GAME_ENDED:
            assert notification.game_id is not None
            await self._game_ended(await self._bot.service.get_game(notification.game_id))
        elif notification.kind == REMINDER:
            assert notification.user_id is not None
            games = [int(g) for g in notification.payload.get("games", [])]
            await self._reminder(notification.user_id, games)
        elif notification.kind == VACATION:
            assert notification.game_id is not None and notification.user_id is not None
            until = datetime.fromisoformat(str(notification.payload["until"]))
            await self._vacation(notification.game_id, notification.user_id, until)
        else:
            log.warning("unknown notification kind %r: dropped", notification.kind)

    async def _game_ended(self, game: Game) -> None:
        players = await self._publisher.players(game)
        await self._publisher.send_to_game(game, ended_post(game, players, GameOver.of(game)))

    async def _reminder(self, user_id: int, game_ids: list[int]) -> None:
        service = self._bot.service
        games = [
            g for g in [await service.get_game(i) for i in game_ids] if g.to_move_id == user_id
        ]
        if not games:
            return  # they moved in the meantime
        prefs = await self._bot.correspondence.prefs(user_id)
        reader = await self._publisher.public_reader(games[0].guild_id)
        if prefs.locale is not None:  # the language the player uses, not the server's
            reader = Reader(reader.catalogues, prefs.locale)
        lines: list[Text] = [
            n_(
                "Your move in {count} DVONN game before the deadline:",
                "Your move in {count} DVONN games before their deadlines:",
                len(games),
            )
        ]
        for game in games:
            opponent = await self._bot.names.get(game.opponent_of(user_id))
            assert game.deadline_at is not None
            lines.append(
                _(
                    "#{game} vs {opponent} in <#{channel}>: {deadline}",
                    game=game.id,
                    opponent=opponent,
                    channel=game.channel_id,
                    deadline=discord_time(game.deadline_at),
                )
            )
        lines.append(_("(Turn these reminders off with /dvonn notify.)"))
        text = "\n".join(reader(line) for line in lines)
        try:
            user = await self._bot.fetch_user(user_id)
            await user.send(text)
            return
        except discord.HTTPException:
            log.info("cannot DM %s: reminding in the game threads instead", user_id)
        for game in games:
            channel = self._bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
            await channel.send(
                f"{mention(user_id)} {text}",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
            )

    async def _vacation(self, game_id: int, user_id: int, until: datetime) -> None:
        game = await self._bot.service.get_game(game_id)
        if not game.is_active:
            return
        reader = await self._publisher.public_reader(game.guild_id)
        opponent = game.opponent_of(user_id)
        player = await self._bot.names.get(user_id)
        channel = self._bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        await channel.send(
            reader(
                _(
                    "{opponent}: {player} is on vacation until {until}; their clock is paused "
                    "until then.",
                    opponent=mention(opponent),
                    player=player,
                    until=discord_time(until, "f"),
                )
            ),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(opponent)]),
        )
