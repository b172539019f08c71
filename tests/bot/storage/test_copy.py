"""Copying a server's SQLite file into an empty PostgreSQL database (``bot.storage.copy``).

The source is made by playing real games through the game service (finished, resigned,
aborted, running, against the computer), with challenges, ratings, preferences, settings and
announcements; the copy is compared row by row, and read and played on by a service opened on
the PostgreSQL database. A target with rows, and a source whose record does not replay, are
refused and leave the target as it was.
"""

from __future__ import annotations

import contextlib
import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

import rules
from bot.games.core.timecontrol import LITTLE_GOLEM
from bot.games.lessons import book
from bot.games.lobby.setups import random_placements
from bot.games.service import GameService
from bot.storage import PostgresDatabase, SQLiteDatabase, StorageError, Store
from bot.storage.copy import CopyReport, Table, copy_database, plan_tables, read_tables
from bot.storage.models import BoardTheme, GuildSettings, Setup, TurnNotices
from rules import Colour
from tests.bot.clock import ManualClock
from tests.bot.games.test_random_setups import random_game
from tests.bot.games.test_service import start_game

pytestmark = pytest.mark.postgres

GUILD, OTHER_GUILD = 500, 501
ALICE, BOB, CAROL, DAVE = 11, 22, 33, 44
COMPUTER = 99
SCHEMA_TABLE = "dvonn_schema"


# --- the source: a server's file, played through the service ----------------------------------


@dataclass(frozen=True)
class Source:
    """A file made by :func:`make_source`, and what the tests need to know of it."""

    path: Path
    game_ids: tuple[int, ...]
    running: int
    """A game in its movement phase, still running."""
    placing: int
    """A game still in its placement phase (fewer than 49 pieces placed)."""
    banked: int
    """A game on a time bank, with moves."""
    randomly: int
    """A game of a random setup, resigned, whose rematch is offered (in channel 608)."""
    planned: tuple[str, ...] = ()
    """A line the waiting player planned in :attr:`placing`: the move expected, the reply..."""


async def play_randomly(
    service: GameService, game_id: int, plies: int | None, rng: random.Random
) -> None:
    """Play ``plies`` random legal moves in ``game_id`` (``None``: to the end)."""
    game = await service.get_game(game_id)
    played = 0
    while game.is_active and (plies is None or played < plies):
        choices = [m for m in rules.legal_moves(game.position) if m != rules.PASS]
        mover = game.to_move_id
        assert mover is not None and choices
        game = (await service.play(game_id, mover, str(rng.choice(choices)))).game
        played += 1


async def start(
    service: GameService, white: int, black: int, channel: int, *, guild: int | None = GUILD
) -> int:
    game = await start_game(service, white, black, channel=channel, guild=guild, clock_days=3)
    return game.id


