"""The DVONN network's benchmark: a network of 1,000 servers and 10,000 members, timed.

    .venv/bin/python -m tests.bot.networkbench [--servers 1000] [--players 10000]
        [--postgres [URL]] [--samples 300] [--seed 1] [--directory /tmp]

Builds the network straight through the store's writer (many rows a transaction: the setup is
not what is measured): ``--servers`` servers taking part, each with its network channel;
``--players`` members, nine in ten homed in a server's network channel and one in ten in their
DMs, each with a network rating; one in twenty with a block of another member; open network
challenges ("seeks", 3% of the members: 300 of 10,000), a third of them with a rating range.
Then measures, through the game service as the bot calls it:

- **listing** the seeks a member may take (``service.network.seeks_for``: not their own, none
  of a player either of them blocked, the range holding their rating), for ``--samples``
  members drawn at random;
- **accepting** one (``service.network.accept``: the game inserted with its homes and the rows
  that make them ready), a third of the seeks one after another; then, for twenty more, two
  members accepting the same seek at once, of which exactly one must win (checked: the run
  stops if not);
- **a championship season's start**: every member entered, the housekeeping job
  ``tournaments: starts due`` divides them into the pyramid by network rating (blocked pairs
  kept apart) and writes the season's plan; the job ``tournaments: seasons being made`` writes
  its divisions (each a round robin of network games with their homes), a batch a transaction
  (a season of few divisions: made whole with its plan, as a league always was);
- **a season's end**: the first season's results written straight into its pairings (every
  division finished), then the step that ends it (``rounds._season_maybe_over``, which a
  season's last game runs: for a league of more than twenty divisions it only ends the season);
  then the job plans the next season (every division's standings and the pyramid computed
  outside any write transaction, timed apart, then the plan written in a short one) and writes
  its divisions.

Every write transaction of a season's start and end is timed (from its start to its commit):
the longest is what any other write of the bot waits behind at most; the whole season's time
is the sum, the first transaction to the last batch's commit.

Prints p50/p99/max of each in milliseconds (a season's start and end: one run each). SQLite by
default (``synchronous=FULL``, as the bot, in a new file under ``--directory``); ``--postgres``
alone starts a throwaway server committing durably (:func:`tests.bot.benchkit.durable_postgres`),
``--postgres URL`` uses an empty database there. A benchmark, not a test: it never fails, but
for the exactly-once check.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

from bot.games.core.errors import ChallengeClosed
from bot.games.core.network import NETWORK
from bot.games.network.errors import NetworkChallengeTaken
from bot.games.service import GameService
from bot.games.tournaments import pyramid, rounds
from bot.games.tournaments.championship import DIVISION_SIZE
from bot.storage import (
    Database,
    Entrant,
    NewChallenge,
    RatingRow,
    Setup,
    Store,
    Tournament,
    TournamentStatus,
    UserId,
    Writer,
)
from bot.storage.models import time_to_text
from tests.bot.benchkit import DEFAULT_DIRECTORY, durable_postgres
from tools.bench._stats import percentile
from tools.bench.service import open_bench_database

T = TypeVar("T")

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
"""The benchmark's clock (fixed: nothing here waits for time)."""
FIRST_USER = 100_000_000_000
FIRST_GUILD = 200_000_000_000
FIRST_CHANNEL = 300_000_000_000
BATCH = 1_000
"""Rows a setup transaction writes."""
RACES = 20
"""Seeks accepted by two members at once."""


@dataclass
class Network:
    """What the setup made: servers, members (by id: their rating), blocks, seeks."""

    guilds: list[int]
    members: dict[UserId, float]
    blocks: list[tuple[UserId, UserId]]
    seeks: list[int] = field(default_factory=list)


@dataclass
class Timings:
    """Durations, in seconds, by what was measured."""

    by_name: dict[str, list[float]] = field(default_factory=dict)

    async def time(self, name: str, work: Awaitable[T]) -> T:
        """Await ``work`` (a coroutine: it starts here), timed under ``name``."""
        started = time.perf_counter()
        try:
            return await work
        finally:  # a refusal is timed too
            self.by_name.setdefault(name, []).append(time.perf_counter() - started)

    def render(self) -> str:
        lines = [f"{'':34}{'runs':>6}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}"]
        for name, values in self.by_name.items():
            ms = [v * 1000 for v in values]
            lines.append(
                f"{name:34}{len(ms):>6}{percentile(ms, 0.5):>10.1f}"
                f"{percentile(ms, 0.99):>10.1f}{max(ms):>10.1f}"
            )
        return "\n".join(lines)


