"""The storage layer on a real file: pragmas, transactions, constraints, optimistic saves."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import psycopg
import pytest

import rules
from bot.storage import (
    BoardTheme,
    ChannelTaken,
    Game,
    GameStatus,
    GuildSettings,
    NewGame,
    NewMove,
    Result,
    SQLiteDatabase,
    StorageError,
    Store,
    VersionConflict,
    open_database,
)
from bot.storage.models import text_to_time, time_to_text

NOW = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)
ALICE, BOB = 11, 22


INTEGRITY = (sqlite3.IntegrityError, psycopg.errors.IntegrityError)
"""What either backend raises when a constraint refuses a write."""


@pytest.fixture
async def store(database_target: str) -> AsyncIterator[Store]:
    """A store on each backend in turn."""
    store = Store(await open_database(database_target))
    yield store
    await store.close()


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[Store]:
    """A store on an SQLite file, for what only SQLite has (pragmas, read-only readers)."""
    store = Store(await SQLiteDatabase.open(tmp_path / "dvonn.sqlite3"))
    yield store
    await store.close()


async def _new_game(store: Store, channel: int = 1) -> Game:
    async with store.write() as tx:
        await tx.ensure_players([ALICE, BOB], NOW)
        return await tx.insert_game(
            NewGame(
                guild_id=5,
                channel_id=channel,
                parent_channel_id=None,
                challenge_id=None,
                white_id=ALICE,
                black_id=BOB,
                position=rules.new_game(),
                clock_days=None,
                deadline_at=None,
                created_at=NOW,
            )
        )


def _after(game: Game, *moves: str) -> tuple[Game, list[NewMove]]:
    """The game after ``moves`` and the rows recording them."""
    position = game.position
    rows = []
    for text in moves:
        colour = position.turn
        rows.append(
            NewMove(position.ply, colour, game.player(colour), rules.parse_move(text), False, NOW)
        )
        position = rules.play(position, rules.parse_move(text))
    return dataclasses.replace(game, position=position, updated_at=NOW), rows


# --- connections ---------------------------------------------------------------------------------


async def test_every_connection_has_the_pragmas(sqlite_store: Store) -> None:
    db = sqlite_store.db
    assert isinstance(db, SQLiteDatabase)
    assert str(await db.pragma("journal_mode")).lower() == "wal"
    assert await db.pragma("synchronous") == 2  # FULL
    assert await db.pragma("foreign_keys") == 1
    assert await db.pragma("busy_timeout") == 5000
    for _ in range(4):  # go round the reader pool
        async with db.reader() as conn:
            values = [
                conn.fetch_all(f"PRAGMA {name}")[0][0]
                for name in (
                    "journal_mode",
                    "synchronous",
                    "foreign_keys",
                    "busy_timeout",
                    "query_only",
                )
            ]
        assert values == ["wal", 2, 1, 5000, 1]


async def test_synchronous_normal_is_a_choice(tmp_path: Path) -> None:
    db = await SQLiteDatabase.open(tmp_path / "x.sqlite3", synchronous="NORMAL")
    assert await db.pragma("synchronous") == 1
    await db.close()
    with pytest.raises(ValueError, match="FULL or NORMAL"):
        await SQLiteDatabase.open(tmp_path / "y.sqlite3", synchronous="OFF")  # type: ignore[arg-type]


async def test_a_memory_database_is_refused() -> None:
    with pytest.raises(ValueError, match="must be a file"):
        await SQLiteDatabase.open(":memory:")


async def test_an_old_sqlite_is_refused_clearly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 31, 1))
    monkeypatch.setattr(sqlite3, "sqlite_version", "3.31.1")
    with pytest.raises(StorageError, match=r"needs SQLite 3\.35\.0 or newer .* uses SQLite 3\.31"):
        await SQLiteDatabase.open(tmp_path / "dvonn.sqlite3")
    assert not (tmp_path / "dvonn.sqlite3").exists()


async def test_readers_cannot_write(sqlite_store: Store) -> None:
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        await sqlite_store.db.fetch_all("DELETE FROM games")


# --- transactions --------------------------------------------------------------------------------


async def test_a_transaction_that_raises_leaves_nothing(store: Store) -> None:
    with pytest.raises(RuntimeError):
        async with store.write() as tx:
            await tx.ensure_players([ALICE, BOB], NOW)
            raise RuntimeError("changed my mind")
    assert await store.db.fetch_all("SELECT * FROM players") == []
    game = await _new_game(store)  # and the writer is usable again
    assert game.id == 1


async def test_a_cancelled_transaction_leaves_nothing(store: Store) -> None:
    started = asyncio.Event()

    async def slow() -> None:
        async with store.write() as tx:
            await tx.ensure_players([ALICE], NOW)
            started.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(slow())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await store.db.fetch_all("SELECT * FROM players") == []


async def test_giving_up_while_waiting_for_the_lock_leaves_the_writer_usable(
    tmp_path: Path,
) -> None:
    """Cancelled while BEGIN IMMEDIATE waits for another process's lock: once the BEGIN gets
    through it must be rolled back, not left open for the next transaction to trip on."""
    path = tmp_path / "dvonn.sqlite3"
    mine, other = Store(await SQLiteDatabase.open(path)), Store(await SQLiteDatabase.open(path))
    try:
        holding, release = asyncio.Event(), asyncio.Event()

        async def hold_the_lock() -> None:
            async with other.write() as tx:
                await tx.ensure_players([BOB], NOW)
                holding.set()
                await release.wait()

        holder = asyncio.create_task(hold_the_lock())
        await holding.wait()

        async def write_mine() -> None:
            async with mine.write() as tx:
                await tx.ensure_players([ALICE], NOW)

        waiting = asyncio.create_task(write_mine())
        await asyncio.sleep(0.05)  # its BEGIN IMMEDIATE now waits in the busy handler
        waiting.cancel()  # (it finishes once its BEGIN has got through and been rolled back)
        release.set()
        await holder
        with pytest.raises(asyncio.CancelledError):
            await waiting
        await write_mine()  # would fail with "cannot start a transaction within a transaction"
        users = await mine.db.fetch_all("SELECT user_id FROM players ORDER BY user_id")
        assert [row[0] for row in users] == [ALICE, BOB]
    finally:
        await mine.close()
        await other.close()


@pytest.mark.slow
async def test_writes_from_two_connections_wait_for_each_other(tmp_path: Path) -> None:
    path = tmp_path / "dvonn.sqlite3"
    first, second = Store(await SQLiteDatabase.open(path)), Store(await SQLiteDatabase.open(path))
    try:

        async def add(store: Store, user: int) -> None:
            async with store.write() as tx:
                await tx.ensure_players([user], NOW)
                await asyncio.sleep(0.01)  # hold the write lock a moment

        await asyncio.gather(*(add(first if i % 2 else second, i) for i in range(10)))
        assert len(await first.db.fetch_all("SELECT * FROM players")) == 10
    finally:
        await first.close()
        await second.close()


# --- the schema guards the data -------------------------------------------------------------------


async def test_a_record_cannot_have_gaps_or_overlaps(store: Store) -> None:
    game = await _new_game(store)
    _, rows = _after(game, "E3", "F3", "G3")
    for bad in ([rows[1]], [rows[0], rows[2]], [rows[0], rows[0]]):
        with pytest.raises(INTEGRITY, match="without gaps"):
            async with store.write() as tx:
                await tx.append_moves(game.id, bad)
    async with store.write() as tx:
        await tx.append_moves(game.id, rows)
    assert [m.ply for m in await store.moves(game.id)] == [0, 1, 2]


async def test_moves_need_a_game_and_a_player(store: Store) -> None:
    game = await _new_game(store)
    _, rows = _after(game, "E3")
    with pytest.raises(INTEGRITY, match=r"(?i)foreign key"):
        async with store.write() as tx:
            await tx.append_moves(game.id + 1, rows)
    stranger = dataclasses.replace(rows[0], player_id=999)
    with pytest.raises(INTEGRITY, match=r"(?i)foreign key"):
        async with store.write() as tx:
            await tx.append_moves(game.id, [stranger])


async def test_only_one_active_game_per_channel(store: Store) -> None:
    await _new_game(store, channel=1)
    with pytest.raises(ChannelTaken):  # the unique index refuses it, on either backend
        await _new_game(store, channel=1)
    await _new_game(store, channel=2)


# --- saving games -------------------------------------------------------------------------------


async def test_positions_and_moves_are_stored_as_text(store: Store) -> None:
    game = await _new_game(store)
    after, rows = _after(game, "E3", "D2")
    saved = await store.save_game(after, game.version, rows)
    assert saved.version == game.version + 1 and saved.position == after.position
    (row,) = await store.db.fetch_all("SELECT position, version, ply FROM games")
    assert tuple(row) == (after.position.to_text(), 1, 2)
    assert rules.Position.from_text(row[0]) == after.position
    moves = await store.db.fetch_all("SELECT ply, colour, player_id, move FROM moves")
    assert [tuple(m) for m in moves] == [(0, "W", ALICE, "E3"), (1, "B", BOB, "D2")]
    assert await store.game(game.id) == saved


async def test_a_stale_save_writes_nothing(store: Store) -> None:
    game = await _new_game(store)
    first, first_rows = _after(game, "E3")
    await store.save_game(first, game.version, first_rows)
    other, other_rows = _after(game, "A1")  # checked against version 0 too
    with pytest.raises(VersionConflict) as error:
        await store.save_game(other, game.version, other_rows)
    assert (error.value.game_id, error.value.expected_version) == (game.id, 0)
    async with store.write() as tx:
        with pytest.raises(VersionConflict):
            await tx.save_game(other, game.version, other_rows)
    assert [m.text for m in await store.moves(game.id)] == ["E3"]
    stored = await store.game(game.id)
    assert stored is not None and stored.version == 1


async def test_saves_that_arrive_together_share_commits_but_not_fates(store: Store) -> None:
    games = [await _new_game(store, channel=c) for c in range(10)]
    saves = []
    for game in games:
        after, rows = _after(game, "E3")
        saves.append(store.save_game(after, game.version, rows))
        rival, rival_rows = _after(game, "A1")
        saves.append(store.save_game(rival, game.version, rival_rows))
    # One save with a gap in its record: it alone must fail.
    broken, broken_rows = _after(games[0], "E3", "F3")
    saves.append(store.save_game(broken, games[0].version + 1, broken_rows[1:2] + broken_rows[1:2]))
    results = await asyncio.gather(*saves, return_exceptions=True)
    for index in range(10):
        won, lost = results[2 * index], results[2 * index + 1]
        assert isinstance(won, Game) and won.version == 1
        assert isinstance(lost, VersionConflict)
    assert isinstance(results[-1], INTEGRITY)
    for game in games:
        assert [m.text for m in await store.moves(game.id)] == ["E3"]


async def test_finished_games_keep_their_result(store: Store) -> None:
    game = await _new_game(store)
    ended = dataclasses.replace(
        game,
        status=GameStatus.FINISHED,
        result=Result.BLACK,
        score=(3, 9),
        finished_at=NOW + timedelta(hours=1),
    )
    saved = await store.save_game(ended, game.version)
    assert await store.game(game.id) == saved
    assert await store.active_game_in_channel(1) is None


# --- values ---------------------------------------------------------------------------------------


def test_times_are_stored_as_sortable_utc_text() -> None:
    paris = timezone(timedelta(hours=1))
    moment = datetime(2025, 3, 1, 10, 30, 0, 5, tzinfo=paris)
    text = time_to_text(moment)
    assert text == "2025-03-01T09:30:00.000005+00:00"
    assert text_to_time(text) == moment
    later = time_to_text(moment + timedelta(microseconds=1))
    assert later > text and len(later) == len(text)
    with pytest.raises(ValueError, match="naive"):
        time_to_text(datetime(2025, 3, 1))


async def test_server_settings(store: Store) -> None:
    assert await store.guild_settings(9) == GuildSettings(9)
    async with store.write() as tx:
        await tx.save_guild_settings(GuildSettings(9, 3, use_threads=False, locale="ko"), NOW)
    assert await store.guild_settings(9) == GuildSettings(9, 3, use_threads=False, locale="ko")
    async with store.write() as tx:
        await tx.save_guild_settings(GuildSettings(9, None), NOW)
    assert await store.guild_settings(9) == GuildSettings(9)


async def test_a_servers_theme_and_a_players_own(store: Store) -> None:
    # The server's theme for its public posts, a player's for what they see privately: each
    # kept, changed and cleared (None: the bot's default) without touching the other.
    async with store.write() as tx:
        await tx.save_guild_settings(GuildSettings(9, 3, theme=BoardTheme.LIGHT), NOW)
        await tx.ensure_players([ALICE, BOB], NOW)
        await tx.save_theme(ALICE, BoardTheme.LIGHT)
    assert await store.guild_settings(9) == GuildSettings(9, 3, theme=BoardTheme.LIGHT)
    assert (await store.prefs(ALICE)).theme is BoardTheme.LIGHT
    assert (await store.prefs(BOB)).theme is None
    async with store.write() as tx:
        await tx.save_guild_settings(GuildSettings(9, 3, theme=BoardTheme.DARK), NOW)
        await tx.save_theme(BOB, BoardTheme.DARK)
    assert (await store.guild_settings(9)).theme is BoardTheme.DARK
    assert (await store.prefs(BOB)).theme is BoardTheme.DARK
    assert (await store.prefs(ALICE)).theme is BoardTheme.LIGHT
    async with store.write() as tx:
        await tx.save_guild_settings(GuildSettings(9, 3), NOW)
        await tx.save_theme(ALICE, None)
    assert await store.guild_settings(9) == GuildSettings(9, 3)
    assert (await store.prefs(ALICE)).theme is None
