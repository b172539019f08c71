"""Forgetting a player: the erasure of a player's personal data, at an operator's request.

:meth:`ForgetWrites.forget_player` (a part of :class:`~bot.storage.store.Writer`, so one
transaction on either backend) removes every row that is the player's alone, and in the
records they share with other players puts a placeholder in place of their Discord id:

* deleted: their ``players`` row (preferences: language, theme, time zone, turn notices,
  reminders, vacations), their ratings in every server and in the network, their puzzle rating
  and puzzle tries, their lessons (tries, lessons done, the offer made), their planned lines,
  the challenges they made or were sent that started no game, their entries in tournaments not
  yet begun (the seeds after theirs close up, as when a player leaves), the announcements
  addressed to them (direct messages, vacation notices), their network membership (their
  network name and home) and their blocks and the blocks of them;
* anonymised: the games they played (``white_id``, ``black_id``, ``ended_by`` and a pending
  abort or takeback request), those games' moves (``player_id``), the challenges that started
  them, tournaments they organised, and their entries and pairings in tournaments begun (and
  their place in a league season whose division is still to be made); the
  DM homes of their network games (``game_homes.user_id``), and the servers whose network
  channel they named (``network_servers.joined_by``); their id inside announcements' data (a
  withdrawal in a tournament's news) too.

The placeholder is a negative number, one for each player forgotten (-1, then -2, ...): never a
Discord id (snowflakes are positive), and distinct, so that the schema's checks still hold (a
game's two players differ, a tournament's entrants are distinct) and a tournament's standings
still count one forgotten entrant as one player. It has a ``players`` row of its own with the
defaults, which the foreign keys need. :func:`is_placeholder` tells it apart.

A player who still plays cannot be forgotten: a running (or paired, not yet begun) game, an
entry in a running tournament they have not withdrawn from, or a game ended but not yet rated
(the bot rates it at its next housekeeping pass) refuses it with :class:`StillPlaying`, which
lists them; nothing is changed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from bot.storage.errors import StorageError
from bot.storage.models import EndReason, GameStatus, TournamentStatus, UserId, time_to_text
from bot.storage.tournaments import TournamentWrites

_ANONYMISED: Final = (
    ("games", "white_id"),
    ("games", "black_id"),
    ("games", "ended_by"),
    ("games", "abort_requested_by"),
    ("games", "takeback_requested_by"),
    ("moves", "player_id"),
    ("challenges", "challenger_id"),
    ("challenges", "opponent_id"),
    ("challenges", "closed_by"),
    ("tournaments", "organiser_id"),
    ("tournament_players", "user_id"),
    ("tournament_games", "white_id"),
    ("tournament_games", "black_id"),
    ("season_places", "user_id"),
    ("game_homes", "user_id"),
    ("network_servers", "joined_by"),
)
"""Every column of a shared record that may hold a player's id, in the order they are changed
(``players`` rows are referred to by the first of each table's)."""

_OWN: Final = (
    ("ratings", "user_id"),
    ("puzzle_ratings", "user_id"),
    ("puzzle_attempts", "user_id"),
    ("plans", "user_id"),
    ("notifications", "user_id"),
    ("network_members", "user_id"),
    ("network_blocks", "blocker_id"),
    ("network_blocks", "blocked_id"),
    ("lesson_attempts", "user_id"),
    ("lessons_done", "user_id"),
    ("lesson_learners", "user_id"),
)
"""The tables of rows that are the player's alone, by the column that says whose."""


def is_placeholder(user_id: UserId) -> bool:
    """Whether ``user_id`` stands for a forgotten player (see the module's docstring) rather
    than a Discord user: Discord's ids are positive."""
    return user_id < 0


@dataclass(frozen=True)
class Forgotten:
    """What :meth:`ForgetWrites.forget_player` did."""

    user_id: UserId
    placeholder: UserId | None
    """The id their shared records now hold; ``None``: no shared record held theirs."""
    deleted: dict[str, int] = field(default_factory=dict)
    """Rows deleted, by table (tables with none left out)."""
    anonymised: dict[str, int] = field(default_factory=dict)
    """Rows whose column now holds the placeholder, by ``table.column`` (none left out)."""

    @property
    def anything(self) -> bool:
        """Whether anything was held about the player."""
        return bool(self.deleted or self.anonymised)

    def lines(self) -> Iterator[str]:
        """A summary for the operator, one line a table (or column)."""
        for table, count in self.deleted.items():
            yield f"deleted     {count:6}  {table}"
        for column, count in self.anonymised.items():
            yield f"anonymised  {count:6}  {column} (now {self.placeholder})"


@dataclass(frozen=True)
class Blocker:
    """Something of the player's still going on: what it is and its id."""

    what: str
    """``game``, ``tournament`` or ``unrated game``."""
    id: int
    detail: str
    """For the operator: where it is played, or the tournament's name and state."""


class StillPlaying(StorageError):
    """The player still plays: forgetting them would leave a game or a tournament without
    them, so nothing was changed."""

    def __init__(self, user_id: UserId, blockers: Sequence[Blocker]) -> None:
        self.user_id = user_id
        self.blockers = tuple(blockers)
        listed = "\n".join(f"  {b.what} {b.id}: {b.detail}" for b in self.blockers)
        super().__init__(
            f"player {user_id} still plays, so nothing was changed:\n{listed}\n"
            "End these first: a moderator aborts a running game (/dvonn abort in its channel); "
            "the player withdraws from a tournament, or its organiser cancels it; a game not "
            "yet rated is rated by the bot's next housekeeping pass (start the bot, or wait a "
            "minute). Then run this again."
        )


class NotAPlayerId(StorageError):
    """The id given is not a Discord user's (zero, or a placeholder)."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(
            f"{user_id} is not a Discord user id (those are positive numbers): nothing was changed"
        )


class ForgetWrites(TournamentWrites):
    """Forgetting a player, in one write transaction."""

    async def forget_player(self, user_id: UserId, now: datetime) -> Forgotten:
        """Delete ``user_id``'s own rows and anonymise their shared records (see the module's
        docstring); what was done, by table. Raises :class:`StillPlaying` (listing why) if they
        still play, :class:`NotAPlayerId` for an id no Discord user has; the transaction must
        then be rolled back (the caller's ``async with`` does it), though nothing was written.
        """
        if user_id <= 0:
            raise NotAPlayerId(user_id)
        conn = self._conn
        # Their row first, locked as a delete locks it: another process's write that would
        # add a row of theirs (a move, an entry, a challenge) waits for this transaction.
        if conn.locks_rows:
            await conn.fetch_all(
                "SELECT user_id FROM players WHERE user_id = ? FOR UPDATE", (user_id,)
            )
        blockers = await self._blockers(user_id)
        if blockers:
            raise StillPlaying(user_id, blockers)
        deleted: dict[str, int] = {}
        anonymised: dict[str, int] = {}

        def count(into: dict[str, int], name: str, changed: int) -> None:
            if changed:
                into[name] = into.get(name, 0) + changed

        # Entries in tournaments not begun are taken back, as a player leaving does.
        entries = await conn.fetch_all(
            "SELECT p.tournament_id FROM tournament_players p "
            "JOIN tournaments t ON t.id = p.tournament_id WHERE p.user_id = ? AND t.status = ?",
            (user_id, TournamentStatus.OPEN.value),
        )
        for entry in entries:
            if await self.remove_entrant(entry["tournament_id"], user_id):
                count(deleted, "tournament_players", 1)
        # Challenges that started no game are theirs and their opponent's only: gone.
        count(
            deleted,
            "challenges",
            await conn.execute(
                "DELETE FROM challenges WHERE (challenger_id = ? OR opponent_id = ?) "
                "AND NOT EXISTS (SELECT 1 FROM games WHERE games.challenge_id = challenges.id)",
                (user_id, user_id),
            ),
        )
        for table, column in _OWN:
            count(
                deleted,
                table,
                await conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (user_id,)),
            )
        placeholder = None
        if await self._shared(user_id):
            placeholder = await self._new_placeholder(now)
            for table, column in _ANONYMISED:
                count(
                    anonymised,
                    f"{table}.{column}",
                    await conn.execute(
                        f"UPDATE {table} SET {column} = ? WHERE {column} = ?",
                        (placeholder, user_id),
                    ),
                )
            count(
                anonymised,
                "notifications.payload",
                await self._rewrite_payloads(user_id, placeholder),
            )
        count(
            deleted,
            "players",
            await conn.execute("DELETE FROM players WHERE user_id = ?", (user_id,)),
        )
        return Forgotten(user_id, placeholder, deleted, anonymised)

    async def _blockers(self, user_id: UserId) -> list[Blocker]:
        """What the player still plays (see :class:`StillPlaying`)."""
        conn = self._conn
        blockers = [
            Blocker("game", row["id"], f"{row['status']}, in channel {row['channel_id']}")
            for row in await conn.fetch_all(
                "SELECT id, status, channel_id FROM games WHERE (white_id = ? OR black_id = ?) "
                "AND status IN (?, ?) ORDER BY id",
                (user_id, user_id, GameStatus.ACTIVE.value, GameStatus.PENDING.value),
            )
        ]
        blockers += [
            Blocker(
                "tournament", row["id"], f"{row['name']!r}, running, in server {row['guild_id']}"
            )
            for row in await conn.fetch_all(
                "SELECT t.id, t.name, t.guild_id FROM tournaments t "
                "JOIN tournament_players p ON p.tournament_id = t.id "
                "WHERE p.user_id = ? AND p.withdrawn_at IS NULL AND t.status = ? ORDER BY t.id",
                (user_id, TournamentStatus.RUNNING.value),
            )
        ]
        # As bot.games.ratings counts a game: rated, in a server or the network, with a
        # result.
        blockers += [
            Blocker("unrated game", row["id"], "ended, its result not yet in the ratings")
            for row in await conn.fetch_all(
                "SELECT id FROM games WHERE (white_id = ? OR black_id = ?) AND status = ? "
                "AND rated = 1 AND rated_at IS NULL AND (guild_id IS NOT NULL OR network = 1) "
                "AND result IS NOT NULL AND end_reason <> ? ORDER BY id",
                (user_id, user_id, GameStatus.FINISHED.value, EndReason.ABORT.value),
            )
        ]
        return blockers

    async def _shared(self, user_id: UserId) -> bool:
        """Whether any shared record (or an announcement's data) still holds ``user_id``."""
        for table, column in _ANONYMISED:
            if await self._conn.fetch_all(
                f"SELECT 1 FROM {table} WHERE {column} = ? LIMIT 1", (user_id,)
            ):
                return True
        return bool(await self._payloads_naming(user_id))

    async def _new_placeholder(self, now: datetime) -> UserId:
        """A placeholder no player has yet, with its ``players`` row (the defaults)."""
        rows = await self._conn.fetch_all("SELECT min(user_id) FROM players")
        lowest = rows[0][0] if rows and rows[0][0] is not None else 0
        placeholder = min(int(lowest), 0) - 1
        # No ON CONFLICT: two forgets at once in two processes would pick the same one; the
        # second fails on the primary key and is rolled back whole, to be run again.
        await self._conn.execute(
            "INSERT INTO players (user_id, created_at) VALUES (?, ?)",
            (placeholder, time_to_text(now)),
        )
        return placeholder

    async def _payloads_naming(self, user_id: UserId) -> list[tuple[int, Any]]:
        """The announcements whose data holds ``user_id`` as a number: ``(id, data)``."""
        rows = await self._conn.fetch_all(
            "SELECT id, payload FROM notifications WHERE payload LIKE ? ORDER BY id",
            (f"%{user_id}%",),
        )
        found = []
        for row in rows:
            data = json.loads(row["payload"])
            if _holds(data, user_id):
                found.append((int(row["id"]), data))
        return found

    async def _rewrite_payloads(self, user_id: UserId, placeholder: UserId) -> int:
        """Put ``placeholder`` for ``user_id`` in announcements' data; how many changed.

        Any number equal to the id is the id: Discord's ids are unique among all its objects
        (users, channels, messages), and far larger than a game's number, a ply or a count."""
        changed = 0
        for notification_id, data in await self._payloads_naming(user_id):
            changed += await self._conn.execute(
                "UPDATE notifications SET payload = ? WHERE id = ?",
                (
                    json.dumps(_replaced(data, user_id, placeholder), separators=(",", ":")),
                    notification_id,
                ),
            )
        return changed


def _holds(data: Any, user_id: UserId) -> bool:
    """Whether the JSON value ``data`` holds the number ``user_id`` anywhere."""
    if isinstance(data, bool):
        return False
    if isinstance(data, int):
        return data == user_id
    if isinstance(data, dict):
        return any(_holds(value, user_id) for value in data.values())
    if isinstance(data, list):
        return any(_holds(value, user_id) for value in data)
    return False


def _replaced(data: Any, user_id: UserId, placeholder: UserId) -> Any:
    """The JSON value ``data`` with ``placeholder`` for every number equal to ``user_id``."""
    if isinstance(data, bool):
        return data
    if isinstance(data, int):
        return placeholder if data == user_id else data
    if isinstance(data, dict):
        return {key: _replaced(value, user_id, placeholder) for key, value in data.items()}
    if isinstance(data, list):
        return [_replaced(value, user_id, placeholder) for value in data]
    return data
