"""The throwaway PostgreSQL server and its fixtures (tests/postgres.py, tests/conftest.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests import postgres
from tests.conftest import REPO_ROOT
from tests.postgres import PostgresServer


def _public_tables(url: str) -> list[str]:
    with psycopg.connect(url) as connection:
        rows = connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchall()
    return sorted(str(name) for (name,) in rows)


@pytest.mark.postgres
def test_the_server_listens_on_localhost_with_the_settings_for_tests(
    postgres_server: PostgresServer,
) -> None:
    assert postgres_server.directory is not None
    assert postgres_server.port is not None
    url = postgres_server.url("postgres")
    assert url == f"postgresql://postgres@127.0.0.1:{postgres_server.port}/postgres"
    with psycopg.connect(url) as connection:
        row = connection.execute(
            "SELECT current_user, host(inet_server_addr()), inet_server_port(),"
            " current_setting('unix_socket_directories'), current_setting('server_encoding'),"
            " current_setting('lc_collate')"
        ).fetchone()
        settings = {
            name: str(connection.execute(f"SHOW {name}").fetchone()[0])  # type: ignore[index]
            for name in ("fsync", "synchronous_commit", "full_page_writes", "max_connections")
        }
    assert row == (
        "postgres",
        "127.0.0.1",
        postgres_server.port,
        str(postgres_server.directory),
        "UTF8",
        "C",
    )
    assert settings == {
        "fsync": "off",
        "synchronous_commit": "off",
        "full_page_writes": "off",
        "max_connections": "300",
    }
    assert (postgres_server.directory / f".s.PGSQL.{postgres_server.port}").is_socket()
    assert postgres_server.log.is_file()


@pytest.mark.postgres
def test_each_new_database_is_empty_and_its_own(postgres_server: PostgresServer) -> None:
    first, second = postgres_server.create_database(), postgres_server.create_database()
    named = postgres_server.create_database("dvonn_named")
    try:
        assert len({first, second, named}) == 3
        assert named == postgres_server.url("dvonn_named")
        assert _public_tables(first) == _public_tables(second) == []
        with psycopg.connect(first) as connection:
            connection.execute("CREATE TABLE games (id integer PRIMARY KEY, name text)")
            connection.execute("INSERT INTO games VALUES (1, 'dvonn')")
        assert _public_tables(first) == ["games"]
        assert _public_tables(second) == []
        assert _public_tables(postgres_server.create_database()) == []
    finally:
        for url in (first, second, named):
            postgres_server.drop_database(url.rsplit("/", 1)[1])
    with pytest.raises(psycopg.OperationalError, match="does not exist"):
        psycopg.connect(first).close()


@pytest.mark.postgres
def test_postgres_url_is_a_database_of_the_test_s_own(
    postgres_url: str, postgres_server: PostgresServer
) -> None:
    name = postgres_url.rsplit("/", 1)[1]
    assert postgres_url == postgres_server.url(name)
    with psycopg.connect(postgres_url) as connection:
        assert connection.execute("SELECT current_database()").fetchone() == (name,)
    assert _public_tables(postgres_url) == []


def test_database_target_gives_each_backend_its_kind_of_place(
    database_target: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    backend = request.node.callspec.params["database_target"]
    marked = request.node.get_closest_marker("postgres") is not None
    if backend == "sqlite":
        assert database_target == str(tmp_path / "dvonn.sqlite3")
        assert not Path(database_target).exists()
        assert not marked
        assert "postgres_url" not in request.fixturenames  # no server for a SQLite half
    else:
        assert backend == "postgres"
        assert marked
        assert database_target.startswith("postgresql://postgres@127.0.0.1:")
        assert _public_tables(database_target) == []


@pytest.mark.postgres
def test_a_port_taken_meanwhile_is_passed_over_and_stop_leaves_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    binaries = postgres.find_server_binaries()
    assert binaries is not None  # else the postgres marker's tests are skipped before this one
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        ports: Iterator[int] = iter([taken.getsockname()[1], postgres._free_port()])
        monkeypatch.setattr(postgres, "_free_port", lambda: next(ports))
        server = PostgresServer(binaries)
        server.start(postgres.new_directory())
        try:
            assert server.port not in (None, taken.getsockname()[1])
            assert "could not bind" in server.log.read_text(encoding="utf-8")
            url, directory = server.create_database(), server.directory
        finally:
            server.stop()
    assert directory is not None
    assert not directory.exists()
    assert server.port is None
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url, connect_timeout=2).close()


def test_as_root_without_a_postgres_user_the_start_says_so_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(postgres, "SYSTEM_USER", "dvonn-no-such-user")
    server = PostgresServer(tmp_path / "bin")
    with pytest.raises(postgres.PostgresError, match="'dvonn-no-such-user' system user"):
        server.start(tmp_path / "server")
    assert not (tmp_path / "server").exists()
    assert server.directory is None


def _fake_programs(folder: Path, *names: str) -> Path:
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).write_text("#!/bin/sh\n", encoding="utf-8")
        (folder / name).chmod(0o755)
    return folder


def test_the_binaries_are_found_on_path_when_all_three_are_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_path = _fake_programs(tmp_path / "bin", *postgres.SERVER_PROGRAMS)
    _fake_programs(tmp_path / "debian" / "15" / "bin", *postgres.SERVER_PROGRAMS)
    monkeypatch.setenv("PATH", str(on_path))
    monkeypatch.setattr(postgres, "DEBIAN_ROOT", tmp_path / "debian")
    assert postgres.find_server_binaries() == on_path


def test_else_in_debian_s_newest_complete_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A client-only install puts pg_ctl's friends on PATH, never initdb or postgres.
    on_path = _fake_programs(tmp_path / "bin", "pg_ctl", "psql")
    debian = tmp_path / "debian"
    for version in ("9.6", "13", "15"):
        _fake_programs(debian / version / "bin", *postgres.SERVER_PROGRAMS)
    _fake_programs(debian / "16" / "bin", "initdb", "pg_ctl")  # half-installed
    _fake_programs(debian / "tools" / "bin", *postgres.SERVER_PROGRAMS)
    monkeypatch.setenv("PATH", str(on_path))
    monkeypatch.setattr(postgres, "DEBIAN_ROOT", debian)
    assert postgres.find_server_binaries() == debian / "15" / "bin"
    monkeypatch.setattr(postgres, "DEBIAN_ROOT", tmp_path / "nowhere")
    assert postgres.find_server_binaries() is None


def test_without_the_binaries_the_postgres_half_is_skipped_and_said_so(tmp_path: Path) -> None:
    # A run of its own, in which this machine's binaries are hidden: the fixtures and hooks come
    # from tests/conftest.py as a plugin, the options (--strict-markers) and markers from
    # pyproject.toml, as in the real run.
    (tmp_path / "conftest.py").write_text(
        "import tests.conftest\ntests.conftest.find_server_binaries = lambda: None\n",
        encoding="utf-8",
    )
    (tmp_path / "test_both.py").write_text(
        "import pytest\n"
        "def test_url(postgres_url): pass\n"
        "def test_target(database_target): assert database_target.endswith('.sqlite3')\n"
        "@pytest.mark.postgres\n"
        "def test_marked(): pass\n",
        encoding="utf-8",
    )
    run = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-c", str(REPO_ROOT / "pyproject.toml")),
            *("-p", "tests.conftest", "-p", "no:cacheprovider", "-q", "--rootdir", str(tmp_path)),
            str(tmp_path),
        ],
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    out = run.stdout
    assert run.returncode == 0, out + run.stderr
    assert "2 passed, 2 skipped" in out
    assert out.count(postgres.MISSING_BINARIES) == 2  # in -ra's list of reasons
    assert "sudo apt-get install postgresql" in out
    last = out.strip().splitlines()[-1]
    assert last.startswith("PostgreSQL half SKIPPED: 2 tests need PostgreSQL's server binaries")
