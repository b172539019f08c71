"""The load benchmark's network mode (``python -m tests.bot.loadbench --network``): network
games turning at once through the fake Discord, each board posted in both of its game's homes.

    .venv/bin/python -m tests.bot.loadbench --network [--games 100] [--guilds 10]
        [--dm-share 0.1] [--turns 5] [--database sqlite|postgres] [--processes N]

The bots (``python -m bot``, as :func:`tests.bot.loadbench.bots` starts them) run with the
network on (``DVONN_NETWORK=on``). Everything goes through the fake Discord, as players and
moderators do, with its rate limits on (per route and channel, and the global one):

- ``--guilds`` servers, each with a ``network`` channel that a moderator (Manage Server) names
  the server's network channel with ``/network server``;
- twice ``--games`` members who join with ``/network join``: from their server's network
  channel, or, for ``--dm-share`` of them (one in ten), from their DMs with the bot, having
  installed the app to their account and sharing no server with it (their games' home is their
  DMs);
- ``--games`` games, each between members of two different servers (or a server and DMs):
  White challenges Black with ``/network challenge player:`` from White's home, the challenge
  is posted in Black's home, Black taps Accept; the bot makes both homes (a thread in each
  network channel, or the DMs) and posts the first board in each. Twenty games at a time (the
  setup is not what is measured).

Then every game makes a move at once, ``--turns`` times: each round, all the players to move
send their move as a command from their own home (a random legal move) at the same moment; the
round ends once every home has the round's board. Timed for each move: from its dispatch to
its board in the mover's home (the command's answer, when the bot answers with the board; else
its post there) and to its board in the other home (the post the bot's outbox makes there:
Discord's creation time of the message). Printed: p50/p95/max of both, the board posts a second
the homes got, the REST calls against the global limit, 429s by scope (Discord's global limit
must give none; discord.py's buckets wait out the per-route ones), whether every home got every
board exactly once, in order, pinging only its own player (:func:`check_home`, from the network's
crash test; read against the moves the database holds), and the peak memory of the bots, their
render workers and this process (the fake with the harness).

The run fails (exit status 1) if a home missed a board or got one twice, if a move was refused
or its board never came, or if the global limit answered a 429. The times are figures, never a
pass mark; so are the commands the bot did not answer within Discord's 3 seconds (counted: the
player sees "The application did not respond", though the move may be played and its boards
posted, which the check covers), which a machine too busy to run the bot can cause.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
import resource
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

import rules
from bot.i18n import _
from bot.storage import is_postgres
from tests.bot.benchkit import DEFAULT_DIRECTORY, peak_rss
from tests.bot.e2e.helpers import (
    is_board_post,
    join_network,
    name_network_channel,
    played_privately,
    said,
)
from tests.bot.e2e.test_crashes import Stored, board_posts
from tests.bot.e2e.test_crashes import stored as stored_in_file
from tests.bot.e2e.test_network_crashes import check_home
from tests.bot.e2e.test_shards import stored as stored_in_postgres
from tests.bot.loadbench import Mode, bots, guild_id, move_options, summarise_log
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, InteractionFailed, Permission
from tests.fakediscord.ratelimits import RateLimits, TrafficSnapshot
from tests.postgres import PostgresServer

SETUP_AT_ONCE = 10
"""Members joining, and games set up, at a time."""
ROUND_TIMEOUT = 120.0
"""Seconds a round may take before its missing boards are failures."""
DOUBLES_WAIT = 1.0
"""Seconds waited after the last round before counting, so a board posted twice is seen."""


@dataclass
class NetworkGame:
    """One network game: its players, where each moves from, and (once begun) its id."""

    number: int
    white: FakeUser
    black: FakeUser
    places: dict[str, FakeChannel]
    """Where each seat's player runs commands before the game has homes: their network channel,
    or their DMs with the bot."""
    game_id: int = 0
    homes: dict[str, FakeChannel] = field(default_factory=dict)
    """The game's home of each seat ('W', 'B'): a thread, or the player's DMs."""
    position: rules.Position = field(default_factory=rules.new_game)

    def player(self, seat: str) -> FakeUser:
        return self.white if seat == "W" else self.black


@dataclass
class NetworkRun:
    """What a network run measured."""

    mode: Mode
    servers: int
    members: int
    dm_members: int
    games: int
    turns: int
    setup_seconds: float = 0.0
    mover_home: list[float] = field(default_factory=list)
    """Seconds from each move's dispatch to its board in the mover's home."""
    other_home: list[float] = field(default_factory=list)
    """Seconds from each move's dispatch to its board in the other home."""
    moves: int = 0
    """Moves sent."""
    rounds: list[float] = field(default_factory=list)
    """Seconds each round took, from its moves' dispatch to the last home's board."""
    play_seconds: float = 0.0
    board_posts: int = 0
    """Boards the homes got while playing (placement boards replaced since included)."""
    traffic: TrafficSnapshot | None = None
    setup_traffic: TrafficSnapshot | None = None
    failures: list[str] = field(default_factory=list)
    """Moves refused, or boards that never came."""
    unanswered: list[str] = field(default_factory=list)
    """Moves whose command got no answer within Discord's 3 seconds (the player is shown "The
    application did not respond"); their boards may still come, and are checked as any."""
    homes_checked: int = 0
    home_errors: list[str] = field(default_factory=list)
    """Homes without every board exactly once, in order, pinging only their player."""
    bot_rss: dict[int, int] = field(default_factory=dict)
    """Peak RSS (KiB) of each bot process."""
    render_rss: dict[int, int] = field(default_factory=dict)
    """Peak RSS (KiB) of each of the bots' descendants (their render workers)."""
    harness_rss: int = 0
    """Peak RSS (KiB) of this process: the fake Discord and the harness."""
    log: str = ""

    @property
    def global_429s(self) -> int:
        phases = (self.traffic, self.setup_traffic)
        return sum(p.rate_limited.get("global", 0) for p in phases if p is not None)

    @property
    def failed(self) -> bool:
        return bool(self.failures or self.home_errors or self.global_429s)

    def render(self) -> str:
        def ms(values: list[float]) -> str:
            if not values:
                return "none"
            ordered = sorted(values)

            def at(p: float) -> float:
                return ordered[min(len(ordered) - 1, max(0, round(p * len(ordered)) - 1))]

            return (
                f"p50 {at(0.50) * 1000:.0f} ms, p95 {at(0.95) * 1000:.0f} ms, "
                f"max {ordered[-1] * 1000:.0f} ms ({len(values)} moves)"
            )

        def mib(kib: int) -> str:
            return f"{kib / 1024:.0f} MiB"

        wall = self.play_seconds or float("nan")
        lines = [
            f"network, {self.mode.label}: {self.servers} servers, {self.members} members "
            f"({self.dm_members} homed in their DMs), {self.games} games between members of "
            f"different servers; set up in {self.setup_seconds:.1f} s",
            f"{self.turns} rounds, every game moving at once: {self.moves} moves in "
            f"{self.play_seconds:.1f} s; a round took "
            + (", ".join(f"{r:.1f}" for r in self.rounds) or "-")
            + " s",
            f"move -> board in the mover's home: {ms(self.mover_home)}",
            f"move -> board in the other home:   {ms(self.other_home)}",
            f"boards posted in the homes: {self.board_posts} ({self.board_posts / wall:.1f}/s "
            "over the rounds)",
        ]
        played = self.traffic
        if played is not None:
            lines.append(
                f"REST calls while playing: {played.total} ({played.total / wall:.1f}/s); "
                f"against the global limit: {played.global_counted} "
                f"({played.global_counted / wall:.1f}/s of 50); by route: "
                + ", ".join(
                    f"{route} {n}"
                    for route, n in sorted(played.calls.items(), key=lambda item: -item[1])
                    if n
                )
            )
        for label, phase in (("while playing", played), ("setting up", self.setup_traffic)):
            if phase is None:
                continue
            scopes = {scope: n for scope, n in phase.rate_limited.items() if n}
            where = ", ".join(f"{r} {n}" for r, n in sorted(phase.limited_routes.items()) if n)
            lines.append(
                f"429s {label}: global {scopes.pop('global', 0)}, per route (discord.py's "
                f"buckets wait them out) {scopes.pop('user', 0)}, shared {scopes.pop('shared', 0)}"
                + (f" ({where})" if where else "")
                + (f", other {scopes}" if scopes else "")
            )
        verdict = (
            "yes"
            if not self.home_errors
            else f"NO, {len(self.home_errors)} of {self.homes_checked} homes"
        )
        lines.append(
            f"every home got every board exactly once, in order, pinging only its player: "
            f"{verdict} ({self.homes_checked} homes checked)"
        )
        lines.extend(f"  {error}" for error in self.home_errors[:10])
        lines.append(
            "peak RSS: bots "
            + (", ".join(mib(k) for k in self.bot_rss.values()) or "-")
            + "; their render workers "
            + (", ".join(mib(k) for k in self.render_rss.values()) or "none")
            + f"; this process (the fake Discord and the harness) {mib(self.harness_rss)}"
        )
        lines.append(
            f"commands unanswered within Discord's 3 s: {len(self.unanswered)} of {self.moves}"
            + (f" (e.g. {', '.join(self.unanswered[:3])})" if self.unanswered else "")
        )
        lines.append(f"failures: {len(self.failures)}")
        lines.extend(f"  {failure}" for failure in self.failures[:10])
        if self.global_429s:
            lines.append(f"FAILED: {self.global_429s} 429s of Discord's global limit")
        if self.log:
            lines.append(self.log)
        return "\n".join(lines)


