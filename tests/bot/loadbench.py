"""Load benchmark of the real bot: many DVONN games at once through the fake Discord.

    .venv/bin/python -m tests.bot.loadbench --games 200 --turns 5 [--think 2]
        [--database sqlite|postgres] [--processes N] [--guilds 2]
        [--modes sqlite,postgres,postgres:2 --rounds 2]
    .venv/bin/python -m tests.bot.loadbench --rate 40 --seconds 60 --games 600 --guilds 20
        [--limits discord|global|off]

Starts the bot as ``python -m bot`` processes (as ``make run`` does) against the fake Discord
on 127.0.0.1, in this process, sets up ``--games`` games (a challenge accepted in its own
channel, so each game gets a thread), then every game's players take turns with random legal
moves through ``/dvonn place`` and ``/dvonn move``, thinking ``--think`` seconds on average
between turns. Each turn is timed from the interaction's dispatch until its answer shows the
move played: the board image itself, when the bot answers a move in the game's thread with it,
publicly; or else the player's private reply, which the bot writes once the turn's post with
the board image is out (so this slightly overstates the time to the image), or after 2.5 s,
saying the board is on its way. Waiting on each interaction's own answer keeps the harness
cheap: scanning channels for images makes the fake, not the bot, the bottleneck. Then,
separately, the time from each turn's commit to its post on Discord (from the outbox rows and
the posts' nonces), for the turns posted so.
Prints p50/p90/p99, and the CPU each part used (:class:`tests.bot.benchkit.CpuWatch`): the
fake with this harness, the bots' main processes, their render workers, PostgreSQL.

Two ways to offer the turns. By default in bursts: every game starts within ``--think``
seconds and its players think ``--think`` seconds on average (exponentially) between turns.
With ``--rate R`` at a steady rate instead: R turns a second for ``--seconds``, each game's
turns evenly spaced (``--games / R`` seconds apart) and the games' offset from one another, so
the offered load is constant (a turn waits only when its game's turn before is unanswered,
which is said). ``--turns`` and ``--think`` are then unused.

The fake enforces Discord's rate limits (:mod:`tests.fakediscord.ratelimits`; ``--limits
global``: without the per-channel buckets, ``off``: none), and the bench prints what the bot's
REST calls came to while playing: calls a turn, in all and counted against the global limit
of 50 a second (interaction callbacks and followups are not), by route; 429s by scope; invalid
requests (401, 403, 429s not ``shared``), which get the IP banned at 10,000 in 10 minutes.
The bots' own output (warnings and errors) goes to a file, whose lines the bench counts by
logger and message at the end (discord.py says there each 429 it waits out).

``--database``: an SQLite file in a temporary directory, or a fresh database on a throwaway
PostgreSQL server with durable commits (:func:`tests.bot.benchkit.durable_postgres`).
``--processes N``: the fake has N shards and N bot processes hold one each
(``DVONN_SHARD_COUNT=N``, ``DVONN_SHARDS=k``; N > 1 needs PostgreSQL). The games are spread
over ``--guilds`` servers, server i on shard i mod N, so the same workload runs on one process
or several; one process is started the same way (``DVONN_SHARDS=0`` of 1), so modes compare.

``--modes`` runs several modes in one run (``sqlite``, ``postgres``, ``postgres:2``...), the
same workload and seed each, ``--rounds`` times, in the opposite order every other round (the
machines are shared and noisy: compare within one run, taking turns), then prints a table.
A benchmark, not a test: it never fails.

``--network`` plays network games instead (:mod:`tests.bot.networkload`): ``--games`` (100)
between the members of ``--guilds`` (10) servers' network channels and of their DMs
(``--dm-share``), each board posted in both of its game's homes, every game moving at once for
``--turns`` rounds; that mode fails (exit status 1) if a home misses a board or gets one twice,
or on a 429 of the global limit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Final

import psycopg

import rules
from bot.storage import is_postgres
from tests.bot.benchkit import (
    DEFAULT_DIRECTORY,
    CpuUsage,
    CpuWatch,
    Group,
    durable_postgres,
    postmaster_pid,
)
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.loadbench import Game, Report
from tests.fakediscord.models import FakeChannel
from tests.fakediscord.ratelimits import RateLimits, TrafficSnapshot
from tests.fakediscord.server import FakeDiscord
from tests.postgres import PostgresServer

REPO = Path(__file__).resolve().parents[2]


def move_options(move: rules.Move) -> tuple[str, dict[str, str]]:
    if isinstance(move, rules.Place):
        return "dvonn place", {"cell": rules.CELL_NAMES[move.cell]}
    if isinstance(move, rules.Jump):
        return "dvonn move", {
            "from": rules.CELL_NAMES[move.source],
            "to": rules.CELL_NAMES[move.target],
        }
    return "dvonn play", {"move": "PASS"}


class Driver:
    """Knows every game's position and plays a random legal move for the side to act."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.positions: dict[int, rules.Position] = {}
        self.places: dict[int, FakeChannel] = {}

    async def turn(self, fake: FakeDiscord, game: Game, turn: int) -> InteractionResult:
        pos = self.positions.setdefault(game.number, rules.new_game())
        move = self.rng.choice(rules.legal_moves(pos))
        player = game.players[0] if pos.turn is rules.Colour.WHITE else game.players[1]
        command, options = move_options(move)
        place = self.places[game.number]
        result = fake.send_command(player, place, command, options)
        pos = rules.play(pos, move)
        while rules.legal_moves(pos) == (rules.PASS,):
            pos = rules.play(pos, rules.PASS)
        self.positions[game.number] = pos
        return result


