"""Moving a server's data from its SQLite file to an empty PostgreSQL database.

:func:`copy_database` copies every table of the SQLite schema, whatever the migrations made of
it, into the same-named tables of a PostgreSQL database at the same schema version, in one
PostgreSQL transaction: either the whole copy is committed, checked, or nothing is.

* Both databases are first opened by their backends, which migrates each to this code's schema
  version; then the file is read with plain :mod:`sqlite3`, read-only, inside one read
  transaction (one consistent state), and written with psycopg's ``COPY``.
* Tables are written in an order that satisfies their foreign keys, computed from the file's
  ``PRAGMA foreign_key_list``. A cycle of foreign keys (``challenges.game_id`` -> ``games`` ->
  ``games.challenge_id`` -> ``challenges``) is broken at one nullable column: that column is
  written as NULL with its table, and set once every table is written. Of the tables on a
  cycle, the one with the fewest such columns is chosen, ties by name: ``challenges``.
* Rows are written in the order of their table's primary key, so that each game's moves arrive
  ply after ply, as the ``moves_in_order`` trigger requires.
* The identity sequences (``challenges.id``, ``games.id``, ``notifications.id``) are set past
  the copied ids, so the bot's next rows get new ones.
* Before the commit the copy is checked: every table holds as many rows as in the file, and
  every game's moves, replayed through the rules, lead to the position stored for it, its
  ``ply`` the number of its moves. Any difference rolls the whole copy back.

The bot must be stopped meanwhile (on both databases): the copy is the file as it was when the
read began, and whatever the bot wrote to the file afterwards would be lost. A target that
already holds rows in any table is refused, so a copy cannot be run twice over.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import psycopg
from psycopg import sql
from psycopg.rows import TupleRow

import rules
from bot.storage.errors import StorageError
from bot.storage.postgres import PostgresDatabase, redacted
from bot.storage.sqlite import SQLiteDatabase

SCHEMA_TABLE: Final = "dvonn_schema"
"""PostgreSQL's table of the schema version (:mod:`bot.storage.postgres`), not copied: the
migrations wrote it when the target was opened."""
LOCK_TIMEOUT: Final = "10s"
"""How long the copy waits for the target's tables (a bot still running on it holds them)."""
FETCH_ROWS: Final = 2000
"""Rows read from the file at a time."""

PgConnection = psycopg.AsyncConnection[TupleRow]


@dataclass(frozen=True)
class CopyReport:
    """What :func:`copy_database` copied."""

    rows: dict[str, int]
    """Each table's rows copied (checked equal in the file and in the target)."""
    games_replayed: int
    """Games whose record replayed to their stored position (all of them)."""


@dataclass(frozen=True)
class Table:
    """A table of the SQLite file, as its pragmas describe it."""

    name: str
    columns: tuple[str, ...]
    """In the file's order."""
    key: tuple[str, ...]
    """The primary key's columns in key order; empty for a table without one."""
    nullable: frozenset[str]
    """Columns that may hold NULL (neither ``NOT NULL`` nor part of the primary key)."""
    references: tuple[tuple[str, str], ...]
    """``(column, table it refers to)`` for each column of each foreign key."""


@dataclass(frozen=True)
class Plan:
    """The tables in the order to write them, and the columns whose values wait until every
    table is written (the ones that close a cycle of foreign keys)."""

    tables: tuple[Table, ...]
    deferred: dict[str, tuple[str, ...]]