def homes_of_members(members: int, servers: int, dm_share: float) -> list[int | None]:
    """Each member's home: a server's index, or ``None`` (DMs) for ``dm_share`` of them, spread
    evenly; the servers' members in turn."""
    homes: list[int | None] = []
    in_servers = 0
    for k in range(members):
        if int((k + 1) * dm_share) > int(k * dm_share):
            homes.append(None)
        else:
            homes.append(in_servers % servers)
            in_servers += 1
    return homes


def pairs(homes: list[int | None]) -> list[tuple[int, int]]:
    """The members (indices) paired so that no pair shares a server: sorted by home (DMs last),
    the first half plays the second half, in order. Fails if a server holds more than half."""
    order = sorted(range(len(homes)), key=lambda k: (homes[k] is None, homes[k] or 0, k))
    half = len(order) // 2
    found = list(zip(order[:half], order[half:], strict=True))
    for white, black in found:
        if homes[white] is not None and homes[white] == homes[black]:
            raise ValueError("a server holds more than half the members: add servers")
    return found


def _rows(database: str, query: str) -> list[tuple[object, ...]]:
    if is_postgres(database):
        with psycopg.connect(database) as pg:
            return [tuple(row) for row in pg.execute(query).fetchall()]
    with contextlib.closing(sqlite3.connect(database, timeout=10)) as db:
        return [tuple(row) for row in db.execute(query).fetchall()]


