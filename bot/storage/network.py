"""The DVONN network: players of every server in one pool, by their own choice (issue 41).

The tables of migration ``0019_network.sql``: ``network_members`` (who joined, the name other
servers see, their home), ``network_servers`` (a server's network channel and its board of open
challenges), ``network_state`` (the ``seeks`` count), ``network_blocks`` and ``game_homes``
(where a network game is played for each player); and the network's rows of shared tables:
challenges and games with ``network = 1``, ratings of guild 0
(:data:`~bot.storage.models.NETWORK_GUILD_ID`).

:class:`NetworkWrites` is the part of :class:`~bot.storage.store.Writer` that writes them,
:class:`NetworkReads` the part of :class:`~bot.storage.store.Store` that reads them. A network
game's homes change only in a transaction that holds its ``games`` row (the service locks it
first), so they are read here without row locks of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from bot.storage.challenges import CHALLENGE_COLUMNS, challenge_of
from bot.storage.interface import Reader, Row
from bot.storage.models import (
    NETWORK_GUILD_ID,
    Challenge,
    ChannelId,
    GameHome,
    GuildId,
    HomeSeat,
    NetworkBlock,
    NetworkMember,
    NetworkServer,
    TournamentStatus,
    UserId,
    optional_time,
    text_to_time,
    time_to_text,
)
from bot.storage.sql_helpers import StorePart, locking, one_row
from bot.storage.tournaments import TournamentWrites

SEEKS: Final = "seeks"
"""The ``network_state`` count that goes up with every network challenge opened or closed."""
NO_BOARD: Final = -1
"""The ``seeks`` count a server's board shows before it is first posted (in a new channel, or
a server back in the network): below any count, so the boards' job posts it on its next pass."""

_MEMBER_COLUMNS: Final = "user_id, name, home_guild_id, joined_at, left_at, forget_at, updated_at"
_SERVER_COLUMNS: Final = (
    "guild_id, channel_id, board_message_id, board_version, board_at, joined_by, joined_at, "
    "left_at, updated_at"
)
_HOME_COLUMNS: Final = (
    "game_id, seat, guild_id, parent_channel_id, channel_id, user_id, lost_at, created_at"
)
_SELECT_MEMBER: Final = f"SELECT {_MEMBER_COLUMNS} FROM network_members WHERE user_id = ?"
_SELECT_SERVER: Final = f"SELECT {_SERVER_COLUMNS} FROM network_servers WHERE guild_id = ?"
_SELECT_HOMES: Final = (
    f"SELECT {_HOME_COLUMNS} FROM game_homes WHERE game_id = ? "
    "ORDER BY CASE seat WHEN 'W' THEN 1 WHEN 'B' THEN 2 ELSE 0 END"
)
_BLOCKED_EITHER: Final = (
    "SELECT 1 FROM network_blocks WHERE (blocker_id = ? AND blocked_id = ?) "
    "OR (blocker_id = ? AND blocked_id = ?) LIMIT 1"
)
_RUNNING_NETWORK_GAME: Final = (
    "SELECT 1 FROM games g WHERE g.network = 1 AND (g.white_id = {who} OR g.black_id = {who}) "
    "AND (g.status IN ('active', 'pending') OR (g.status = 'finished' AND g.rated = 1 "
    "AND g.rated_at IS NULL AND g.result IS NOT NULL AND g.end_reason <> 'abort'))"
)
"""A network game of a player's that still runs (or is paired, not begun), or that ended and is
not rated yet: rated after their network data went, it would give them a network rating again.
``{who}`` is the SQL for the player's id."""


@dataclass(frozen=True, slots=True)
class NewHome:
    """A home to add to a network game (:class:`~bot.storage.models.GameHome`)."""

    seat: HomeSeat
    guild_id: GuildId | None = None
    """The server of its network channel; ``None``: the bot's DM with :attr:`user_id`."""
    parent_channel_id: ChannelId | None = None
    """That server's network channel (``None`` in DMs)."""
    user_id: UserId | None = None
    """A DM home's player."""
    channel_id: ChannelId | None = None
    """Its thread or DM channel, if already known (else set once made)."""


