"""Shared test fixtures: where the team's shared reference data lives; a PostgreSQL server;
and turns between the run's worker processes for the tests that must run alone."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.postgres import (
    INSTALL_HINT,
    MISSING_BINARIES,
    PostgresServer,
    find_server_binaries,
    new_directory,
)

pytest_plugins = ["pytester"]  # runs of pytest inside a test: tests/test_markers.py

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("DVONN_SHARED", REPO_ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``../shared`` beside the checkout (or ``$DVONN_SHARED``): oracle games, rule books."""
    if not (SHARED / "oracle").is_dir():
        pytest.fail(f"the shared reference data is missing: expected {SHARED}/oracle")
    return SHARED


# Bytecode for the processes the tests start. Many tests start ``python -m bot`` (or a child of
# their own) again and again; where bytecode is not written (PYTHONDONTWRITEBYTECODE, as in
# the container), each of those starts compiled the bot's ~200 modules from source again, about
# a second each time. The processes the tests start write and read it instead in a cache of
# their own outside the checkout (PYTHONPYCACHEPREFIX): the tree stays free of __pycache__.
PYCACHE = Path(tempfile.gettempdir()) / f"dvonn-pycache-{os.getuid()}"


def pytest_configure(config: pytest.Config) -> None:
    """The processes started by the tests keep their bytecode in :data:`PYCACHE`."""
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        os.environ["PYTHONPYCACHEPREFIX"] = str(PYCACHE)


# PostgreSQL, the second storage backend: one throwaway server for the run (see tests/postgres.py),
# started only when a test asks for it, and a fresh empty database for each test that does. Mark
# such tests `postgres` (declared in pyproject.toml): `-m 'not postgres'` leaves them out.


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The run's one PostgreSQL server, started at its first use and stopped at the end.

    Skips the test when the server's programs are missing: a machine without them still runs
    the rest, and the end of the run says how many tests that left out and how to get them.
    """
    binaries = find_server_binaries()
    if binaries is None:
        pytest.skip(f"{MISSING_BINARIES}: {INSTALL_HINT}")
    server = PostgresServer(binaries)
    server.start(new_directory())
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new empty database for this test alone, dropped after it."""
    url = postgres_server.create_database()
    yield url
    postgres_server.drop_database(url.rsplit("/", 1)[1])


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's storage lives, once for each backend: a SQLite file's path (not created
    yet), then a fresh PostgreSQL database's URL. The server is asked for only by the second,
    so a run of the SQLite halves (``-m 'not postgres'``) never starts one."""
    if request.param == "sqlite":
        return str(tmp_path / "dvonn.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture(scope="session")
def postgres_migrated(postgres_server: PostgresServer) -> str:
    """The name of a database of the run's server at the bot's latest schema, migrated once
    for the run by the bot's own migrations (as a bot's first start does): a template to copy
    instead of migrating a new database again in every test (0.5 to 1 s each)."""
    name = "dvonn_migrated"
    url = postgres_server.create_database(name)
    with concurrent.futures.ThreadPoolExecutor(1) as thread:  # outside the tests' event loop
        thread.submit(asyncio.run, _open_and_close(url)).result()
    return name


async def _open_and_close(url: str | Path) -> None:
    from bot.storage.database import open_database  # noqa: PLC0415 - for PostgreSQL tests only

    database = await open_database(url)
    await database.close()


@pytest.fixture(scope="session")
def sqlite_migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file at the bot's latest schema, migrated once for the run (as a bot's first
    start does): a file to copy instead of migrating a new one again in every test."""
    path = tmp_path_factory.mktemp("migrated") / "dvonn.sqlite3"
    with concurrent.futures.ThreadPoolExecutor(1) as thread:  # outside the tests' event loop
        thread.submit(asyncio.run, _open_and_close(path)).result()
    leftovers = sorted(p.name for p in path.parent.iterdir() if p != path)
    assert not leftovers, f"closing the database left {leftovers} beside it: copy them too"
    return path


@pytest.fixture
def migrated_target(request: pytest.FixtureRequest, database_target: str) -> str:
    """:func:`database_target` already at the latest schema: its PostgreSQL database a copy of
    :func:`postgres_migrated`, for the tests whose subject is not the migrations (those
    are tested in tests/bot/storage/ and tests/test_postgres_server.py, and by the tests that
    start bot processes on a new database); its SQLite file likewise a copy of
    :func:`sqlite_migrated`. Its URL or path is :func:`database_target`'s (the copy takes the
    empty database's name), so fixtures of the same test may open either."""
    if not database_target.startswith("postgresql://"):
        target = Path(database_target)
        if not target.exists():  # not made yet by a fixture set up before: a copy
            shutil.copyfile(request.getfixturevalue("sqlite_migrated"), target)
        return database_target
    import psycopg  # noqa: PLC0415 - only the tests that use a server need psycopg

    server: PostgresServer = request.getfixturevalue("postgres_server")
    template: str = request.getfixturevalue("postgres_migrated")
    name = database_target.rsplit("/", 1)[1]
    try:  # the empty one, made again under its name as a copy of the template
        server.drop_database(name, force=False)
    except psycopg.errors.ObjectInUse:
        return database_target  # a fixture set up before has it open: migrated by its bot
    return server.create_database(name, template=template)


