"""Turning presenter posts into Discord messages: embed, board image, allowed mentions.

The board is rendered off the event loop (``asyncio.to_thread``): Pillow work would otherwise
stall every other game's commands.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import discord

import rules
from bot.games.results import GameRecord
from bot.i18n import Catalogues, Locale
from bot.presenter import GamePost, Players, image_labels, image_status
from bot.rendering import Renderer
from bot.storage.models import Game

if TYPE_CHECKING:
    from bot.client import DvonnBot

BOARD_FILENAME: Final = "board.png"
EMBED_COLOUR: Final = discord.Colour(0xC8A165)  # the board's wood


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads a message: the catalogues and the locale to render it in."""

    catalogues: Catalogues
    locale: Locale

    def __call__(self, text: Any) -> str:
        return self.catalogues.render(text, self.locale)


async def board_png(
    renderer: Renderer, position: rules.Position, post: GamePost, players: Players, reader: Reader
) -> bytes:
    """The post's board image, drawn off the event loop (see :mod:`bot.rendering`)."""
    labels = image_labels(reader.catalogues, reader.locale)
    status = image_status(post.ending, reader.catalogues, reader.locale) if post.ending else None
    return await renderer.board_png(
        position,
        last_move=post.last_move,
        removed=post.removed,
        players=players.as_tuple(),
        labels=labels,
        status=status,
    )


def embed(post: GamePost, reader: Reader, *, image: bool = True) -> discord.Embed:
    description = "\n".join(reader(line) for line in post.lines)
    result = discord.Embed(title=reader(post.title), description=description, colour=EMBED_COLOUR)
    if image:
        result.set_image(url=f"attachment://{BOARD_FILENAME}")
    if post.footer is not None:
        result.set_footer(text=reader(post.footer))
    return result


def allowed_mentions(post: GamePost) -> discord.AllowedMentions:
    """Only the users the post is meant to notify: never roles or @everyone."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(user) for user in post.ping]
    )


async def message(
    renderer: Renderer, position: rules.Position, post: GamePost, players: Players, reader: Reader
) -> dict[str, Any]:
    """Keyword arguments for ``send``/``followup.send`` that publish ``post``."""
    png = await board_png(renderer, position, post, players, reader)
    return {
        "content": reader(post.content) if post.content is not None else None,
        "embed": embed(post, reader),
        "file": discord.File(io.BytesIO(png), filename=BOARD_FILENAME),
        "allowed_mentions": allowed_mentions(post),
    }


class Publisher:
    """Posts about games: names, the server's language, and where the game lives."""

    def __init__(self, bot: DvonnBot) -> None:
        self._bot = bot

    async def players(self, game: Game) -> Players:
        names = self._bot.names
        return Players(white=await names.get(game.white_id), black=await names.get(game.black_id))

    async def public_reader(
        self, guild_id: int | None, interaction: discord.Interaction[Any] | None = None
    ) -> Reader:
        """The language for posts everyone in a server reads: the server's setting, else the
        server's Discord language, else the language of whoever triggered the post."""
        locale: Locale = None
        if guild_id is not None:
            settings = await self._bot.service.guild_settings(guild_id)
            locale = settings.locale
            if locale is None:
                if interaction is not None and interaction.guild_locale is not None:
                    locale = interaction.guild_locale
                elif (guild := self._bot.get_guild(guild_id)) is not None:
                    locale = guild.preferred_locale
        if locale is None and interaction is not None:
            locale = interaction.locale
        return Reader(self._bot.catalogues, locale)

    def private_reader(self, interaction: discord.Interaction[Any]) -> Reader:
        """The language of the user who will read an ephemeral reply."""
        return Reader(self._bot.catalogues, interaction.locale)

    async def message(
        self, game: Game, post: GamePost, reader: Reader, players: Players | None = None
    ) -> dict[str, Any]:
        players = players or await self.players(game)
        return await message(self._bot.renderer, game.position, post, players, reader)

    @staticmethod
    def transcript_file(record: GameRecord, players: Players) -> discord.File:
        """The game as a Little Golem transcript, with the players' names in its headers."""
        game = record.game
        transcript = record.little_golem(
            headers={"Event": f"DVONN #{game.id}", "White": players.white, "Black": players.black}
        )
        return discord.File(io.BytesIO(transcript.encode()), filename=f"dvonn-{game.id}.txt")

    async def send_to_game(
        self,
        game: Game,
        post: GamePost,
        interaction: discord.Interaction[Any] | None = None,
        players: Players | None = None,
    ) -> discord.Message:
        """Post in the game's own thread or channel, as a new message (so its pings ring)."""
        reader = await self.public_reader(game.guild_id, interaction)
        channel = self._bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        return await channel.send(**await self.message(game, post, reader, players))