def stored(database: str, game_id: int) -> Stored:
    """The game as the database holds it now."""
    if is_postgres(database):
        return stored_in_postgres(database, game_id)
    return stored_in_file(Path(database), game_id)


HOMES = (
    "SELECT g.id, g.white_id, g.black_id, h.seat, h.channel_id FROM games g "
    "JOIN game_homes h ON h.game_id = g.id "
    "WHERE g.network = 1 AND g.status = 'active' AND h.channel_id IS NOT NULL"
)


async def set_up(
    fake: FakeDiscord, games: list[NetworkGame], database: str, accept: str
) -> list[str]:
    """Each game: White challenges Black from White's home, Black accepts the post in theirs;
    then both homes, with their first board. Returns what went wrong."""
    problems: list[str] = []

    async def challenge(game: NetworkGame) -> None:
        white, black = game.white, game.black
        there = game.places["B"]
        before = fake.mark()
        made = await fake.run_command(
            white,
            game.places["W"],
            "network challenge",
            {"player": str(black.id), "colour": "W"},
            timeout=60,
        )
        assert made.ephemeral, made.content

        dm = there.guild_id is None
        post = await fake.wait_for_message(
            there,
            lambda m: bool(m.buttons()) and (dm or black.id in m.pinged_user_ids),
            after=before,
            timeout=60,
        )
        accepted = await fake.click(black, post, label=accept, timeout=60)
        assert accepted.responded, accepted

    def ready(chunk: list[NetworkGame]) -> bool:
        found: dict[tuple[int, int], tuple[int, dict[str, int]]] = {}
        for game_id, white_id, black_id, seat, channel_id in _rows(database, HOMES):
            key = (int(str(white_id)), int(str(black_id)))
            entry = found.setdefault(key, (int(str(game_id)), {}))
            entry[1][str(seat)] = int(str(channel_id))
        for game in chunk:
            if game.homes:
                continue
            made = found.get((game.white.id, game.black.id))
            if made is None or set(made[1]) != {"W", "B"}:
                continue
            channels = {seat: fake.world.channel(cid) for seat, cid in made[1].items()}
            if all(board_posts(fake, place) for place in channels.values()):
                game.game_id, game.homes = made[0], channels
        return all(game.homes for game in chunk)

    for start in range(0, len(games), SETUP_AT_ONCE):
        chunk = games[start : start + SETUP_AT_ONCE]
        results = await asyncio.gather(*(challenge(g) for g in chunk), return_exceptions=True)
        for game, result in zip(chunk, results, strict=True):
            if isinstance(result, BaseException):
                problems.append(f"game {game.number}: not set up: {result!r}")
        waited = time.perf_counter() + 120
        while not ready(chunk) and time.perf_counter() < waited:
            await asyncio.sleep(0.5)
        problems += [f"game {g.number}: no homes with their boards" for g in chunk if not g.homes]
    for game in games:
        if game.homes:
            game.position = stored(database, game.game_id).position
    return problems