# Side by side: `make test` runs the suite in a worker process per core (pytest-xdist, `-n auto`).
# Each worker has its own PostgreSQL server (the session's fixture above, per process), its own
# temporary folders and its own fake Discords on ports of their own. A test marked `alone`
# (declared in pyproject.toml) is one whose goals are seconds of the wall clock for real
# processes killed and started again: it runs with no other test beside it, as in a serial run.
# The workers take turns through two locked files (flock: released by the system should a worker
# die): the tests of the others wait until an `alone` one is over, and it waits until those
# running have ended. Serially (`-n0`) nothing waits. Only the time between the tests is spent
# waiting: --durations counts what each test did.

TURNS_DIRECTORY = "dvonn_turns"
"""The key of the workers' input (xdist) naming the folder of the two lock files."""
_TURNS_FOLDER = pytest.StashKey[Path]()
"""That folder, in the controller's configuration."""


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """(pytest-xdist, in the controller) Each worker is told the folder of the lock files,
    made for the first."""
    stash = node.config.stash
    if _TURNS_FOLDER not in stash:
        stash[_TURNS_FOLDER] = Path(tempfile.mkdtemp(prefix="dvonn-turns-"))
    node.workerinput[TURNS_DIRECTORY] = str(stash[_TURNS_FOLDER])


def pytest_unconfigure(config: pytest.Config) -> None:
    """The controller deletes the folder of the lock files at the end of the run."""
    folder = config.stash.get(_TURNS_FOLDER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """No `machine_speed` test without the fake it is about (see below). In a worker: the
    `alone` tests first (in every worker alike, as xdist needs), so that they are handed out at
    the start, when the other workers run short tests, and not while one of them runs a test of
    a minute that they would have to wait for."""
    misused = machine_speed_without_table(items)
    if misused:
        raise pytest.UsageError(
            "@pytest.mark.machine_speed turns the per-channel limits off through the e2e `table` "
            "or `network_tables` fixture (tests/bot/e2e/conftest.py), which these tests do not "
            "use: " + ", ".join(misused)
        )
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: item.get_closest_marker("alone") is None)  # a stable sort


def machine_speed_without_table(items: list[pytest.Item]) -> list[str]:
    """The ids of the tests marked `machine_speed` (declared in pyproject.toml) that use neither
    the `table` nor the `network_tables` fixture: those are what turn their fake's per-channel
    limits off, so without one the marker would silently do nothing."""
    return [
        item.nodeid
        for item in items
        if item.get_closest_marker("machine_speed") is not None
        and not {"table", "network_tables"} & set(getattr(item, "fixturenames", ()))
    ]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """In a worker: the test's turn, exclusive if it is `alone`, shared otherwise, from its
    set-up to its teardown."""
    folder = getattr(item.config, "workerinput", {}).get(TURNS_DIRECTORY)
    if folder is None:
        return (yield)
    with take_turn(Path(folder), alone=item.get_closest_marker("alone") is not None):
        return (yield)


@contextlib.contextmanager
def take_turn(folder: Path, *, alone: bool) -> Iterator[None]:
    """A readers-writer lock between processes: shared for most tests, exclusive for an
    `alone` one. Everyone passes the gate to get into the room; an `alone` test keeps the gate
    shut while it waits for the room to empty, so the others cannot keep it waiting for ever
    by coming in one after another."""
    gate = os.open(folder / "gate", os.O_RDWR | os.O_CREAT, 0o600)
    room = os.open(folder / "room", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(room, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            fcntl.flock(gate, fcntl.LOCK_UN)
        yield
    finally:
        os.close(room)  # closing the descriptors releases their locks
        os.close(gate)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> Generator[None, None, None]:
    """One line at the very end, after the counts, when tests were skipped for want of
    PostgreSQL: a green run that left out the PostgreSQL half must not pass for a complete one.

    A wrapper around the terminal's own, so as to come after its last line.
    """
    try:
        return (yield)
    finally:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if isinstance(reporter, pytest.TerminalReporter):
            _say_whether_postgres_was_skipped(reporter)


def _say_whether_postgres_was_skipped(reporter: pytest.TerminalReporter) -> None:
    skipped = [
        report
        for report in reporter.stats.get("skipped", [])
        if MISSING_BINARIES in _skip_reason(report)
    ]
    if skipped:
        count = "1 test needs" if len(skipped) == 1 else f"{len(skipped)} tests need"
        reporter.write_line(
            f"PostgreSQL half SKIPPED: {count} PostgreSQL's "
            f"server binaries (initdb, pg_ctl), which this machine lacks. Install them with "
            f"`sudo apt-get install postgresql` (CI's .ci/run does), then run `make test` again.",
            yellow=True,
            bold=True,
        )


def _skip_reason(report: object) -> str:
    """A skipped test's reason: a skip report's ``longrepr`` is ``(path, line, "Skipped: ...")``."""
    longrepr = getattr(report, "longrepr", None)
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)
