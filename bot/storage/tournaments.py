"""Tournaments and leagues: the ``tournaments``, ``tournament_players`` and
``tournament_games`` tables (migration 11), and ``season_places`` (migration 21: a league
season's divisions still to make).

A large league's season end is planned outside any write transaction (computed from the store's
reads): :meth:`TournamentReads.seasons_over` finds the seasons to plan, and
:meth:`TournamentWrites.season_mark`, read before the plan is computed and again in the
transaction that writes it, says nothing it was computed from changed meanwhile.

A tournament's rows change together, in the transaction of whatever changed it (a join, a
game's end, a round's pairing): its row is read first with :meth:`TournamentWrites.tournament`,
which on PostgreSQL takes its row lock, so two processes ending the last two games of a round
at once take turns and the second sees the first's result (one next round, never two).
:meth:`TournamentWrites.save_tournament` writes it back against the version it read.

:class:`TournamentWrites` is the part of :class:`~bot.storage.store.Writer` that writes them,
:class:`TournamentReads` the part of :class:`~bot.storage.store.Store` that reads them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from bot.storage.errors import StorageError
from bot.storage.interface import Reader, Row
from bot.storage.models import (
    ChannelId,
    Entrant,
    GameStatus,
    GuildId,
    Result,
    Tournament,
    TournamentFormat,
    TournamentGame,
    TournamentStatus,
    UserId,
    optional_time,
    text_to_time,
    time_to_text,
)
from bot.storage.sql_helpers import StorePart, WriterPart, locking, optional_text


class TournamentChanged(StorageError):
    """A tournament was written against a version that is no longer its current one."""

    def __init__(self, tournament_id: int, expected_version: int) -> None:
        self.tournament_id = tournament_id
        self.expected_version = expected_version
        super().__init__(f"tournament {tournament_id} is no longer at version {expected_version}")


@dataclass(frozen=True, slots=True)
class NewTournament:
    """A tournament to insert (open, at version 0; the database gives it its id)."""

    guild_id: GuildId
    channel_id: ChannelId
    name: str
    format: TournamentFormat
    organiser_id: UserId
    created_at: datetime
    players_own: bool = False
    clock: str | None = None
    rated: bool = True
    rounds: int | None = None
    max_players: int | None = None
    starts_at: datetime | None = None
    role_id: int | None = None
    division_size: int | None = None
    moves_down: int | None = None
    league_id: int | None = None
    season: int | None = None
    division: int | None = None
    thread_id: ChannelId | None = None
    status: TournamentStatus = TournamentStatus.OPEN


_COLUMNS: Final = (
    "id, guild_id, channel_id, thread_id, name, format, organiser_id, players_own, clock, "
    "rated, rounds, max_players, starts_at, role_id, division_size, moves_down, league_id, "
    "season, division, status, round, standings_message_id, created_at, started_at, "
    "finished_at, version"
)
_PLAYER_COLUMNS: Final = "tournament_id, user_id, seed, division, joined_at, withdrawn_at"
_GAME_COLUMNS: Final = (
    "tournament_id, round, board, leg, number, white_id, black_id, game_id, result, "
    "score_white, score_black, forfeit"
)
_BYE: Final = "bye"
"""``tournament_games.result`` of a bye."""
_VOID: Final = "void"
"""``tournament_games.result`` of a game aborted: it counts for nobody."""


def _tournament(row: Row) -> Tournament:
    return Tournament(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        name=row["name"],
        format=TournamentFormat(row["format"]),
        organiser_id=row["organiser_id"],
        players_own=bool(row["players_own"]),
        clock=row["clock"],
        rated=bool(row["rated"]),
        rounds=row["rounds"],
        max_players=row["max_players"],
        starts_at=optional_time(row["starts_at"]),
        role_id=row["role_id"],
        division_size=row["division_size"],
        moves_down=row["moves_down"],
        league_id=row["league_id"],
        season=row["season"],
        division=row["division"],
        status=TournamentStatus(row["status"]),
        round=row["round"],
        standings_message_id=row["standings_message_id"],
        created_at=text_to_time(row["created_at"]),
        started_at=optional_time(row["started_at"]),
        finished_at=optional_time(row["finished_at"]),
        version=row["version"],
    )


def _entrant(row: Row) -> Entrant:
    return Entrant(
        tournament_id=row["tournament_id"],
        user_id=row["user_id"],
        seed=row["seed"],
        division=row["division"],
        joined_at=text_to_time(row["joined_at"]),
        withdrawn_at=optional_time(row["withdrawn_at"]),
    )


def _pairing(row: Row) -> TournamentGame:
    result = row["result"]
    score = (
        None
        if row["score_white"] is None or row["score_black"] is None
        else (row["score_white"], row["score_black"])
    )
    return TournamentGame(
        tournament_id=row["tournament_id"],
        round=row["round"],
        board=row["board"],
        leg=row["leg"],
        number=row["number"],
        white_id=row["white_id"],
        black_id=row["black_id"],
        game_id=row["game_id"],
        result=None if result in (None, _BYE, _VOID) else Result(result),
        score=score,
        forfeit=bool(row["forfeit"]),
        void=result == _VOID,
    )


def _result_text(pairing: TournamentGame) -> str | None:
    if pairing.is_bye:
        return _BYE
    if pairing.void:
        return _VOID
    return None if pairing.result is None else pairing.result.value


def _pairing_params(pairing: TournamentGame) -> tuple[Any, ...]:
    score_white, score_black = pairing.score if pairing.score is not None else (None, None)
    result = _result_text(pairing)
    return (
        pairing.tournament_id,
        pairing.round,
        pairing.board,
        pairing.leg,
        pairing.number,
        pairing.white_id,
        pairing.black_id,
        pairing.game_id,
        result,
        score_white,
        score_black,
        int(pairing.forfeit),
    )


_SELECT: Final = f"SELECT {_COLUMNS} FROM tournaments"


def _prefixed(alias: str, columns: str) -> str:
    """``columns`` (a comma-separated list) each named as ``alias``'s."""
    return ", ".join(f"{alias}.{c.strip()}" for c in columns.split(","))


