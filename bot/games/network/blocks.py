"""Blocks: a player who never wants to meet another in the network (never told): no
challenges either way, no shared seeks, no pairing."""

from __future__ import annotations

from bot.games.core.parts import UseCases
from bot.games.network.errors import NotInNetwork, SelfBlock
from bot.storage import NetworkBlock, UserId


class Blocks(UseCases):
    """Blocking and unblocking."""

    async def block(self, blocker_id: UserId, blocked_id: UserId) -> bool:
        """``blocker_id`` blocks ``blocked_id``: the direct network challenges waiting between
        them, either way, are cancelled (their posts say so when next looked at); ``False`` if
        they had blocked already. Raises :class:`SelfBlock`, :class:`NotInNetwork` (the
        blocker)."""
        if blocker_id == blocked_id:
            raise SelfBlock(blocker_id)
        now = self._now()
        async with self._store.write() as tx:
            member = await tx.member(blocker_id, lock=False)
            if member is None or not member.is_member:
                raise NotInNetwork(blocker_id)
            await tx.ensure_players([blocker_id, blocked_id], now)
            blocked = await tx.block(blocker_id, blocked_id, now)
            await tx.cancel_network_challenges(now, between=(blocker_id, blocked_id))
        return blocked

    async def unblock(self, blocker_id: UserId, blocked_id: UserId) -> bool:
        """``blocker_id`` takes a block back; ``False`` if there was none."""
        async with self._store.write() as tx:
            return await tx.unblock(blocker_id, blocked_id)

    async def blocks_of(self, blocker_id: UserId) -> list[NetworkBlock]:
        """The blocks ``blocker_id`` made, the newest first."""
        return await self._store.blocks_of(blocker_id)

    async def blocked_either(self, a: UserId, b: UserId) -> bool:
        """Whether either of two players blocked the other."""
        return await self._store.blocked_either(a, b)
