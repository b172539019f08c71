"""Run the bot: ``python -m bot`` (``make run``); ``--sync`` also registers the slash commands.
The operators' commands: ``backup``, ``migrate``, ``copy-database`` and ``forget`` (see ``--help``).

Stops cleanly on SIGINT and SIGTERM: no new commands, those in flight finish, the database is
closed, then it logs out.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sqlite3
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

import aiohttp
import discord

from bot.app import DvonnBot
from bot.config import Settings, SettingsError
from bot.endpoints import use_discord_endpoints
from bot.i18n import ENGLISH
from bot.single import AlreadyRunning, only_process
from bot.storage import SCHEMA_VERSION, Forgotten, Store, is_postgres, open_database
from bot.storage.backup import backup
from bot.storage.errors import StorageError

log = logging.getLogger("bot")


VOICE_WARNINGS: Final = ("PyNaCl is not installed", "davey is not installed")


def _not_about_voice(record: logging.LogRecord) -> bool:
    """discord.py warns at start that voice libraries are missing; this bot has no voice."""
    return not str(record.msg).startswith(VOICE_WARNINGS)


def _on_stop_signals(stop: asyncio.Event) -> None:
    """Set ``stop`` on Ctrl-C or SIGTERM: with the loop's own handlers where there are some,
    else (Windows) with the process's signal handlers, which hand over to the loop."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except NotImplementedError:  # Windows' event loops have none
            signal.signal(sig, lambda *_: loop.call_soon_threadsafe(stop.set))


async def serve(settings: Settings, *, sync: bool) -> None:
    token = settings.require_token()
    bot = DvonnBot(settings, sync_commands=sync)
    stop = asyncio.Event()
    _on_stop_signals(stop)
    async with bot:
        runner = asyncio.create_task(bot.start(token), name="discord")
        stopper = asyncio.create_task(stop.wait(), name="signals")
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            stopper.cancel()
            runner.result()  # a login failure and such: raise it
            return
        log.info("stopping: finishing what is in flight")
        await bot.close()
        await runner


def _database_errors() -> tuple[type[Exception], ...]:
    """The errors of the databases: sqlite3's, and psycopg's once it is loaded (it is only
    when a PostgreSQL database was opened)."""
    psycopg = sys.modules.get("psycopg")
    return (sqlite3.Error,) if psycopg is None else (sqlite3.Error, psycopg.Error)


def _backup(settings: Settings, dest: Path) -> int:
    if not isinstance(settings.database, Path):
        print(
            "no backup: DVONN_DATABASE is a PostgreSQL database; back it up with PostgreSQL's "
            "own tools (pg_dump, or your host's backups)",
            file=sys.stderr,
        )
        return 1
    try:
        made = backup(settings.database, dest)
    except StorageError as error:
        print(f"no backup: {error}", file=sys.stderr)
        return 1
    print(f"backed up {settings.database} to {made}")
    return 0


def _migrate(settings: Settings) -> int:
    """Bring the database's schema up to date (several processes may do it at once)."""

    async def run() -> str:
        db = await open_database(settings.database)
        await db.close()
        return db.where

    try:
        where = asyncio.run(run())
    except StorageError as error:
        print(f"not migrated: {error}", file=sys.stderr)
        return 1
    print(f"{where}: schema version {SCHEMA_VERSION}, up to date")
    return 0


def _copy(source: Path, url: str) -> int:
    """Copy an SQLite file's data into an empty PostgreSQL database, checked."""
    if not is_postgres(url):
        print(f"not copied: {url!r} is not a postgresql:// URL", file=sys.stderr)
        return 2
    try:
        # The bot must not write to the file meanwhile: hold its one-process lock.
        with only_process(source):
            from bot.storage.copy import copy_database  # noqa: PLC0415 - psycopg: only to copy

            report = asyncio.run(copy_database(source, url, progress=print))
    except (StorageError, AlreadyRunning) as error:
        print(f"not copied: {error}", file=sys.stderr)
        return 1
    total = sum(report.rows.values())
    print(
        f"copied {total} rows in {len(report.rows)} tables from {source}; "
        f"{report.games_replayed} games replayed to their stored positions. "
        "Set DVONN_DATABASE to the PostgreSQL URL and start the bot."
    )
    return 0


