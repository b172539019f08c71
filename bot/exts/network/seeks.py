"""``/network challenge`` and ``/network seeks``: network challenges, open ones ("seeks", which
any member of any server may take) and direct ones to one network player; and the seeks a player
may take, in a menu whose choice accepts.

A seek is posted where it was made (pinging nobody), with Accept and Cancel; every network
channel shows the newest on its board (:mod:`.board`). A direct challenge is posted in its
opponent's home (their server's network channel, or their DMs with the bot), pinging only them,
with Accept and Decline; its challenger is answered privately, with Cancel.

:func:`add_to` adds these commands to ``/network``, with the buttons (:mod:`.buttons`), the
board's job (:mod:`.board`) and the handlers of network games' homes (:mod:`.homes`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.exts.network import buttons
from bot.exts.network.board import NetworkBoards, described
from bot.exts.network.commands import home_guild
from bot.exts.network.homes import Homes
from bot.exts.network.seek_texts import (
    closed_text,
    direct_text,
    seek_line,
    seek_text,
    taken_text,
    terms,
)
from bot.games.core import timecontrol
from bot.games.core.models import ChallengeStatus, Notification, Setup
from bot.games.network.announcements import DIRECT_CHALLENGE, NETWORK_HOME, SEEK_CLOSED
from bot.games.network.seeking import HIGHEST_RATING, LOWEST_RATING
from bot.i18n import _, excerpt
from bot.interactions import choices
from bot.interactions.errors import UserError
from bot.interactions.feature import Feature
from bot.interactions.places import answers_only
from bot.posting.texts import discord_time

if TYPE_CHECKING:
    from bot.app import DvonnBot, Interaction

log = logging.getLogger(__name__)

MAX_CHOICES: Final = 25  # Discord's limit for autocomplete
DEFAULT_CLOCK: Final = timecontrol.LITTLE_GOLEM
"""A network challenge's clock when none is chosen: correspondence play, as Little Golem's."""
SETUPS: Final = [
    Choice(
        name=locale_str("Standard: the players place the 49 pieces"), value=Setup.STANDARD.value
    ),
    Choice(
        name=locale_str("Random: the bot places them, the movement starts at once"),
        value=Setup.RANDOM.value,
    ),
]


class NetworkSeeks(Feature, name="NetworkSeeks"):
    """Network challenges and the seeks to take."""

    @app_commands.command(
        name="challenge",
        description=locale_str("Challenge the network: anyone (a seek), or one network player"),
    )
    @app_commands.describe(
        player=locale_str("The network player to challenge (leave empty: anyone may accept)"),
        colour=locale_str("Your colour (default: drawn at random)"),
        clock=locale_str("The clock (default: a time bank of 10 days, 36 hours more a move)"),
        setup=locale_str("Who places the 49 pieces (default: the players, as the rules say)"),
        min_rating=locale_str("The lowest network rating that may accept (a seek only)"),
        max_rating=locale_str("The highest network rating that may accept (a seek only)"),
    )
    @app_commands.choices(colour=choices.COLOURS, clock=choices.CLOCKS, setup=SETUPS)
    async def challenge(  # noqa: PLR0917 - a slash command's options are its parameters
        self,
        interaction: Interaction,
        player: app_commands.Range[str, 1, 100] | None = None,
        colour: str | None = None,
        clock: str | None = None,
        setup: str | None = None,
        min_rating: app_commands.Range[int, LOWEST_RATING, HIGHEST_RATING] | None = None,
        max_rating: app_commands.Range[int, LOWEST_RATING, HIGHEST_RATING] | None = None,
    ) -> None:
        async with self.inflight.track():
            network = self.service.network
            opponent = None if player is None else await self._network_player(player)
            if opponent is not None and (min_rating is not None or max_rating is not None):
                raise UserError(
                    _(
                        "A rating range is for open network challenges: leave it out to "
                        "challenge one player."
                    )
                )
            assert interaction.channel_id is not None
            challenge = await network.challenge(
                interaction.user.id,
                guild_id=home_guild(interaction),
                channel_id=interaction.channel_id,
                opponent_id=None if opponent is None else opponent[0],
                colour=choices.colour(colour),
                clock=DEFAULT_CLOCK if clock is None else choices.clock(clock),
                setup=Setup.STANDARD if setup is None else Setup(setup),
                min_rating=min_rating,
                max_rating=max_rating,
            )
            names = await network.boards.names([interaction.user.id])
            me = names.get(interaction.user.id, "?")
            private = self.publisher.private_reader(interaction)
            if opponent is None:
                public = await self.publisher.public_reader(interaction.guild_id, interaction)
                response = await interaction.response.send_message(
                    public(seek_text(challenge, me)),
                    view=buttons.challenge_view(challenge, public),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                if answers_only(interaction):
                    return  # a place the bot may only answer in: it cannot edit the post later
                posted = response.resource
                if not isinstance(posted, discord.Message):
                    posted = await interaction.original_response()
                # Kept, to say so once the seek closes (taken before now: said at once).
                for written in await network.lobby.seek_posted(challenge.id, posted.id):
                    await self.deliverer.announce(written, game_id=None, timeout=0)
                return
            told = _(
                "Your network challenge to {player} ({terms}) is posted in their home; it ends "
                "{until}.",
                player=opponent[1],
                terms=terms(challenge, me),
                until=discord_time(challenge.expires_at),
            )
            await interaction.response.send_message(
                private(told),
                view=buttons.challenge_view(challenge, private, ("cancel",)),
                ephemeral=True,
            )
            kick_outbox(interaction.client)

    @challenge.autocomplete("player")
    async def player_choices(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        found = await self.service.network.membership.search(current.strip(), MAX_CHOICES + 1)
        return [
            Choice(name=member.name, value=str(member.user_id))
            for member in found
            if member.user_id != interaction.user.id
        ][:MAX_CHOICES]

    async def _network_player(self, player: str) -> tuple[int, str]:
        """The network player an option names: the id autocomplete gives, or a name typed in
        full (one member's only). Refuses a name or id of nobody in the network."""
        network = self.service.network
        typed = player.strip()
        if typed.isdigit():
            member = await network.member(int(typed))
            if member is not None and member.is_member:
                return member.user_id, member.name
        else:
            named = [
                m
                for m in await network.membership.search(typed, MAX_CHOICES)
                if m.name.casefold() == typed.casefold()
            ]
            if len(named) == 1:
                return named[0].user_id, named[0].name
        raise UserError(
            _(
                "“{name}” is not a player of the DVONN network: choose one from the list.",
                name=excerpt(player),
            )
        )

    @app_commands.command(
        name="seeks", description=locale_str("The open network challenges you may accept")
    )
    async def seeks(self, interaction: Interaction) -> None:
        async with self.inflight.track():
            network = self.service.network
            await network.membership.require_member(interaction.user.id)
            found = await network.seeks_for(interaction.user.id)
            reader = self.publisher.private_reader(interaction)
            if not found:
                await interaction.response.send_message(
                    reader(
                        _(
                            "No open network challenge waits for you now: make one with "
                            "/network challenge."
                        )
                    ),
                    ephemeral=True,
                )
                return
            listed = await described(self.service.network, found)
            lines = [reader(_("Open network challenges you may accept:"))]
            lines += [reader(seek_line(c, name, rating)) for c, name, rating in listed]
            await interaction.response.send_message(
                "\n".join(lines), view=buttons.seek_menu(listed, reader), ephemeral=True
            )


class DirectChallenges:
    """Posting a direct network challenge in its opponent's home."""

    def __init__(self, bot: DvonnBot) -> None:
        self._bot = bot

    async def post(self, notification: Notification) -> discord.Message | None:
        bot = self._bot
        network = bot.service.network
        challenge = await network.lobby.challenge(int(notification.payload["challenge"]))
        if challenge.status is not ChallengeStatus.OPEN:
            return None  # closed before it was posted
        assert challenge.opponent_id is not None
        names = await network.boards.names([challenge.challenger_id])
        name = names.get(challenge.challenger_id, "?")
        rating = await network.boards.rating(challenge.challenger_id)
        member = await network.member(challenge.opponent_id)
        server = None
        if member is not None and member.home_guild_id is not None:
            server = await network.servers.server(member.home_guild_id)
        pings = discord.AllowedMentions(users=[discord.Object(challenge.opponent_id)])
        if server is not None and server.is_live:
            reader = await bot.publisher.public_reader(server.guild_id)
            channel = bot.get_partial_messageable(server.channel_id, guild_id=server.guild_id)
            try:
                return await channel.send(
                    reader(direct_text(challenge, name, rating)),
                    view=buttons.challenge_view(challenge, reader, ("accept", "decline")),
                    allowed_mentions=pings,
                    nonce=notification.nonce,
                )
            except (discord.Forbidden, discord.NotFound):
                # The network channel refuses the bot: the challenge goes to the DMs.
                log.info("network challenge %s: its home channel refused; DMs", challenge.id)
        reader = bot.publisher.reader((await bot.service.prefs(challenge.opponent_id)).locale)
        dm = await bot.create_dm(discord.Object(challenge.opponent_id))
        return await dm.send(
            reader(direct_text(challenge, name, rating)),
            view=buttons.challenge_view(challenge, reader, ("accept", "decline")),
            nonce=notification.nonce,
        )


class SeekPosts:
    """Editing a seek's own post, where it was made, once it closed (its outbox row,
    :data:`~bot.games.network.announcements.SEEK_CLOSED`): taken (by whom, their network
    name, and the game), cancelled, called off or expired; its buttons removed."""

    def __init__(self, bot: DvonnBot) -> None:
        self._bot = bot

    async def edit(self, notification: Notification) -> discord.Message | None:
        bot = self._bot
        network = bot.service.network
        challenge = await network.lobby.challenge(int(notification.payload["challenge"]))
        if challenge.message_id is None or challenge.status is ChallengeStatus.OPEN:
            return None
        who = {challenge.challenger_id}
        if challenge.closed_by is not None:
            who.add(challenge.closed_by)
        game = None
        if challenge.status is ChallengeStatus.ACCEPTED and challenge.game_id is not None:
            game = await bot.service.get_game(challenge.game_id)
            who |= {game.white_id, game.black_id}
        names = await network.boards.names(who)

        def name(user_id: int) -> str:
            return names.get(user_id, f"#{user_id}")

        if game is not None and challenge.closed_by is not None:
            text = taken_text(
                name(challenge.closed_by), game.id, name(game.white_id), name(game.black_id)
            )
        else:
            closer = challenge.closed_by == challenge.challenger_id
            text = closed_text(
                challenge,
                name(challenge.challenger_id),
                name(challenge.challenger_id) if closer else None,
            )
        if challenge.guild_id is not None:
            reader = await bot.publisher.public_reader(challenge.guild_id)
        else:  # the bot's DMs with its challenger
            reader = bot.publisher.reader((await bot.service.prefs(challenge.challenger_id)).locale)
        channel = bot.get_partial_messageable(challenge.channel_id, guild_id=challenge.guild_id)
        return await channel.get_partial_message(challenge.message_id).edit(
            content=reader(text), view=None, allowed_mentions=discord.AllowedMentions.none()
        )


_KICKS: set[asyncio.Task[int]] = set()


def kick_outbox(bot: DvonnBot) -> None:
    """Post what the outbox holds now (a direct challenge's row, whose id its use case keeps),
    in the background."""
    task = asyncio.create_task(bot.deliverer.deliver_pending(), name="network-kick")
    _KICKS.add(task)
    task.add_done_callback(_KICKS.discard)


async def add_to(bot: DvonnBot, network: app_commands.Group) -> None:
    homes = Homes(bot, bot.service, bot.publisher, bot.deliverer)
    bot.deliverer.handle(NETWORK_HOME, homes.make)
    bot.deliverer.home_lost = homes.lost
    bot.deliverer.handle(DIRECT_CHALLENGE, DirectChallenges(bot).post)
    bot.deliverer.handle(SEEK_CLOSED, SeekPosts(bot).edit)
    buttons.add_to(bot)
    boards = NetworkBoards(bot, bot.service, bot.publisher, bot.settings.network_board_minutes)
    bot.add_poll(boards.refresh)
    await bot.add_feature(
        NetworkSeeks(bot.service, bot.publisher, bot.deliverer, bot.inflight), group=network
    )