async def set_up(fake: FakeDiscord, games: list[Game], driver: Driver) -> int:
    """Each game: its White player challenges its Black player, who accepts. Returns how many
    games are played in their channel because the bot opened no thread for them (it does so
    when starting the thread fails, e.g. rate limited past discord.py's five tries)."""

    def place_of(game: Game) -> FakeChannel | None:
        """The game's thread; or its channel, once the first board is posted there."""
        thread = next(iter(fake.threads_in(game.channel)), None)
        if thread is not None:
            return thread
        return game.channel if any(m.files for m in fake.messages_in(game.channel)) else None

    async def one(game: Game) -> None:
        white, black = game.players
        challenge = await fake.run_command(
            white, game.channel, "dvonn challenge", {"opponent": black, "colour": "W"}
        )
        assert challenge.message is not None, challenge.content
        await fake.click(black, challenge.message, label="Accept")
        place = await fake.wait_until(
            lambda: place_of(game), timeout=30, what="the game's thread, or its board"
        )
        assert place is not None
        await fake.wait_for_message(place, lambda m: bool(m.files), timeout=30)
        driver.places[game.number] = place

    for start in range(0, len(games), 20):  # a few at a time: setting up is not measured
        await asyncio.gather(*(one(g) for g in games[start : start + 20]))
    return sum(driver.places[game.number] is game.channel for game in games)


@dataclass(frozen=True)
class Mode:
    """Where the bots keep their data, and how many processes share the shards."""

    database: str
    processes: int = 1

    @staticmethod
    def parse(text: str) -> Mode:
        """``sqlite``, ``postgres`` or ``postgres:2`` (two processes)."""
        database, _, count = text.strip().partition(":")
        if database not in DATABASES or (count and not count.isdigit()):
            raise argparse.ArgumentTypeError(f"a mode is sqlite or postgres[:N], not {text!r}")
        mode = Mode(database, int(count or 1))
        if mode.processes < 1 or (mode.processes > 1 and database != "postgres"):
            raise argparse.ArgumentTypeError(
                f"{text}: several processes need PostgreSQL (SQLite serves one process)"
            )
        return mode

    @property
    def label(self) -> str:
        return self.database if self.processes == 1 else f"{self.database}:{self.processes}"


DATABASES = ("sqlite", "postgres")

LIMITS: Final[Mapping[str, Callable[[], RateLimits]]] = {
    "discord": RateLimits,
    "global": lambda: RateLimits(per_channel=False),
    "off": lambda: RateLimits(enabled=False),
}
"""``--limits``: Discord's rate limits in the fake, all of them, the global one only, none."""


def guild_id(index: int, shards: int) -> int:
    """The id of server ``index``, which Discord routes to shard ``index % shards``
    (``(id >> 22) % shards``)."""
    return ((1000 * shards + index) << 22) | 1