class TimedStore(Store):
    """The store, each write transaction timed (start to commit) while :attr:`recording`."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.recording: list[float] | None = None

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[Writer]:
        started = time.perf_counter()
        async with super().write() as tx:
            yield tx
        if self.recording is not None:
            self.recording.append(time.perf_counter() - started)


async def transactions(
    store: TimedStore, timings: Timings, name: str, work: Awaitable[T]
) -> tuple[T, list[float]]:
    """Await ``work``, timing it whole under ``name``; and each write transaction it ran."""
    store.recording = []
    try:
        done = await timings.time(name, work)
        return done, store.recording
    finally:
        store.recording = None


def _report(timings: Timings, part: str, each: list[float], firsts: Sequence[str]) -> None:
    """The transactions of a season's ``part`` (start, end): the first ones, named ``firsts``
    (the plan; a season of few divisions made whole with it), the batches after them, and the
    longest of all."""
    for index, first in enumerate(firsts):
        timings.by_name[f"season {part}: {first}"] = each[index : index + 1]
    if each[len(firsts) :]:
        timings.by_name[f"season {part}: each later batch"] = each[len(firsts) :]
    timings.by_name[f"season {part}: longest transaction"] = [max(each)]
    _say(
        f"season {part}: {len(each)} write transactions, the longest {max(each):.2f} s "
        f"(the longest any other write waits), {sum(each):.1f} s in all"
    )


async def made_whole(service: GameService) -> None:
    """The housekeeping job making a season's divisions, pass after pass (each spends a few
    seconds at it), until none is left to make."""
    while (await service.tournaments.make_seasons()).divisions:
        pass


async def build(service: GameService, servers: int, players: int, rng: random.Random) -> Network:
    """The network, written in batches: servers, members (with ratings), blocks, seeks."""
    store = service.store
    now = service.now()
    guilds = [FIRST_GUILD + i for i in range(servers)]
    users = [FIRST_USER + i for i in range(players)]
    members = {u: min(2900.0, max(100.0, rng.gauss(1500.0, 250.0))) for u in users}
    homes = {u: (rng.choice(guilds) if rng.random() < 0.9 else None) for u in users}
    for part in _batches(guilds):
        async with store.write() as tx:
            await tx.ensure_players([FIRST_USER], now)
            for guild in part:
                await tx.set_channel(guild, FIRST_CHANNEL + guild - FIRST_GUILD, FIRST_USER, now)
    for part in _batches(users):
        async with store.write() as tx:
            await tx.ensure_players(part, now)
            for user in part:
                await tx.join(user, f"player{user - FIRST_USER}", homes[user], now)
                await tx.add_rating(RatingRow(NETWORK, user, members[user], 60.0, 0.06, 20), now)
    blockers = rng.sample(users, players // 20)
    blocks = []
    for blocker in blockers:
        blocked = rng.choice(users)
        if blocked != blocker:
            blocks.append((blocker, blocked))
    async with store.write() as tx:
        for blocker, blocked in blocks:
            await tx.block(blocker, blocked, now)
    network = Network(guilds, members, blocks)
    async with store.write() as tx:
        for user in rng.sample(users, max(1, players * 3 // 100)):
            ranged = rng.random() < 1 / 3
            rating = round(members[user])
            home = homes[user]
            made = await tx.insert_challenge(
                NewChallenge(
                    guild_id=home,
                    channel_id=FIRST_CHANNEL + (home - FIRST_GUILD if home else user),
                    challenger_id=user,
                    opponent_id=None,
                    challenger_colour=None,
                    clock_days=3,
                    bank=None,
                    created_at=now,
                    expires_at=now + timedelta(days=7),
                    setup=Setup.STANDARD,
                    network=True,
                    min_rating=max(0, rating - 300) if ranged else None,
                    max_rating=min(3000, rating + 300) if ranged else None,
                )
            )
            await tx.bump_seeks()
            network.seeks.append(made.id)
    return network


def _batches(items: Sequence[T]) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), BATCH):
        yield items[start : start + BATCH]


async def listing(
    service: GameService, network: Network, samples: int, rng: random.Random, timings: Timings
) -> int:
    """``samples`` members list the seeks they may take; how many they saw, on average."""
    seen = 0
    viewers = list(network.members)
    for _ in range(samples):
        viewer = rng.choice(viewers)
        seeks = await timings.time("list the seeks one may take", service.network.seeks_for(viewer))
        seen += len(seeks)
    return seen // max(1, samples)


async def _taker(
    service: GameService, network: Network, rng: random.Random, not_: set[UserId]
) -> tuple[UserId, int] | None:
    """A member (not in ``not_``) and the newest seek they may take."""
    viewers = list(network.members)
    for _ in range(50):
        viewer = rng.choice(viewers)
        if viewer in not_:
            continue
        seeks = await service.network.seeks_for(viewer)
        if seeks:
            return viewer, seeks[0].id
    return None


async def accepting(
    service: GameService, network: Network, rng: random.Random, timings: Timings
) -> tuple[int, int]:
    """A third of the seeks accepted one by one, then :data:`RACES` by two members at once;
    (games begun, races with exactly one winner)."""
    busy: set[UserId] = set()
    begun = 0
    for _ in range(len(network.seeks) // 3):
        taker = await _taker(service, network, rng, busy)
        if taker is None:
            break
        viewer, seek = taker
        started = await timings.time("accept a seek", service.network.accept(seek, viewer))
        busy.update({started.game.white_id, started.game.black_id})
        begun += 1
    single_winner = 0
    for _ in range(RACES):
        first = await _taker(service, network, rng, busy)
        if first is None:
            break
        viewer, seek = first
        second = None
        for _ in range(200):
            other = rng.choice(list(network.members))
            if other in busy or other == viewer:
                continue
            if any(s.id == seek for s in await service.network.seeks_for(other)):
                second = other
                break
        if second is None:
            continue
        results = await asyncio.gather(
            timings.time("accept a seek, two at once", service.network.accept(seek, viewer)),
            timings.time("accept a seek, two at once", service.network.accept(seek, second)),
            return_exceptions=True,
        )
        won = [r for r in results if not isinstance(r, BaseException)]
        lost = [r for r in results if isinstance(r, (NetworkChallengeTaken, ChallengeClosed))]
        if len(won) != 1 or len(lost) != 1:
            raise SystemExit(f"seek {seek} accepted by two at once: {results!r}")
        single_winner += 1
        busy.update({viewer, second})
        begun += 1
    return begun, single_winner


async def championship(
    service: GameService, network: Network, timings: Timings
) -> tuple[int, int, int]:
    """Every member entered; the first season started, then ended. (divisions of the first
    season, its pairings, divisions of the second)."""
    store = service.store
    opened = await service.championship.open_due()
    league = opened.championship
    assert league is not None
    now = service.now()
    entrants = list(network.members)
    for part in _batches(entrants):
        async with store.write() as tx:
            for user in part:
                seed = user - FIRST_USER + 1
                await tx.add_entrant(Entrant(league.id, user, seed, now))
    ladder = sorted(network.members, key=lambda u: -network.members[u])
    started = time.perf_counter()
    pyramid.divide(ladder, size=DIVISION_SIZE, blocked=network.blocks)
    timings.by_name["the pyramid alone (pure divide)"] = [time.perf_counter() - started]
    timed = store
    assert isinstance(timed, TimedStore), "run() makes the service over a TimedStore"

    async def start() -> list[int]:
        begun = await service.tournaments.start_due()
        await made_whole(service)
        return [t.id for t in begun]

    begun, each = await transactions(timed, timings, "season start (whole season)", start())
    assert begun == [league.id], begun
    _report(timings, "start", each, ["the plan"])
    league = await store.tournament(league.id)
    assert league is not None and league.season == 1
    db: Database = store.db
    rows = await db.fetch_all(
        "SELECT count(*) FROM tournaments WHERE league_id = ? AND season = 1", (league.id,)
    )
    divisions = rows[0][0]
    pairings = await db.fetch_all(
        "SELECT g.tournament_id, g.round, g.board, g.leg FROM tournament_games g "
        "JOIN tournaments t ON t.id = g.tournament_id WHERE t.league_id = ? AND t.season = 1 "
        "AND g.black_id IS NOT NULL",
        (league.id,),
    )
    rng = random.Random(7)
    # The season's results, written straight into its pairings; every division finished.
    async with db.transaction() as conn:
        await conn.execute_many(
            "UPDATE tournament_games SET result = ? WHERE tournament_id = ? AND round = ? "
            "AND board = ? AND leg = ?",
            [(rng.choice(("white", "black", "draw")), *key) for key in pairings],
        )
        await conn.execute(
            "UPDATE tournaments SET status = ?, finished_at = ? WHERE league_id = ? AND season = 1",
            (TournamentStatus.FINISHED.value, time_to_text(now), league.id),
        )

    computing: list[float] = []
    read_season_end, next_season_of = rounds.read_season_end, rounds.next_season_of

    async def read_timed(
        reader: rounds.SeasonReader, league: Tournament, divisions: Sequence[Tournament]
    ) -> rounds.SeasonEnd:
        started = time.perf_counter()
        try:
            return await read_season_end(reader, league, divisions)
        finally:
            computing.append(time.perf_counter() - started)

    def computed_timed(end: rounds.SeasonEnd, now: datetime) -> rounds.NextSeason:
        started = time.perf_counter()
        try:
            return next_season_of(end, now)
        finally:
            computing.append(time.perf_counter() - started)

    async def end() -> None:
        async with store.write() as tx:  # as the season's last game's end
            await rounds._season_maybe_over(tx, league.id, service.now())
        await made_whole(service)

    rounds.read_season_end, rounds.next_season_of = read_timed, computed_timed
    try:
        _, each = await transactions(timed, timings, "season end (whole season)", end())
    finally:
        rounds.read_season_end, rounds.next_season_of = read_season_end, next_season_of
    if len(each) > 1 and computing:  # the job computed it, outside, and wrote the plan
        timings.by_name["season end: next computed, outside"] = [sum(computing)]
        _report(timings, "end", each, ["the last game's end", "the plan"])
    else:  # a small league: planned and made whole in the last game's end
        _report(timings, "end", each, ["the plan"])
    later = await db.fetch_all(
        "SELECT count(*) FROM tournaments WHERE league_id = ? AND season = 2", (league.id,)
    )
    return divisions, len(pairings), later[0][0]


async def run(target: str | Path, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    db = await open_bench_database(target)
    service = GameService(
        TimedStore(db),
        clock=lambda: START,
        rng=random.Random(args.seed),
        network=True,
        network_season_start=START - timedelta(hours=1),
    )
    timings = Timings()
    try:
        started = time.perf_counter()
        network = await build(service, args.servers, args.players, rng)
        _say(
            f"network: {len(network.guilds):,} servers, {len(network.members):,} members, "
            f"{len(network.blocks):,} blocks, {len(network.seeks):,} open seeks "
            f"(built in {time.perf_counter() - started:.1f} s)"
        )
        seen = await listing(service, network, args.samples, rng, timings)
        _say(f"listing: a member may take {seen} seeks on average (up to 25 shown)")
        begun, races = await accepting(service, network, rng, timings)
        _say(
            f"accepting: {begun} network games begun; {races} seeks taken by two at once, "
            "each by exactly one"
        )
        divisions, pairings, later = await championship(service, network, timings)
        _say(
            f"championship: {len(network.members):,} entrants in {divisions} divisions, "
            f"{pairings:,} games written; next season {later} divisions"
        )
        _say(timings.render())
    finally:
        await db.close()


def _say(*parts: object) -> None:
    print(*parts, flush=True)  # a long run shows each part as it ends


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--players", type=int, default=10000)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--directory", type=Path, default=DEFAULT_DIRECTORY)
    parser.add_argument(
        "--postgres",
        nargs="?",
        const="",
        default=None,
        metavar="URL",
        help="PostgreSQL: an empty database's URL, or none for a throwaway server",
    )
    return parser


@contextlib.contextmanager
def _target(args: argparse.Namespace) -> Iterator[str | Path]:
    if args.postgres:
        yield args.postgres
        return
    if args.postgres == "":
        with durable_postgres(args.directory) as server:
            yield server.create_database("networkbench")
        return
    with tempfile.TemporaryDirectory(prefix="dvonn-networkbench-", dir=args.directory) as folder:
        yield Path(folder) / "network.sqlite3"


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    with _target(args) as target:
        backend = "PostgreSQL" if isinstance(target, str) else "SQLite"
        _say(f"{backend}: {target}")
        asyncio.run(run(target, args))


if __name__ == "__main__":
    main()