async def play(
    fake: FakeDiscord, games: list[NetworkGame], turns: int, rng: random.Random, run: NetworkRun
) -> None:
    """``turns`` rounds; in each, every game's player to move moves at once from their home."""
    live = [game for game in games if game.homes]
    started = time.perf_counter()
    for turn in range(turns):
        live = await play_round(fake, live, turn, rng, run)
    run.play_seconds = time.perf_counter() - started


async def play_round(
    fake: FakeDiscord, games: list[NetworkGame], turn: int, rng: random.Random, run: NetworkRun
) -> list[NetworkGame]:
    """Every game's player to move sends a random legal move from their home, all at once;
    then waits until each game's homes have the round's board. The games that moved."""
    mark = fake.mark()
    dispatched = time.time()
    at = time.perf_counter()
    answered: dict[int, float] = {}  # game number: seconds to the board as the answer
    movers: dict[int, str] = {}  # game number: the seat that moved

    async def one(game: NetworkGame) -> None:
        pos = game.position
        seat = pos.turn.value
        movers[game.number] = seat
        move = rng.choice(rules.legal_moves(pos))
        command, options = move_options(move)
        result = fake.send_command(game.player(seat), game.homes[seat], command, options)
        run.moves += 1
        after = rules.play(pos, move)
        while rules.legal_moves(after) == (rules.PASS,):
            after = rules.play(after, rules.PASS)
        game.position = after  # the check at the end compares it with the database's
        await result.wait_response()  # until Discord's deadline
        if not result.responded:
            run.unanswered.append(f"game {game.number} round {turn + 1}: {move}")
            return  # the move may still be played: its boards are waited for
        await result.settled(timeout=60)
        if is_board_post(result.message):
            answered[game.number] = time.perf_counter() - at
        elif not played_privately(result, str(move)):
            raise AssertionError(f"{move} answered {result.content!r}")

    results = await asyncio.gather(*(one(g) for g in games), return_exceptions=True)
    moved = []
    for game, result in zip(games, results, strict=True):
        if isinstance(result, BaseException):
            run.failures.append(f"game {game.number} round {turn + 1}: {result!r}")
        else:
            moved.append(game)

    world = fake.world
    read: dict[int, int] = {}  # home (channel id): how many of its messages were looked at

    def first_board(home: FakeChannel) -> float | None:
        """Seconds from the dispatch to the round's first board in ``home``. Looks only at
        the messages not looked at before: the fake, in this process, must not be starved."""
        ids = world.channel_messages.get(home.id, [])
        for index in range(read.get(home.id, 0), len(ids)):
            post = world.messages[ids[index]]
            if post.loading:
                return None  # a deferred answer still to be filled in: looked at again
            read[home.id] = index + 1
            if post.id > mark and post.author_id == world.bot.id and is_board_post(post):
                return post.created_at.timestamp() - dispatched
        return None

    pending = {(game.number, seat): game for game in moved for seat in ("W", "B")}
    seen: dict[tuple[int, str], float] = {}
    deadline = time.perf_counter() + ROUND_TIMEOUT
    while pending and time.perf_counter() < deadline:
        for key, game in list(pending.items()):
            found = first_board(game.homes[key[1]])
            if found is not None:
                seen[key] = found
                del pending[key]
        if pending:
            await asyncio.sleep(0.1)
    run.rounds.append(time.perf_counter() - at)
    for number, seat in pending:
        run.failures.append(f"game {number} round {turn + 1}: no board in {seat}'s home")
    for game in moved:
        mover = movers[game.number]
        other = "B" if mover == "W" else "W"
        if game.number in answered:
            run.mover_home.append(answered[game.number])
        elif (game.number, mover) in seen:
            run.mover_home.append(seen[(game.number, mover)])
        if (game.number, other) in seen:
            run.other_home.append(seen[(game.number, other)])
    return moved