async def copy_database(
    source: Path, url: str, *, progress: Callable[[str], None] | None = None
) -> CopyReport:
    """Copy the dvonn-bot database in the SQLite file ``source`` into the empty PostgreSQL
    database at ``url``; see the module's docstring. The bot must be stopped meanwhile.

    Both are migrated to the current schema version first. Raises :class:`StorageError` (with
    a message for the operator) if the file is missing, the target holds rows already, the two
    schemas differ, or the copy does not check out; the target then holds no copied row.
    ``progress`` gets a short line for each step.
    """
    say = progress if progress is not None else _silent
    source = Path(source)
    where = redacted(url)
    if not source.is_file():
        raise StorageError(f"there is no SQLite database at {source}; nothing was copied")
    lite_db = await SQLiteDatabase.open(source)  # migrates the file to the current version
    await lite_db.close()
    target = await PostgresDatabase.open(url)  # migrates the target; connects or says why not
    await target.close()
    with _read_only(source) as lite:
        lite.execute("BEGIN")  # one read transaction: every query below sees one state
        try:
            plan = plan_tables(read_tables(lite))
            try:
                conn = await psycopg.AsyncConnection.connect(url, autocommit=True)
            except psycopg.Error as error:
                raise StorageError(f"cannot connect to PostgreSQL at {where}: {error}") from error
            async with conn:
                try:
                    async with conn.transaction():
                        report = await _copy(lite, conn, plan, where, say)
                except psycopg.Error as error:
                    raise StorageError(
                        f"copying {source} to {where} failed, and nothing was written: {error}"
                    ) from error
        finally:
            lite.execute("ROLLBACK")
    say(f"committed: {sum(report.rows.values())} rows in {len(report.rows)} tables")
    return report


def _silent(line: str) -> None:
    """The default ``progress``: says nothing."""


@contextlib.contextmanager
def _read_only(source: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the file, in autocommit mode (transactions are explicit)."""
    uri = source.resolve().as_uri() + "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as error:
        raise StorageError(f"cannot read {source}: {error}") from error
    try:
        yield conn
    finally:
        conn.close()


# --- the file's schema -------------------------------------------------------------------------


def quote(name: str) -> str:
    """An SQL identifier, quoted.

    >>> quote('games'), quote('a"b')
    ('"games"', '"a""b"')
    """
    return '"' + name.replace('"', '""') + '"'


def read_tables(lite: sqlite3.Connection) -> list[Table]:
    """Every table of the file but SQLite's own (``sqlite_*``), by name."""
    names = [
        str(row[0])
        for row in lite.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
        )
    ]
    tables: list[Table] = []
    for name in names:
        info = lite.execute(
            'SELECT name, "notnull", pk FROM pragma_table_info(?) ORDER BY cid', (name,)
        ).fetchall()
        keys = sorted((int(pk), str(column)) for column, _, pk in info if pk)
        foreign = lite.execute(
            'SELECT "from", "table" FROM pragma_foreign_key_list(?) ORDER BY id, seq', (name,)
        ).fetchall()
        tables.append(
            Table(
                name=name,
                columns=tuple(str(row[0]) for row in info),
                key=tuple(column for _, column in keys),
                nullable=frozenset(str(c) for c, notnull, pk in info if not notnull and not pk),
                references=tuple((str(column), str(table)) for column, table in foreign),
            )
        )
    return tables


def plan_tables(tables: Sequence[Table]) -> Plan:
    """The order to write ``tables`` in so that every foreign key finds its row (a topological
    order), and the columns that must wait because they close a cycle.

    Tables that are ready are taken by name. When only cycles are left, one table on a cycle
    has its columns that refer back into the cycle deferred: of the tables whose such columns
    are all nullable, the one with the fewest, then the first by name.
    """
    by_name = {t.name: t for t in tables}
    needs = {
        t.name: {ref for _, ref in t.references if ref in by_name and ref != t.name} for t in tables
    }
    deferred: dict[str, tuple[str, ...]] = {}
    for t in tables:  # a table that refers to itself: its rows may refer to later rows
        own = tuple(column for column, ref in t.references if ref == t.name)
        if own:
            _check_nullable(t, own)
            deferred[t.name] = own
    order: list[str] = []
    left = set(by_name)
    while left:
        ready = sorted(name for name in left if not needs[name] & left)
        if ready:
            order.extend(ready)
            left.difference_update(ready)
            continue
        choices: list[tuple[int, str, tuple[str, ...], frozenset[str]]] = []
        for name in sorted(left):
            cycle = frozenset(_reaching(name, needs, left) & _reached(name, needs, left))
            closing = tuple(column for column, ref in by_name[name].references if ref in cycle)
            if closing and all(column in by_name[name].nullable for column in closing):
                choices.append((len(closing), name, closing, cycle))
        if not choices:
            stuck = ", ".join(sorted(left))
            raise StorageError(
                f"the tables {stuck} refer to each other through NOT NULL foreign keys: "
                f"there is no order to copy them in"
            )
        _, name, closing, cycle = min(choices)
        deferred[name] = (*deferred.get(name, ()), *closing)
        needs[name] = needs[name] - cycle
    return Plan(tuple(by_name[name] for name in order), deferred)


