"""The service benchmark (:mod:`tools.bench.service`) on SQLite and on PostgreSQL, in one run.

    .venv/bin/python -m tests.bot.storagebench [--backends sqlite,postgres] [--rounds 3]
        [--stored 10000] [--concurrent 100] [--moves 5000] [--think-ms 500 0] [--seed 1]
        [--postgres-url URL] [--directory /tmp]

These machines are shared and noisy, so backends are compared within one run, taking turns:
every backend's database is filled first (the same random games), then each round runs every
scenario (``--think-ms``) on each backend in turn, in the opposite order every other round,
with the same seed, so the same moves. Prints each run as it ends, then a table of the medians
over the rounds, with the CPU each run used: this process (the service, in Python; with
SQLite, its commits too, in aiosqlite's thread) and PostgreSQL's processes.

Backends: ``sqlite`` (``synchronous=FULL``, as the bot), ``sqlite-normal``
(``synchronous=NORMAL``: no sync on commit), ``postgres`` (``synchronous_commit=on``, the
default: a commit returns once its WAL is on the disk), ``postgres-async``
(``synchronous_commit=off``, set on its own database: the same server, no wait for the disk).
Without ``--postgres-url``, PostgreSQL is a throwaway server with durable settings in
``--directory``, beside the SQLite files (:func:`tests.bot.benchkit.durable_postgres`).
A benchmark, not a test: it never fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import statistics
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
from psycopg import sql

from bot.games.service import GameService
from bot.storage import Database, Store
from tests.bot.benchkit import (
    DEFAULT_DIRECTORY,
    CpuUsage,
    CpuWatch,
    Group,
    durable_postgres,
    postmaster_pid,
)
from tests.postgres import PostgresServer
from tools.bench.service import Figures, describe, fill, open_bench_database, scenario

BACKENDS = ("sqlite", "sqlite-normal", "postgres", "postgres-async")
SYNCHRONOUS = {"sqlite": "FULL", "sqlite-normal": "NORMAL"}


@dataclass
class Backend:
    """One backend's database and service, and its runs' figures (by scenario)."""

    name: str
    target: str | Path
    db: Database
    service: GameService
    runs: dict[float, list[tuple[Figures, CpuUsage]]] = field(default_factory=dict)


@contextlib.contextmanager
def _server(url: str | None, names: list[str], directory: Path) -> Iterator[PostgresServer | None]:
    if url is not None or not any(name.startswith("postgres") for name in names):
        yield None
        return
    with durable_postgres(directory) as server:
        yield server


def _target(name: str, folder: Path, server: PostgresServer | None, url: str | None) -> str | Path:
    if name.startswith("sqlite"):
        return folder / f"{name}.sqlite3"
    if url is not None:
        if name != "postgres":
            raise SystemExit(f"{name} needs the throwaway server: leave --postgres-url out")
        return url
    assert server is not None
    database = "bench_" + name.replace("-", "_")
    target = server.create_database(database)
    if name == "postgres-async":
        # A database's own setting outranks the server's (its command line included).
        with psycopg.connect(server.url("postgres"), autocommit=True) as admin:
            admin.execute(
                sql.SQL("ALTER DATABASE {} SET synchronous_commit = off").format(
                    sql.Identifier(database)
                )
            )
    return target


async def _open(name: str, target: str | Path, seed: int) -> Backend:
    db = await open_bench_database(target, SYNCHRONOUS.get(name))
    return Backend(name, target, db, GameService(Store(db), rng=random.Random(seed)))


def _groups(server: PostgresServer | None) -> list[Group]:
    groups = [Group("bench process", [os.getpid()])]
    pid = postmaster_pid(server) if server is not None else None
    if pid is not None:
        groups.append(Group("postgres", [pid], "tree"))
    return groups


async def compare(args: argparse.Namespace, folder: Path, server: PostgresServer | None) -> None:
    names: list[str] = args.backends
    backends: list[Backend] = []
    try:
        for name in names:
            target = _target(name, folder, server, args.postgres_url)
            backend = await _open(name, target, args.seed)
            backends.append(backend)
            filled = await fill(backend.db, backend.service.store, args.stored, random.Random(1))
            print(f"{name}: {filled}; {await describe(backend.db, SYNCHRONOUS.get(name))}")
        groups = _groups(server)
        print(
            f"play a move, {args.concurrent} games played at once, {args.moves:,} moves timed; "
            f"{args.rounds} rounds, backends in turn"
        )
        for round_number in range(args.rounds):
            order = backends if round_number % 2 == 0 else backends[::-1]
            for think_ms in args.think_ms:
                for backend in order:
                    async with CpuWatch(groups, interval=0.5, window=2.0) as watch:
                        figures = await scenario(
                            backend.db,
                            backend.service,
                            concurrent=args.concurrent,
                            moves=args.moves,
                            think_ms=think_ms,
                            seed=args.seed,
                        )
                    usage = watch.usage
                    backend.runs.setdefault(think_ms, []).append((figures, usage))
                    print(
                        f"  round {round_number + 1} {backend.name:>14} {figures.pause:>22}: "
                        f"{figures.line()}\n    {usage.render()}"
                    )
        print(table(backends, args.think_ms))
    finally:
        for backend in backends:
            await backend.service.close()


def table(backends: list[Backend], scenarios: list[float]) -> str:
    """Medians over the rounds, one row per scenario and backend."""
    lines = [
        "medians over the rounds (CPU: % of one core, averaged over the run)",
        f"{'scenario':>22} {'backend':>14} | {'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7} "
        f"{'mean ms':>7} {'moves/s':>8} | {'bench':>6} {'pg':>5} {'machine':>8} {'iowait':>6}",
    ]
    for think_ms in scenarios:
        for backend in backends:
            runs = backend.runs.get(think_ms, [])
            if not runs:
                continue

            def med(values: list[float]) -> float:
                return statistics.median(values)

            figures = [f for f, _ in runs]
            usages = [u for _, u in runs]
            lines.append(
                f"{figures[0].pause:>22} {backend.name:>14} | "
                f"{med([f.percentile(0.5) * 1000 for f in figures]):7.2f} "
                f"{med([f.percentile(0.9) * 1000 for f in figures]):7.2f} "
                f"{med([f.percentile(0.99) * 1000 for f in figures]):7.2f} "
                f"{med([f.mean * 1000 for f in figures]):7.2f} "
                f"{med([f.rate for f in figures]):8,.0f} | "
                f"{med([u.groups['bench process'] for u in usages]):5.0f}% "
                f"{med([u.groups.get('postgres', 0.0) for u in usages]):4.0f}% "
                f"{med([u.machine_busy for u in usages]):7.0f}% "
                f"{med([u.iowait for u in usages]):5.0f}%"
            )
    return "\n".join(lines)


def _backends(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in BACKENDS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"backends are among {', '.join(BACKENDS)}")
    return names


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--backends", type=_backends, default=["sqlite", "postgres"])
    parser.add_argument("--rounds", type=int, default=3, help="runs of each scenario, each backend")
    parser.add_argument("--stored", type=int, default=10_000, help="finished games stored")
    parser.add_argument("--concurrent", type=int, default=100, help="games played at once")
    parser.add_argument("--moves", type=int, default=5_000, help="moves timed per run")
    parser.add_argument("--think-ms", type=float, nargs="+", default=[500.0, 0.0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres-url", help="an empty database (default: a throwaway server)")
    parser.add_argument(
        "--directory",
        type=Path,
        default=DEFAULT_DIRECTORY,
        help="where the SQLite files and the throwaway server go (default: /tmp, a disk here)",
    )
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="dvonn-storagebench-", dir=args.directory))
    try:
        with _server(args.postgres_url, args.backends, args.directory) as server:
            asyncio.run(compare(args, folder, server))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