def _member(row: Row) -> NetworkMember:
    return NetworkMember(
        user_id=row["user_id"],
        name=row["name"],
        home_guild_id=row["home_guild_id"],
        joined_at=text_to_time(row["joined_at"]),
        left_at=optional_time(row["left_at"]),
        forget_at=optional_time(row["forget_at"]),
        updated_at=text_to_time(row["updated_at"]),
    )


def _server(row: Row) -> NetworkServer:
    return NetworkServer(
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        board_message_id=row["board_message_id"],
        board_version=row["board_version"],
        board_at=optional_time(row["board_at"]),
        joined_by=row["joined_by"],
        joined_at=text_to_time(row["joined_at"]),
        left_at=optional_time(row["left_at"]),
        updated_at=text_to_time(row["updated_at"]),
    )


def _home(row: Row) -> GameHome:
    return GameHome(
        game_id=row["game_id"],
        seat=HomeSeat(row["seat"]),
        guild_id=row["guild_id"],
        parent_channel_id=row["parent_channel_id"],
        channel_id=row["channel_id"],
        user_id=row["user_id"],
        lost_at=optional_time(row["lost_at"]),
        created_at=text_to_time(row["created_at"]),
    )


def _block(row: Row) -> NetworkBlock:
    return NetworkBlock(
        blocker_id=row["blocker_id"],
        blocked_id=row["blocked_id"],
        created_at=text_to_time(row["created_at"]),
    )


def _like_prefix(prefix: str) -> str:
    """A ``LIKE`` pattern (escape character ``\\``) of the names that begin with ``prefix``."""
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"{escaped}%"


# --- the reads both parts make, on a transaction's connection or a reader --------------------


async def _open_network_challenges(
    reader: Reader,
    now: datetime,
    viewer: UserId | None,
    rating: float | None,
    limit: int,
) -> list[Challenge]:
    conditions = [
        "c.network = 1",
        "c.status = 'open'",
        "c.opponent_id IS NULL",
        "c.expires_at > ?",
        "EXISTS (SELECT 1 FROM network_members m "
        "WHERE m.user_id = c.challenger_id AND m.left_at IS NULL)",
    ]
    params: list[Any] = [time_to_text(now)]
    if viewer is not None:
        conditions += [
            "c.challenger_id <> ?",
            "NOT EXISTS (SELECT 1 FROM network_blocks b "
            "WHERE (b.blocker_id = c.challenger_id AND b.blocked_id = ?) "
            "OR (b.blocker_id = ? AND b.blocked_id = c.challenger_id))",
        ]
        params += [viewer, viewer, viewer]
    if rating is not None:
        shown = round(rating)
        conditions += [
            "(c.min_rating IS NULL OR c.min_rating <= ?)",
            "(c.max_rating IS NULL OR c.max_rating >= ?)",
        ]
        params += [shown, shown]
    columns = ", ".join(f"c.{column.strip()}" for column in CHALLENGE_COLUMNS.split(","))
    rows = await reader.fetch_all(
        f"SELECT {columns} FROM challenges c WHERE {' AND '.join(conditions)} "
        "ORDER BY c.id DESC LIMIT ?",
        (*params, limit),
    )
    return [challenge_of(row) for row in rows]


async def _blocked_either(reader: Reader, a: UserId, b: UserId) -> bool:
    return bool(await reader.fetch_all(_BLOCKED_EITHER, (a, b, b, a)))


async def _blocks_among_entrants(reader: Reader, tournament_id: int) -> list[NetworkBlock]:
    rows = await reader.fetch_all(
        "SELECT b.blocker_id, b.blocked_id, b.created_at FROM network_blocks b "
        "WHERE EXISTS (SELECT 1 FROM tournament_players p "
        "WHERE p.tournament_id = ? AND p.user_id = b.blocker_id) "
        "AND EXISTS (SELECT 1 FROM tournament_players p "
        "WHERE p.tournament_id = ? AND p.user_id = b.blocked_id) "
        "ORDER BY b.created_at, b.blocker_id, b.blocked_id",
        (tournament_id, tournament_id),
    )
    return [_block(row) for row in rows]