_SELECT_PLAYERS: Final = f"SELECT {_PLAYER_COLUMNS} FROM tournament_players"
_SELECT_GAMES: Final = f"SELECT {_GAME_COLUMNS} FROM tournament_games"
_GAMES_ORDER: Final = " ORDER BY round, board, leg"


async def _divisions(reader: Reader, league_id: int, season: int) -> list[Tournament]:
    rows = await reader.fetch_all(
        f"{_SELECT} WHERE league_id = ? AND season = ? ORDER BY division", (league_id, season)
    )
    return [_tournament(row) for row in rows]


async def _season_entrants(reader: Reader, league_id: int, season: int) -> dict[int, list[Entrant]]:
    rows = await reader.fetch_all(
        f"SELECT {_prefixed('p', _PLAYER_COLUMNS)} FROM tournament_players p "
        "JOIN tournaments t ON t.id = p.tournament_id WHERE t.league_id = ? AND t.season = ? "
        "ORDER BY p.tournament_id, p.seed",
        (league_id, season),
    )
    found: dict[int, list[Entrant]] = {}
    for row in rows:
        entrant = _entrant(row)
        found.setdefault(entrant.tournament_id, []).append(entrant)
    return found


async def _season_pairings(
    reader: Reader, league_id: int, season: int
) -> dict[int, list[TournamentGame]]:
    rows = await reader.fetch_all(
        f"SELECT {_prefixed('g', _GAME_COLUMNS)} FROM tournament_games g "
        "JOIN tournaments t ON t.id = g.tournament_id WHERE t.league_id = ? AND t.season = ? "
        "ORDER BY g.tournament_id, g.round, g.board, g.leg",
        (league_id, season),
    )
    found: dict[int, list[TournamentGame]] = {}
    for row in rows:
        pairing = _pairing(row)
        found.setdefault(pairing.tournament_id, []).append(pairing)
    return found


_MARK_MODULUS: Final = 1_000_003
"""User ids (Discord snowflakes) are summed modulo this prime in :func:`_season_mark`, so that
a sum of ten thousand stays an integer of either database."""


