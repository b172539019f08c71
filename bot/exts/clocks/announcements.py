"""Posting the clocks' announcements: a reminder of near deadlines (by DM, or in the game
threads when DMs are closed), and a vacation notice for the opponents."""

from __future__ import annotations

import logging
from datetime import datetime

import discord

from bot.games.core.models import Game, Notification
from bot.games.service import GameService
from bot.i18n import Text, _, n_
from bot.posting.publisher import ChannelLost, Publisher
from bot.posting.texts import discord_time, home_text, mention, players_at_home

log = logging.getLogger(__name__)


class Announcements:
    def __init__(self, service: GameService, publisher: Publisher) -> None:
        self._service = service
        self._publisher = publisher

    async def reminder(self, notification: Notification) -> discord.Message | None:
        user_id = notification.user_id
        assert user_id is not None
        game_ids = [int(g) for g in notification.payload.get("games", [])]
        games = [
            g
            for g in [await self._service.get_game(i) for i in game_ids]
            if g.to_move_id == user_id
        ]
        if not games:
            return None  # they moved in the meantime
        # A network game is where the player plays it: their own home, never the other's
        # (and its opponent named as they joined the network).
        games = [await self._own_place(game, user_id) for game in games]
        prefs = await self._service.prefs(user_id)
        reader = await self._publisher.public_reader(games[0].guild_id)
        if prefs.locale is not None:  # the language the player uses, not the server's
            reader = self._publisher.reader(prefs.locale)
        lines: list[Text] = [
            n_(
                "Your move in {count} DVONN game before the deadline:",
                "Your move in {count} DVONN games before their deadlines:",
                len(games),
            )
        ]
        for game in games:
            opponent = await self._opponent_name(game, user_id)
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
        sent = await self._publisher.direct_message(user_id, text, nonce=notification.nonce)
        if sent is not None:
            return sent
        log.info("cannot DM %s: reminding in the game threads instead", user_id)
        posts = [
            await self._publisher.send_text(
                game,
                f"{mention(user_id)} {text}",
                ping=(user_id,),
                nonce=f"{notification.nonce}-{i}",
            )
            for i, game in enumerate(games)
        ]
        return posts[0]

    async def _own_place(self, game: Game, user_id: int) -> Game:
        """Where ``user_id`` plays ``game``: a network game's home of theirs, else its place."""
        if not game.network:
            return game
        for seat in ("W" if user_id == game.white_id else "B", "*"):
            try:
                return await self._publisher.at_home(game, seat)
            except ChannelLost:
                continue  # no such home
        return game

    async def _opponent_name(self, game: Game, user_id: int) -> str:
        return await self._publisher.opponent_name(game, user_id)

    async def vacation(self, notification: Notification) -> discord.Message | None:
        assert notification.game_id is not None and notification.user_id is not None
        user_id = notification.user_id
        until = datetime.fromisoformat(str(notification.payload["until"]))
        game = await self._service.get_game(notification.game_id)
        if not game.is_active:
            return None
        opponent = game.opponent_of(user_id)
        if notification.home:
            return await self._vacation_at_home(notification, game, user_id, until)
        reader = await self._publisher.public_reader(game.guild_id)
        player = await self._publisher.names.get(user_id)
        text = _(
            "{opponent}: {player} is on vacation until {until}; their clock is paused until then.",
            opponent=mention(opponent),
            player=player,
            until=discord_time(until, "f"),
        )
        return await self._publisher.send_text(
            game, reader(text), ping=(opponent,), nonce=notification.nonce
        )

    async def _vacation_at_home(
        self, notification: Notification, game: Game, user_id: int, until: datetime
    ) -> discord.Message:
        """A network game's vacation notice in one of its homes: the names the players joined
        the network with, the opponent pinged only in their own home."""
        place = await self._publisher.at_home(game, notification.home)
        players = await self._publisher.players(game)
        names = {game.white_id: players.white, game.black_id: players.black}
        home = players_at_home(game, notification.home)
        opponent = game.opponent_of(user_id)
        text = _(
            "{opponent}: {player} is on vacation until {until}; their clock is paused until then.",
            opponent=mention(opponent),
            player=names[user_id],
            until=discord_time(until, "f"),
        )
        reader = await self._publisher.public_reader(place.guild_id)
        return await self._publisher.send_text(
            place,
            reader(home_text(text, home, names)),
            ping=tuple(u for u in (opponent,) if u in home),
            nonce=notification.nonce,
        )
