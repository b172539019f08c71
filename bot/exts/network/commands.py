"""``/network join``, ``leave``, ``block``, ``unblock`` and ``server``: taking part in the
network, for a player and for a server. Every answer is private; every refusal goes through the
one error handler (the service's :mod:`bot.games.network.errors`, or a :class:`UserError`)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.exts.network import texts
from bot.i18n import Text, _, excerpt
from bot.interactions.errors import UserError
from bot.interactions.feature import Feature
from bot.interactions.places import answers_only, server_of

if TYPE_CHECKING:
    from bot.app import Interaction

log = logging.getLogger(__name__)

MAX_CHOICES: Final = 25  # Discord's limit for autocomplete
NAME_LENGTH: Final = 32  # Discord's longest global name (and username)


def network_name(user: discord.User | discord.Member) -> str:
    """The name other servers see: the global display name, else the username; never a
    server's nickname (a Member's ``display_name`` would be)."""
    return (user.global_name or user.name)[:NAME_LENGTH]


async def refresh_name(interaction: Interaction) -> None:
    """Before every ``/network`` command and button: a member's network name follows their
    global name (written only if it changed), so that a rename reaches other servers. Never
    in the way of what they asked (a failure is logged)."""
    try:
        await interaction.client.service.network.membership.refresh_name(
            interaction.user.id, network_name(interaction.user)
        )
    except Exception:
        log.exception("could not refresh the network name of %s", interaction.user.id)


def home_guild(interaction: Interaction) -> int | None:
    """The server a player joins from, if the bot is in it (a user install's server without
    the bot, a DM or a group DM: none, their home is their DMs)."""
    if interaction.guild_id is None or answers_only(interaction):
        return None
    return interaction.guild_id


class NetworkCommands(Feature, name="Network"):
    """Joining, leaving, blocks and a server's part."""

    async def _answer(self, interaction: Interaction, lines: list[Text]) -> None:
        reader = self.publisher.private_reader(interaction)
        await interaction.response.send_message(
            "\n".join(reader(line) for line in lines), ephemeral=True
        )

    # --- players ------------------------------------------------------------------------------

    @app_commands.command(
        name="join",
        description=locale_str("Join the DVONN network: play the members of every server"),
    )
    async def join(self, interaction: Interaction) -> None:
        async with self.inflight.track():
            network = self.service.network
            user_id = interaction.user.id
            before = await network.member(user_id)
            member = await network.join(
                user_id, network_name(interaction.user), home_guild(interaction)
            )
            home_channel = None
            if member.home_guild_id is not None:
                server = await network.servers.server(member.home_guild_id)
                home_channel = None if server is None else server.channel_id
            again = before is not None and before.is_member
            moved = before is None or before.home_guild_id != member.home_guild_id
            await self._answer(
                interaction, texts.joined(member.name, home_channel, again=again, moved=moved)
            )

    @app_commands.command(
        name="leave", description=locale_str("Leave the DVONN network (running games play on)")
    )
    @app_commands.describe(
        forget=locale_str("Also delete your network data, once your last network game ends")
    )
    async def leave(self, interaction: Interaction, forget: bool = False) -> None:
        async with self.inflight.track():
            result = await self.service.network.leave(interaction.user.id, forget=forget)
            await self._answer(interaction, texts.left(result, forget=forget))

    @app_commands.command(
        name="block", description=locale_str("Never meet a network player (they are not told)")
    )
    @app_commands.describe(player=locale_str("The network player to block"))
    async def block(
        self, interaction: Interaction, player: app_commands.Range[str, 1, 100]
    ) -> None:
        async with self.inflight.track():
            user_id, name = await self._network_player(player)
            new = await self.service.network.block(interaction.user.id, user_id)
            await self._answer(interaction, [texts.blocked(name, new=new)])

    @block.autocomplete("player")
    async def block_choices(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        found = await self.service.network.membership.search(current.strip(), MAX_CHOICES + 1)
        return [
            Choice(name=member.name, value=str(member.user_id))
            for member in found
            if member.user_id != interaction.user.id
        ][:MAX_CHOICES]

    @app_commands.command(name="unblock", description=locale_str("Take back a block"))
    @app_commands.describe(player=locale_str("The player you blocked"))
    async def unblock(
        self, interaction: Interaction, player: app_commands.Range[str, 1, 100]
    ) -> None:
        async with self.inflight.track():
            blocks = await self._blocks_of(interaction.user.id)
            found = _chosen(player, blocks)
            if found is None:
                raise UserError(
                    _(
                        "You have not blocked a network player named “{name}”: choose one from "
                        "the list.",
                        name=excerpt(player),
                    )
                )
            user_id, name = found
            was = await self.service.network.unblock(interaction.user.id, user_id)
            await self._answer(interaction, [texts.unblocked(name, was=was)])

    @unblock.autocomplete("player")
    async def unblock_choices(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        typed = current.strip().casefold()
        blocks = await self._blocks_of(interaction.user.id)
        return [
            Choice(name=name, value=str(user_id))
            for user_id, name in blocks
            if name.casefold().startswith(typed)
        ][:MAX_CHOICES]

    async def _blocks_of(self, user_id: int) -> list[tuple[int, str]]:
        """The players ``user_id`` blocked, the newest first, with their network names (the
        id of one whose data was deleted)."""
        network = self.service.network
        named = []
        for block in await network.blocks.blocks_of(user_id):
            member = await network.member(block.blocked_id)
            named.append(
                (block.blocked_id, str(block.blocked_id) if member is None else member.name)
            )
        return named

    async def _network_player(self, player: str) -> tuple[int, str]:
        """The network player an option names: the id autocomplete gives, or a name typed in
        full (one member's only). Refuses a name or id of nobody in the network."""
        network = self.service.network
        if player.strip().isdigit():
            member = await network.member(int(player.strip()))
            if member is not None:
                return member.user_id, member.name
        else:
            typed = player.strip().casefold()
            named = [
                m
                for m in await network.membership.search(player.strip(), MAX_CHOICES)
                if m.name.casefold() == typed
            ]
            if len(named) == 1:
                return named[0].user_id, named[0].name
        raise UserError(
            _(
                "“{name}” is not a player of the DVONN network: choose one from the list.",
                name=excerpt(player),
            )
        )

    # --- servers ------------------------------------------------------------------------------

    @app_commands.command(
        name="server",
        description=locale_str("This server's part in the DVONN network (Manage Server)"),
    )
    @app_commands.describe(
        channel=locale_str("Take part, with this channel for network games and challenges"),
        stop=locale_str("Take this server out of the network"),
    )
    async def server(
        self,
        interaction: Interaction,
        channel: discord.TextChannel | None = None,
        stop: bool = False,
    ) -> None:
        async with self.inflight.track():
            guild_id = server_of(interaction)
            if not interaction.permissions.manage_guild:
                raise UserError(
                    _(
                        "Only members who may manage the server can see or change its part in "
                        "the DVONN network."
                    )
                )
            network = self.service.network
            if channel is not None and stop:
                raise UserError(_("Name a network channel, or stop: not both."))
            if stop:
                await self._answer(
                    interaction, texts.stopped(await network.stop(guild_id, interaction.user.id))
                )
                return
            if channel is None:
                await self._answer(
                    interaction, texts.status(await network.servers.status(guild_id))
                )
                return
            _check_network_channel(channel)
            before = await network.servers.server(guild_id)
            await network.set_channel(guild_id, channel.id, interaction.user.id)
            moved = before is not None and before.is_live and before.channel_id != channel.id
            await self._answer(interaction, texts.channel_named(channel.id, moved=moved))


def _chosen(player: str, named: list[tuple[int, str]]) -> tuple[int, str] | None:
    """Which of ``named`` an option names: by the id autocomplete gives, or a name in full."""
    typed = player.strip()
    if typed.isdigit():
        found = [p for p in named if p[0] == int(typed)]
    else:
        found = [p for p in named if p[1].casefold() == typed.casefold()]
    return found[0] if len(found) == 1 else None


def _check_network_channel(channel: discord.TextChannel) -> None:
    """Refuses a channel where the bot could not start the network games' threads and post
    their boards."""
    me = channel.guild.me
    allowed: Any = channel.permissions_for(me) if me is not None else None
    if allowed is not None and not (
        allowed.view_channel
        and allowed.send_messages
        and allowed.create_public_threads
        and allowed.send_messages_in_threads
        and allowed.embed_links
        and allowed.attach_files
    ):
        raise UserError(
            _(
                "I cannot host network games in <#{channel}>: I need to see the channel, send "
                "messages, create public threads, send messages in threads, embed links and "
                "attach files there. Give me those permissions, or choose another channel.",
                channel=channel.id,
            )
        )