async def _season_mark(reader: Reader, league_id: int, season: int) -> tuple[int, ...]:
    """Everything a league season's end reads, summed up in one query, each part a count or a
    sum that any change of what it sums changes: the league's row (its version: a save of it,
    the next season begun by another process), its season's divisions not finished, its plan's
    places (of any season), its entrants (who entered, who withdrew), the season's results
    (their kind weighted by the pairing's number, its forfeit too), and for the network
    championship those of its entrants who are network members and the blocks among them. The
    same mark read before and after the next season's plan is computed says the plan is still
    the one to write."""
    rows = await reader.fetch_all(
        "SELECT "
        "(SELECT version FROM tournaments WHERE id = ?), "
        "(SELECT count(*) FROM tournaments WHERE league_id = ? AND season = ? AND status <> ?), "
        "(SELECT count(*) FROM season_places WHERE league_id = ?), "
        "(SELECT count(*) FROM tournament_players WHERE tournament_id = ?), "
        "(SELECT count(withdrawn_at) FROM tournament_players WHERE tournament_id = ?), "
        "(SELECT coalesce(sum(user_id % ?), 0) FROM tournament_players "
        "WHERE tournament_id = ? AND withdrawn_at IS NULL), "
        "(SELECT count(*) FROM tournament_games g JOIN tournaments t ON t.id = g.tournament_id "
        "WHERE t.league_id = ? AND t.season = ? AND g.result IS NOT NULL), "
        "(SELECT coalesce(sum(g.number * (CASE g.result WHEN ? THEN 1 WHEN ? THEN 2 "
        "WHEN ? THEN 3 WHEN ? THEN 4 WHEN ? THEN 5 ELSE 0 END) + g.forfeit), 0) "
        "FROM tournament_games g JOIN tournaments t ON t.id = g.tournament_id "
        "WHERE t.league_id = ? AND t.season = ?), "
        "(SELECT count(*) FROM tournament_players p JOIN network_members m "
        "ON m.user_id = p.user_id WHERE p.tournament_id = ? AND m.left_at IS NULL), "
        "(SELECT coalesce(sum(p.user_id % ?), 0) FROM tournament_players p "
        "JOIN network_members m ON m.user_id = p.user_id "
        "WHERE p.tournament_id = ? AND m.left_at IS NULL), "
        "(SELECT count(*) FROM network_blocks b WHERE EXISTS (SELECT 1 FROM tournament_players p "
        "WHERE p.tournament_id = ? AND p.user_id = b.blocker_id) "
        "AND EXISTS (SELECT 1 FROM tournament_players p "
        "WHERE p.tournament_id = ? AND p.user_id = b.blocked_id))",
        (
            league_id,
            league_id,
            season,
            TournamentStatus.FINISHED.value,
            league_id,
            league_id,
            league_id,
            _MARK_MODULUS,
            league_id,
            league_id,
            season,
            Result.WHITE.value,
            Result.BLACK.value,
            Result.DRAW.value,
            _BYE,
            _VOID,
            league_id,
            season,
            league_id,
            _MARK_MODULUS,
            league_id,
            league_id,
            league_id,
        ),
    )
    return tuple(0 if value is None else int(value) for value in rows[0])


