"""The network board: in every network channel, one message showing the newest open network
challenges (network names, ratings, terms) with the menu to accept one (``dvonn:net:pick``).

A post per seek per channel would be a thousand requests a seek in a network of a thousand
servers; instead each channel's one board is edited by a job of its own, run with the outbox's
poll in every process but by one at a time (a lease), which edits the boards whose list is
behind the network's (its ``seeks`` count, counted by every open and close of a seek) within a
budget of requests of its own (:data:`BOARD_SHARE` of a process's share of Discord's global
limit), so that games' posts are never starved: each board at most as often as that budget
shared by every board allows (in a network of a few servers, at the next poll; of a thousand,
every few minutes), and never staler than ``DVONN_NETWORK_BOARD_MINUTES``. A board deleted by
hand is posted again. The live truth is ``/network seeks``; a pick from an old board of a seek
taken since is refused privately ("already taken").
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Final

import discord

from bot.exts.network.buttons import seek_menu
from bot.exts.network.seek_texts import seek_line
from bot.games.core.models import Challenge
from bot.games.network.network import Network
from bot.games.service import GameService
from bot.i18n import Text, _
from bot.pacing import GLOBAL_LIMIT, HEADROOM, Pace
from bot.posting.publisher import Publisher

if TYPE_CHECKING:
    from bot.app import DvonnBot

log = logging.getLogger(__name__)

LEASE: Final = "network: boards"
BOARD_SHARE: Final = 0.1
"""The part of a process's share of Discord's global limit that boards' edits may use."""
BATCH: Final = 50
"""Boards brought up to date in one run of the job (the rest in the next)."""


async def described(
    network: Network, challenges: Sequence[Challenge]
) -> list[tuple[Challenge, str, int]]:
    """Seeks with their challengers' network names and ratings."""
    names = await network.boards.names({c.challenger_id for c in challenges})
    ratings = {u: await network.boards.rating(u) for u in {c.challenger_id for c in challenges}}
    return [
        (c, names.get(c.challenger_id, f"#{c.challenger_id}"), ratings[c.challenger_id])
        for c in challenges
    ]


class NetworkBoards:
    """The job that brings network channels' boards up to date."""

    def __init__(
        self, bot: DvonnBot, service: GameService, publisher: Publisher, minutes: int
    ) -> None:
        self._bot = bot
        self._service = service
        self._publisher = publisher
        self._most = timedelta(minutes=minutes)
        self._pace = Pace(GLOBAL_LIMIT * HEADROOM * BOARD_SHARE, 1)
        self._boards = 0
        """The boards there were at the last run (the first look's pace)."""

    @property
    def _every(self) -> timedelta:
        """The least time between two edits of one board: the budget shared by every board,
        within the operator's longest."""
        return min(self._most, timedelta(seconds=self._boards / self._pace.rate))

    async def refresh(self) -> int:
        """Edit (or post) the boards that are behind; returns how many. A look first, without
        the lease (a read): most polls find nothing to do, and take no lease for it."""
        network = self._service.network
        if not (await network.boards.behind(self._every, 1))[1]:
            return 0
        async with self._service.leases.holding(LEASE) as ours:
            if not ours:
                return 0
            self._boards = await network.boards.count()
            version, servers = await network.boards.behind(self._every, BATCH)
            if not servers:
                return 0
            listed = await described(network, await network.lobby.board())
            done = 0
            for server in servers:
                message_id: int | None
                try:
                    message_id = await self._show(
                        server.guild_id, server.channel_id, server.board_message_id, listed
                    )
                except discord.HTTPException:
                    log.warning("the board of network server %s: not posted", server.guild_id)
                    message_id = server.board_message_id  # tried again after its pace
                await network.boards.set_board(server.guild_id, message_id, version)
                done += 1
            return done

    async def _show(
        self,
        guild_id: int,
        channel_id: int,
        message_id: int | None,
        listed: list[tuple[Challenge, str, int]],
    ) -> int:
        reader = await self._publisher.public_reader(guild_id)
        lines: list[Text] = [_("🌐 **Open network challenges**")]
        if listed:
            lines += [seek_line(c, name, rating) for c, name, rating in listed]
            lines.append(_("Accept one below, or list those open to you with /network seeks."))
        else:
            lines.append(_("None now: make one with /network challenge."))
        content = "\n".join(reader(line) for line in lines)
        view = seek_menu(listed, reader)
        channel = self._bot.get_partial_messageable(channel_id, guild_id=guild_id)
        mentions = discord.AllowedMentions.none()
        if message_id is not None:
            await self._pace.take()
            with contextlib.suppress(discord.NotFound):  # deleted by hand: posted again
                await channel.get_partial_message(message_id).edit(
                    content=content, view=view, allowed_mentions=mentions
                )
                return message_id
        await self._pace.take()
        posted = await channel.send(content, view=view, allowed_mentions=mentions)
        return posted.id