async def make_source(path: Path) -> Source:
    clock = ManualClock()
    rng = random.Random(7)
    service = GameService(Store(await SQLiteDatabase.open(path)), clock=clock, rng=random.Random(7))
    try:
        await service.save_guild_settings(
            GuildSettings(GUILD, default_clock_days=3, use_threads=False, locale="fr")
        )
        await service.save_guild_settings(
            GuildSettings(
                OTHER_GUILD,
                default_bank=LITTLE_GOLEM.to_text(),
                channels=frozenset({700, 701}),
                theme=BoardTheme.LIGHT,
                puzzle_channel_id=702,
            )
        )
        finished = await start(service, ALICE, BOB, 600)
        await play_randomly(service, finished, None, rng)  # to the end: scored and rated
        resigned = await start(service, CAROL, ALICE, 601)
        await play_randomly(service, resigned, 55, rng)
        await service.resign(resigned, CAROL)
        aborted = await start(service, BOB, DAVE, 602)
        await play_randomly(service, aborted, 3, rng)
        await service.abort(aborted, BOB, moderator=True)
        running = await start(service, DAVE, CAROL, 700, guild=OTHER_GUILD)
        await play_randomly(service, running, 60, rng)
        placing = await start(service, BOB, CAROL, 603)
        await play_randomly(service, placing, 20, rng)
        waiting = await service.get_game(placing)  # its waiting player plans a line
        planned = tuple(rules.cell_name(c) for c in rules.empty_cells(waiting.position)[:4])
        assert waiting.to_move_id is not None
        await service.plans.plan(
            placing, waiting.opponent_of(waiting.to_move_id), " ".join(planned)
        )
        computer = await service.start_computer_game(
            guild_id=GUILD,
            channel_id=604,
            human_id=DAVE,
            computer_id=COMPUTER,
            level="easy",
            human_colour=Colour.WHITE,
        )
        await play_randomly(service, computer.game.id, 1, rng)
        dm = await start(service, ALICE, DAVE, 800, guild=None)  # outside any server
        await play_randomly(service, dm, 7, rng)
        banked = await start_game(
            service, BOB, ALICE, channel=607, clock=LITTLE_GOLEM
        )  # a time bank, whose banks each move and record keep
        clock.advance(hours=5)
        await play_randomly(service, banked.id, 9, rng)
        randomly = await random_game(service, channel=608)  # a random setup, its seed
        await service.resign(randomly.id, BOB)
        await service.offer_rematch(randomly.id, BOB, channel_id=608)  # a rematch offered
        fresh = await start(service, CAROL, DAVE, 606)  # no move yet
        await service.save_theme(CAROL, BoardTheme.LIGHT)  # her own, for what only she sees
        declined = await service.create_challenge(
            guild_id=GUILD, channel_id=605, challenger_id=ALICE, opponent_id=CAROL
        )
        await service.decline_challenge(declined.id, CAROL)
        await service.create_challenge(guild_id=GUILD, channel_id=605, challenger_id=BOB)
        await service.create_challenge(  # the server's default: a bank
            guild_id=OTHER_GUILD, channel_id=701, challenger_id=CAROL
        )
        await service.remember_locale(ALICE, "fr")
        await service.clocks.set_notify(BOB, False)
        await service.digests.choose(  # a daily digest: hour, time zone, when it is due next
            ALICE, turns=TurnNotices.DIGEST, hour=8, zone="Europe/Warsaw"
        )
        await service.clocks.start_vacation(CAROL, 3)
        # Puzzles: the day's posted in a server, solved from there (rated), one given up, one
        # running; the next day, the post counted and the new day's queued.
        assert len((await service.puzzles.queue_daily()).posts) == 1
        today = clock.now.date()
        await service.puzzles.daily_post_made(OTHER_GUILD, today, 123456789012345679)
        solved = await service.puzzles.start(ALICE, daily=today, guild_id=OTHER_GUILD)
        for step in range(0, len(solved.puzzle.line), 2):
            await service.puzzles.play(ALICE, solved.puzzle.line[step])
        failed = await service.puzzles.start(CAROL)
        await service.puzzles.give_up(CAROL, failed.attempt.id, 0)
        await service.puzzles.start(BOB)
        # Lessons: Carol finished one, then began another; the offer made to Dave.
        short = next(each for each in book.LESSONS if len(each.tasks) == 1)
        task = short.tasks[0]
        assert isinstance(task, book.MoveTask)
        await service.lessons.start(CAROL, short.key)
        right = next(m for m in rules.legal_moves(task.position) if book.judge(task, m).right)
        assert (await service.lessons.try_move(CAROL, right)).finished
        await service.lessons.start(CAROL, book.LESSONS[0].key)
        async with service.store.write() as tx:
            await tx.lock_learner(DAVE, service.now())
            assert await tx.mark_offered(DAVE, service.now())
        clock.advance(hours=1)
        service.outbox.sent(1, message_id=123456789012345678)  # one announcement delivered
        await service.outbox.flush()
        await service.ratings.rate_finished_games()
        clock.advance(days=1)
        assert len((await service.puzzles.queue_daily()).counts) == 1
    finally:
        await service.close()
    ids = (
        finished,
        resigned,
        aborted,
        running,
        placing,
        computer.game.id,
        dm,
        banked.id,
        randomly.id,
        fresh,
    )
    return Source(path, ids, running, placing, banked.id, randomly.id, planned)


# --- reading both sides, independently of the code under test ---------------------------------