def _check_nullable(table: Table, columns: Sequence[str]) -> None:
    if not all(column in table.nullable for column in columns):
        raise StorageError(
            f"the table {table.name} refers to itself through a NOT NULL column: "
            f"there is no order to copy its rows in"
        )


def _reached(start: str, needs: dict[str, set[str]], within: set[str]) -> set[str]:
    """The tables ``start`` depends on, directly or not, among ``within``."""
    seen: set[str] = set()
    stack = [start]
    while stack:
        for ref in needs[stack.pop()] & within:
            if ref not in seen:
                seen.add(ref)
                stack.append(ref)
    return seen


def _reaching(start: str, needs: dict[str, set[str]], within: set[str]) -> set[str]:
    """The tables that depend on ``start``, directly or not, among ``within``."""
    return {name for name in within if start in _reached(name, needs, within)}


# --- the copy ----------------------------------------------------------------------------------


async def _copy(
    lite: sqlite3.Connection,
    conn: PgConnection,
    plan: Plan,
    where: str,
    say: Callable[[str], None],
) -> CopyReport:
    """Everything inside the target's one transaction."""
    started = time.perf_counter()
    await _check_target(conn, plan, where)
    rows: dict[str, int] = {}
    for table in plan.tables:
        rows[table.name] = await _copy_table(lite, conn, table, plan.deferred.get(table.name, ()))
        say(f"{table.name}: {rows[table.name]} rows")
    for table in plan.tables:
        columns = plan.deferred.get(table.name, ())
        if columns:
            updated = await _fill_deferred(lite, conn, table, columns)
            say(f"{table.name}: {', '.join(columns)} set on {updated} rows")
    await _reset_sequences(conn, plan.tables)
    await _check_counts(lite, conn, rows)
    say(f"row counts checked in {len(rows)} tables")
    replayed = await _check_games(conn)
    say(f"games: {replayed} records replayed to their positions")
    say(f"copied and checked in {time.perf_counter() - started:.1f} s; committing")
    return CopyReport(rows=rows, games_replayed=replayed)


async def _fetch(conn: PgConnection, query: str | sql.Composed, *params: Any) -> list[TupleRow]:
    cursor = await conn.execute(query, params)
    return await cursor.fetchall()


