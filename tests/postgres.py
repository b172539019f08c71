"""A throwaway PostgreSQL server for the tests: one per run, a fresh empty database per test.

The PostgreSQL half of the storage tests needs a real server, but nobody should have to set one
up by hand, and the tests must never touch a server someone cares about. So the run makes its
own: ``initdb`` a new cluster in a temporary directory, start it on a free port of 127.0.0.1
with the settings that trade durability for speed (the data is thrown away anyway), hand each
test a database of its own, and at the end stop the server and delete the directory.

Only the server's programs are needed (``initdb``, ``pg_ctl``, ``postgres``). Debian's
``postgresql`` package keeps them off PATH, in ``/usr/lib/postgresql/<N>/bin``, so that is
looked at too. ``initdb`` and ``pg_ctl`` refuse to run as root: as root, they run as the
``postgres`` system user that the same package creates.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import pwd
import shlex
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psycopg
    from psycopg.rows import TupleRow

SERVER_PROGRAMS = ("initdb", "pg_ctl", "postgres")
DEBIAN_ROOT = Path("/usr/lib/postgresql")
"""Where Debian's packages put each major version's programs: ``<root>/<N>/bin``."""
SYSTEM_USER = "postgres"
"""The account that runs the server when the tests run as root (Debian's package makes it)."""
SUPERUSER = "postgres"
"""The database superuser ``initdb`` creates; every URL connects as it, without a password."""

MISSING_BINARIES = "PostgreSQL's server binaries (initdb, pg_ctl, postgres) are missing"
"""Opens the reason of every test skipped for want of a server, so the run can count them."""
INSTALL_HINT = "install them with `sudo apt-get install postgresql`, or run .ci/run (it does)"

SETTINGS: Mapping[str, str] = {
    # Nothing here must survive a crash: the whole cluster is deleted at the end of the run.
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    # The bot's pools, many tests' worth, may be open at once before their databases are dropped.
    "max_connections": "300",
    "listen_addresses": "127.0.0.1",
}

SHM_ROOM = 1 << 30
"""The free space /dev/shm needs before a server goes there: a cluster takes some 60 MB, and
each database that a test has not dropped yet 7.5 MB more."""

START_ATTEMPTS = 5
"""Tries at starting the server, each on a new port: another process may take the free port
between the moment it is picked and the moment the server binds it."""


class PostgresError(RuntimeError):
    """The throwaway server could not be made, started or stopped; the message says why."""


def find_server_binaries() -> Path | None:
    """The directory that holds ``initdb``, ``pg_ctl`` and ``postgres``, or None.

    First ``pg_ctl``'s directory on PATH, when the other two are beside it (a source build, a
    Homebrew install, links made by hand); then the newest ``/usr/lib/postgresql/<N>/bin``,
    where Debian and Ubuntu put them without adding them to PATH.
    """
    on_path = shutil.which("pg_ctl")
    if on_path is not None and _holds_the_programs(Path(on_path).parent):
        return Path(on_path).parent
    versions: list[tuple[tuple[int, ...], Path]] = []
    with contextlib.suppress(OSError):
        for folder in DEBIAN_ROOT.iterdir():
            try:
                version = tuple(int(part) for part in folder.name.split("."))
            except ValueError:
                continue
            if _holds_the_programs(folder / "bin"):
                versions.append((version, folder / "bin"))
    return max(versions)[1] if versions else None


def _holds_the_programs(folder: Path) -> bool:
    return all(
        (folder / name).is_file() and os.access(folder / name, os.X_OK) for name in SERVER_PROGRAMS
    )


def new_directory() -> Path:
    """A new empty directory for one server: in /dev/shm when it has room, else in /tmp.

    /dev/shm is memory (tmpfs): ``CREATE DATABASE`` writes some 270 files, which there takes
    about 9 ms, against 14 ms on a quiet disk and 250 ms or more in a /tmp that other test runs
    keep creating and deleting files in (measured on ext4). /tmp is the fallback: Docker gives
    its containers a /dev/shm of 64 MB, too small for a cluster and a few databases.

    Either way the path is short (a server's socket path must fit in about a hundred bytes) and,
    as root, reachable by the ``postgres`` user: both are open to everyone, unlike pytest's own
    temporary folders (mode 0700, owned by root) or a ``$TMPDIR`` that may be as private.
    """
    return Path(tempfile.mkdtemp(prefix="dvonn-postgres-", dir=_parent_directory()))


def _parent_directory() -> str | None:
    for candidate, room in (("/dev/shm", SHM_ROOM), ("/tmp", 0)):
        try:
            free = shutil.disk_usage(candidate).free
        except OSError:
            continue
        if free >= room and os.access(candidate, os.W_OK | os.X_OK):
            return candidate
    return None  # tempfile's own choice ($TMPDIR)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class _Account:
    """Who runs the server's programs: None for this process's own user."""

    uid: int | None = None
    gid: int | None = None


def _account() -> _Account:
    if os.geteuid() != 0:
        return _Account()
    try:
        entry = pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        raise PostgresError(
            f"the tests run as root, and PostgreSQL refuses to: its programs would run as the "
            f"'{SYSTEM_USER}' system user, which this machine lacks (installing Debian's "
            f"`postgresql` package creates it), or run the tests as another user"
        ) from None
    return _Account(entry.pw_uid, entry.pw_gid)


class PostgresServer:
    """One throwaway cluster: ``start`` it in a directory, make databases, then ``stop`` it.

    ``stop`` deletes the directory; it is registered to run at exit too, so that an interrupted
    run leaves no server behind.
    """

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.directory: Path | None = None
        self.port: int | None = None
        self._account = _Account()
        self._names = itertools.count(1)
        self._admin: psycopg.Connection[TupleRow] | None = None
        self._lock = threading.Lock()

    @property
    def data(self) -> Path:
        """The cluster's data directory, inside the server's directory."""
        return self._directory() / "data"

    @property
    def log(self) -> Path:
        """The server's log: where to look when it will not start or a test sees it fail."""
        return self._directory() / "postgres.log"

    def start(self, directory: Path) -> None:
        """Make a new cluster in ``directory/data`` and start it on a free port of 127.0.0.1.

        ``directory`` is created if need be; it should be empty, and as root it must be
        reachable by the ``postgres`` user (``new_directory`` makes one that is).
        """
        if self.directory is not None:
            raise PostgresError(f"the server is already started in {self.directory}")
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        atexit.register(self.stop)
        try:
            self._account = _account()
            self._start(directory)
        except BaseException:
            self.stop()
            raise

    def _start(self, directory: Path) -> None:
        if self._account.uid is not None and self._account.gid is not None:
            os.chown(directory, self._account.uid, self._account.gid)
        self._run(
            "initdb",
            ["-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8"],
            ["--locale=C", "--no-sync"],
        )
        for _ in range(START_ATTEMPTS):
            port = _free_port()
            settings = {**SETTINGS, "port": str(port), "unix_socket_directories": str(directory)}
            options = " ".join(f"-c {shlex.quote(f'{k}={v}')}" for k, v in settings.items())
            logged = len(self._log_text())
            started = self._run(
                "pg_ctl",
                ["start", "-w", "-D", str(self.data), "-l", str(self.log), "-o", options],
                check=False,
            )
            if started.returncode == 0:
                self.port = port
                return
            if "could not bind" not in self._log_text()[logged:]:
                break
        raise PostgresError(
            f"the PostgreSQL server would not start (pg_ctl: {started.stdout.strip()}); "
            f"its log, {self.log}, ends:\n{self._log_text()[-3000:]}"
        )

    def stop(self) -> None:
        """Stop the server at once (nothing in it is worth a clean shutdown), delete its
        directory. Safe to call twice, or after a ``start`` that failed.

        Should ``pg_ctl stop`` fail, the directory goes all the same: a server finds out within
        a minute that its ``postmaster.pid`` is gone, and shuts itself down.
        """
        atexit.unregister(self.stop)
        directory, self.directory = self.directory, None
        if directory is None:
            return
        with self._lock:
            if self._admin is not None:
                with contextlib.suppress(Exception):
                    self._admin.close()
                self._admin = None
        try:
            # Whether or not its start was reported, a server may be running: it has a pid file.
            if (directory / "data" / "postmaster.pid").exists():
                self._run(
                    "pg_ctl",
                    ["stop", "-m", "immediate", "-w", "-D", str(directory / "data")],
                    cwd=directory,
                    check=False,
                )
        finally:
            self.port = None
            shutil.rmtree(directory, ignore_errors=True)

    def url(self, dbname: str) -> str:
        """The URL of one database of this server, over TCP, as the password-less superuser."""
        if self.port is None:
            raise PostgresError("the server is not started")
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{dbname}"

    def create_database(self, name: str | None = None, *, template: str = "template0") -> str:
        """Create a new empty database (named uniquely unless ``name`` is given); its URL.

        A copy of ``template0``, the pristine template that nobody connects to (a copy of
        ``template1`` fails while anyone is connected to it); or of another database of this
        server, ``template``, which nobody may be connected to either.
        """
        from psycopg import sql  # noqa: PLC0415 - only the tests that use a server need psycopg

        name = name if name is not None else f"test_{next(self._names)}"
        statement = sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
            sql.Identifier(name), sql.Identifier(template)
        )
        with self._lock:
            self._admin_connection().execute(statement)
        return self.url(name)

    def drop_database(self, name: str, *, force: bool = True) -> None:
        """Drop one database, closing whatever connections a test left open to it; without
        ``force``, refused (psycopg's ``ObjectInUse``) while anyone is connected to it."""
        from psycopg import sql  # noqa: PLC0415 - only the tests that use a server need psycopg

        forced = sql.SQL(" WITH (FORCE)" if force else "")
        statement = sql.SQL("DROP DATABASE IF EXISTS {}{}").format(sql.Identifier(name), forced)
        with self._lock:
            self._admin_connection().execute(statement)

    def _admin_connection(self) -> psycopg.Connection[TupleRow]:
        """One connection to the ``postgres`` database, kept for every CREATE and DROP: making
        a connection costs a new server process, a few milliseconds each time."""
        import psycopg  # noqa: PLC0415 - only the tests that use a server need psycopg

        if self._admin is None or self._admin.closed:
            self._admin = psycopg.connect(self.url("postgres"), autocommit=True)
        return self._admin

    def _directory(self) -> Path:
        if self.directory is None:
            raise PostgresError("the server is not started")
        return self.directory

    def _log_text(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def _run(
        self,
        program: str,
        *argument_lists: list[str],
        check: bool = True,
        cwd: Path | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """Run one of the server's programs, as the ``postgres`` user when this is root.

        Python switches the user itself (``user=``, ``group=``, no supplementary groups), so
        neither ``runuser`` nor ``sudo`` is needed. The working directory is the server's own
        (``postgres`` may not be allowed into the caller's), and the caller's ``PG*`` variables
        (``PGDATA``, ``PGPORT``...) are left out so that they cannot point elsewhere.
        """
        command = [str(self.binaries / program), *itertools.chain(*argument_lists)]
        environment = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        result = subprocess.run(
            command,
            cwd=cwd or self._directory(),
            env=environment,
            user=self._account.uid,
            group=self._account.gid,
            extra_groups=[] if self._account.uid is not None else None,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            check=False,
        )
        if check and result.returncode != 0:
            raise PostgresError(
                f"{shlex.join(command)} failed (exit {result.returncode}):\n{result.stdout}"
            )
        return result