@dataclass
class Run:
    """One mode's run: the figures, the CPU used while playing, and the setup's time."""

    mode: Mode
    report: Report
    usage: CpuUsage
    setup_seconds: float
    finished: list[float] = field(default_factory=list)
    """When each timed turn got its reply (``time.perf_counter()``)."""
    traffic: TrafficSnapshot | None = None
    """The REST calls made while playing."""
    setup_traffic: TrafficSnapshot | None = None
    """The REST calls made before: starting the bots and setting up the games."""
    invalid_recent: int = 0
    """Invalid requests in the 10 minutes before the play ended."""
    invalid_peak: int = 0
    """The most invalid requests in any 10 minutes of the run."""
    threadless: int = 0
    """Games the bot opened no thread for (it plays them in their channel)."""
    log: str = ""
    """The bots' warnings and errors, counted (:func:`summarise_log`)."""

    @property
    def turns(self) -> int:
        return len(self.report.latencies) + len(self.report.failures)

    def per_turn(self, count: int) -> float:
        return count / self.turns if self.turns else float("nan")

    def render_traffic(self) -> str:
        """What the bot's REST calls came to: calls a turn, 429s, invalid requests."""
        played = self.traffic
        if played is None:
            return ""
        wall = self.report.wall_seconds or float("nan")
        routes = sorted(played.calls.items(), key=lambda item: -item[1])
        lines = [
            f"REST calls while playing: {played.total} ({self.per_turn(played.total):.2f} a "
            f"turn, {played.total / wall:.1f}/s); against the global limit: "
            f"{played.global_counted} ({self.per_turn(played.global_counted):.2f} a turn, "
            f"{played.global_counted / wall:.1f}/s of 50)",
            "  a turn, by route: "
            + ", ".join(f"{route} {self.per_turn(n):.2f}" for route, n in routes if n),
        ]
        for label, phase in (("while playing", played), ("setting up", self.setup_traffic)):
            if phase is None:
                continue
            scopes = ", ".join(
                f"{scope} {n}" for scope, n in sorted(phase.rate_limited.items()) if n
            )
            where = ", ".join(
                f"{route} {n}" for route, n in sorted(phase.limited_routes.items()) if n
            )
            lines.append(
                f"429s {label}: {scopes or 'none'}{f' ({where})' if where else ''}; "
                f"refused by a ban: {phase.banned}; invalid requests: {phase.invalid}"
            )
        rate = played.invalid / wall * 600
        lines.append(
            f"invalid requests: {rate:.0f} per 10 minutes at the play's rate; "
            f"{self.invalid_recent} in the last 10 minutes, at most {self.invalid_peak} in any "
            "10 (Cloudflare bans at 10,000)"
        )
        return "\n".join(lines)

    def peak_rate(self, window: float = 5.0) -> float:
        """The most turns answered in ``window`` seconds, a second: what the bots kept up with
        at the busiest moment (the offered load, unless that is more than they can do)."""
        times = sorted(self.finished)
        if len(times) < 2:
            return 0.0
        window = min(window, times[-1] - times[0]) or window  # a play shorter than the window
        most, first = 0, 0
        for last, moment in enumerate(times):
            while moment - times[first] > window:
                first += 1
            most = max(most, last - first + 1)
        return most / window