async def _check_target(conn: PgConnection, plan: Plan, where: str) -> None:
    """Lock the target's tables against writers, and refuse a target whose tables differ from
    the file's or hold rows."""
    found = {
        str(row[0])
        for row in await _fetch(
            conn,
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
        )
    }
    found.discard(SCHEMA_TABLE)
    wanted = {t.name for t in plan.tables}
    if found != wanted:
        missing, extra = sorted(wanted - found), sorted(found - wanted)
        raise StorageError(
            f"the tables of {where} are not those of the SQLite file (missing in PostgreSQL: "
            f"{', '.join(missing) or 'none'}; only in PostgreSQL: {', '.join(extra) or 'none'}); "
            f"are both at the same schema version? Nothing was copied."
        )
    for table in plan.tables:
        columns = {
            str(row[0])
            for row in await _fetch(
                conn,
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = %s",
                table.name,
            )
        }
        if columns != set(table.columns):
            missing, extra = (
                sorted(set(table.columns) - columns),
                sorted(columns - set(table.columns)),
            )
            raise StorageError(
                f"the table {table.name} has other columns in {where} than in the SQLite file "
                f"(missing in PostgreSQL: {', '.join(missing) or 'none'}; only in PostgreSQL: "
                f"{', '.join(extra) or 'none'}). Nothing was copied."
            )
    await conn.execute(sql.SQL("SET LOCAL lock_timeout = {}").format(sql.Literal(LOCK_TIMEOUT)))
    try:
        await conn.execute(
            sql.SQL("LOCK TABLE {} IN SHARE ROW EXCLUSIVE MODE").format(
                sql.SQL(", ").join(sql.Identifier(t.name) for t in plan.tables)
            )
        )
    except psycopg.errors.LockNotAvailable as error:
        raise StorageError(
            f"the tables of {where} are in use: stop every bot on it before copying"
        ) from error
    holding = [
        t.name
        for t in plan.tables
        if (await _fetch(conn, sql.SQL("SELECT EXISTS (SELECT FROM {})").format(_ident(t))))[0][0]
    ]
    if holding:
        raise StorageError(
            f"{where} is not empty (rows in {', '.join(holding)}): a copy goes only into a "
            f"database without games, players or settings, and this one was not changed. "
            f"Name a new database, or drop and recreate this one if its data may go."
        )


def _ident(table: Table) -> sql.Identifier:
    return sql.Identifier(table.name)


def _order_by(table: Table) -> str:
    """The file's rows in key order (moves: by game, then ply)."""
    return ", ".join(map(quote, table.key)) if table.key else "rowid"


def _batches(cursor: sqlite3.Cursor) -> Iterator[list[Any]]:
    while batch := cursor.fetchmany(FETCH_ROWS):
        yield batch


async def _copy_table(
    lite: sqlite3.Connection, conn: PgConnection, table: Table, deferred: Sequence[str]
) -> int:
    """Write one table's rows (``deferred`` columns as NULL) with ``COPY``; how many."""
    selected = ", ".join("NULL" if c in deferred else quote(c) for c in table.columns)
    cursor = lite.execute(f"SELECT {selected} FROM {quote(table.name)} ORDER BY {_order_by(table)}")
    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        _ident(table), sql.SQL(", ").join(map(sql.Identifier, table.columns))
    )
    count = 0
    async with conn.cursor().copy(statement) as copy:
        for batch in _batches(cursor):
            for row in batch:
                await copy.write_row(row)
            count += len(batch)
    return count


async def _fill_deferred(
    lite: sqlite3.Connection, conn: PgConnection, table: Table, columns: Sequence[str]
) -> int:
    """Set the ``columns`` written as NULL, once every table is written: the file's values go
    to a temporary table (of the same column types), then into the table by primary key."""
    if not table.key:
        raise StorageError(
            f"the table {table.name} has no primary key, so its column {columns[0]} cannot be "
            f"set after its rows are written"
        )
    temporary = sql.Identifier(f"dvonn_copy_{table.name}")
    picked = [*table.key, *columns]
    names = sql.SQL(", ").join(map(sql.Identifier, picked))
    await conn.execute(
        sql.SQL(
            "CREATE TEMPORARY TABLE {} ON COMMIT DROP AS SELECT {} FROM {} WITH NO DATA"
        ).format(temporary, names, _ident(table))
    )
    any_set = " OR ".join(f"{quote(c)} IS NOT NULL" for c in columns)
    cursor = lite.execute(
        f"SELECT {', '.join(map(quote, picked))} FROM {quote(table.name)} WHERE {any_set}"
    )
    written = 0
    async with conn.cursor().copy(
        sql.SQL("COPY {} ({}) FROM STDIN").format(temporary, names)
    ) as copy:
        for batch in _batches(cursor):
            for row in batch:
                await copy.write_row(row)
            written += len(batch)
    update = sql.SQL("UPDATE {table} AS t SET {sets} FROM {tmp} AS d WHERE {match}").format(
        table=_ident(table),
        sets=sql.SQL(", ").join(
            sql.SQL("{} = d.{}").format(sql.Identifier(c), sql.Identifier(c)) for c in columns
        ),
        tmp=temporary,
        match=sql.SQL(" AND ").join(
            sql.SQL("t.{} = d.{}").format(sql.Identifier(k), sql.Identifier(k)) for k in table.key
        ),
    )
    updated = (await conn.execute(update)).rowcount
    if updated != written:
        raise StorageError(
            f"the table {table.name}: {written} rows to complete, but {updated} were found"
        )
    return updated


