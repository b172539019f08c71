"""Posting a player's daily digest: one DM listing every game where it is their move, each with
a link to where it is played and the time left, in the player's own language. A game they
moved in since it was queued is left out; none left, nothing is sent. Where their DMs are
closed, each game's thread gets one line for them instead (once a day, as the digest would)."""

from __future__ import annotations

import logging

import discord

from bot.exts.notices.commands import hour_text
from bot.games.core.models import Game, Notification, PlayerPrefs
from bot.games.service import GameService
from bot.i18n import Text, _, n_
from bot.interactions.replies import MAX_CONTENT, fit_lines
from bot.posting.publisher import Publisher, Reader
from bot.posting.texts import discord_time, mention

log = logging.getLogger(__name__)


def game_link(game: Game) -> str:
    """Where ``game`` is played, as a link Discord opens: its thread or channel in a server,
    or the direct messages it is played in."""
    where = "@me" if game.guild_id is None else str(game.guild_id)
    return f"https://discord.com/channels/{where}/{game.channel_id}"


def game_line(game: Game, opponent: str) -> Text:
    """A game of the digest: who, the phase, where, and how long is left."""
    phase = (
        _("placing, move {number}", number=game.position.ply + 1)
        if game.position.is_placement
        else _("moving, move {number}", number=game.position.ply + 1)
    )
    if game.deadline_at is None:
        return _(
            "#{game} vs {opponent} ({phase}): {link} (no clock)",
            game=game.id,
            opponent=opponent,
            phase=phase,
            link=game_link(game),
        )
    return _(
        "#{game} vs {opponent} ({phase}): {link}; play by {deadline} ({relative})",
        game=game.id,
        opponent=opponent,
        phase=phase,
        link=game_link(game),
        deadline=discord_time(game.deadline_at, "f"),
        relative=discord_time(game.deadline_at),
    )


def digest_text(lines: list[str], reader: Reader, prefs: PlayerPrefs) -> str:
    """The whole DM, within Discord's length: the games that do not fit are counted."""
    head = reader(
        n_(
            "Your daily DVONN digest: your move in {count} game.",
            "Your daily DVONN digest: your move in {count} games.",
            len(lines),
        )
    )
    foot = reader(
        _(
            "(One DM a day at {hour} ({zone}) instead of pings; change it with /dvonn notify.)",
            hour=hour_text(prefs.digest_hour or 0),
            zone=prefs.time_zone,
        )
    )
    body = fit_lines(
        lines,
        lambda count: reader(
            n_(
                "…and {count} more game: /dvonn games lists them all.",
                "…and {count} more games: /dvonn games lists them all.",
                count,
            )
        ),
        limit=MAX_CONTENT - len(head) - len(foot) - 2,
    )
    return "\n".join([head, body, foot])


class DigestPoster:
    def __init__(self, service: GameService, publisher: Publisher) -> None:
        self._service = service
        self._publisher = publisher

    async def digest(self, notification: Notification) -> discord.Message | None:
        user_id = notification.user_id
        assert user_id is not None
        waiting = [
            game
            for game in [
                await self._service.get_game(int(i)) for i in notification.payload["games"]
            ]
            if game.is_active and game.to_move_id == user_id
        ]
        if not waiting:
            return None  # they moved in all of them since
        prefs = await self._service.prefs(user_id)
        reader = self._publisher.reader(prefs.locale)
        lines = [
            reader(game_line(game, await self._publisher.opponent_name(game, user_id)))
            for game in waiting
        ]
        text = digest_text(lines, reader, prefs)
        sent = await self._publisher.direct_message(user_id, text, nonce=notification.nonce)
        if sent is not None:
            return sent
        log.info("cannot DM %s: their digest goes to the game threads instead", user_id)
        posts = []
        for index, game in enumerate(waiting):
            public = await self._publisher.public_reader(game.guild_id)
            line = public(
                _(
                    "{player}: your move here (your daily digest; I cannot send you DMs).",
                    player=mention(user_id),
                )
            )
            posts.append(
                await self._publisher.send_text(
                    game, line, ping=(user_id,), nonce=f"{notification.nonce}-{index}"
                )
            )
        return posts[0]