def boards_in_homes(fake: FakeDiscord, games: Iterable[NetworkGame]) -> int:
    """The boards the games' homes hold, the placement boards replaced since included."""
    return sum(len(board_posts(fake, home)) for game in games for home in game.homes.values())


async def again(command: Callable[[], Awaitable[None]], tries: int = 3) -> None:
    """Run a setup command that may be run twice (naming a network channel, joining), again
    while the bot does not answer it in time: a machine too busy makes it miss Discord's 3
    seconds now and then, and the setup is not what is measured."""
    for attempt in range(tries):
        try:
            await command()
            return
        except InteractionFailed:
            if attempt == tries - 1:
                raise


def check_homes(fake: FakeDiscord, games: Iterable[NetworkGame], database: str) -> list[str]:
    """Every home of every game: every board once, in order, pinging only its player, against
    the moves the database holds; and the game where the players' moves put it."""
    errors = []
    for game in games:
        if not game.homes:
            continue
        held = stored(database, game.game_id)
        if held.position != game.position:
            errors.append(f"game {game.number} (#{game.game_id}): not where its moves put it")
        for seat, home in game.homes.items():
            try:
                check_home(fake, home, held, game.player(seat), seat)
            except AssertionError as error:
                first = str(error).splitlines()[0]
                errors.append(f"game {game.number} (#{game.game_id}), {seat}'s home: {first}")
    return errors