def file_tables(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of the file and its rows, in a fixed order."""
    with contextlib.closing(sqlite3.connect(path)) as lite:
        names = [
            str(row[0])
            for row in lite.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            )
        ]
        return {name: sorted(lite.execute(f'SELECT * FROM "{name}"').fetchall()) for name in names}


def target_tables(url: str, columns_like: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """Every table of the target but the schema version's, and its rows (columns in the file's
    order when ``columns_like`` gives it), in a fixed order."""
    with psycopg.connect(url) as conn:
        names = [
            str(row[0])
            for row in conn.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            )
        ]
        tables: dict[str, Any] = {}
        for name in names:
            if name == SCHEMA_TABLE:
                continue
            picked = (
                sql.SQL(", ").join(map(sql.Identifier, columns_like[name]))
                if columns_like is not None and name in columns_like
                else sql.SQL("*")
            )
            query = sql.SQL("SELECT {} FROM {}").format(picked, sql.Identifier(name))
            tables[name] = sorted(conn.execute(query).fetchall())
        return tables


def file_columns(path: Path) -> dict[str, list[str]]:
    with contextlib.closing(sqlite3.connect(path)) as lite:
        return {
            table.name: list(table.columns)
            for table in read_tables(lite)  # names and order only
        }


def target_rows(url: str) -> dict[str, int]:
    return {name: len(rows) for name, rows in target_tables(url).items()}


async def copied(source: Source, url: str) -> tuple[CopyReport, list[str]]:
    lines: list[str] = []
    report = await copy_database(source.path, url, progress=lines.append)
    return report, lines


@contextlib.contextmanager
def edited(path: Path) -> Iterator[sqlite3.Connection]:
    """The file opened with plain sqlite3 for a test to spoil, committed at the end."""
    with contextlib.closing(sqlite3.connect(path)) as lite, lite:
        yield lite


# --- the copy ---------------------------------------------------------------------------------


async def test_the_copy_holds_every_row_of_every_table(tmp_path: Path, postgres_url: str) -> None:
    source = await make_source(tmp_path / "dvonn.sqlite3")
    before = file_tables(source.path)
    report, lines = await copied(source, postgres_url)

    assert set(report.rows) == set(before)
    assert report.rows == {name: len(rows) for name, rows in before.items()}
    for name in ("players", "guild_settings", "challenges", "games", "moves", "ratings"):
        assert report.rows[name] > 0, name
    assert report.rows["notifications"] > 0 and report.rows["guild_channels"] == 2
    assert report.rows["plans"] == 1  # a line planned, and kept private
    assert report.rows["puzzle_ratings"] == 3 and report.rows["puzzle_attempts"] == 3
    assert report.rows["daily_puzzles"] == 2 and report.rows["daily_puzzle_posts"] == 2
    assert report.rows["lesson_learners"] == 2 and report.rows["lesson_attempts"] == 2
    assert report.rows["lessons_done"] == 1
    assert report.games_replayed == len(source.game_ids) == report.rows["games"]
    assert f"moves: {report.rows['moves']} rows" in lines
    assert f"players: {report.rows['players']} rows" in lines

    # Row for row, column for column, every value the same (a challenge's game_id included).
    assert target_tables(postgres_url, file_columns(source.path)) == before
    assert file_tables(source.path) == before  # the source was only read


async def test_a_service_on_the_copy_reads_the_same_games_and_plays_on(
    tmp_path: Path, postgres_url: str
) -> None:
    source = await make_source(tmp_path / "dvonn.sqlite3")
    await copy_database(source.path, postgres_url)
    clock = ManualClock()
    clock.advance(hours=2)
    lite = await GameService.open(source.path, clock=clock)
    pg = await GameService.open(postgres_url, clock=clock, rng=random.Random(3))
    try:
        for game_id in source.game_ids:
            assert await pg.get_game(game_id) == await lite.get_game(game_id)
            assert await pg.record(game_id) == await lite.record(game_id)
        assert [len((await pg.record(game_id)).moves) == 0 for game_id in source.game_ids] == [
            *[False] * (len(source.game_ids) - 1),
            True,
        ]
        for user in (ALICE, BOB, CAROL, DAVE, COMPUTER):
            assert await pg.prefs(user) == await lite.prefs(user)
            assert await pg.active_games(user) == await lite.active_games(user)
            for guild in (GUILD, OTHER_GUILD):
                rating = await pg.ratings.rating(guild, user)
                assert rating == await lite.ratings.rating(guild, user)
        for guild in (GUILD, OTHER_GUILD):
            assert await pg.guild_settings(guild) == await lite.guild_settings(guild)
        assert await pg.ratings.rating(GUILD, ALICE) is not None  # her games were rated
        assert await pg.open_challenges(605) == await lite.open_challenges(605) != []
        assert (await pg.prefs(ALICE)).locale == "fr" and not (await pg.prefs(BOB)).notify
        banked = await pg.record(source.banked)  # the banks, and each ply's, were copied
        assert banked.game.bank == LITTLE_GOLEM.to_text() and banked.game.white_bank is not None
        assert all(m.white_bank is not None and m.black_bank is not None for m in banked.moves)
        assert (await pg.guild_settings(OTHER_GUILD)).default_bank == LITTLE_GOLEM.to_text()
        assert (await pg.guild_settings(OTHER_GUILD)).theme is BoardTheme.LIGHT  # the themes
        assert (await pg.guild_settings(GUILD)).theme is None
        assert (await pg.prefs(CAROL)).theme is BoardTheme.LIGHT
        for user in (ALICE, BOB, CAROL):  # puzzle ratings, tries, the daily posts
            assert await pg.puzzles.rating(user) == await lite.puzzles.rating(user)
        day = (await lite.store.uncounted_daily_posts(date(2100, 1, 1)))[0].day
        assert await pg.puzzles.daily_post(OTHER_GUILD, day) == await lite.puzzles.daily_post(
            OTHER_GUILD, day
        )
        counted = await pg.puzzles.daily_post(OTHER_GUILD, day - timedelta(days=1))
        assert counted is not None and (counted.solvers, counted.tried) == (1, 1)
        running = await pg.puzzles.current(BOB)  # his running try goes on
        assert running == await lite.puzzles.current(BOB)
        line = running.puzzle.line
        moved = await pg.puzzles.play(BOB, line[0])
        assert moved.right and moved.attempt.played[0] == str(line[0])
        again = await pg.puzzles.start(CAROL, puzzle_id=running.puzzle.id)  # a new id, after
        assert again.attempt.id > running.attempt.id
        lesson = await pg.lessons.current(CAROL)  # her lesson goes on, her progress kept
        assert lesson == await lite.lessons.current(CAROL)
        assert await pg.store.lesson_offered(DAVE) and not await pg.store.lesson_offered(CAROL)
        replayed = await pg.lessons.start(CAROL, book.LESSONS[1].key)  # a new id, after
        assert replayed.attempt.id > lesson.attempt.id
        randomly = await pg.record(source.randomly)  # the seed, and what it placed
        assert randomly.game.setup_seed is not None
        assert [m.move for m in randomly.moves[:49]] == [
            r.move for r in random_placements(randomly.game.setup_seed)
        ]
        (rematch,) = await pg.open_challenges(608)  # its setup, and the game it plays again
        assert rematch.setup is Setup.RANDOM and rematch.rematch_of == source.randomly

        # The line planned on the file answers its move on the copy.
        placing = await pg.get_game(source.placing)
        assert placing.to_move_id is not None
        expected, reply, *rest = source.planned
        outcome = await pg.play(placing.id, placing.to_move_id, expected)
        assert [m.text for m in outcome.replies] == [reply]
        planner = placing.opponent_of(placing.to_move_id)
        assert [line.text for line in (await pg.plans.lines(placing.id, planner))[1]] == [
            " ".join(rest)
        ]

        # The running game goes on, and its move is kept.
        game = await pg.get_game(source.running)
        move = rules.legal_moves(game.position)[0]
        assert game.to_move_id is not None
        outcome = await pg.play(game.id, game.to_move_id, str(move))
        record = await pg.record(game.id)
        assert record.game.ply == game.ply + 1 == len(record.moves)
        assert record.moves[-1].move == move
        assert rules.replay([m.move for m in record.moves])[-1] == outcome.position

        # New rows get new ids, after the copied ones.
        challenge = await pg.create_challenge(
            guild_id=GUILD, channel_id=900, challenger_id=ALICE, opponent_id=BOB
        )
        started = await pg.accept_challenge(challenge.id, BOB)
        copied_rows = file_tables(source.path)
        assert challenge.id > max(row[0] for row in copied_rows["challenges"])
        assert started.game.id > max(source.game_ids)
        assert started.announcement > max(row[0] for row in copied_rows["notifications"])
        assert (await pg.get_challenge(challenge.id)).game_id == started.game.id
    finally:
        await lite.close()
        await pg.close()


# --- refusals ---------------------------------------------------------------------------------


async def test_a_second_copy_into_the_same_database_is_refused(
    tmp_path: Path, postgres_url: str
) -> None:
    source = await make_source(tmp_path / "dvonn.sqlite3")
    report = await copy_database(source.path, postgres_url)
    before = target_tables(postgres_url)
    with pytest.raises(StorageError, match="is not empty") as refusal:
        await copy_database(source.path, postgres_url)
    assert "players" in str(refusal.value) and "games" in str(refusal.value)
    assert target_tables(postgres_url) == before
    assert target_rows(postgres_url) == report.rows


async def test_a_target_with_one_player_is_refused_and_left_as_it_was(
    tmp_path: Path, postgres_url: str
) -> None:
    source = await make_source(tmp_path / "dvonn.sqlite3")
    service = await GameService.open(postgres_url)
    try:
        await service.remember_locale(12345, "ko")
    finally:
        await service.close()
    before = target_tables(postgres_url)
    with pytest.raises(StorageError, match=r"not empty \(rows in players\)"):
        await copy_database(source.path, postgres_url)
    assert target_tables(postgres_url) == before
    assert sum(len(rows) for rows in before.values()) == 1


def _other_placement(moves: list[str]) -> str:
    """A legal last move for this placement record other than the one it has."""
    before = rules.replay([rules.parse_move(m) for m in moves[:-1]])[-1]
    last = rules.parse_move(moves[-1])
    return str(next(m for m in rules.legal_moves(before) if m not in (last, rules.PASS)))


@pytest.mark.parametrize("spoil", ["other move", "lost move", "stored position", "bad move"])
async def test_a_record_that_does_not_replay_is_refused_and_nothing_is_written(
    tmp_path: Path, postgres_url: str, spoil: str
) -> None:
    source = await make_source(tmp_path / "dvonn.sqlite3")
    game_id = source.placing
    with edited(source.path) as lite:
        moves = [
            str(row[0])
            for row in lite.execute(
                "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            )
        ]
        last = len(moves) - 1
        if spoil == "other move":  # a legal move, but not the one that led to the position
            lite.execute(
                "UPDATE moves SET move = ? WHERE game_id = ? AND ply = ?",
                (_other_placement(moves), game_id, last),
            )
        elif spoil == "lost move":  # the record is one move short of the game's ply
            lite.execute("DELETE FROM moves WHERE game_id = ? AND ply = ?", (game_id, last))
        elif spoil == "stored position":
            position = rules.replay([rules.parse_move(m) for m in moves[:-1]])[-1]
            lite.execute(
                "UPDATE games SET position = ? WHERE id = ?", (position.to_text(), game_id)
            )
        else:  # a cell taken twice: the rules refuse the record
            lite.execute(
                "UPDATE moves SET move = ? WHERE game_id = ? AND ply = ?",
                (moves[0], game_id, last),
            )
    with pytest.raises(StorageError, match=f"game {game_id}\\b"):
        await copy_database(source.path, postgres_url)
    assert set(target_rows(postgres_url).values()) == {0}


async def test_a_missing_file_is_refused_and_not_created(tmp_path: Path, postgres_url: str) -> None:
    missing = tmp_path / "nowhere" / "dvonn.sqlite3"
    with pytest.raises(StorageError, match="no SQLite database"):
        await copy_database(missing, postgres_url)
    assert not missing.exists() and not missing.parent.exists()


async def test_tables_that_differ_are_refused(tmp_path: Path, postgres_url: str) -> None:
    source = await make_source(tmp_path / "dvonn.sqlite3")
    with edited(source.path) as lite:
        lite.execute("ALTER TABLE players ADD COLUMN nickname TEXT")
    with pytest.raises(StorageError, match=r"players has other columns.*PostgreSQL: nickname"):
        await copy_database(source.path, postgres_url)
    with edited(source.path) as lite:
        lite.execute("ALTER TABLE players DROP COLUMN nickname")
        lite.execute("CREATE TABLE extra (id INTEGER PRIMARY KEY)")
    with pytest.raises(StorageError, match="missing in PostgreSQL: extra"):
        await copy_database(source.path, postgres_url)
    assert set(target_rows(postgres_url).values()) == {0}


# --- tables the code does not name ------------------------------------------------------------


async def test_a_table_added_by_a_later_migration_is_copied_in_order(
    tmp_path: Path, postgres_url: str
) -> None:
    """As a migration 0006 would: a new table, with foreign keys (one of them to itself)."""
    source = await make_source(tmp_path / "dvonn.sqlite3")
    with edited(source.path) as lite:
        lite.execute(
            "CREATE TABLE annotations (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL "
            "REFERENCES games (id), reply_to INTEGER REFERENCES annotations (id), note TEXT)"
        )
        lite.executemany(
            "INSERT INTO annotations VALUES (?, ?, ?, ?)",
            [(1, source.running, 3, "first"), (2, source.placing, None, "é"), (3, 1, 1, None)],
        )
    target = await PostgresDatabase.open(postgres_url)
    try:
        async with target.transaction() as conn:
            await conn.execute(
                "CREATE TABLE annotations (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY "
                "KEY, game_id BIGINT NOT NULL REFERENCES games (id), reply_to BIGINT "
                "REFERENCES annotations (id), note TEXT)"
            )
    finally:
        await target.close()
    before = file_tables(source.path)
    report, lines = await copied(source, postgres_url)
    assert report.rows["annotations"] == 3
    assert "annotations: reply_to set on 2 rows" in lines
    assert target_tables(postgres_url, file_columns(source.path)) == before
    with psycopg.connect(postgres_url) as conn:
        row = conn.execute(
            "INSERT INTO annotations (game_id) VALUES (%s) RETURNING id", (source.running,)
        ).fetchone()
        assert row is not None and row[0] == 4


# --- the order of the tables ------------------------------------------------------------------


def _table(name: str, *refs: tuple[str, str], not_null: tuple[str, ...] = ()) -> Table:
    columns = ("id", *(column for column, _ in refs))
    return Table(
        name,
        columns,
        ("id",),
        frozenset(c for c in columns if c != "id" and c not in not_null),
        refs,
    )


def _check_order(tables: list[Table]) -> dict[str, tuple[str, ...]]:
    plan = plan_tables(tables)
    assert sorted(t.name for t in plan.tables) == sorted(t.name for t in tables)
    place = {t.name: i for i, t in enumerate(plan.tables)}
    for table in tables:
        for column, ref in table.references:
            if column not in plan.deferred.get(table.name, ()):
                assert place[ref] < place[table.name], (table.name, column, ref)
    return plan.deferred


async def test_the_schemas_one_cycle_is_broken_at_challenges_game_id(tmp_path: Path) -> None:
    await (await SQLiteDatabase.open(tmp_path / "dvonn.sqlite3")).close()
    with contextlib.closing(sqlite3.connect(tmp_path / "dvonn.sqlite3")) as lite:
        tables = read_tables(lite)
    # A league's divisions name the league (a row of the same table): written after the rows.
    assert _check_order(tables) == {"challenges": ("game_id",), "tournaments": ("league_id",)}
    order = [t.name for t in plan_tables(tables).tables]
    assert order.index("players") < order.index("challenges") < order.index("games")
    assert order.index("games") < min(order.index("moves"), order.index("notifications"))


def test_any_cycle_is_broken_at_a_nullable_column() -> None:
    tables = [
        _table("a", ("b_id", "b"), not_null=("b_id",)),
        _table("b", ("c_id", "c"), ("d_id", "d"), not_null=("c_id", "d_id")),
        _table("c", ("a_id", "a")),
        _table("d"),
        _table("e", ("a_id", "a"), ("e_id", "e"), not_null=("a_id",)),
    ]
    assert _check_order(tables) == {"c": ("a_id",), "e": ("e_id",)}


def test_a_cycle_of_not_null_keys_is_refused() -> None:
    tables = [
        _table("a", ("b_id", "b"), not_null=("b_id",)),
        _table("b", ("a_id", "a"), not_null=("a_id",)),
    ]
    with pytest.raises(StorageError, match="no order"):
        plan_tables(tables)
