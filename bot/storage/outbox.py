"""The outbox and the leases: who holds what among the bot's processes.

* ``notifications``: announcements to deliver, written in the transaction of the change they
  announce, then claimed (a lease on the row), posted and marked sent by a deliverer;
* ``leases``: background work held by one process at a time;
* ``reply_routes``: the way to answer in a private game;
* a game's lost channel (``games.channel_lost_at``): where the bot's posts are refused, its
  unsent posts given up.

:class:`OutboxWrites` is the part of :class:`~bot.storage.store.Writer` that writes them,
:class:`OutboxReads` the part of :class:`~bot.storage.store.Store` that reads them.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from bot.storage.interface import Connection, Reader, Row
from bot.storage.models import (
    Claim,
    Notification,
    UserId,
    optional_time,
    text_to_time,
    time_to_text,
)
from bot.storage.sql_helpers import StorePart, WriterPart


@dataclass(frozen=True, slots=True)
class NewNotification:
    """An announcement to write to the outbox: its kind, what it is about, and its data."""

    kind: str
    game_id: int | None = None
    user_id: UserId | None = None
    payload: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    answer: str | None = None
    """The interaction (its route, opaque) whose answer this post may be made as."""
    home: str | None = None
    """The one home of a network game this post goes to (a seat of ``game_homes``); ``None``:
    the post goes to every home of its game, a row each (:func:`write_notification`), or to
    its one place (every other game)."""
    answer_home: str | None = None
    """The home whose row keeps :attr:`answer` (the mover's): a command is answered where it
    was used, and the other home's post is a new message. ``None``: only a home of both
    players keeps it."""


_NOTIFICATION_COLUMNS: Final = (
    "id, kind, user_id, game_id, payload, created_at, attempts, claimed_by, leased_until, "
    "answer, home"
)
INSERT_NOTIFICATION: Final = (
    "INSERT INTO notifications (kind, user_id, game_id, payload, created_at, claimed_by, "
    "leased_until, answer, home) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)
ONE_PLACE: Final = ""
"""The ``home`` of every post that is not a network game's: its game's one place, or its user."""
BOTH_PLAYERS: Final = "*"
"""The seat of a network game's one home of both players."""


def _notification(row: Row) -> Notification:
    return Notification(
        id=row["id"],
        kind=row["kind"],
        user_id=row["user_id"],
        game_id=row["game_id"],
        payload=json.loads(row["payload"]),
        created_at=text_to_time(row["created_at"]),
        attempts=row["attempts"],
        claimed_by=row["claimed_by"],
        leased_until=optional_time(row["leased_until"]),
        answer=row["answer"],
        home=row["home"],
    )


def notification_params(
    notice: NewNotification, now: datetime, claim: Claim | None
) -> tuple[Any, ...]:
    return (
        notice.kind,
        notice.user_id,
        notice.game_id,
        json.dumps(dict(notice.payload), separators=(",", ":")),
        time_to_text(now),
        None if claim is None else claim.claimant,
        None if claim is None else time_to_text(claim.until),
        notice.answer,
        ONE_PLACE if notice.home is None else notice.home,
    )


async def home_seats(conn: Reader, game_id: int) -> list[str]:
    """The seats of a game's homes (none: an ordinary game, played in one place)."""
    rows = await conn.fetch_all(
        "SELECT seat FROM game_homes WHERE game_id = ? ORDER BY seat DESC", (game_id,)
    )
    return [str(row[0]) for row in rows]


async def write_notification(
    conn: Connection,
    notice: NewNotification,
    now: datetime,
    claim: Claim | None,
    *,
    homes: bool = True,
) -> int:
    """Write ``notice`` to the outbox; returns its row's id.

    A post about a network game that names no home (``notice.home`` ``None``) is written once
    for each of the game's homes (``game_homes``), each row its own post, claimed and sent in
    order with its home's other posts only: one home's rate limit or refusal never holds back
    the other. :attr:`~NewNotification.answer` stays on the row of
    :attr:`~NewNotification.answer_home` (or of a home of both players) only; the id returned
    is that row's, else the first home's. Every other post, and every post of a game without
    homes, is one row, as it always was. ``homes``: ``False`` when the caller knows the game
    has none (an ordinary game), which spares the look."""
    seats: list[str] = []
    if homes and notice.game_id is not None and notice.home is None:
        seats = await home_seats(conn, notice.game_id)
    if not seats:
        rows = await conn.fetch_all(INSERT_NOTIFICATION, notification_params(notice, now, claim))
        return int(rows[0][0])
    written: dict[str, int] = {}
    for seat in seats:
        answering = notice.answer is not None and seat in (notice.answer_home, BOTH_PLAYERS)
        row = dataclasses.replace(notice, home=seat, answer=notice.answer if answering else None)
        rows = await conn.fetch_all(INSERT_NOTIFICATION, notification_params(row, now, claim))
        written[seat] = int(rows[0][0])
    for answering_home in (notice.answer_home, BOTH_PLAYERS):
        if answering_home is not None and answering_home in written:
            return written[answering_home]
    return written[seats[0]]


class OutboxWrites(WriterPart):
    """Writing, claiming and marking announcements, and taking leases, in one write
    transaction."""

    async def enqueue(
        self, notice: NewNotification, now: datetime, claim: Claim | None = None
    ) -> int:
        """Write an announcement to deliver once this transaction commits; returns its id.

        ``claim``: the writer's own hold on it (it posts it right after the commit); the other
        deliverers take it only once the claim has run out."""
        return await write_notification(self._conn, notice, now, claim)

    async def claim_next(
        self, game_id: int, claim: Claim, now: datetime, home: str = ONE_PLACE
    ) -> Notification | None:
        """Claim the oldest unsent announcement of a game's ``home`` (of an ordinary game: of
        the game), unless another deliverer holds it."""
        rows = await self._conn.fetch_all(
            "UPDATE notifications SET claimed_by = ?, leased_until = ? WHERE id = ("
            "SELECT min(id) FROM notifications WHERE game_id = ? AND home = ? "
            "AND sent_at IS NULL) "
            "AND sent_at IS NULL AND (leased_until IS NULL OR leased_until <= ? OR claimed_by = ?) "
            f"RETURNING {_NOTIFICATION_COLUMNS}",
            (
                claim.claimant,
                time_to_text(claim.until),
                game_id,
                home,
                time_to_text(now),
                claim.claimant,
            ),
        )
        return next((_notification(row) for row in rows), None)

    async def claim_one(
        self, notification_id: int, claim: Claim, now: datetime
    ) -> Notification | None:
        """Claim an announcement that belongs to no game, unless another deliverer holds it."""
        rows = await self._conn.fetch_all(
            "UPDATE notifications SET claimed_by = ?, leased_until = ? "
            "WHERE id = ? AND game_id IS NULL AND sent_at IS NULL "
            "AND (leased_until IS NULL OR leased_until <= ? OR claimed_by = ?) "
            f"RETURNING {_NOTIFICATION_COLUMNS}",
            (
                claim.claimant,
                time_to_text(claim.until),
                notification_id,
                time_to_text(now),
                claim.claimant,
            ),
        )
        return next((_notification(row) for row in rows), None)

    async def release_game(self, game_id: int, claimant: str, home: str = ONE_PLACE) -> int:
        """Give up ``claimant``'s claims on the unsent rows of a game's ``home``: another
        deliverer holds the row ahead of them, and will post these after it (a home's posts go
        out in order)."""
        return await self._conn.execute(
            "UPDATE notifications SET claimed_by = NULL, leased_until = NULL "
            "WHERE game_id = ? AND home = ? AND claimed_by = ? AND sent_at IS NULL",
            (game_id, home, claimant),
        )

    async def renew(self, notification_id: int, claim: Claim) -> bool:
        """Extend a claim still held; ``False`` if another deliverer has taken the row over."""
        changed = await self._conn.execute(
            "UPDATE notifications SET leased_until = ? "
            "WHERE id = ? AND claimed_by = ? AND sent_at IS NULL",
            (time_to_text(claim.until), notification_id, claim.claimant),
        )
        return changed == 1

    async def mark_sent(
        self,
        notification_id: int,
        now: datetime,
        message_id: int | None = None,
        *,
        answered: bool = False,
    ) -> None:
        """Record that an announcement went out as ``message_id``; its command's route is kept
        only if the post was that command's answer (``answered``), else forgotten."""
        await self._conn.execute(
            "UPDATE notifications SET sent_at = ?, message_id = ?, "
            "answer = CASE WHEN ? = 1 THEN answer ELSE NULL END "
            "WHERE id = ? AND sent_at IS NULL",
            (time_to_text(now), message_id, int(answered), notification_id),
        )

    async def release(self, claimant: str) -> int:
        """Give up every claim of ``claimant`` on unsent rows (a clean shutdown), so that the
        next deliverer need not wait for them to run out; returns how many there were."""
        return await self._conn.execute(
            "UPDATE notifications SET claimed_by = NULL, leased_until = NULL "
            "WHERE claimed_by = ? AND sent_at IS NULL",
            (claimant,),
        )

    async def mark_failed(
        self,
        notification_id: int,
        claimant: str,
        *,
        give_up: bool,
        now: datetime,
        retry_at: datetime,
    ) -> None:
        """Count a failed delivery: try again from ``retry_at`` (holding back the game's later
        announcements until then, to keep their order), or mark it done if ``give_up``. Only
        while ``claimant`` holds it: a deliverer that lost its claim does not count for another."""
        await self._conn.execute(
            "UPDATE notifications SET attempts = attempts + 1, claimed_by = NULL, "
            "leased_until = ?, sent_at = CASE WHEN ? = 1 THEN ? ELSE sent_at END "
            "WHERE id = ? AND claimed_by = ? AND sent_at IS NULL",
            (time_to_text(retry_at), int(give_up), time_to_text(now), notification_id, claimant),
        )

    async def postpone(self, notification_id: int, claimant: str, until: datetime) -> None:
        """Let go of a claimed announcement until ``until`` without counting a failed try
        (Discord said "slow down": the post was not refused), holding back the game's later
        ones meanwhile. Only while ``claimant`` holds it."""
        await self._conn.execute(
            "UPDATE notifications SET claimed_by = NULL, leased_until = ? "
            "WHERE id = ? AND claimed_by = ? AND sent_at IS NULL",
            (time_to_text(until), notification_id, claimant),
        )

    # a game's lost channel

    async def lose_channel(self, game_id: int, now: datetime) -> bool:
        """Record that a game's thread or channel refused the bot's posts, and give up the
        game's unsent posts; ``False`` (nothing done) if that was recorded already."""
        changed = await self._conn.execute(
            "UPDATE games SET channel_lost_at = ? WHERE id = ? AND channel_lost_at IS NULL",
            (time_to_text(now), game_id),
        )
        if changed != 1:
            return False
        await self._conn.execute(
            "UPDATE notifications SET sent_at = ?, answer = NULL "
            "WHERE game_id = ? AND sent_at IS NULL",
            (time_to_text(now), game_id),
        )
        return True

    async def regain_channel(self, game_id: int) -> bool:
        """The bot may post in a game's place again; ``False`` if it was not lost."""
        changed = await self._conn.execute(
            "UPDATE games SET channel_lost_at = NULL WHERE id = ? AND channel_lost_at IS NOT NULL",
            (game_id,),
        )
        return changed == 1

    # leases on background work

    async def take_lease(self, name: str, holder: str, until: datetime, now: datetime) -> bool:
        """Take (or renew) the lease ``name`` for ``holder`` until ``until``; ``False`` if
        another holder's lease on it has not run out at ``now``."""
        rows = await self._conn.fetch_all(
            "INSERT INTO leases (name, holder, leased_until) VALUES (?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
            "leased_until = excluded.leased_until "
            "WHERE leases.leased_until <= ? OR leases.holder = excluded.holder RETURNING holder",
            (name, holder, time_to_text(until), time_to_text(now)),
        )
        return bool(rows)

    async def release_holders(self, holders: Collection[str]) -> tuple[int, int]:
        """Give up every claim and lease of ``holders`` (processes that died): their unsent
        announcements and their background work are free for the next taker at once. Returns
        how many claims and leases there were."""
        if not holders:
            return 0, 0
        names = tuple(holders)
        marks = ", ".join("?" * len(names))
        claims = await self._conn.execute(
            "UPDATE notifications SET claimed_by = NULL, leased_until = NULL "
            f"WHERE claimed_by IN ({marks}) AND sent_at IS NULL",
            names,
        )
        leases = await self._conn.execute(f"DELETE FROM leases WHERE holder IN ({marks})", names)
        return claims, leases

    async def release_lease(self, name: str, holder: str) -> None:
        """End ``holder``'s lease ``name`` (if it still holds it)."""
        await self._conn.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))

    async def release_leases(self, holder: str) -> int:
        """End every lease of ``holder`` (a clean shutdown); how many there were."""
        return await self._conn.execute("DELETE FROM leases WHERE holder = ?", (holder,))

    # private games

    async def save_reply_route(self, game_id: int, route: str, expires_at: datetime) -> None:
        """Remember the latest way to answer in a private game (see :attr:`Game.private`)."""
        await self._conn.execute(
            "INSERT INTO reply_routes (game_id, route, expires_at) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET route = excluded.route, "
            "expires_at = excluded.expires_at",
            (game_id, route, time_to_text(expires_at)),
        )


