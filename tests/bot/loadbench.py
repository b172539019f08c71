"""Load benchmark of the real bot: many DVONN games at once through the fake Discord.

    .venv/bin/python -m tests.bot.loadbench --games 200 --turns 5 [--think 2] [--in-process]

Starts ``python -m bot`` as its own process (as ``make run`` does) against the fake Discord on
127.0.0.1, sets up ``--games`` games (a challenge accepted in its own channel, so each game gets
a thread), then every game's players take turns with random legal moves through ``/dvonn
place`` and ``/dvonn move``, thinking ``--think`` seconds on average between turns. Each turn is
timed from the interaction's dispatch until the player's private reply says the move was
played, which the bot writes once the turn's post with the board image is out (so this
slightly overstates the time to the image), or after 2.5 s, saying the board is on its way.
Waiting on each interaction's own reply keeps the harness cheap: scanning channels for images
makes the fake, not the bot, the bottleneck. Then, separately, the time from each turn's commit
to its post on Discord (from the outbox rows and the posts' nonces).
Prints p50/p90/p99. A benchmark, not a test: it never fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sqlite3
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import rules
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.loadbench import Game, Report, bot_process
from tests.fakediscord.models import FakeChannel
from tests.fakediscord.server import FakeDiscord


def _move_options(move: rules.Move) -> tuple[str, dict[str, str]]:
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
        command, options = _move_options(move)
        place = self.places[game.number]
        result = fake.send_command(player, place, command, options)
        pos = rules.play(pos, move)
        while rules.legal_moves(pos) == (rules.PASS,):
            pos = rules.play(pos, rules.PASS)
        self.positions[game.number] = pos
        return result


async def set_up(fake: FakeDiscord, games: list[Game], driver: Driver) -> None:
    """Each game: its White player challenges its Black player, who accepts."""

    async def one(game: Game) -> None:
        white, black = game.players
        challenge = await fake.run_command(
            white, game.channel, "dvonn challenge", {"opponent": black, "colour": "W"}
        )
        assert challenge.message is not None, challenge.content
        await fake.click(black, challenge.message, label="Accept")
        thread = await fake.wait_until(
            lambda: next(iter(fake.threads_in(game.channel)), None), timeout=30, what="a thread"
        )
        assert thread is not None
        await fake.wait_for_message(thread, lambda m: bool(m.files), timeout=30)
        driver.places[game.number] = thread

    for start in range(0, len(games), 20):  # a few at a time: setting up is not measured
        await asyncio.gather(*(one(g) for g in games[start : start + 20]))


async def benchmark(games: int, turns: int, think: float, seed: int) -> Report:
    driver = Driver(seed)
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "load.sqlite3"
        runner = bot_process(
            [sys.executable, "-m", "bot", "--sync"],
            {
                "DVONN_DATABASE": str(database),
                "DVONN_DEV_GUILD": "{guild_id}",
                "DVONN_LOG_LEVEL": "WARNING",
            },
        )
        async with FakeDiscord() as fake:
            guild = fake.add_guild("load test")
            setups = []
            for number in range(games):
                channel = guild.add_text_channel(f"game-{number}")
                white = fake.add_user(f"w{number}", guild)
                black = fake.add_user(f"b{number}", guild)
                setups.append(Game(number, channel, (white, black)))
            async with runner(fake, guild):
                await fake.wait_until(lambda: fake.commands(guild), timeout=30, what="sync")
                started = time.perf_counter()
                await set_up(fake, setups, driver)
                print(f"set up {games} games in {time.perf_counter() - started:.1f} s")
                report = await play(fake, setups, turns, driver, think=think, seed=seed)
                report.deliveries = deliveries(fake, database)
                return report


def deliveries(fake: FakeDiscord, database: Path) -> list[float]:
    """Seconds from each turn's commit (its outbox row's time) until its post existed on the
    fake Discord, found by the post's nonce (``dvonn-<row>``)."""
    with contextlib.closing(sqlite3.connect(database, timeout=10)) as db:
        try:
            rows = db.execute("SELECT id, created_at FROM notifications WHERE kind = 'turn'")
            committed = rows.fetchall()
        except sqlite3.OperationalError:
            return []  # a bot from before the outbox
    delays = []
    for row_id, created_at in committed:
        message_id = fake.world.nonces.get((fake.world.bot.id, f"dvonn-{row_id}"))
        if message_id is not None:
            posted = fake.world.messages[message_id].created_at
            delays.append((posted - datetime.fromisoformat(created_at)).total_seconds())
    return delays


async def play(
    fake: FakeDiscord, games: list[Game], turns: int, driver: Driver, *, think: float, seed: int
) -> Report:
    """Every game plays ``turns`` turns at once, players thinking ``think`` s on average."""
    report = Report(games=len(games), turns=turns)
    rng = random.Random(seed)

    async def one_game(game: Game) -> None:
        await asyncio.sleep(rng.uniform(0, think))  # the load model: spread the moves out
        for turn in range(turns):
            if turn:
                await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
            started = time.perf_counter()
            try:
                result = await driver.turn(fake, game, turn)
                await result.wait_response(timeout=30)
                await result.settled(timeout=30)
            except AssertionError as failure:  # InteractionFailed, FakeDiscordTimeout...
                report.failures.append(f"game {game.number} turn {turn}: {failure}")
                continue
            if "You played" not in result.content:
                report.failures.append(f"game {game.number} turn {turn}: {result.content!r}")
                continue
            report.latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(one_game(game) for game in games))
    report.wall_seconds = time.perf_counter() - started
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds between turns")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    report = asyncio.run(benchmark(args.games, args.turns, args.think, args.seed))
    print(report.render())


if __name__ == "__main__":
    main()