@contextlib.asynccontextmanager
async def bots(
    fake: FakeDiscord,
    database: str,
    processes: int,
    extra_env: Mapping[str, str],
    log: Path | None = None,
) -> AsyncIterator[list[asyncio.subprocess.Process]]:
    """``processes`` bots, ``python -m bot`` with one shard of ``processes`` each, on
    ``database``; the first syncs the commands (globally). Stopped (SIGTERM) at the end.
    ``log``: a file their output goes to (else this process's)."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DVONN_"))},
        "PYTHONPATH": str(REPO),
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "DVONN_DATABASE": database,
        "DVONN_SHARD_COUNT": str(processes),
        "DVONN_LOG_LEVEL": "WARNING",
        **extra_env,
    }
    started: list[asyncio.subprocess.Process] = []
    output = contextlib.ExitStack()
    sink = None if log is None else output.enter_context(log.open("ab"))

    async def start(shard: int, wanted: Callable[[], object], what: str) -> None:
        argv = ["--sync"] if shard == 0 else []
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            *argv,
            env=env | {"DVONN_SHARDS": str(shard)},
            cwd=REPO,
            stdout=sink,
            stderr=sink,
        )
        started.append(process)
        exited = asyncio.create_task(process.wait())
        ready = asyncio.create_task(fake.wait_until(wanted, timeout=60, what=what))
        await asyncio.wait({exited, ready}, return_when=asyncio.FIRST_COMPLETED)
        if exited.done():
            ready.cancel()
            raise RuntimeError(f"bot {shard} exited with {exited.result()} before it was ready")
        exited.cancel()
        ready.result()

    def serving(shard: int) -> bool:
        return any(s.shard.id == shard for s in fake.gateway.live_sessions())

    try:
        await start(0, fake.commands, "the commands' sync")
        await fake.wait_until(lambda: serving(0), timeout=60, what="shard 0")
        for shard in range(1, processes):
            await start(shard, functools.partial(serving, shard), f"shard {shard}")
        await fake.wait_for_ready(timeout=60)
        yield started
    finally:
        for process in started:
            if process.returncode is None:
                process.terminate()
        for process in started:
            try:
                await asyncio.wait_for(process.wait(), 15)
            except TimeoutError:
                process.kill()
                await process.wait()
        output.close()


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_LOG_LINE = re.compile(r"^\S+ \S+ (WARNING|ERROR|CRITICAL)\s+(\S+) (.*)$")
_VARYING = re.compile(r"https?://\S+|\d+(\.\d+)?")


def summarise_log(path: Path, top: int = 12) -> str:
    """The bots' warnings and errors, counted by logger and message (numbers and URLs
    blanked), most frequent first."""
    if not path.exists():
        return ""
    counts: Counter[str] = Counter()
    for raw in path.read_text(errors="replace").splitlines():
        match = _LOG_LINE.match(_ANSI.sub("", raw))
        if match is not None:
            level, logger, message = match.groups()
            counts[f"{level} {logger}: {_VARYING.sub('#', message)[:110]}"] += 1
    if not counts:
        return "the bots logged no warnings"
    lines = [f"the bots' warnings and errors ({sum(counts.values())}):"]
    lines += [f"  {n:6d} x {text}" for text, n in counts.most_common(top)]
    return "\n".join(lines)


async def benchmark(
    mode: Mode,
    *,
    games: int,
    turns: int,
    think: float,
    seed: int,
    guilds: int = 2,
    server: PostgresServer | None = None,
    bot_env: Mapping[str, str] = {},
    rate: float | None = None,
    seconds: float = 60.0,
    limits: RateLimits | None = None,
) -> Run:
    """One run in ``mode``; PostgreSQL modes make a fresh database on ``server``. With
    ``rate``, the turns come steadily (:func:`play_steady`) instead of in bursts; ``limits``:
    Discord's rate limits in the fake (all of them by default)."""
    driver = Driver(seed)
    with tempfile.TemporaryDirectory(prefix="dvonn-loadbench-", dir=DEFAULT_DIRECTORY) as folder:
        if mode.database == "postgres":
            assert server is not None, "PostgreSQL modes need a server"
            database = server.create_database()
        else:
            database = str(Path(folder) / "load.sqlite3")
        shards = mode.processes
        async with FakeDiscord(shard_count=shards, limits=limits) as fake:
            places = [
                fake.add_guild(f"load test {i}", guild_id=guild_id(i, shards))
                for i in range(guilds)
            ]
            setups = []
            for number in range(games):
                guild = places[number % guilds]
                channel = guild.add_text_channel(f"game-{number}")
                white = fake.add_user(f"w{number}", guild)
                black = fake.add_user(f"b{number}", guild)
                setups.append(Game(number, channel, (white, black)))
            log = Path(folder) / "bots.log"
            async with bots(fake, database, mode.processes, bot_env, log) as processes:
                started = time.perf_counter()
                threadless = await set_up(fake, setups, driver)
                setup_seconds = time.perf_counter() - started
                print(f"{mode.label}: set up {games} games in {setup_seconds:.1f} s", end="")
                print(f" ({threadless} in their channel: no thread)" if threadless else "")
                groups = [
                    Group("fake", [os.getpid()]),
                    Group("bots", [p.pid for p in processes]),
                    Group("render", [p.pid for p in processes], "children"),
                ]
                master = postmaster_pid(server) if server is not None else None
                if master is not None:
                    groups.append(Group("postgres", [master], "tree"))
                whole = [group.name for group in groups]
                if len(processes) > 1:  # how the work is shared
                    groups += [Group(f"bot {k}", [p.pid]) for k, p in enumerate(processes)]
                before = fake.traffic.snapshot()
                async with CpuWatch(groups, busiest_by=whole) as watch:
                    finished: list[float] = []
                    if rate is not None:
                        report = await play_steady(
                            fake, setups, driver, rate=rate, seconds=seconds, finished=finished
                        )
                    else:
                        report = await play(
                            fake, setups, turns, driver, think=think, seed=seed, finished=finished
                        )
                played = fake.traffic.snapshot() - before
                recent = fake.traffic.invalid_recent()
            report.deliveries = deliveries(fake, database)
        if server is not None and is_postgres(database):
            server.drop_database(database.rsplit("/", 1)[1])  # the bots have stopped
        run = Run(mode, report, watch.usage, setup_seconds, finished)
        run.traffic, run.setup_traffic = played, before
        run.invalid_recent, run.invalid_peak = recent, fake.traffic.invalid_peak
        run.threadless = threadless
        run.log = summarise_log(log)
        return run


