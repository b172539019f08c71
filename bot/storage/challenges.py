"""Challenges: the ``challenges`` table, a challenge from its opening to its closing (accepted,
declined, cancelled or expired).

:class:`ChallengeWrites` is the part of :class:`~bot.storage.store.Writer` that writes them,
:class:`ChallengeReads` the part of :class:`~bot.storage.store.Store` that reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

from bot.storage.errors import StorageError
from bot.storage.interface import Row
from bot.storage.models import (
    Challenge,
    ChallengeStatus,
    ChannelId,
    GuildId,
    Setup,
    UserId,
    colour_from_letter,
    optional_time,
    text_to_time,
    time_to_text,
)
from bot.storage.sql_helpers import StorePart, WriterPart, locking, one_row
from rules import Colour


@dataclass(frozen=True, slots=True)
class NewChallenge:
    """A challenge to insert (the database gives it its id)."""

    guild_id: GuildId | None
    channel_id: ChannelId
    challenger_id: UserId
    opponent_id: UserId | None
    challenger_colour: Colour | None
    clock_days: int | None
    created_at: datetime
    expires_at: datetime
    bank: str | None = None
    """A time bank instead of days per move (:attr:`Challenge.bank`)."""
    setup: Setup = Setup.STANDARD
    rematch_of: int | None = None
    """The game it offers to play again (:attr:`Challenge.rematch_of`)."""
    network: bool = False
    """A network challenge (:attr:`Challenge.network`)."""
    min_rating: int | None = None
    """Its range of network ratings that may accept it (:attr:`Challenge.min_rating`)."""
    max_rating: int | None = None


CHALLENGE_COLUMNS: Final = (
    "id, guild_id, channel_id, challenger_id, opponent_id, challenger_colour, clock_days, "
    "status, created_at, expires_at, closed_at, closed_by, game_id, bank, setup, rematch_of, "
    "network, min_rating, max_rating, message_id"
)
_SELECT_CHALLENGE: Final = f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?"


def challenge_of(row: Row) -> Challenge:
    """A challenge from a row of :data:`CHALLENGE_COLUMNS`."""
    return Challenge(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        challenger_id=row["challenger_id"],
        opponent_id=row["opponent_id"],
        challenger_colour=colour_from_letter(row["challenger_colour"]),
        clock_days=row["clock_days"],
        status=ChallengeStatus(row["status"]),
        created_at=text_to_time(row["created_at"]),
        expires_at=text_to_time(row["expires_at"]),
        closed_at=optional_time(row["closed_at"]),
        closed_by=row["closed_by"],
        game_id=row["game_id"],
        bank=row["bank"],
        setup=Setup(row["setup"]),
        rematch_of=row["rematch_of"],
        network=bool(row["network"]),
        min_rating=row["min_rating"],
        max_rating=row["max_rating"],
        message_id=row["message_id"],
    )


class ChallengeWrites(WriterPart):
    """Opening and closing challenges, in one write transaction."""

    async def challenge(self, challenge_id: int) -> Challenge | None:
        """A challenge by id, or ``None``."""
        row = await one_row(self._conn, locking(self._conn, _SELECT_CHALLENGE), (challenge_id,))
        return None if row is None else challenge_of(row)

    async def insert_challenge(self, new: NewChallenge) -> Challenge:
        """Insert an open challenge (its players must exist: :meth:`ensure_players`)."""
        rows = await self._conn.fetch_all(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, "
            "challenger_colour, clock_days, status, created_at, expires_at, bank, setup, "
            "rematch_of, network, min_rating, max_rating) "
            "VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                new.guild_id,
                new.channel_id,
                new.challenger_id,
                new.opponent_id,
                None if new.challenger_colour is None else new.challenger_colour.value,
                new.clock_days,
                time_to_text(new.created_at),
                time_to_text(new.expires_at),
                new.bank,
                new.setup.value,
                new.rematch_of,
                int(new.network),
                new.min_rating,
                new.max_rating,
            ),
        )
        created = await self.challenge(rows[0][0])
        assert created is not None
        return created

    async def rematch_challenge(self, game_id: int) -> Challenge | None:
        """The last challenge offering a rematch of ``game_id`` that its challenger did not
        cancel (open, accepted, declined or expired), if any."""
        row = await one_row(
            self._conn,
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges "
            "WHERE rematch_of = ? AND status <> 'cancelled' ORDER BY id DESC",
            (game_id,),
        )
        return None if row is None else challenge_of(row)

    async def close_challenge(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        *,
        at: datetime,
        by: UserId | None = None,
        game_id: int | None = None,
    ) -> Challenge:
        """Move an open challenge to ``status``; raises :class:`StorageError` if it is not open."""
        if status is ChallengeStatus.OPEN:
            raise ValueError("a challenge is closed to accepted, declined, cancelled or expired")
        changed = await self._conn.execute(
            "UPDATE challenges SET status = ?, closed_at = ?, closed_by = ?, game_id = ? "
            "WHERE id = ? AND status = 'open'",
            (status.value, time_to_text(at), by, game_id, challenge_id),
        )
        if changed != 1:
            raise StorageError(f"challenge {challenge_id} is not open")
        closed = await self.challenge(challenge_id)
        assert closed is not None
        return closed

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> Challenge | None:
        """A challenge's own post is ``message_id`` (where it was made); the challenge as it is
        now (open or closed since), ``None`` if there is none."""
        await self._conn.execute(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )
        return await self.challenge(challenge_id)

    async def expire_challenges(self, now: datetime) -> list[Challenge]:
        """Close every open challenge whose time is up at ``now``; returns them."""
        rows = await self._conn.fetch_all(
            "UPDATE challenges SET status = 'expired', closed_at = ? "
            f"WHERE status = 'open' AND expires_at <= ? RETURNING {CHALLENGE_COLUMNS}",
            (time_to_text(now), time_to_text(now)),
        )
        return sorted((challenge_of(row) for row in rows), key=lambda c: c.id)


class ChallengeReads(StorePart):
    """Reading challenges."""

    async def challenge(self, challenge_id: int) -> Challenge | None:
        """A challenge by id, or ``None``."""
        row = await self.db.fetch_one(_SELECT_CHALLENGE, (challenge_id,))
        return None if row is None else challenge_of(row)

    async def open_challenges(self, channel_id: ChannelId) -> list[Challenge]:
        """Challenges still open in a channel (including any whose time is up but which the
        expiry sweep has not closed yet), oldest first. Network challenges made there are not
        among them: they are the network's (``open_network_challenges``), not the channel's."""
        rows = await self.db.fetch_all(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges "
            "WHERE channel_id = ? AND status = 'open' AND network = 0 ORDER BY id",
            (channel_id,),
        )
        return [challenge_of(row) for row in rows]