class OutboxReads(StorePart):
    """Reading announcements, claims, leases and reply routes."""

    async def claimable_notifications(self, now: datetime, limit: int = 100) -> list[Notification]:
        """The announcements a deliverer may take now, oldest first: unsent, not held by a live
        claim, and each the oldest unsent one of its game's home (of an ordinary game: of the
        game; a home's posts go out in order)."""
        rows = await self.db.fetch_all(
            f"SELECT {_NOTIFICATION_COLUMNS} FROM notifications AS n "
            "WHERE sent_at IS NULL AND (leased_until IS NULL OR leased_until <= ?) "
            "AND (game_id IS NULL OR id = (SELECT min(m.id) FROM notifications AS m "
            "WHERE m.game_id = n.game_id AND m.home = n.home AND m.sent_at IS NULL)) "
            "ORDER BY id LIMIT ?",
            (time_to_text(now), limit),
        )
        return [_notification(row) for row in rows]

    async def unsent_notifications(
        self, game_id: int, limit: int = 20, home: str | None = None
    ) -> list[Notification]:
        """A game's unsent announcements, oldest first (whoever holds them): of its ``home``
        only, if given."""
        of_home, params = (
            ("", (game_id, limit)) if home is None else ("AND home = ? ", (game_id, home, limit))
        )
        rows = await self.db.fetch_all(
            f"SELECT {_NOTIFICATION_COLUMNS} FROM notifications "
            f"WHERE game_id = ? {of_home}AND sent_at IS NULL ORDER BY id LIMIT ?",
            params,
        )
        return [_notification(row) for row in rows]

    async def home_seats(self, game_id: int) -> list[str]:
        """The seats of a game's homes, each a lane of its posts (none: an ordinary game)."""
        return await home_seats(self.db, game_id)

    async def oldest_unsent_at(self) -> datetime | None:
        """When the oldest announcement not delivered yet was written (``None``: none waits)."""
        row = await self.db.fetch_one(
            "SELECT min(created_at) FROM notifications WHERE sent_at IS NULL"
        )
        return None if row is None or row[0] is None else text_to_time(row[0])

    async def notification(self, notification_id: int) -> Notification | None:
        """An announcement by id, if it is still unsent."""
        row = await self.db.fetch_one(
            f"SELECT {_NOTIFICATION_COLUMNS} FROM notifications WHERE id = ? AND sent_at IS NULL",
            (notification_id,),
        )
        return None if row is None else _notification(row)

    async def last_turn(
        self, game_id: int, before: int, home: str = ONE_PLACE
    ) -> tuple[Notification, int | None] | None:
        """The last turn announcement of a game's ``home`` (of an ordinary game: of the game)
        before the row ``before``, with the id of the message that posted it (``None``: not
        posted, or not marked yet)."""
        row = await self.db.fetch_one(
            f"SELECT {_NOTIFICATION_COLUMNS}, message_id FROM notifications "
            "WHERE game_id = ? AND home = ? AND kind = 'turn' AND id < ? "
            "ORDER BY id DESC LIMIT 1",
            (game_id, home, before),
        )
        if row is None:
            return None
        message_id = row["message_id"]
        return _notification(row), None if message_id is None else int(message_id)

    # leases on background work

    async def holders(self) -> set[str]:
        """Every process named in a claim on an unsent announcement or in a lease."""
        rows = await self.db.fetch_all(
            "SELECT claimed_by FROM notifications WHERE sent_at IS NULL AND claimed_by IS NOT NULL "
            "UNION SELECT holder FROM leases"
        )
        return {str(row[0]) for row in rows}

    async def live_leases(self, prefix: str, now: datetime, *, besides: str) -> set[str]:
        """The names of the leases starting with ``prefix`` that a holder other than
        ``besides`` holds at ``now``."""
        rows = await self.db.fetch_all(
            "SELECT name FROM leases WHERE substr(name, 1, ?) = ? AND leased_until > ? "
            "AND holder <> ?",
            (len(prefix), prefix, time_to_text(now), besides),
        )
        return {str(row[0]) for row in rows}

    # private games

    async def reply_route(self, game_id: int, now: datetime) -> str | None:
        """The way to answer in a private game, if one is stored and still good at ``now``."""
        row = await self.db.fetch_one(
            "SELECT route FROM reply_routes WHERE game_id = ? AND expires_at > ?",
            (game_id, time_to_text(now)),
        )
        return None if row is None else str(row[0])