async def _reset_sequences(conn: PgConnection, tables: Sequence[Table]) -> None:
    """Move every identity (or serial) column's sequence past the ids copied into it."""
    for table in tables:
        for column in table.columns:
            sequence = (
                await _fetch(
                    conn, "SELECT pg_get_serial_sequence(quote_ident(%s), %s)", table.name, column
                )
            )[0][0]
            if sequence is None:
                continue
            await conn.execute(
                sql.SQL("SELECT setval(%s, max({column})) FROM {table} HAVING count(*) > 0").format(
                    column=sql.Identifier(column), table=_ident(table)
                ),
                (sequence,),
            )


async def _check_counts(lite: sqlite3.Connection, conn: PgConnection, rows: dict[str, int]) -> None:
    """Every table holds as many rows in the target as in the file."""
    for name, copied in rows.items():
        in_file = int(lite.execute(f"SELECT count(*) FROM {quote(name)}").fetchone()[0])
        counted = await _fetch(
            conn, sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(name))
        )
        in_target = int(counted[0][0])
        if not in_file == copied == in_target:
            raise StorageError(
                f"the table {name} has {in_file} rows in the file but {in_target} in the copy "
                f"({copied} written)"
            )


async def _check_games(conn: PgConnection) -> int:
    """Replay every game's moves, as the target holds them, through the rules: each must lead
    to the game's stored position, its ``ply`` the number of its moves. Returns how many.

    The moves are read a batch at a time (a cursor on the server), in game order, and each
    game is checked once its moves are in."""
    games = {
        int(game_id): (str(position), int(ply))
        for game_id, position, ply in await _fetch(conn, "SELECT id, position, ply FROM games")
    }
    unchecked = set(games)
    current: int | None = None
    moves: list[str] = []

    def check(game_id: int, moves: Sequence[str]) -> None:
        if game_id not in games:
            raise StorageError(f"moves of game {game_id}, which is not in games")
        _check_game(game_id, *games[game_id], moves)
        unchecked.discard(game_id)

    cursor = conn.cursor(name="dvonn_copy_moves")
    cursor.itersize = FETCH_ROWS
    await cursor.execute("SELECT game_id, move FROM moves ORDER BY game_id, ply")
    async for game_id, move in cursor:
        if game_id != current:
            if current is not None:
                check(current, moves)
            current, moves = int(game_id), []
        moves.append(str(move))
    await cursor.close()
    if current is not None:
        check(current, moves)
    for game_id in sorted(unchecked):  # games without a move
        _check_game(game_id, *games[game_id], ())
    return len(games)


def _check_game(game_id: int, text: str, ply: int, moves: Sequence[str]) -> None:
    """Refuse a game whose record is not as long as its ply, or does not replay to its
    position."""
    if ply != len(moves):
        raise StorageError(
            f"game {game_id} is at ply {ply} but has {len(moves)} moves; nothing was copied"
        )
    try:
        stored = rules.Position.from_text(text)
        replayed = rules.replay([rules.parse_move(m) for m in moves])[-1]
    except ValueError as error:
        raise StorageError(
            f"game {game_id}'s record does not replay ({error}); nothing was copied"
        ) from error
    if replayed != stored:
        raise StorageError(
            f"game {game_id}'s moves do not lead to its stored position (replayed: "
            f"{replayed.to_text()}, stored: {text}); nothing was copied"
        )


__all__ = ["CopyReport", "Plan", "Table", "copy_database", "plan_tables", "read_tables"]