async def network_benchmark(
    mode: Mode,
    *,
    games: int = 100,
    servers: int = 10,
    dm_share: float = 0.1,
    turns: int = 5,
    seed: int = 1,
    server: PostgresServer | None = None,
    limits: RateLimits | None = None,
) -> NetworkRun:
    """One network run in ``mode`` (see the module's docstring)."""
    rng = random.Random(seed)
    homes = homes_of_members(2 * games, servers, dm_share)
    matches = pairs(homes)
    run = NetworkRun(
        mode=mode,
        servers=servers,
        members=len(homes),
        dm_members=sum(home is None for home in homes),
        games=games,
        turns=turns,
    )
    with tempfile.TemporaryDirectory(prefix="dvonn-netload-", dir=DEFAULT_DIRECTORY) as folder:
        if mode.database == "postgres":
            assert server is not None, "PostgreSQL modes need a server"
            database = server.create_database()
        else:
            database = str(Path(folder) / "load.sqlite3")
        shards = mode.processes
        async with FakeDiscord(shard_count=shards, limits=limits) as fake:
            guilds, generals, networks, moderators = [], [], [], []
            for index in range(servers):
                guild = fake.add_guild(f"network {index}", guild_id=guild_id(index, shards))
                guilds.append(guild)
                mods = guild.add_role("moderators", Permission.MANAGE_GUILD)
                generals.append(guild.add_text_channel("general"))
                networks.append(guild.add_text_channel("network"))
                moderators.append(fake.add_user(f"mod{index}", guild, roles=[mods]))
            members: list[FakeUser] = []
            places: list[FakeChannel] = []
            for k, home in enumerate(homes):
                if home is None:
                    user = fake.add_user(f"player{k}", installed_app=True)
                    places.append(fake.world.open_dm(user.id))
                else:
                    user = fake.add_user(f"player{k}", guilds[home])
                    places.append(networks[home])
                members.append(user)
            setups = [
                NetworkGame(number, members[w], members[b], {"W": places[w], "B": places[b]})
                for number, (w, b) in enumerate(matches)
            ]
            log = Path(folder) / "bots.log"
            env = {"DVONN_NETWORK": "on"}
            async with bots(fake, database, mode.processes, env, log) as processes:
                started = time.perf_counter()
                for moderator, general, network in zip(moderators, generals, networks, strict=True):
                    await again(
                        functools.partial(name_network_channel, fake, moderator, general, network)
                    )
                for start in range(0, len(members), SETUP_AT_ONCE):
                    await asyncio.gather(
                        *(
                            again(functools.partial(join_network, fake, member, place))
                            for member, place in zip(
                                members[start : start + SETUP_AT_ONCE],
                                places[start : start + SETUP_AT_ONCE],
                                strict=True,
                            )
                        )
                    )
                run.failures += await set_up(fake, setups, database, said(_("Accept")))
                run.setup_seconds = time.perf_counter() - started
                print(
                    f"network: set up {sum(bool(g.homes) for g in setups)} of {games} games "
                    f"in {run.setup_seconds:.1f} s",
                    flush=True,
                )
                before = fake.traffic.snapshot()
                posts_before = sum(
                    len(board_posts(fake, h)) for g in setups for h in g.homes.values()
                )
                await play(fake, setups, turns, rng, run)
                run.traffic = fake.traffic.snapshot() - before
                run.setup_traffic = before
                await asyncio.sleep(DOUBLES_WAIT)
                run.board_posts = boards_in_homes(fake, setups) - posts_before
                run.home_errors = check_homes(fake, setups, database)
                run.homes_checked = sum(len(g.homes) for g in setups)
                roots = [p.pid for p in processes]
                rss = peak_rss(roots)
                run.bot_rss = {pid: kib for pid, kib in rss.items() if pid in roots}
                run.render_rss = {pid: kib for pid, kib in rss.items() if pid not in roots}
            run.log = summarise_log(log)
        if server is not None and is_postgres(database):
            server.drop_database(database.rsplit("/", 1)[1])  # the bots have stopped
    run.harness_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return run