async def _members_entered(reader: Reader, tournament_id: int) -> set[UserId]:
    rows = await reader.fetch_all(
        "SELECT p.user_id FROM tournament_players p JOIN network_members m "
        "ON m.user_id = p.user_id WHERE p.tournament_id = ? AND m.left_at IS NULL",
        (tournament_id,),
    )
    return {int(row[0]) for row in rows}


class NetworkWrites(TournamentWrites):
    """Writing the network's members, servers, blocks and games' homes, in one write
    transaction. (A part of :class:`~bot.storage.store.Writer`; it builds on
    :class:`TournamentWrites`, whose ``remove_entrant`` takes back a championship entry.)"""

    # members

    async def member(self, user_id: UserId, *, lock: bool = True) -> NetworkMember | None:
        """A player's network membership (``None``: never joined, or their data deleted),
        locked until the transaction ends (``lock=False``: only looked at, neither waiting for
        nor holding up another transaction that changes it)."""
        sql = locking(self._conn, _SELECT_MEMBER) if lock else _SELECT_MEMBER
        row = await one_row(self._conn, sql, (user_id,))
        return None if row is None else _member(row)

    async def members_entered(self, tournament_id: int) -> set[UserId]:
        """Those of a tournament's players (the network championship's) who are network
        members now (one query; nothing locked, as :meth:`member` with ``lock=False``)."""
        return await _members_entered(self._conn, tournament_id)

    async def join(
        self, user_id: UserId, name: str, home_guild_id: GuildId | None, now: datetime
    ) -> NetworkMember:
        """Make ``user_id`` a member named ``name`` with their home in ``home_guild_id``'s
        network channel (``None``: their DMs); a member already just gets the name and home. A
        former member joins again from ``now``, and a deletion they asked for is called off.
        Their ``players`` row must exist (``ensure_players``)."""
        rows = await self._conn.fetch_all(
            "INSERT INTO network_members (user_id, name, home_guild_id, joined_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "name = excluded.name, home_guild_id = excluded.home_guild_id, "
            "joined_at = CASE WHEN network_members.left_at IS NULL "
            "THEN network_members.joined_at ELSE excluded.joined_at END, "
            "left_at = NULL, forget_at = NULL, updated_at = excluded.updated_at "
            f"RETURNING {_MEMBER_COLUMNS}",
            (user_id, name, home_guild_id, time_to_text(now), time_to_text(now)),
        )
        return _member(rows[0])

    async def leave(self, user_id: UserId, now: datetime) -> bool:
        """``user_id`` leaves the network; ``False`` if they were not in it."""
        changed = await self._conn.execute(
            "UPDATE network_members SET left_at = ?, updated_at = ? "
            "WHERE user_id = ? AND left_at IS NULL",
            (time_to_text(now), time_to_text(now), user_id),
        )
        return changed == 1

    async def set_name(self, user_id: UserId, name: str, now: datetime) -> bool:
        """A member's name as Discord now spells it; ``False`` if it was that already (or they
        never joined)."""
        changed = await self._conn.execute(
            "UPDATE network_members SET name = ?, updated_at = ? WHERE user_id = ? AND name <> ?",
            (name, time_to_text(now), user_id, name),
        )
        return changed == 1

    async def mark_forget(self, user_id: UserId, now: datetime) -> bool:
        """``user_id`` leaves and asks for their network data to be deleted (done by
        :meth:`delete_member_data` once no network game of theirs runs); ``False`` if they
        never joined (or it is deleted already)."""
        changed = await self._conn.execute(
            "UPDATE network_members SET forget_at = coalesce(forget_at, ?), "
            "left_at = coalesce(left_at, ?), updated_at = ? WHERE user_id = ?",
            (time_to_text(now), time_to_text(now), time_to_text(now), user_id),
        )
        return changed == 1

    async def members_to_forget(self, limit: int) -> list[UserId]:
        """Members who asked for their network data to be deleted and no longer play a network
        game (running, paired, or ended but not yet rated), the longest waiting first."""
        rows = await self._conn.fetch_all(
            "SELECT m.user_id FROM network_members m WHERE m.forget_at IS NOT NULL "
            f"AND NOT EXISTS ({_RUNNING_NETWORK_GAME.format(who='m.user_id')}) "
            "ORDER BY m.forget_at, m.user_id LIMIT ?",
            (limit,),
        )
        return [int(row["user_id"]) for row in rows]

    async def delete_member_data(self, user_id: UserId) -> dict[str, int] | None:
        """Delete ``user_id``'s network data: their membership, their blocks and the blocks of
        them, their network rating, the player of their DM homes (of games that ended) and
        their entries in network championships not begun (the seeds after theirs close up).
        Their network games stay in the records, as other games do. What was deleted or
        cleared, by table (none left out); ``None``, with nothing done, while a network game of
        theirs still runs or waits to be rated."""
        conn = self._conn
        if await conn.fetch_all(
            f"{_RUNNING_NETWORK_GAME.format(who='?')} LIMIT 1", (user_id, user_id)
        ):
            return None
        done: dict[str, int] = {}

        def count(name: str, changed: int) -> None:
            if changed:
                done[name] = done.get(name, 0) + changed

        entries = await conn.fetch_all(
            "SELECT p.tournament_id FROM tournament_players p "
            "JOIN tournaments t ON t.id = p.tournament_id "
            "WHERE p.user_id = ? AND t.guild_id = ? AND t.status = ? ORDER BY p.tournament_id",
            (user_id, NETWORK_GUILD_ID, TournamentStatus.OPEN.value),
        )
        for entry in entries:
            if await self.remove_entrant(entry["tournament_id"], user_id):
                count("tournament_players", 1)
        count(
            "network_blocks",
            await conn.execute(
                "DELETE FROM network_blocks WHERE blocker_id = ? OR blocked_id = ?",
                (user_id, user_id),
            ),
        )
        count(
            "ratings",
            await conn.execute(
                "DELETE FROM ratings WHERE guild_id = ? AND user_id = ?",
                (NETWORK_GUILD_ID, user_id),
            ),
        )
        count(
            "game_homes",
            await conn.execute(
                "UPDATE game_homes SET user_id = NULL WHERE user_id = ?", (user_id,)
            ),
        )
        count(
            "network_members",
            await conn.execute("DELETE FROM network_members WHERE user_id = ?", (user_id,)),
        )
        return done

    # servers

    async def network_server(self, guild_id: GuildId, *, lock: bool = True) -> NetworkServer | None:
        """A server's part in the network (``None``: never took part), locked until the
        transaction ends (``lock=False``: only looked at)."""
        sql = locking(self._conn, _SELECT_SERVER) if lock else _SELECT_SERVER
        row = await one_row(self._conn, sql, (guild_id,))
        return None if row is None else _server(row)

    async def set_channel(
        self, guild_id: GuildId, channel_id: ChannelId, by: UserId, now: datetime
    ) -> NetworkServer:
        """``guild_id`` takes part in the network with ``channel_id`` as its network channel,
        named by ``by``: it joins (again, from ``now``, if it had left) or moves its channel.
        A new channel, or a server back, gets a new board (none posted yet), which shows no
        ``seeks`` count (:data:`NO_BOARD`): behind whatever the network's is, even 0, so the
        boards' job posts it on its next pass though no seek opens or closes."""
        rows = await self._conn.fetch_all(
            "INSERT INTO network_servers "
            "(guild_id, channel_id, board_version, joined_by, joined_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "board_message_id = CASE WHEN network_servers.left_at IS NULL "
            "AND network_servers.channel_id = excluded.channel_id "
            "THEN network_servers.board_message_id END, "
            "board_version = CASE WHEN network_servers.left_at IS NULL "
            "AND network_servers.channel_id = excluded.channel_id "
            "THEN network_servers.board_version ELSE excluded.board_version END, "
            "board_at = CASE WHEN network_servers.left_at IS NULL "
            "AND network_servers.channel_id = excluded.channel_id "
            "THEN network_servers.board_at END, "
            "joined_at = CASE WHEN network_servers.left_at IS NULL "
            "THEN network_servers.joined_at ELSE excluded.joined_at END, "
            "channel_id = excluded.channel_id, joined_by = excluded.joined_by, left_at = NULL, "
            f"updated_at = excluded.updated_at RETURNING {_SERVER_COLUMNS}",
            (guild_id, channel_id, NO_BOARD, by, time_to_text(now), time_to_text(now)),
        )
        return _server(rows[0])

    async def leave_server(self, guild_id: GuildId, now: datetime) -> bool:
        """``guild_id`` stops taking part (its row stays, for the record); ``False`` if it did
        not take part."""
        changed = await self._conn.execute(
            "UPDATE network_servers SET left_at = ?, updated_at = ? "
            "WHERE guild_id = ? AND left_at IS NULL",
            (time_to_text(now), time_to_text(now), guild_id),
        )
        return changed == 1

    async def set_board(
        self, guild_id: GuildId, message_id: int | None, version: int, now: datetime
    ) -> bool:
        """A live server's board is ``message_id`` and shows the ``seeks`` count ``version``,
        as of ``now``; ``False`` (nothing written) if the server is not in the network."""
        changed = await self._conn.execute(
            "UPDATE network_servers SET board_message_id = ?, board_version = ?, board_at = ?, "
            "updated_at = ? WHERE guild_id = ? AND left_at IS NULL",
            (message_id, version, time_to_text(now), time_to_text(now), guild_id),
        )
        return changed == 1

    async def bump_seeks(self) -> int:
        """Count one more network challenge opened or closed (every board showing an older
        count is behind); the new count. On PostgreSQL the count's row stays locked until the
        transaction ends."""
        rows = await self._conn.fetch_all(
            "INSERT INTO network_state (name, value) VALUES (?, 1) ON CONFLICT (name) "
            "DO UPDATE SET value = network_state.value + 1 RETURNING value",
            (SEEKS,),
        )
        return int(rows[0][0])

    # blocks

    async def block(self, blocker_id: UserId, blocked_id: UserId, now: datetime) -> bool:
        """``blocker_id`` blocks ``blocked_id``; ``False`` if they had already. Both players'
        rows must exist (``ensure_players``)."""
        rows = await self._conn.fetch_all(
            "INSERT INTO network_blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT (blocker_id, blocked_id) DO NOTHING RETURNING blocker_id",
            (blocker_id, blocked_id, time_to_text(now)),
        )
        return bool(rows)

    async def unblock(self, blocker_id: UserId, blocked_id: UserId) -> bool:
        """``blocker_id`` takes back a block; ``False`` if there was none."""
        changed = await self._conn.execute(
            "DELETE FROM network_blocks WHERE blocker_id = ? AND blocked_id = ?",
            (blocker_id, blocked_id),
        )
        return changed == 1

    async def blocked_either(self, a: UserId, b: UserId) -> bool:
        """Whether either of two players has blocked the other."""
        return await _blocked_either(self._conn, a, b)

    async def blocks_among_entrants(self, tournament_id: int) -> list[NetworkBlock]:
        """The blocks between two players in a tournament (withdrawn or not), oldest first:
        the pairs a network championship keeps apart (read in the transaction that deals a
        season's divisions)."""
        return await _blocks_among_entrants(self._conn, tournament_id)

    # the homes of network games

    async def add_homes(self, game_id: int, homes: Iterable[NewHome], now: datetime) -> None:
        """Give a network game (inserted in this transaction) its homes."""
        await self._conn.execute_many(
            "INSERT INTO game_homes (game_id, seat, guild_id, parent_channel_id, channel_id, "
            "user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    home.seat.value,
                    home.guild_id,
                    home.parent_channel_id,
                    home.channel_id,
                    home.user_id,
                    time_to_text(now),
                )
                for home in homes
            ],
        )

    async def homes(self, game_id: int) -> list[GameHome]:
        """A network game's homes: a shared one, else White's then Black's; none for another
        game."""
        return [_home(row) for row in await self._conn.fetch_all(_SELECT_HOMES, (game_id,))]

    async def set_home_channel(
        self,
        game_id: int,
        seat: HomeSeat,
        channel_id: ChannelId,
        parent_channel_id: ChannelId | None,
    ) -> bool:
        """A home's thread (in ``parent_channel_id``) or DM channel is made: ``channel_id``;
        the home can be posted in again if it was lost. ``False`` if the game has no such
        home."""
        changed = await self._conn.execute(
            "UPDATE game_homes SET channel_id = ?, parent_channel_id = ?, lost_at = NULL "
            "WHERE game_id = ? AND seat = ?",
            (channel_id, parent_channel_id, game_id, seat.value),
        )
        return changed == 1

    async def move_home_to_dm(self, game_id: int, seat: HomeSeat, user_id: UserId) -> bool:
        """A player's home in a server (that left the network, or refused the bot's posts)
        becomes the bot's DM with ``user_id``, its channel to be made; its unsent posts stay,
        to be posted there. ``False`` if it is a DM home already (or there is none). A shared
        home is split instead (:meth:`split_shared_home`)."""
        if seat is HomeSeat.BOTH:
            raise ValueError("a home of both players is split, not moved")
        changed = await self._conn.execute(
            "UPDATE game_homes SET guild_id = NULL, parent_channel_id = NULL, channel_id = NULL, "
            "user_id = ?, lost_at = NULL WHERE game_id = ? AND seat = ? AND guild_id IS NOT NULL",
            (user_id, game_id, seat.value),
        )
        return changed == 1

    async def split_shared_home(
        self, game_id: int, white_id: UserId, black_id: UserId, now: datetime
    ) -> bool:
        """A home of both players becomes a DM home for each (their channels to be made); its
        unsent posts are given up (each new home starts from the current board). ``False`` if
        the game has no shared home."""
        if not await self._conn.execute(
            "DELETE FROM game_homes WHERE game_id = ? AND seat = ?",
            (game_id, HomeSeat.BOTH.value),
        ):
            return False
        await self._give_up_posts(game_id, HomeSeat.BOTH, now)
        await self.add_homes(
            game_id,
            [
                NewHome(HomeSeat.WHITE, user_id=white_id),
                NewHome(HomeSeat.BLACK, user_id=black_id),
            ],
            now,
        )
        return True

    async def lose_home(
        self, game_id: int, seat: HomeSeat, now: datetime, *, refused: ChannelId
    ) -> bool:
        """Record that a home refused the bot's posts in ``refused`` (its thread or DM channel;
        its network channel while the thread is not made) and give up its unsent posts (as
        ``lose_channel`` does for a game's one place); ``False`` (nothing done) if that was
        recorded already, if there is no such home, or if the home is no longer there (moved
        to its player's DMs since: a late refusal of its old thread says nothing of the new
        home)."""
        changed = await self._conn.execute(
            "UPDATE game_homes SET lost_at = ? WHERE game_id = ? AND seat = ? AND lost_at IS NULL "
            "AND (channel_id = ? OR (channel_id IS NULL AND parent_channel_id = ?))",
            (time_to_text(now), game_id, seat.value, refused, refused),
        )
        if changed != 1:
            return False
        await self._give_up_posts(game_id, seat, now)
        return True

    async def _give_up_posts(self, game_id: int, seat: HomeSeat, now: datetime) -> None:
        await self._conn.execute(
            "UPDATE notifications SET sent_at = ?, answer = NULL "
            "WHERE game_id = ? AND home = ? AND sent_at IS NULL",
            (time_to_text(now), game_id, seat.value),
        )

    async def games_homed_in(self, guild_id: GuildId, limit: int) -> list[int]:
        """Network games running (or paired, not begun) with a home in ``guild_id``'s network
        channel, the oldest first: the ones to move out when it leaves."""
        return await _games_homed_in(self._conn, guild_id, limit)

    async def games_homed_in_left_servers(self, limit: int) -> list[int]:
        """Network games running (or paired, not begun) with a home in the network channel of
        a server that left the network, the oldest first: the ones still to move out."""
        rows = await self._conn.fetch_all(
            "SELECT DISTINCT h.game_id FROM game_homes h "
            "JOIN network_servers s ON s.guild_id = h.guild_id "
            "JOIN games g ON g.id = h.game_id "
            "WHERE s.left_at IS NOT NULL AND g.status IN ('active', 'pending') "
            "ORDER BY h.game_id LIMIT ?",
            (limit,),
        )
        return [int(row["game_id"]) for row in rows]

    # network challenges closed together

    async def cancel_network_challenges(
        self,
        now: datetime,
        *,
        player_id: UserId | None = None,
        guild_id: GuildId | None = None,
        between: tuple[UserId, UserId] | None = None,
    ) -> list[Challenge]:
        """Cancel the open network challenges made by or to ``player_id`` (who left the
        network), or made in ``guild_id`` (which left it), or the direct ones of either of
        ``between`` to the other (one blocked the other); returns them, by id."""
        if sum(given is not None for given in (player_id, guild_id, between)) != 1:
            raise ValueError("the challenges of a player, of a server, or between two players")
        which: str
        params: tuple[int, ...]
        if player_id is not None:
            which, params = "(challenger_id = ? OR opponent_id = ?)", (player_id, player_id)
        elif guild_id is not None:
            which, params = "guild_id = ?", (guild_id,)
        else:
            assert between is not None
            a, b = between
            which = (
                "((challenger_id = ? AND opponent_id = ?) "
                "OR (challenger_id = ? AND opponent_id = ?))"
            )
            params = (a, b, b, a)
        rows = await self._conn.fetch_all(
            "UPDATE challenges SET status = 'cancelled', closed_at = ? "
            f"WHERE network = 1 AND status = 'open' AND {which} RETURNING {CHALLENGE_COLUMNS}",
            (time_to_text(now), *params),
        )
        return sorted((challenge_of(row) for row in rows), key=lambda c: c.id)

    async def expire_network_challenges(self, now: datetime) -> list[Challenge]:
        """Close the open network challenges whose time is up at ``now``; returns them, by id."""
        rows = await self._conn.fetch_all(
            "UPDATE challenges SET status = 'expired', closed_at = ? "
            "WHERE network = 1 AND status = 'open' AND expires_at <= ? "
            f"RETURNING {CHALLENGE_COLUMNS}",
            (time_to_text(now), time_to_text(now)),
        )
        return sorted((challenge_of(row) for row in rows), key=lambda c: c.id)