def deliveries(fake: FakeDiscord, database: str) -> list[float]:
    """Seconds from each turn's commit (its outbox row's time) until its post existed on the
    fake Discord, found by the post's nonce (``dvonn-<row>``)."""
    query = "SELECT id, created_at FROM notifications WHERE kind = 'turn'"
    if is_postgres(database):
        with psycopg.connect(database) as pg:
            committed = [(int(r[0]), str(r[1])) for r in pg.execute(query).fetchall()]
    else:
        with contextlib.closing(sqlite3.connect(database, timeout=10)) as db:
            try:
                committed = db.execute(query).fetchall()
            except sqlite3.OperationalError:
                return []  # a bot from before the outbox
    delays = []
    for row_id, created_at in committed:
        message_id = fake.world.nonces.get((fake.world.bot.id, f"dvonn-{row_id}"))
        if message_id is not None:
            posted = fake.world.messages[message_id].created_at
            delays.append((posted - datetime.fromisoformat(created_at)).total_seconds())
    return delays


async def timed_turn(
    fake: FakeDiscord,
    game: Game,
    turn: int,
    driver: Driver,
    *,
    report: Report,
    finished: list[float] | None,
) -> None:
    """Play ``game``'s next turn and time it until the player's reply says it was played."""
    started = time.perf_counter()
    try:
        result = await driver.turn(fake, game, turn)
        await result.wait_response(timeout=30)
        await result.settled(timeout=30)
    except AssertionError as failure:  # InteractionFailed, FakeDiscordTimeout...
        report.failures.append(f"game {game.number} turn {turn}: {failure}")
        return
    board = result.message is not None and bool(result.message.files)
    if not board and "You played" not in result.content:
        report.failures.append(f"game {game.number} turn {turn}: {result.content!r}")
        return
    report.latencies.append(time.perf_counter() - started)
    if finished is not None:
        finished.append(time.perf_counter())


async def play(
    fake: FakeDiscord,
    games: list[Game],
    turns: int,
    driver: Driver,
    *,
    think: float,
    seed: int,
    finished: list[float] | None = None,
) -> Report:
    """Every game plays ``turns`` turns at once, players thinking ``think`` s on average;
    ``finished`` gets the moment each timed turn got its reply."""
    report = Report(games=len(games), turns=turns)
    rng = random.Random(seed)

    async def one_game(game: Game) -> None:
        await asyncio.sleep(rng.uniform(0, think))  # the load model: spread the moves out
        for turn in range(turns):
            if turn:
                await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
            await timed_turn(fake, game, turn, driver, report=report, finished=finished)

    started = time.perf_counter()
    await asyncio.gather(*(one_game(game) for game in games))
    report.wall_seconds = time.perf_counter() - started
    return report


LATE: Final = 0.05
"""A turn that starts more than this after its moment in a steady schedule is noted as late."""


