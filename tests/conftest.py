"""Shared test fixtures: where the team's shared reference data lives; a PostgreSQL server."""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

from tests.postgres import (
    INSTALL_HINT,
    MISSING_BINARIES,
    PostgresServer,
    find_server_binaries,
    new_directory,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("DVONN_SHARED", REPO_ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``../shared`` beside the checkout (or ``$DVONN_SHARED``): oracle games, rule books."""
    if not (SHARED / "oracle").is_dir():
        pytest.fail(f"the shared reference data is missing: expected {SHARED}/oracle")
    return SHARED


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
