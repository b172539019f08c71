"""Benchmarks of the game service: the latency of "play a move" (load, validate, commit), and
the housekeeping pass over many running games.

    python -m tools.bench.service [--stored 10000] [--concurrent 100] [--moves 5000]
                                  [--think-ms 500 0] [--database TARGET] [--synchronous FULL]
                                  [--seed 1]
    python -m tools.bench.service --housekeeping [--running 10000] [--passes 30]
                                  [--database TARGET] [--synchronous FULL] [--seed 1]

Stores ``--stored`` finished games (random games with their whole records), then plays
``--concurrent`` games at once, each driven by its own task playing random legal moves for both
sides, and times every :meth:`GameService.play` call until ``--moves`` moves are played (a game
that ends is replaced by a new one). Prints p50/p90/p99/max latency and the throughput, once
for each ``--think-ms``: the mean pause before each move (random, 0 to twice that).

The default runs two scenarios. With 500 ms pauses the 100 games make about 200 moves a second,
thousands of times what players on Discord make, but the service is not saturated: this is the
latency a player sees. With no pause every game plays flat out, so the service is saturated and
a move mostly waits for the 99 moves queued before it: that run measures throughput, and its
latency is simply 100 / throughput (Little's law).

``--database`` is what the bot's ``DVONN_DATABASE`` may be: an SQLite file (by default a fresh
temporary one; an existing file is reused, storing only the finished games it lacks) or a
``postgresql://`` URL (an empty database, or one an earlier run filled). ``--synchronous``
is SQLite's durability setting, so it is refused with a URL; PostgreSQL's is the server's
(``synchronous_commit``). To compare both backends in one run, alternating, on a throwaway
PostgreSQL server: ``python -m tests.bot.storagebench`` (it runs this module's functions).

``--housekeeping`` times :meth:`GameService.sweep`, the pass the bot makes every minute (losses
on time, reminders, daily digests, challenges expired, ratings left unrated), over ``--running``
running games on time banks, their deadlines spread evenly over the next ten days and all of
them reminded already but those of the last hour, half their players on a daily digest at an
hour and in a time zone drawn at random: first the pass after the bot was down for an hour
(the games whose banks ran out meanwhile end, their players are reminded, the digests of the
hour go out), then ``--passes`` passes a minute apart, as the bot makes them (a game runs out
about every minute and a half), then the pass at the next full hour, when that hour's digests
are due at once (players choose whole hours). Prints each in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import rules
from bot.games.core.timecontrol import PRESETS, Bank
from bot.games.notices.digests import next_digest, time_zone
from bot.games.service import GameService
from bot.storage import (
    Database,
    EndReason,
    Game,
    GameStatus,
    NewGame,
    NewMove,
    Result,
    Store,
    Writer,
    is_postgres,
    open_database,
)
from bot.storage.models import time_to_text
from tools.bench._stats import percentile

_PLAYERS = 2000
_START = datetime(2025, 1, 1, tzinfo=UTC)


def _random_game(rng: random.Random) -> tuple[list[rules.Move], rules.Position]:
    pos = rules.new_game()
    moves: list[rules.Move] = []
    while legal := rules.legal_moves(pos):
        move = rng.choice(legal)
        moves.append(move)
        pos = rules.play(pos, move)
    return moves, pos


async def _games_to_store(
    store: Store, count: int, rng: random.Random
) -> AsyncIterator[tuple[Writer, int, int, int]]:
    """For each of ``count`` games to insert: the transaction to insert it in (one for every
    500), its number, and its two players (White, Black), drawn at random."""
    per_transaction = 500
    for first in range(0, count, per_transaction):
        async with store.write() as tx:
            await tx.ensure_players(range(1, _PLAYERS + 1), _START)
            for number in range(first, min(count, first + per_transaction)):
                white, black = rng.sample(range(1, _PLAYERS + 1), 2)
                yield tx, number, white, black


def _stored_game(
    number: int,
    white: int,
    black: int,
    *,
    first_channel: int,
    when: datetime,
    deadline_at: datetime | None = None,
    bank: Bank | None = None,
) -> NewGame:
    """Game ``number`` of a benchmark's, in a channel of its own: on ``bank`` (both full,
    White to place by ``deadline_at``), or without a clock."""
    return NewGame(
        guild_id=1 + number % 50,
        channel_id=first_channel + number,
        parent_channel_id=None,
        challenge_id=None,
        white_id=white,
        black_id=black,
        position=rules.new_game(),
        clock_days=None,
        deadline_at=deadline_at,
        created_at=when,
        bank=None if bank is None else bank.to_text(),
        white_bank=None if bank is None else bank.cap,
        black_bank=None if bank is None else bank.cap,
    )


async def store_finished_games(store: Store, count: int, rng: random.Random) -> None:
    """Insert ``count`` finished random games, records included, in a few big transactions."""
    async for tx, number, white, black in _games_to_store(store, count, rng):
        moves, final = _random_game(rng)
        when = _START + timedelta(minutes=number)
        game = await tx.insert_game(
            _stored_game(number, white, black, first_channel=1_000_000, when=when)
        )
        outcome = rules.outcome(final)
        assert outcome is not None
        finished = dataclasses.replace(
            game,
            position=final,
            status=GameStatus.FINISHED,
            result=Result.won_by(outcome.winner),
            end_reason=EndReason.SCORE,
            score=(outcome.white, outcome.black),
            finished_at=when,
        )
        colours = [rules.colour_to_act(ply) for ply in range(len(moves))]
        await tx.save_game(
            finished,
            game.version,
            [
                NewMove(ply, c, game.player(c), m, False, when)
                for ply, (c, m) in enumerate(zip(colours, moves, strict=True))
            ],
        )


async def _new_game(service: GameService, channel: int, rng: random.Random) -> Game:
    a, b = rng.sample(range(_PLAYERS + 1, 2 * _PLAYERS), 2)
    challenge = await service.create_challenge(
        guild_id=99, channel_id=channel, challenger_id=a, opponent_id=b
    )
    return (await service.accept_challenge(challenge.id, b)).game


async def play_concurrently(
    service: GameService,
    concurrent: int,
    total_moves: int,
    *,
    think_ms: float,
    seed: int,
    first_channel: int,
) -> list[float]:
    """Play ``total_moves`` moves over ``concurrent`` games at once (in channels from
    ``first_channel`` on); every move's latency in seconds."""
    latencies: list[float] = []
    remaining = total_moves

    async def worker(index: int, game: Game) -> None:
        nonlocal remaining
        rng = random.Random(seed * 1000 + index)
        while remaining > 0:
            remaining -= 1
            if think_ms:
                await asyncio.sleep(rng.uniform(0, 2 * think_ms) / 1000)
            move = rng.choice(rules.legal_moves(game.position))
            user = game.to_move_id
            assert user is not None
            start = time.perf_counter()
            outcome = await service.play(game.id, user, move)
            latencies.append(time.perf_counter() - start)
            game = outcome.game
            if not game.is_active:  # a game ended: its players start another (not timed)
                game = await _new_game(service, first_channel + index, rng)

    # Start every game first, so that the timed moves do not queue behind 100 new games.
    rng = random.Random(seed)
    games = [await _new_game(service, first_channel + i, rng) for i in range(concurrent)]
    await asyncio.gather(*(worker(index, game) for index, game in enumerate(games)))
    return latencies