def steady_schedule(games: Sequence[int], rate: float, seconds: float) -> dict[int, list[float]]:
    """When each game's turns come (seconds from the start), ``rate`` a second in all for
    ``seconds``: turn slot k, at k / rate, goes to game k mod games, so each game's turns are
    ``len(games) / rate`` seconds apart and the games are offset by ``1 / rate``."""
    moments: dict[int, list[float]] = {game: [] for game in games}
    for slot in range(max(1, round(rate * seconds))):
        moments[games[slot % len(games)]].append(slot / rate)
    return moments


async def play_steady(
    fake: FakeDiscord,
    games: list[Game],
    driver: Driver,
    *,
    rate: float,
    seconds: float,
    finished: list[float] | None = None,
) -> Report:
    """Turns at a constant rate (:func:`steady_schedule`), each timed from when it is sent; a
    turn whose game's turn before is still unanswered waits for it, and is noted as late."""
    schedule = steady_schedule([game.number for game in games], rate, seconds)
    slots = sum(len(moments) for moments in schedule.values())
    report = Report(games=len(games), turns=-(-slots // len(games)))
    report.schedule = (
        f"{len(games)} games, {rate:g} turns/s for {seconds:g} s ({slots} turns, each game's "
        f"{len(games) / rate:.1f} s apart)"
    )
    loop = asyncio.get_running_loop()
    start = loop.time()

    async def one_game(game: Game) -> None:
        for turn, moment in enumerate(schedule[game.number]):
            delay = start + moment - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            elif -delay > LATE:
                report.late_starts.append(-delay)
            await timed_turn(fake, game, turn, driver, report=report, finished=finished)

    started = time.perf_counter()
    await asyncio.gather(*(one_game(game) for game in games if schedule[game.number]))
    report.wall_seconds = time.perf_counter() - started
    return report


def table(runs: list[Run]) -> str:
    """Every run, then each mode's medians over its runs."""

    def ms(seconds: float) -> str:
        return f"{seconds * 1000:7.1f}"

    head = (
        f"{'mode':>11} | {'turns/s':>7} {'peak/s':>6} "
        f"{'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7} {'max ms':>7} | "
        f"{'post50':>7} {'post90':>7} {'post99':>7} | {'fail':>4} | "
        f"{'fake':>5} {'bots':>5} {'render':>6} {'pg':>5} {'mach.':>5} | peak 5 s: "
        f"{'fake':>5} {'bots':>5} {'render':>6} {'pg':>5} {'mach.':>5}"
    )

    def row(label: str, group: list[Run]) -> str:
        def med(values: list[float]) -> float:
            return statistics.median(values) if values else float("nan")

        def cpu(name: str, peak: bool = False) -> str:
            shares = [(r.usage.peak_groups if peak else r.usage.groups).get(name) for r in group]
            return f"{med([v for v in shares if v is not None]):4.0f}%"

        reports = [r.report for r in group]
        rates = [(len(r.latencies) + len(r.failures)) / r.wall_seconds for r in reports]
        return (
            f"{label:>11} | {med(rates):7.1f} {med([r.peak_rate() for r in group]):6.1f} "
            + " ".join(ms(med([r.percentile(p) for r in reports])) for p in (50, 90, 99))
            + f" {ms(med([max(r.latencies, default=float('nan')) for r in reports]))} | "
            + " ".join(
                ms(med([r.percentile(p, r.deliveries) for r in reports])) for p in (50, 90, 99)
            )
            + f" | {med([float(len(r.failures)) for r in reports]):4.0f} | "
            + f"{cpu('fake')} {cpu('bots')} {cpu('render'):>6} {cpu('postgres')} "
            + f"{med([r.usage.machine_busy for r in group]):4.0f}% |"
            + f"{'':>10}{cpu('fake', True)} {cpu('bots', True)} {cpu('render', True):>6} "
            + f"{cpu('postgres', True)} "
            + f"{med([r.usage.peak_machine for r in group]):4.0f}%"
        )

    lines = [
        "every run (turns/s: over the whole play; peak/s: the most answered in 5 s; CPU: % of "
        f"one core over the play, then in its busiest 5 s; {os.cpu_count()} cores)",
        head,
    ]
    lines += [row(r.mode.label, [r]) for r in runs]
    modes = list(dict.fromkeys(r.mode for r in runs))
    if len(runs) > len(modes):
        lines += ["medians over the rounds", head]
        lines += [row(m.label, [r for r in runs if r.mode == m]) for m in modes]
    return "\n".join(lines)


async def compare(args: argparse.Namespace, server: PostgresServer | None) -> list[Run]:
    modes: list[Mode] = args.modes
    runs: list[Run] = []
    for round_number in range(args.rounds):
        for mode in modes if round_number % 2 == 0 else modes[::-1]:
            run = await benchmark(
                mode,
                games=args.games,
                turns=args.turns,
                think=args.think,
                seed=args.seed,
                guilds=args.guilds,
                server=server,
                bot_env=dict(item.split("=", 1) for item in args.bot_env),
                rate=args.rate,
                seconds=args.seconds,
                limits=LIMITS[args.limits](),
            )
            print(f"{mode.label}, round {round_number + 1}:")
            print(run.report.render())
            print(f"most turns answered in 5 s: {run.peak_rate():.1f}/s")
            print(run.render_traffic())
            print(run.log)
            print(run.usage.render(), flush=True)
            runs.append(run)
    return runs


async def compare_network(args: argparse.Namespace, server: PostgresServer | None) -> bool:
    """``--network``: each mode's network run, printed; whether any failed."""
    from tests.bot.networkload import network_benchmark  # noqa: PLC0415 - it imports this

    failed = False
    for round_number in range(args.rounds):
        for mode in args.modes if round_number % 2 == 0 else args.modes[::-1]:
            run = await network_benchmark(
                mode,
                games=args.games,
                servers=args.guilds,
                dm_share=args.dm_share,
                turns=args.turns,
                seed=args.seed,
                server=server,
                limits=LIMITS[args.limits](),
            )
            print(run.render(), flush=True)
            failed |= run.failed
    return failed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--network",
        action="store_true",
        help="network games, each posted in two homes (tests/bot/networkload.py): --games "
        "(default 100) between members of --guilds servers (default 10)",
    )
    parser.add_argument(
        "--dm-share",
        type=float,
        default=0.1,
        help="with --network: the members homed in their DMs (no network channel)",
    )
    parser.add_argument("--games", type=int, help="games (default 200; --network: 100)")
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds between turns")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", choices=DATABASES, default="sqlite")
    parser.add_argument("--processes", type=int, default=1, help="bot processes, a shard each")
    parser.add_argument(
        "--modes",
        type=lambda text: [Mode.parse(part) for part in text.split(",")],
        help="compare these in one run, e.g. sqlite,postgres,postgres:2 (overrides "
        "--database and --processes)",
    )
    parser.add_argument("--rounds", type=int, default=1, help="runs of each mode, in turn")
    parser.add_argument(
        "--guilds", type=int, help="servers the games are spread over (default 2; --network: 10)"
    )
    parser.add_argument("--bot-env", action="append", default=[], help="KEY=VALUE for the bots")
    parser.add_argument(
        "--rate",
        type=float,
        help="offer this many turns a second, steadily, for --seconds (instead of --turns and "
        "--think's bursts)",
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="how long --rate lasts")
    parser.add_argument(
        "--limits",
        choices=sorted(LIMITS),
        default="discord",
        help="Discord's rate limits in the fake: all (discord), the global one only, or none",
    )
    args = parser.parse_args(argv)
    if args.games is None:
        args.games = 100 if args.network else 200
    if args.guilds is None:
        args.guilds = 10 if args.network else 2
    if args.rate is not None and args.rate <= 0:
        parser.error("--rate is turns a second, more than 0")
    if args.modes is None:
        try:
            args.modes = [Mode.parse(f"{args.database}:{args.processes}")]
        except argparse.ArgumentTypeError as error:
            parser.error(str(error))
    if args.network and not 0 <= args.dm_share <= 0.5:
        parser.error("--dm-share is a share of the members, from 0 to 0.5")
    with contextlib.ExitStack() as stack:
        server = None
        if any(mode.database == "postgres" for mode in args.modes):
            server = stack.enter_context(durable_postgres())
        if args.network:
            failed = asyncio.run(compare_network(args, server))
            if failed:
                raise SystemExit(1)
            return
        runs = asyncio.run(compare(args, server))
    if len(runs) > 1:
        print(table(runs))


if __name__ == "__main__":
    main()
