"""Joining and leaving the network, by a player's own choice; a player's home; their network
data deleted when they ask (done by :meth:`bot.games.network.games.NetworkGames.forget_due`
once no network game of theirs runs)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.games.core.parts import UseCases
from bot.games.network.errors import NotInNetwork
from bot.games.network.seeking import edit_posts
from bot.storage import Challenge, GuildId, NetworkMember, UserId

log = logging.getLogger(__name__)

NAME_LENGTH = 32
"""Discord's longest global name (and username)."""


@dataclass(frozen=True, slots=True)
class Left:
    """A player who left: their membership, and their open network challenges cancelled."""

    member: NetworkMember
    cancelled: tuple[Challenge, ...] = ()


class Membership(UseCases):
    """Members: who joins, where their games are played, who leaves."""

    async def join(self, user_id: UserId, name: str, guild_id: GuildId | None) -> NetworkMember:
        """``user_id`` joins the network as ``name`` (their Discord global name, else their
        username: never a server's nickname), from ``guild_id`` (``None``: DMs, or anywhere
        outside a server). Their home is that server's network channel if it takes part now,
        else their DMs with the bot. A member who joins again moves their home (their running
        games stay where they are), and a deletion they asked for is called off."""
        name = _checked_name(name)
        now = self._now()
        async with self._store.write() as tx:
            home = None
            if guild_id is not None:
                server = await tx.network_server(guild_id, lock=False)
                home = guild_id if server is not None and server.is_live else None
            await tx.ensure_players([user_id], now)
            member = await tx.join(user_id, name, home, now)
        log.info("network: %s joined, home %s", user_id, home)
        return member

    async def leave(self, user_id: UserId, *, forget: bool = False) -> Left:
        """``user_id`` leaves the network: out of the lists and the seeks, their open network
        challenges (and the direct ones made to them) cancelled; their running games play to
        their end. ``forget``: their network data is deleted too, once no network game of
        theirs runs. Raises :class:`NotInNetwork` (leaving with ``forget`` works for a former
        member whose data is still kept)."""
        now = self._now()
        async with self._store.write() as tx:
            member = await tx.member(user_id)
            if member is None or (not member.is_member and not forget):
                raise NotInNetwork(user_id)
            if forget:
                await tx.mark_forget(user_id, now)
            else:
                await tx.leave(user_id, now)
            cancelled = await tx.cancel_network_challenges(now, player_id=user_id)
            if any(c.is_open_to_anyone for c in cancelled):
                await tx.bump_seeks()
            await edit_posts(tx, cancelled, now)  # their own posts, by the next poll
            member = await tx.member(user_id)
            assert member is not None
        log.info("network: %s left (forget: %s)", user_id, forget)
        return Left(member, tuple(cancelled))

    async def rename(self, user_id: UserId, name: str) -> bool:
        """A member's name as Discord now spells it (their global name changed); ``False`` if
        it was that already, or they never joined."""
        name = _checked_name(name)
        async with self._store.write() as tx:
            return await tx.set_name(user_id, name, self._now())

    async def refresh_name(self, user_id: UserId, name: str) -> bool:
        """A member's name as Discord spells it now (their global name, read from whatever
        they did with the network), written only if it changed: a rename reaches every server
        the next time they act. ``False`` if it was that already, or they are not a member
        now (a former member's name stays as they left it)."""
        name = _checked_name(name)
        member = await self._store.member(user_id)
        if member is None or not member.is_member or member.name == name:
            return False
        async with self._store.write() as tx:
            renamed = await tx.set_name(user_id, name, self._now())
        if renamed:
            log.info("network: %s renamed", user_id)
        return renamed

    async def member(self, user_id: UserId) -> NetworkMember | None:
        """A player's membership (``None``: never joined, or their data deleted)."""
        return await self._store.member(user_id)

    async def require_member(self, user_id: UserId) -> NetworkMember:
        """A member now; raises :class:`NotInNetwork`."""
        member = await self._store.member(user_id)
        if member is None or not member.is_member:
            raise NotInNetwork(user_id)
        return member

    async def search(self, prefix: str, limit: int = 25) -> list[NetworkMember]:
        """Members now whose name begins with ``prefix`` (for autocomplete)."""
        return await self._store.search_names(prefix, limit)


def _checked_name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > NAME_LENGTH:
        raise ValueError(f"a network name is 1 to {NAME_LENGTH} characters, not {name!r}")
    return name