async def _games_homed_in(reader: Reader, guild_id: GuildId, limit: int) -> list[int]:
    rows = await reader.fetch_all(
        "SELECT DISTINCT h.game_id FROM game_homes h JOIN games g ON g.id = h.game_id "
        "WHERE h.guild_id = ? AND g.status IN ('active', 'pending') ORDER BY h.game_id LIMIT ?",
        (guild_id, limit),
    )
    return [int(row["game_id"]) for row in rows]


class NetworkReads(StorePart):
    """Reading the network: members, servers, blocks, homes and open network challenges."""

    async def members_entered(self, tournament_id: int) -> set[UserId]:
        """Those of a tournament's players who are network members now, read outside any
        write transaction (a network championship's season end, computed before it is
        written)."""
        return await _members_entered(self.db, tournament_id)

    async def member(self, user_id: UserId) -> NetworkMember | None:
        """A player's network membership (``None``: never joined, or their data deleted)."""
        row = await self.db.fetch_one(_SELECT_MEMBER, (user_id,))
        return None if row is None else _member(row)

    async def last_network_game_in_channel(self, channel_id: ChannelId) -> int | None:
        """The newest network game with a home in a channel (a home's thread, or a player's
        DMs), running or not; ``None`` if none."""
        row = await self.db.fetch_one(
            "SELECT max(game_id) AS game_id FROM game_homes WHERE channel_id = ?", (channel_id,)
        )
        return None if row is None or row["game_id"] is None else int(row["game_id"])

    async def names(self, user_ids: Iterable[UserId]) -> dict[UserId, str]:
        """The network names of those of ``user_ids`` who joined (members now or not)."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        rows = await self.db.fetch_all(
            "SELECT user_id, name FROM network_members "
            f"WHERE user_id IN ({', '.join('?' * len(wanted))})",
            wanted,
        )
        return {int(row["user_id"]): str(row["name"]) for row in rows}

    async def search_names(self, prefix: str, limit: int = 25) -> list[NetworkMember]:
        """Members now whose name begins with ``prefix``, whatever the case, by name."""
        rows = await self.db.fetch_all(
            f"SELECT {_MEMBER_COLUMNS} FROM network_members "
            "WHERE left_at IS NULL AND lower(name) LIKE lower(?) ESCAPE '\\' "
            "ORDER BY lower(name), user_id LIMIT ?",
            (_like_prefix(prefix), limit),
        )
        return [_member(row) for row in rows]

    async def network_has_members(self) -> bool:
        """Whether anyone is in the network now."""
        row = await self.db.fetch_one(
            "SELECT 1 FROM network_members WHERE left_at IS NULL LIMIT 1", ()
        )
        return row is not None

    async def members_homed_in(self, guild_id: GuildId) -> list[NetworkMember]:
        """Members now whose home is ``guild_id``'s network channel, by name."""
        rows = await self.db.fetch_all(
            f"SELECT {_MEMBER_COLUMNS} FROM network_members "
            "WHERE home_guild_id = ? AND left_at IS NULL ORDER BY lower(name), user_id",
            (guild_id,),
        )
        return [_member(row) for row in rows]

    async def network_server(self, guild_id: GuildId) -> NetworkServer | None:
        """A server's part in the network (``None``: never took part)."""
        row = await self.db.fetch_one(_SELECT_SERVER, (guild_id,))
        return None if row is None else _server(row)

    async def seeks_version(self) -> int:
        """The network's ``seeks`` count (:meth:`NetworkWrites.bump_seeks`); 0 before any."""
        row = await self.db.fetch_one("SELECT value FROM network_state WHERE name = ?", (SEEKS,))
        return 0 if row is None else int(row["value"])

    async def boards_count(self) -> int:
        """How many servers take part now (each has a board)."""
        row = await self.db.fetch_one(
            "SELECT count(*) FROM network_servers WHERE left_at IS NULL", ()
        )
        return 0 if row is None else int(row[0])

    async def boards_behind(
        self, version: int, edited_before: datetime, limit: int
    ) -> list[NetworkServer]:
        """Live servers whose board shows a ``seeks`` count below ``version`` and was not
        posted or edited after ``edited_before``, the longest waiting (never posted) first."""
        rows = await self.db.fetch_all(
            f"SELECT {_SERVER_COLUMNS} FROM network_servers "
            "WHERE left_at IS NULL AND board_version < ? AND (board_at IS NULL OR board_at <= ?) "
            "ORDER BY coalesce(board_at, ''), guild_id LIMIT ?",
            (version, time_to_text(edited_before), limit),
        )
        return [_server(row) for row in rows]

    async def blocked_either(self, a: UserId, b: UserId) -> bool:
        """Whether either of two players has blocked the other."""
        return await _blocked_either(self.db, a, b)

    async def blocks_of(self, blocker_id: UserId) -> list[NetworkBlock]:
        """The blocks ``blocker_id`` made, the newest first."""
        rows = await self.db.fetch_all(
            "SELECT blocker_id, blocked_id, created_at FROM network_blocks "
            "WHERE blocker_id = ? ORDER BY created_at DESC, blocked_id",
            (blocker_id,),
        )
        return [_block(row) for row in rows]

    async def blocks_among_entrants(self, tournament_id: int) -> list[NetworkBlock]:
        """The blocks between two players in a tournament (withdrawn or not), oldest first:
        the pairs a network championship keeps apart."""
        return await _blocks_among_entrants(self.db, tournament_id)

    async def homes(self, game_id: int) -> list[GameHome]:
        """A network game's homes: a shared one, else White's then Black's; none for another
        game."""
        return [_home(row) for row in await self.db.fetch_all(_SELECT_HOMES, (game_id,))]

    async def games_homed_in(self, guild_id: GuildId, limit: int) -> list[int]:
        """Network games running (or paired, not begun) with a home in ``guild_id``'s network
        channel, the oldest first."""
        return await _games_homed_in(self.db, guild_id, limit)

    async def open_network_challenges(
        self,
        now: datetime,
        *,
        viewer: UserId | None = None,
        rating: float | None = None,
        limit: int = 25,
    ) -> list[Challenge]:
        """Open network challenges to anyone (not direct ones), not expired at ``now``, made by
        members now, the newest first. With ``viewer``: those they may take (not their own, no
        block either way between them and its challenger); with ``rating`` (theirs in the
        network, as shown: rounded): those whose range holds it."""
        return await _open_network_challenges(self.db, now, viewer, rating, limit)