@dataclass(frozen=True)
class Figures:
    """One scenario's timed moves: latencies in seconds (sorted) over ``elapsed`` seconds."""

    think_ms: float
    latencies: list[float]
    elapsed: float

    def percentile(self, fraction: float) -> float:
        return percentile(self.latencies, fraction)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.latencies)

    @property
    def rate(self) -> float:
        """Moves a second."""
        return len(self.latencies) / self.elapsed

    @property
    def pause(self) -> str:
        """The scenario, for a reader."""
        return f"pause 0-{2 * self.think_ms:g} ms" if self.think_ms else "no pause (saturated)"

    def line(self) -> str:
        ms = 1000
        return (
            f"p50 {self.percentile(0.50) * ms:6.2f} ms"
            f"   p90 {self.percentile(0.90) * ms:6.2f} ms"
            f"   p99 {self.percentile(0.99) * ms:6.2f} ms"
            f"   max {self.latencies[-1] * ms:6.2f} ms"
            f"   mean {self.mean * ms:6.2f} ms"
            f"   {self.rate:,.0f} moves/s"
        )


async def store_running_games(
    store: Store, count: int, now: datetime, rng: random.Random, *, spread: timedelta
) -> None:
    """Insert ``count`` running games on the bank presets, White to place, each with White's
    deadline somewhere in the ``spread`` after ``now`` (at most a full bank away: White's turn
    began some time ago)."""
    async for tx, number, white, black in _games_to_store(store, count, rng):
        bank = PRESETS[number % len(PRESETS)]
        deadline_at = now + rng.uniform(0, 1) * min(spread, bank.cap)
        await tx.insert_game(
            _stored_game(
                number,
                white,
                black,
                first_channel=3_000_000,
                when=now,
                deadline_at=deadline_at,
                bank=bank,
            )
        )


