"""Turning posts (:mod:`bot.posting.texts`) into Discord messages: embed, board image,
allowed mentions, in the reader's language; and sending them where the game is played.

The board is drawn off the event loop, in the :class:`~bot.posting.renderer.Renderer`'s worker
processes: Pillow work would otherwise stall every other game's commands.
"""

from __future__ import annotations

import contextvars
import io
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Final

import discord

import rules
from bot.games.core.models import BoardTheme, Game
from bot.games.core.results import GameRecord
from bot.games.service import GameService
from bot.i18n import Catalogues, Locale
from bot.monitoring import Metrics
from bot.posting.answers import (
    ORIGINAL,
    ROUTE_LASTS,
    Answer,
    AnswerRoute,
    as_edit,
    interaction_webhook,
)
from bot.posting.commands import CommandMentions
from bot.posting.descriptions import post_alt_text
from bot.posting.names import Names
from bot.posting.renderer import Renderer
from bot.posting.texts import GamePost, Players, image_labels, image_status

log = logging.getLogger(__name__)

BOARD_FILENAME: Final = "board.png"
EMBED_COLOUR: Final = discord.Colour(0xC8A165)  # the board's wood


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads a message: the catalogues and the locale to render it in; the commands a text
    names become tappable (``</dvonn move:ID>``) once their ids are known; its images are
    drawn in ``theme``."""

    catalogues: Catalogues
    locale: Locale
    mentions: CommandMentions | None = None
    theme: BoardTheme | None = None
    """The colours of the message's images: a server's for its public posts, a player's own
    for what only they see (see :meth:`Publisher.public_reader`); ``None``: the default."""

    def __call__(self, text: Any) -> str:
        rendered = self.catalogues.render(text, self.locale)
        return rendered if self.mentions is None else self.mentions.link(rendered)

    def plain(self, text: Any) -> str:
        """``text`` without tappable commands: for alt text, which Discord shows as it is."""
        return self.catalogues.render(text, self.locale)


async def board_png(
    renderer: Renderer, position: rules.Position, post: GamePost, players: Players, reader: Reader
) -> bytes:
    """The post's board image, drawn off the event loop."""
    labels = image_labels(reader.catalogues, reader.locale)
    status = image_status(post.ending, reader.catalogues, reader.locale) if post.ending else None
    return await renderer.board_png(
        position,
        last_move=post.last_move,
        removed=post.removed,
        players=players.as_tuple(),
        labels=labels,
        status=status,
        theme=reader.theme,
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


BoardView = Callable[[Game, Reader], discord.ui.View | None]
"""Makes the buttons under a board, for a game as it is (see :attr:`Publisher.board_view`)."""


async def message(
    renderer: Renderer, position: rules.Position, post: GamePost, players: Players, reader: Reader
) -> dict[str, Any]:
    """Keyword arguments for ``send``/``followup.send`` that publish ``post``."""
    png = await board_png(renderer, position, post, players, reader)
    return message_with(png, post, reader, alt_text=alt_text(position, post, players, reader))


def alt_text(position: rules.Position, post: GamePost, players: Players, reader: Reader) -> str:
    """The words of a post's board (:mod:`bot.posting.descriptions`), for screen readers."""
    return post_alt_text(position, post, players, reader.plain)


def message_with(png: bytes, post: GamePost, reader: Reader, *, alt_text: str) -> dict[str, Any]:
    """:func:`message` with its board drawn already (a new file each call: discord.py closes
    a file once it is sent), ``alt_text`` its description."""
    return {
        "content": "\n".join(reader(line) for line in post.content) or None,
        "embed": embed(post, reader),
        "file": discord.File(io.BytesIO(png), filename=BOARD_FILENAME, description=alt_text),
        "allowed_mentions": allowed_mentions(post),
    }


MAX_FOLLOWUPS: Final = 5
"""Followups Discord allows one interaction of an app that is installed to the user alone
("Apps are limited to 5 followup messages per interaction if it was initiated from a
user-installed app and isn't installed in the server"); a sixth is refused (40094). Where the
bot may only answer, that is always the case (see :mod:`bot.interactions.places`)."""
MAX_FOLLOWUPS_REACHED: Final = 40094
"""Discord's error code for "This interaction has hit the maximum number of follow up
messages"."""


class RouteUses:
    """What this process sent through each reply route (:func:`reply_route`): whether its
    interaction's answer is filled in, and how many followups it made, so that a post beyond
    Discord's five goes to the players' DMs at once instead of being refused first.

    Counted where it is sent: a route is kept with its game only for the change it carries,
    which the process that made the change almost always delivers. Another process's posts
    through the same route, or a restart, are not counted here: Discord's refusal (40094)
    then sends the post to the DMs all the same."""

    def __init__(self) -> None:
        self._uses: dict[str, tuple[float, int]] = {}
        """By route whose answer is filled in: when first used (monotonic), followups made."""

    async def fills_answer(self, route: str, webhook: discord.Webhook) -> bool:
        """Whether a post through ``route`` is to fill in its interaction's answer, deferred
        and still "thinking…" (Discord's message flag ``LOADING``; a followup would do it
        too, but Discord documents that as deprecated): asked of Discord at a route's first
        use, for the command may have filled it in itself. Either way, it is filled from then
        on."""
        oldest = time.monotonic() - ROUTE_LASTS.total_seconds()
        for old in [r for r, (then, _) in self._uses.items() if then < oldest]:
            del self._uses[old]  # its token has expired
        if route in self._uses:
            return False
        answer = await webhook.fetch_message(ORIGINAL)
        self._uses[route] = (time.monotonic(), 0)
        return answer.flags.loading

    def follow_up(self, route: str) -> bool:
        """Count a followup through ``route``; ``False`` (not counted) if Discord allows no
        more."""
        then, followups = self._uses.get(route, (time.monotonic(), 0))
        if followups >= MAX_FOLLOWUPS:
            return False
        self._uses[route] = (then, followups + 1)
        return True

    def used_up(self, route: str) -> None:
        """Discord refused a followup through ``route`` as one too many (40094: made by
        another process, or before a restart): no more are tried."""
        then, _ = self._uses.get(route, (time.monotonic(), 0))
        self._uses[route] = (then, MAX_FOLLOWUPS)


class ChannelLost(Exception):
    """A game's post is not tried: where the game is played refuses the bot's posts."""


class HomeNotReady(Exception):
    """A network game's home has no thread or DM channel yet: its posts wait for it."""


HOME_TRIED: Final[contextvars.ContextVar[int | None]] = contextvars.ContextVar(
    "home_tried", default=None
)
"""The channel of the network game's home a post is being tried in (set by
:meth:`Publisher.at_home`, in the deliverer's task posting it): a refusal is of that channel,
which the home may have left since (moved to its player's DMs)."""


class Publisher:
    """Posts about games: names, the server's language, and where the game lives."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        *,
        names: Names,
        renderer: Renderer,
        catalogues: Catalogues,
        mentions: CommandMentions | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self._client = client
        self._service = service
        self.names = names
        self.renderer = renderer
        self.catalogues = catalogues
        self.mentions = mentions
        self._metrics = metrics
        self._routes = RouteUses()
        self.board_view: BoardView | None = None
        """What goes under a board the game's players may act on (the play feature's "Your
        move" button); set by that feature, which the posting layer does not know."""
        self.end_view: BoardView | None = None
        """What goes under a finished game's last post (the lobby's "Rematch" button); set by
        that feature. Its buttons join :attr:`board_view`'s, if both make some."""

    async def game(self, game_id: int) -> Game:
        """A game by id, as stored now."""
        return await self._service.get_game(game_id)

    async def players(self, game: Game) -> Players:
        """The players' names as the game's posts show them: in a network game the names
        they joined the network with (their global names), never what this process's cache
        holds (a server's nickname, which must not be shown in another server)."""
        if game.network:
            white, black = await self._service.outbox.network_names(game)
            return Players(white=white, black=black)
        names = self.names
        return Players(white=await names.get(game.white_id), black=await names.get(game.black_id))

    async def opponent_name(self, game: Game, user_id: int) -> str:
        """The name of ``user_id``'s opponent in ``game``, as its posts show it (a network
        game's: their network name, never a server's nickname)."""
        if game.network:
            players = await self.players(game)
            return players.black if user_id == game.white_id else players.white
        return await self.names.get(game.opponent_of(user_id))

    async def at_home(self, game: Game, home: str) -> Game:
        """``game`` as posted in one of its homes (a network game's ``W``, ``B`` or ``*``): its
        server, thread (or DM channel) and whether the bot lost it there, in place of the
        game's own. Raises :class:`ChannelLost` if that home is gone (split since),
        :class:`HomeNotReady` if its thread is not made yet."""
        found = await self._service.outbox.home(game.id, home)
        if found is None:
            raise ChannelLost(game.id)
        if found.channel_id is None:
            raise HomeNotReady(game.id, home)
        HOME_TRIED.set(found.channel_id)
        return replace(
            game,
            guild_id=found.guild_id,
            channel_id=found.channel_id,
            parent_channel_id=found.parent_channel_id,
            private=False,
            channel_lost_at=found.lost_at,
        )

    async def public_reader(
        self, guild_id: int | None, interaction: discord.Interaction[Any] | None = None
    ) -> Reader:
        """The language for posts everyone in a server reads: the server's setting, else the
        server's Discord language, else the language of whoever triggered the post.

        The server's Discord language comes with an interaction, else from the database (the
        bot stores it, :meth:`DvonnBot.remember_guild_locale`), never from this process's
        cache of the server: the process that posts may not serve that server's shard.

        Their images are drawn in the server's theme (``/dvonn settings theme``); outside a
        server, in the own theme of whoever triggered the post (``/dvonn board theme``)."""
        reader = await self._server_reader(guild_id, interaction)
        if guild_id is None and interaction is not None:
            reader = replace(reader, theme=(await self._service.prefs(interaction.user.id)).theme)
        return reader

    async def _server_reader(
        self, guild_id: int | None, interaction: discord.Interaction[Any] | None
    ) -> Reader:
        """:meth:`public_reader`'s language, and the server's theme (none outside a server)."""
        locale: Locale = None
        theme: BoardTheme | None = None
        if guild_id is not None:
            settings = await self._service.guild_settings(guild_id)
            locale = settings.locale
            theme = settings.theme
            if locale is None:
                if interaction is not None and interaction.guild_locale is not None:
                    locale = interaction.guild_locale
                else:
                    locale = await self._service.guild_locale(guild_id)
        if locale is None and interaction is not None:
            locale = interaction.locale
        return Reader(self.catalogues, locale, self.mentions, theme)

    async def public_theme(self, interaction: discord.Interaction[Any]) -> BoardTheme | None:
        """The theme of an image everyone sees where ``interaction`` was used (an answer that
        is not ephemeral): the server's; outside a server, the user's own."""
        if interaction.guild_id is not None:
            return (await self._service.guild_settings(interaction.guild_id)).theme
        return (await self._service.prefs(interaction.user.id)).theme

    async def game_reader(
        self, game: Game, interaction: discord.Interaction[Any] | None = None
    ) -> Reader:
        """The reader of a game's own posts (its boards): :meth:`public_reader` of its server.

        A game outside a server that added the bot (a DM, or a private game) has no server's
        theme: both players see the same posts there, drawn in the theme they both chose
        (or the one human player, against the bot), else in the default."""
        reader = await self._server_reader(game.guild_id, interaction)
        if game.guild_id is not None and not game.private:
            return reader
        if game.network and interaction is None:
            # A network game's DM home (:meth:`at_home`): in its player's own language.
            homes = await self._service.network.games.homes(game.id)
            here = next((h for h in homes if h.channel_id == game.channel_id), None)
            if here is not None and here.in_dms and here.user_id is not None:
                prefs = await self._service.prefs(here.user_id)
                reader = replace(reader, locale=prefs.locale)
        chosen = {(await self._service.prefs(u)).theme or BoardTheme.DARK for u in game.human_ids}
        return replace(reader, theme=chosen.pop() if len(chosen) == 1 else None)

    def private_reader(self, interaction: discord.Interaction[Any]) -> Reader:
        """The language of the user who will read an ephemeral reply (of words: an image only
        they see wants :meth:`own_reader`, for their theme)."""
        return Reader(self.catalogues, interaction.locale, self.mentions)

    async def own_reader(self, interaction: discord.Interaction[Any]) -> Reader:
        """:meth:`private_reader` with the user's own theme: for an image only they see."""
        theme = (await self._service.prefs(interaction.user.id)).theme
        return Reader(self.catalogues, interaction.locale, self.mentions, theme)

    def reader(self, locale: Locale) -> Reader:
        """A reader of ``locale`` (a player's own language, say)."""
        return Reader(self.catalogues, locale, self.mentions)

    async def message(
        self, game: Game, post: GamePost, reader: Reader, players: Players | None = None
    ) -> dict[str, Any]:
        players = players or await self.players(game)
        png = await self._board(game, post, reader, players)
        return message_with(
            png, post, reader, alt_text=alt_text(game.position, post, players, reader)
        )

    async def _board(
        self, game: Game, post: GamePost, reader: Reader, players: Players | None
    ) -> bytes:
        """The board of a post, drawn (and timed)."""
        players = players or await self.players(game)
        started = time.perf_counter()
        png = await board_png(self.renderer, game.position, post, players, reader)
        if self._metrics is not None:
            self._metrics.render_seconds.observe(time.perf_counter() - started)
        return png

    @staticmethod
    def transcript_file(record: GameRecord, players: Players) -> discord.File:
        """The game as a Little Golem transcript, with the players' names in its headers."""
        game = record.game
        transcript = record.little_golem(
            headers={"Event": f"DVONN #{game.id}", "White": players.white, "Black": players.black}
        )
        return discord.File(io.BytesIO(transcript.encode()), filename=f"dvonn-{game.id}.txt")

    def channel(self, game: Game) -> discord.PartialMessageable:
        """Where ``game`` is played: its thread, or its channel."""
        return self._client.get_partial_messageable(game.channel_id, guild_id=game.guild_id)

    async def send_to_game(
        self,
        game: Game,
        post: GamePost,
        *,
        players: Players | None = None,
        nonce: str | None = None,
        answer: Answer | None = None,
        answered: str | None = None,
    ) -> discord.Message:
        """Post in the game's own thread or channel, as a new message (so its pings ring).

        ``nonce``: Discord's message nonce; posting again with the same one returns the message
        made the first time (for a few minutes) instead of making another. ``answer``: the
        command in the game's channel that this post may answer, if it still can once the
        board is drawn (see :mod:`bot.posting.answers`). ``answered``: the route of a command
        this post may have answered already (an earlier try, before a crash): if it did, that
        answer is the post."""
        reader = await self.game_reader(game)
        if game.private:
            return await self._answer(game, post, reader, players, nonce)
        kwargs = self._with_view(game, reader, await self.message(game, post, reader, players))
        if answer is not None and answer.take():
            response = await answer.interaction.response.send_message(**kwargs)
            if isinstance(response.resource, discord.Message):
                return response.resource
            return await answer.interaction.original_response()
        if answered is not None and (board := await self.answered_board(answered)) is not None:
            return board
        if game.channel_lost_at is not None:
            raise ChannelLost(game.id)  # an answer needs no permission there; a post does
        return await self.channel(game).send(**kwargs, nonce=_nonce(nonce))

    async def answered_board(self, route: str) -> discord.Message | None:
        """The board that answered the interaction of ``route``, if it was answered with one
        (not with a private reply, or not at all); ``None`` too once its token has expired."""
        found = AnswerRoute.parse(route)
        if not found.lasts():
            return None
        try:
            message = await found.webhook(self._client).fetch_message(ORIGINAL)
        except (discord.NotFound, discord.Forbidden):
            return None  # never answered, or answered and deleted since (no board there)
        except discord.HTTPException as error:
            if error.status == 401:
                return None  # the token has expired
            raise
        if any(a.filename == BOARD_FILENAME for a in message.attachments):
            return message
        return None

    def _with_view(self, game: Game, reader: Reader, kwargs: dict[str, Any]) -> dict[str, Any]:
        """``kwargs`` with the buttons under a board of ``game`` as it is, if any. (No end
        view under a network game's: its players' rematch would be a challenge in one server's
        channel.)"""
        end_view = None if game.network else self.end_view
        made = [make(game, reader) for make in (self.board_view, end_view) if make]
        views = [view for view in made if view is not None]
        if not views:
            return kwargs
        view = views[0]
        for other in views[1:]:
            for item in other.children:
                view.add_item(item)
        return {**kwargs, "view": view}

    async def _answer(
        self,
        game: Game,
        post: GamePost,
        reader: Reader,
        players: Players | None,
        nonce: str | None,
    ) -> discord.Message:
        """A post of a private game (see :meth:`_privately`); its board is drawn once."""
        players = players or await self.players(game)
        png = await self._board(game, post, reader, players)
        alt = alt_text(game.position, post, players, reader)

        async def through(webhook: discord.Webhook, original: bool) -> discord.Message:
            made = self._with_view(game, reader, message_with(png, post, reader, alt_text=alt))
            if original:
                return await webhook.edit_message(ORIGINAL, **as_edit(made))
            return await webhook.send(**made, wait=True)

        async def by_dm(user: discord.User, nonce: str | int) -> discord.Message:
            return await user.send(**message_with(png, post, reader, alt_text=alt), nonce=nonce)

        return await self._privately(game, game.human_ids, through, by_dm, nonce)

    async def _privately(
        self,
        game: Game,
        recipients: tuple[int, ...],
        through: Callable[[discord.Webhook, bool], Awaitable[discord.Message]],
        by_dm: Callable[[discord.User, str | int], Awaitable[discord.Message]],
        nonce: str | None,
    ) -> discord.Message:
        """Where the bot may only answer: through the players' latest interaction while that
        lasts (``through(webhook, True)`` fills in its answer still "thinking…", by editing it;
        ``through(webhook, False)`` makes a followup, a new message there); when it is gone or
        used up (a user install's 5 followups, counted: :class:`RouteUses`), to each
        recipient's DMs."""
        route = await self._service.reply_route(game.id)
        if route is not None:
            webhook = answer_webhook(self._client, route)
            try:
                original = await self._routes.fills_answer(route, webhook)
                if original or self._routes.follow_up(route):
                    return await through(webhook, original)
                log.info("game %s: its reply route's followups are used up; by DM", game.id)
            except discord.HTTPException as error:
                if error.status >= 500:
                    raise  # Discord's trouble: the outbox tries again later
                if error.code == MAX_FOLLOWUPS_REACHED:
                    self._routes.used_up(route)
                log.info("game %s: its reply route is refused (%s); by DM", game.id, error)
        reached: list[discord.Message] = []
        for user_id in recipients:
            # One nonce a player (Discord's nonces are at most 25 characters: no user id).
            side = "w" if user_id == game.white_id else "b"
            try:
                user = await self._client.fetch_user(user_id)
                reached.append(await by_dm(user, _nonce(nonce and f"{nonce}{side}")))
            except discord.HTTPException:
                log.info("game %s: %s cannot be reached by DM", game.id, user_id)
        if not reached:
            raise discord.ClientException(f"game {game.id}: nobody to tell can be reached")
        return reached[0]

    async def delete_post(
        self, game: Game, message_id: int, *, answered: str | None = None
    ) -> None:
        """Delete one of the bot's posts in the game's thread; gone already or not allowed:
        nothing to do. (A private game's posts are answers the bot may not delete later.)
        ``answered``: the route of the command the post answered; while its token lasts, the
        post is deleted through the command's webhook (outside the global rate limit)."""
        if game.private:
            return
        if answered is not None and (route := AnswerRoute.parse(answered)).lasts():
            try:
                await route.webhook(self._client).delete_message(ORIGINAL)
                return
            except discord.NotFound:
                return  # deleted already
            except discord.HTTPException as error:
                log.info("post %s of game %s: not by its webhook (%s)", message_id, game.id, error)
        try:
            await self.channel(game).get_partial_message(message_id).delete()
        except (discord.NotFound, discord.Forbidden):
            log.info("post %s of game %s could not be deleted", message_id, game.id)

    async def send_text(
        self,
        game: Game,
        content: str,
        *,
        ping: tuple[int, ...] = (),
        silent: bool = False,
        nonce: str | None = None,
    ) -> discord.Message:
        """A line of text in the game's thread or channel, notifying only ``ping``. (In a
        private game: as an answer while its route lasts, else by DM to ``ping``.)"""
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(user) for user in ping]
        )
        if not game.private:
            return await self.channel(game).send(
                content, allowed_mentions=mentions, silent=silent, nonce=_nonce(nonce)
            )

        async def through(webhook: discord.Webhook, original: bool) -> discord.Message:
            if original:
                return await webhook.edit_message(
                    ORIGINAL, content=content, allowed_mentions=mentions
                )
            return await webhook.send(content, allowed_mentions=mentions, silent=silent, wait=True)

        async def by_dm(user: discord.User, nonce: str | int) -> discord.Message:
            return await user.send(content, nonce=nonce)

        return await self._privately(game, ping, through, by_dm, nonce)

    async def direct_message(
        self, user_id: int, content: str, *, nonce: str | None = None
    ) -> discord.Message | None:
        """Send ``content`` to a user's DMs; ``None`` if they cannot be reached there."""
        try:
            user = await self._client.fetch_user(user_id)
            return await user.send(content, nonce=_nonce(nonce))
        except discord.Forbidden:
            return None


def reply_route(interaction: discord.Interaction[Any]) -> str:
    """How to answer through ``interaction`` later (its application's webhook and token), as
    the opaque text the game service keeps for a private game."""
    return f"{interaction.application_id}:{interaction.token}"


def answer_webhook(client: discord.Client, route: str) -> discord.Webhook:
    """The webhook of a stored :func:`reply_route`."""
    application_id, _, token = route.partition(":")
    return interaction_webhook(client, int(application_id), token)


def _nonce(nonce: str | None) -> str | int:
    """The nonce given, or a random one as discord.py makes when none is given."""
    return secrets.randbits(64) if nonce is None else nonce