def _forget(settings: Settings, user_id: int, *, dry_run: bool) -> int:
    """Forget a player: delete their own data, anonymise their shared records (or, with
    ``dry_run``, say what that would do)."""
    database = settings.database
    if isinstance(database, Path) and not database.is_file():
        print(f"nothing forgotten: there is no database at {database}", file=sys.stderr)
        return 1

    async def run() -> tuple[str, Forgotten]:
        store = Store(await open_database(database))
        try:
            return store.db.where, await store.forget_player(
                user_id, datetime.now(UTC), dry_run=dry_run
            )
        finally:
            await store.close()

    try:
        if dry_run:  # nothing is written: the bot may run meanwhile
            where, forgotten = asyncio.run(run())
        else:
            with _process_guard(settings):  # SQLite: the bot's caches must not outlive this
                where, forgotten = asyncio.run(run())
    except (StorageError, AlreadyRunning) as error:
        print(f"nothing forgotten: {error}", file=sys.stderr)
        return 1
    except _database_errors() as error:
        # A deadlock with the bot's own writes (PostgreSQL), or two forgets at once: the one
        # transaction was rolled back whole.
        print(
            f"nothing forgotten: the database refused the change ({error}); nothing was "
            "changed: run it again",
            file=sys.stderr,
        )
        return 1
    if not forgotten.anything:
        print(f"{where}: nothing is kept about player {user_id}; nothing to forget")
        return 0
    if dry_run:
        print(f"dry run, nothing changed: forgetting player {user_id} in {where} would do this:")
    elif forgotten.placeholder is not None:
        print(
            f"forgot player {user_id} in {where}; "
            f"their games and tournaments now name player {forgotten.placeholder}:"
        )
    else:
        print(f"forgot player {user_id} in {where}:")
    for line in forgotten.lines():
        print(f"  {line}")
    return 0


@contextlib.contextmanager
def _process_guard(settings: Settings) -> Iterator[None]:
    """SQLite serves one process: hold its file's lock. PostgreSQL serves several."""
    if isinstance(settings.database, Path):
        with only_process(settings.database):
            yield
    else:
        yield


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run dvonn-bot.")
    parser.add_argument(
        "--sync",
        action="store_true",
        help="register the slash commands with Discord at start (to DVONN_DEV_GUILD if set, "
        "else globally); needed after commands change",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    saving = commands.add_parser(
        "backup",
        help="copy the database (DVONN_DATABASE) while the bot runs, consistently",
        description="Copy the database while the bot runs: the copy is the database as it was "
        "when the backup began. Restore: stop the bot, copy the backup over DVONN_DATABASE, "
        "delete the -wal and -shm files beside it, start the bot.",
    )
    saving.add_argument("dest", type=Path, help="a new file, or a directory for a dated file")
    commands.add_parser(
        "migrate",
        help="bring the database's schema (DVONN_DATABASE) up to date, and stop",
        description="Apply the database's pending migrations and stop; the bot also does this "
        "when it starts. Safe when several processes do it at once (PostgreSQL: an advisory "
        "lock). A database written by a newer dvonn-bot is refused, unchanged.",
    )
    copying = commands.add_parser(
        "copy-database",
        help="move an SQLite database's data into an empty PostgreSQL database",
        description="Copy every table of an SQLite database (stop the bot first) into an empty "
        "PostgreSQL database, in one transaction, checked by row counts and by replaying every "
        "game through the rules. The SQLite file is not changed.",
    )
    copying.add_argument("source", type=Path, help="the SQLite file (DVONN_DATABASE until now)")
    copying.add_argument("url", help="the PostgreSQL database, postgresql://user@host/name")
    forgetting = commands.add_parser(
        "forget",
        help="erase a player's personal data (DVONN_DATABASE), keeping others' records whole",
        description="Forget a player, in one transaction: delete what is theirs alone (their "
        "preferences, ratings, puzzle rating and tries, planned lines, challenges that started "
        "no game, entries in tournaments not begun, messages to them) and put a placeholder "
        "(a negative number, never a Discord id) for their id in what they share with others "
        "(games and their moves, tournaments). Refused, with nothing changed, while they have "
        "a running game, a running tournament, or a game not yet rated. With SQLite, stop the "
        "bot first (a dry run may run beside it); with PostgreSQL the bot may run.",
    )
    forgetting.add_argument("user_id", type=int, help="the player's Discord user id")
    forgetting.add_argument(
        "--dry-run",
        action="store_true",
        help="say what would be deleted and anonymised, and change nothing",
    )
    args = parser.parse_args(argv)
    if args.command == "copy-database":
        discord.utils.setup_logging(level=logging.WARNING)
        return _copy(args.source, args.url)
    try:
        settings = Settings.from_env()
        if args.command == "backup":
            return _backup(settings, args.dest)
        if args.command == "migrate":
            return _migrate(settings)
        if args.command == "forget":
            return _forget(settings, args.user_id, dry_run=args.dry_run)
        settings.require_token()
    except SettingsError as error:
        print(ENGLISH.render(error.text), file=sys.stderr)
        return 2
    try:
        # discord.py keeps Discord's addresses process-wide (see bot.endpoints): set them once.
        use_discord_endpoints(settings.api_base, settings.gateway_url)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    logging.getLogger("discord.client").addFilter(_not_about_voice)
    try:
        with _process_guard(settings):
            asyncio.run(serve(settings, sync=args.sync))
    except AlreadyRunning as error:
        log.error("%s", error)
        return 2
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN in .env (Bot → Reset Token).")
        return 1
    except (aiohttp.ClientConnectionError, OSError) as error:
        where = settings.api_base or "Discord"
        log.error("cannot reach %s (%s): check the network, or DISCORD_API_BASE", where, error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