DIGEST_ZONES = ("Europe/Warsaw", "America/New_York", "Asia/Seoul", "UTC", "Europe/Paris")


async def choose_digests(db: Database, now: datetime, rng: random.Random) -> int:
    """Half the players take the daily digest, at hours and in zones drawn at random, each due
    next at their hour after ``now``; returns how many."""
    players = [int(row[0]) for row in await db.fetch_all("SELECT user_id FROM players")]
    chosen = rng.sample(players, len(players) // 2)
    rows = []
    for user_id in chosen:
        hour, name = rng.randrange(24), rng.choice(DIGEST_ZONES)
        due = next_digest(now, hour, time_zone(name).zone)
        rows.append((hour, name, time_to_text(due), user_id))
    async with db.transaction() as conn:
        await conn.execute_many(
            "UPDATE players SET turn_notices = 'digest', digest_hour = ?, time_zone = ?, "
            "next_digest_at = ? WHERE user_id = ?",
            rows,
        )
    return len(chosen)


async def housekeeping(
    db: Database, *, running: int, passes: int, seed: int, synchronous: str | None = None
) -> list[str]:
    """Time the housekeeping pass over ``running`` games (see the module's doc); the lines to
    print."""
    rng = random.Random(seed)
    moment = [_START]
    service = GameService(Store(db), clock=lambda: moment[0], rng=rng)
    hour = timedelta(hours=1)
    try:
        await store_running_games(
            service.store, running, _START - hour, rng, spread=timedelta(days=10)
        )
        # Reminded already, but of the deadlines within the last hour's reach.
        async with db.transaction() as conn:
            await conn.execute(
                "UPDATE games SET reminded_for = deadline_at WHERE deadline_at <= ?",
                (time_to_text(_START + timedelta(hours=23)),),
            )
        digesting = await choose_digests(db, _START - hour, rng)
        where = await describe(db, synchronous)
        lines = [
            f"housekeeping, {running:,} running games on time banks, {digesting:,} players on "
            f"a daily digest; {where}"
        ]
        started = time.perf_counter()
        done = await service.sweep()
        elapsed = (time.perf_counter() - started) * 1000
        lines.append(
            f"  after an hour down: {elapsed:7.1f} ms  ({len(done.lost_on_time)} games lost on "
            f"time, {len(done.reminders)} reminders, {len(done.digests)} digests)"
        )
        times: list[float] = []
        ended = reminded = digested = 0
        for _ in range(passes):
            moment[0] += timedelta(minutes=1)
            started = time.perf_counter()
            done = await service.sweep()
            times.append((time.perf_counter() - started) * 1000)
            ended += len(done.lost_on_time)
            reminded += len(done.reminders)
            digested += len(done.digests)
        times.sort()
        lines.append(
            f"  every minute:       p50 {percentile(times, 0.5):5.1f} ms   max {times[-1]:5.1f} ms"
            f"  ({passes} passes: {ended} games lost on time, {reminded} reminders, "
            f"{digested} digests)"
        )
        moment[0] = moment[0].replace(minute=0, second=0, microsecond=0) + hour
        started = time.perf_counter()
        done = await service.sweep()
        elapsed = (time.perf_counter() - started) * 1000
        lines.append(
            f"  at the full hour:   {elapsed:7.1f} ms  ({len(done.lost_on_time)} games lost on "
            f"time, {len(done.reminders)} reminders, {len(done.digests)} digests)"
        )
        return lines
    finally:
        await service.close()


async def open_bench_database(target: str | Path, synchronous: str | None = None) -> Database:
    """Open (creating and migrating) the database ``target`` names: an SQLite file's path or a
    PostgreSQL URL. ``synchronous`` (SQLite only; ``None``: the backend's default, FULL)."""
    if is_postgres(target):
        if synchronous is not None:
            raise ValueError("synchronous is SQLite's setting; PostgreSQL's is the server's")
        return await open_database(target)
    return await open_database(target, synchronous=synchronous or "FULL")


async def fill(db: Database, store: Store, stored: int, rng: random.Random) -> str:
    """Make ``db`` hold ``stored`` finished games (a reused database: store only what it lacks);
    says what it holds, and how long storing took."""
    started = time.perf_counter()
    finished = (await db.fetch_all("SELECT count(*) FROM games WHERE status = 'finished'"))[0][0]
    await store_finished_games(store, max(0, stored - finished), rng)
    stored_moves = (await db.fetch_all("SELECT count(*) FROM moves"))[0][0]
    return (
        f"{max(finished, stored):,} finished games stored ({stored_moves:,} moves; "
        f"{time.perf_counter() - started:.1f} s)"
    )


async def scenario(
    db: Database,
    service: GameService,
    *,
    concurrent: int,
    moves: int,
    think_ms: float,
    seed: int,
) -> Figures:
    """Time ``moves`` moves over ``concurrent`` games in new channels (see the module's doc)."""
    # Fresh channels: the games of an earlier scenario (or run) are still running.
    last_channel = (await db.fetch_all("SELECT max(channel_id) FROM games"))[0][0]
    started = time.perf_counter()
    latencies = await play_concurrently(
        service,
        concurrent,
        moves,
        think_ms=think_ms,
        seed=seed,
        first_channel=max(2_000_000, (last_channel or 0) + 1),
    )
    return Figures(think_ms, sorted(latencies), time.perf_counter() - started)


async def describe(db: Database, synchronous: str | None = None) -> str:
    """The database and how durable its commits are."""
    if db.kind != "postgres":
        return f"{db.where}, synchronous={synchronous or 'FULL'}"
    row = await db.fetch_one(
        "SELECT version(), current_setting('synchronous_commit'), current_setting('fsync')"
    )
    assert row is not None
    return f"{db.where} ({row[0].split(' on ')[0]}), synchronous_commit={row[1]}, fsync={row[2]}"


async def run(args: argparse.Namespace, target: str | Path) -> None:
    rng = random.Random(args.seed)
    db = await open_bench_database(target, args.synchronous)
    if args.housekeeping:
        running = (await db.fetch_all("SELECT count(*) FROM games WHERE status = 'active'"))[0][0]
        if running:
            await db.close()
            raise SystemExit(f"--housekeeping needs a database without running games ({running})")
        report = await housekeeping(
            db,
            running=args.running,
            passes=args.passes,
            seed=args.seed,
            synchronous=args.synchronous,
        )
        print("\n".join(report))
        return
    store = Store(db)
    service = GameService(store, rng=rng)
    try:
        print(f"{await fill(db, store, args.stored, rng)}; {await describe(db, args.synchronous)}")
        print(f"play a move, {args.concurrent} games played at once, {args.moves:,} moves timed:")
        for think_ms in args.think_ms:
            figures = await scenario(
                db,
                service,
                concurrent=args.concurrent,
                moves=args.moves,
                think_ms=think_ms,
                seed=args.seed,
            )
            print(f"  {figures.pause:>22}: {figures.line()}")
    finally:
        await service.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--stored", type=int, default=10_000, help="finished games stored")
    parser.add_argument("--concurrent", type=int, default=100, help="games played at once")
    parser.add_argument("--moves", type=int, default=5_000, help="moves timed per scenario")
    parser.add_argument(
        "--think-ms",
        type=float,
        nargs="+",
        default=[500.0, 0.0],
        help="mean pause before each move, one scenario per value (default: 500 0)",
    )
    parser.add_argument(
        "--synchronous",
        choices=["FULL", "NORMAL"],
        help="SQLite's synchronous pragma (default FULL, as the bot); not with a URL",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--housekeeping",
        action="store_true",
        help="time the housekeeping pass instead of moves (see --running, --passes)",
    )
    parser.add_argument(
        "--running", type=int, default=10_000, help="--housekeeping: running games stored"
    )
    parser.add_argument(
        "--passes", type=int, default=30, help="--housekeeping: passes a minute apart timed"
    )
    parser.add_argument(
        "--database",
        "--db",
        metavar="TARGET",
        help="an SQLite file (default: a fresh temporary one) or a postgresql:// URL",
    )
    args = parser.parse_args(argv)
    if args.database is not None and is_postgres(args.database) and args.synchronous is not None:
        parser.error(
            "--synchronous is SQLite's setting; with a PostgreSQL URL, durability is the "
            "server's (synchronous_commit)"
        )
    if args.database is not None:
        asyncio.run(run(args, args.database))  # a path or a URL: open_database tells them apart
        return
    with tempfile.TemporaryDirectory(prefix="dvonn-bench-") as folder:
        asyncio.run(run(args, Path(folder) / "bench.sqlite3"))


if __name__ == "__main__":
    main()