class TournamentWrites(WriterPart):
    """Writing tournaments, their players and their pairings, in one write transaction."""

    async def insert_tournament(self, new: NewTournament) -> Tournament:
        rows = await self._conn.fetch_all(
            "INSERT INTO tournaments (guild_id, channel_id, thread_id, name, format, "
            "organiser_id, players_own, clock, rated, rounds, max_players, starts_at, role_id, "
            "division_size, moves_down, league_id, season, division, status, round, created_at, "
            "version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 0) "
            "RETURNING id",
            (
                new.guild_id,
                new.channel_id,
                new.thread_id,
                new.name,
                new.format.value,
                new.organiser_id,
                int(new.players_own),
                new.clock,
                int(new.rated),
                new.rounds,
                new.max_players,
                optional_text(new.starts_at),
                new.role_id,
                new.division_size,
                new.moves_down,
                new.league_id,
                new.season,
                new.division,
                new.status.value,
                time_to_text(new.created_at),
            ),
        )
        created = await self.tournament(int(rows[0][0]))
        assert created is not None
        return created

    async def tournament(self, tournament_id: int) -> Tournament | None:
        """A tournament, its row locked (PostgreSQL) until the transaction ends."""
        rows = await self._conn.fetch_all(
            locking(self._conn, f"{_SELECT} WHERE id = ?"), (tournament_id,)
        )
        return _tournament(rows[0]) if rows else None

    async def lock_games_first(self, tournament_id: int, user_id: UserId | None = None) -> None:
        """Before a change that ends a tournament's games (a cancellation, a withdrawal) reads
        the tournament: lock its games still to play (``user_id``'s only, if given; a league's:
        those of its divisions), by id, then a league's running divisions, by id.

        That is the order a game's end takes them: its game, then its tournament (a division),
        then its league. A change that took the tournament first and then its games would wait
        for a game's end that waits for it, and PostgreSQL would end one of the two as a
        deadlock (a player's command failing). Nothing to do on SQLite, whose write
        transactions take turns."""
        if not self._conn.locks_rows:
            return
        sql = (
            "SELECT g.id FROM games g JOIN tournament_games p ON p.game_id = g.id "
            "WHERE p.tournament_id IN (SELECT id FROM tournaments WHERE id = ? OR league_id = ?) "
            "AND g.status IN (?, ?)"
        )
        params: list[Any] = [
            tournament_id,
            tournament_id,
            GameStatus.ACTIVE.value,
            GameStatus.PENDING.value,
        ]
        if user_id is not None:
            sql += " AND (p.white_id = ? OR p.black_id = ?)"
            params += [user_id, user_id]
        await self._conn.fetch_all(f"{sql} ORDER BY g.id FOR NO KEY UPDATE OF g", tuple(params))
        await self._conn.fetch_all(
            "SELECT id FROM tournaments WHERE league_id = ? AND status = ? "
            "ORDER BY id FOR NO KEY UPDATE",
            (tournament_id, TournamentStatus.RUNNING.value),
        )

    async def save_tournament(self, tournament: Tournament) -> Tournament:
        """Write a tournament's changeable state, if it is still at the version it was read
        at (else :class:`TournamentChanged`); returns it at its new version."""
        changed = await self._conn.execute(
            "UPDATE tournaments SET thread_id = ?, status = ?, round = ?, season = ?, "
            "standings_message_id = ?, started_at = ?, finished_at = ?, starts_at = ?, "
            "version = version + 1 WHERE id = ? AND version = ?",
            (
                tournament.thread_id,
                tournament.status.value,
                tournament.round,
                tournament.season,
                tournament.standings_message_id,
                optional_text(tournament.started_at),
                optional_text(tournament.finished_at),
                optional_text(tournament.starts_at),
                tournament.id,
                tournament.version,
            ),
        )
        if changed != 1:
            raise TournamentChanged(tournament.id, tournament.version)
        saved = await self.tournament(tournament.id)
        assert saved is not None
        return saved

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """A tournament's players, by seed (the withdrawn too)."""
        rows = await self._conn.fetch_all(
            f"{_SELECT_PLAYERS} WHERE tournament_id = ? ORDER BY seed", (tournament_id,)
        )
        return [_entrant(row) for row in rows]

    async def add_entrant(self, entrant: Entrant) -> None:
        await self._conn.execute(
            f"INSERT INTO tournament_players ({_PLAYER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
            (
                entrant.tournament_id,
                entrant.user_id,
                entrant.seed,
                entrant.division,
                time_to_text(entrant.joined_at),
                optional_text(entrant.withdrawn_at),
            ),
        )

    async def remove_entrant(self, tournament_id: int, user_id: UserId) -> bool:
        """Take a player out of a tournament not yet begun; the seeds after theirs close up."""
        rows = await self._conn.fetch_all(
            "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ? RETURNING seed",
            (tournament_id, user_id),
        )
        if not rows:
            return False
        await self._conn.execute(
            "UPDATE tournament_players SET seed = seed - 1 WHERE tournament_id = ? AND seed > ?",
            (tournament_id, rows[0][0]),
        )
        return True

    async def save_entrant(self, entrant: Entrant) -> None:
        """Write a player's seed, division and withdrawal."""
        await self._conn.execute(
            "UPDATE tournament_players SET seed = ?, division = ?, withdrawn_at = ? "
            "WHERE tournament_id = ? AND user_id = ?",
            (
                entrant.seed,
                entrant.division,
                optional_text(entrant.withdrawn_at),
                entrant.tournament_id,
                entrant.user_id,
            ),
        )

    async def pairings(self, tournament_id: int) -> list[TournamentGame]:
        """Every pairing of a tournament, by round, board and leg."""
        rows = await self._conn.fetch_all(
            f"{_SELECT_GAMES} WHERE tournament_id = ?{_GAMES_ORDER}", (tournament_id,)
        )
        return [_pairing(row) for row in rows]

    async def pairing_of_game(self, game_id: int) -> TournamentGame | None:
        """The pairing a game of the bot plays, if it is a tournament's."""
        rows = await self._conn.fetch_all(f"{_SELECT_GAMES} WHERE game_id = ?", (game_id,))
        return _pairing(rows[0]) if rows else None

    async def insert_pairings(self, pairings: Sequence[TournamentGame]) -> None:
        await self._conn.execute_many(
            f"INSERT INTO tournament_games ({_GAME_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [_pairing_params(p) for p in pairings],
        )

    async def save_pairing(self, pairing: TournamentGame) -> None:
        """Write a pairing's game, result, score and forfeit."""
        score_white, score_black = pairing.score if pairing.score is not None else (None, None)
        await self._conn.execute(
            "UPDATE tournament_games SET game_id = ?, result = ?, score_white = ?, "
            "score_black = ?, forfeit = ? "
            "WHERE tournament_id = ? AND round = ? AND board = ? AND leg = ?",
            (
                pairing.game_id,
                _result_text(pairing),
                score_white,
                score_black,
                int(pairing.forfeit),
                pairing.tournament_id,
                pairing.round,
                pairing.board,
                pairing.leg,
            ),
        )

    async def divisions(self, league_id: int, season: int) -> list[Tournament]:
        """A league season's divisions, the top first."""
        return await _divisions(self._conn, league_id, season)

    async def entrants_among(
        self, tournament_id: int, user_ids: Collection[UserId]
    ) -> list[Entrant]:
        """Those of ``user_ids`` in a tournament (the withdrawn too), by seed."""
        if not user_ids:
            return []
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._conn.fetch_all(
            f"{_SELECT_PLAYERS} WHERE tournament_id = ? AND user_id IN ({marks}) ORDER BY seed",
            (tournament_id, *user_ids),
        )
        return [_entrant(row) for row in rows]

    async def season_entrants(self, league_id: int, season: int) -> dict[int, list[Entrant]]:
        """The players of a league season's divisions, by division (its id), each by seed: one
        query for a thousand divisions."""
        return await _season_entrants(self._conn, league_id, season)

    async def season_pairings(self, league_id: int, season: int) -> dict[int, list[TournamentGame]]:
        """The pairings of a league season's divisions, by division (its id), each by round,
        board and leg."""
        return await _season_pairings(self._conn, league_id, season)

    async def season_mark(self, league_id: int, season: int) -> tuple[int, ...]:
        """What a league season's end reads, summed up (:func:`_season_mark`): read again in
        the transaction that writes the next season's plan, to see that nothing changed since
        the plan was computed."""
        return await _season_mark(self._conn, league_id, season)

    async def entrant_ratings(self, tournament_id: int, guild_id: GuildId) -> dict[UserId, float]:
        """The ratings in ``guild_id`` of a tournament's players who have one (read, not
        locked: a ladder of the moment)."""
        rows = await self._conn.fetch_all(
            "SELECT r.user_id, r.rating FROM ratings r JOIN tournament_players p "
            "ON p.user_id = r.user_id WHERE p.tournament_id = ? AND r.guild_id = ?",
            (tournament_id, guild_id),
        )
        return {int(row[0]): float(row[1]) for row in rows}

    async def place_season(
        self, league_id: int, season: int, places: Sequence[Sequence[UserId]]
    ) -> None:
        """Write a league season's plan (migration 21): ``places[i]`` plays in division
        ``i + 1``, best placed first; its divisions are made from it by
        :meth:`season_places` and :meth:`division_made`."""
        await self._conn.execute_many(
            "INSERT INTO season_places (league_id, season, division, seat, user_id) "
            "VALUES (?, ?, ?, ?, ?)",
            [
                (league_id, season, number, seat, user_id)
                for number, members in enumerate(places, start=1)
                for seat, user_id in enumerate(members, start=1)
            ],
        )

    async def season_places(
        self, league_id: int, season: int, *, limit: int | None = None
    ) -> dict[int, list[UserId]]:
        """A league season's divisions not made yet (the first ``limit`` of them, the top
        first): each one's players, best placed first."""
        params: tuple[Any, ...] = (league_id, season)
        sql = "SELECT division, user_id FROM season_places WHERE league_id = ? AND season = ?"
        if limit is not None:
            sql += (
                " AND division IN (SELECT DISTINCT division FROM season_places "
                "WHERE league_id = ? AND season = ? ORDER BY division LIMIT ?)"
            )
            params += (league_id, season, limit)
        rows = await self._conn.fetch_all(f"{sql} ORDER BY division, seat", params)
        places: dict[int, list[UserId]] = {}
        for row in rows:
            places.setdefault(int(row[0]), []).append(int(row[1]))
        return places

    async def division_made(self, league_id: int, season: int, division: int) -> None:
        """A division of a season's plan is made: its places go."""
        await self._conn.execute(
            "DELETE FROM season_places WHERE league_id = ? AND season = ? AND division = ?",
            (league_id, season, division),
        )

    async def drop_season_places(self, league_id: int) -> int:
        """A league's plan no longer to make (it was cancelled or ended): every place goes."""
        return await self._conn.execute(
            "DELETE FROM season_places WHERE league_id = ?", (league_id,)
        )

    async def tournaments_made_by(self, user_id: UserId, since: datetime) -> int:
        """How many tournaments of their own a player made since ``since``."""
        rows = await self._conn.fetch_all(
            "SELECT count(*) FROM tournaments WHERE organiser_id = ? AND players_own = 1 "
            "AND created_at >= ?",
            (user_id, time_to_text(since)),
        )
        return int(rows[0][0])

    async def begin_pending_game(
        self,
        game_id: int,
        channel_id: ChannelId,
        parent_channel_id: ChannelId | None,
        deadline_at: datetime | None,
        now: datetime,
    ) -> bool:
        """A tournament's game, paired and waiting, begins in its thread (its clock starts).
        ``False`` if it is not waiting (begun already, or ended by a withdrawal)."""
        changed = await self._conn.execute(
            "UPDATE games SET status = ?, channel_id = ?, parent_channel_id = ?, "
            "deadline_at = ?, updated_at = ?, version = version + 1 "
            "WHERE id = ? AND status = ?",
            (
                GameStatus.ACTIVE.value,
                channel_id,
                parent_channel_id,
                optional_text(deadline_at),
                time_to_text(now),
                game_id,
                GameStatus.PENDING.value,
            ),
        )
        return changed == 1


class TournamentReads(StorePart):
    """Reading tournaments, their players and their pairings."""

    async def tournament(self, tournament_id: int) -> Tournament | None:
        row = await self.db.fetch_one(f"{_SELECT} WHERE id = ?", (tournament_id,))
        return None if row is None else _tournament(row)

    async def tournaments_in(
        self, guild_id: GuildId, statuses: Sequence[TournamentStatus]
    ) -> list[Tournament]:
        """A server's tournaments and leagues (not a league's divisions) in ``statuses``,
        the newest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self.db.fetch_all(
            f"{_SELECT} WHERE guild_id = ? AND league_id IS NULL AND status IN ({marks}) "
            "ORDER BY id DESC",
            (guild_id, *(s.value for s in statuses)),
        )
        return [_tournament(row) for row in rows]

    async def league_divisions(self, league_id: int) -> list[Tournament]:
        """Every division of every season of a league, the latest season first, then the top."""
        rows = await self.db.fetch_all(
            f"{_SELECT} WHERE league_id = ? ORDER BY season DESC, division", (league_id,)
        )
        return [_tournament(row) for row in rows]

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        rows = await self.db.fetch_all(
            f"{_SELECT_PLAYERS} WHERE tournament_id = ? ORDER BY seed", (tournament_id,)
        )
        return [_entrant(row) for row in rows]

    async def pairings(self, tournament_id: int) -> list[TournamentGame]:
        rows = await self.db.fetch_all(
            f"{_SELECT_GAMES} WHERE tournament_id = ?{_GAMES_ORDER}", (tournament_id,)
        )
        return [_pairing(row) for row in rows]

    async def pairing_of_game(self, game_id: int) -> TournamentGame | None:
        row = await self.db.fetch_one(f"{_SELECT_GAMES} WHERE game_id = ?", (game_id,))
        return None if row is None else _pairing(row)

    async def tournaments_due(self, now: datetime) -> list[int]:
        """Open tournaments whose start time has come."""
        rows = await self.db.fetch_all(
            "SELECT id FROM tournaments WHERE status = ? AND starts_at IS NOT NULL "
            "AND starts_at <= ? ORDER BY id",
            (TournamentStatus.OPEN.value, time_to_text(now)),
        )
        return [int(row[0]) for row in rows]

    async def seasons_over(self) -> list[tuple[int, int]]:
        """The running leagues whose season is over and has no next one yet (league, season):
        its divisions made and every one finished, no places of it left to make. Only a league
        of more than :data:`~bot.games.tournaments.rounds.MADE_AT_ONCE` divisions stays so
        after its last game's end (a smaller one's next season begins in that transaction),
        until the housekeeping job plans its next season."""
        rows = await self.db.fetch_all(
            "SELECT l.id, l.season FROM tournaments l WHERE l.league_id IS NULL "
            "AND l.format = ? AND l.status = ? AND l.season IS NOT NULL "
            "AND EXISTS (SELECT 1 FROM tournaments d WHERE d.league_id = l.id "
            "AND d.season = l.season) "
            "AND NOT EXISTS (SELECT 1 FROM tournaments d WHERE d.league_id = l.id "
            "AND d.season = l.season AND d.status <> ?) "
            "AND NOT EXISTS (SELECT 1 FROM season_places p WHERE p.league_id = l.id) "
            "ORDER BY l.id",
            (
                TournamentFormat.LEAGUE.value,
                TournamentStatus.RUNNING.value,
                TournamentStatus.FINISHED.value,
            ),
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def divisions(self, league_id: int, season: int) -> list[Tournament]:
        """A league season's divisions, the top first (read, not locked)."""
        return await _divisions(self.db, league_id, season)

    async def season_entrants(self, league_id: int, season: int) -> dict[int, list[Entrant]]:
        """The players of a league season's divisions, by division (its id), each by seed."""
        return await _season_entrants(self.db, league_id, season)

    async def season_pairings(self, league_id: int, season: int) -> dict[int, list[TournamentGame]]:
        """The pairings of a league season's divisions, by division (its id)."""
        return await _season_pairings(self.db, league_id, season)

    async def season_mark(self, league_id: int, season: int) -> tuple[int, ...]:
        """:meth:`TournamentWrites.season_mark`, read outside any write transaction."""
        return await _season_mark(self.db, league_id, season)

    async def seasons_being_made(self) -> list[tuple[int, int]]:
        """The league seasons with divisions still to make (league, season), oldest first."""
        rows = await self.db.fetch_all(
            "SELECT DISTINCT league_id, season FROM season_places ORDER BY league_id, season"
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def season_places(self, league_id: int, season: int) -> dict[int, list[UserId]]:
        """A league season's divisions not made yet: each one's players, best placed first."""
        rows = await self.db.fetch_all(
            "SELECT division, user_id FROM season_places WHERE league_id = ? AND season = ? "
            "ORDER BY division, seat",
            (league_id, season),
        )
        places: dict[int, list[UserId]] = {}
        for row in rows:
            places.setdefault(int(row[0]), []).append(int(row[1]))
        return places

    async def tournaments_of(self, user_id: UserId, guild_id: GuildId) -> list[Tournament]:
        """The open or running tournaments (and leagues) of a server a player is in."""
        rows = await self.db.fetch_all(
            f"SELECT {', '.join('t.' + c.strip() for c in _COLUMNS.split(','))} "
            "FROM tournaments t JOIN tournament_players p ON p.tournament_id = t.id "
            "WHERE p.user_id = ? AND t.guild_id = ? AND t.status IN (?, ?) "
            "AND p.withdrawn_at IS NULL ORDER BY t.id DESC",
            (user_id, guild_id, TournamentStatus.OPEN.value, TournamentStatus.RUNNING.value),
        )
        return [_tournament(row) for row in rows]
