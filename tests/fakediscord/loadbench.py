"""Load benchmark: many games at once through the fake Discord, timing each turn's board image.

    .venv/bin/python -m tests.fakediscord.loadbench --games 200 --turns 5

Each game has a channel and two players who take turns; every turn is one interaction, timed
from its dispatch to the moment a message carrying an image (an attached file) answers it:
the interaction's own reply or followup, or a post in the game's channel or one of its threads.
Players think between turns (``--think`` seconds on average, exponentially distributed, games
starting at random within the first think time), so 200 games make a steady stream of moves
rather than one burst. Prints p50/p90/p99/max. A benchmark, not a test: it never fails.

The bot is pluggable. By default the sample bot's ``/dvonn board`` (defer, then a PNG in an
embed) stands in, in this process and event loop, so its figures include the fake's own work.
``--bot-command`` starts a real bot process instead, with ``DISCORD_TOKEN``,
``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL`` pointing at the fake (``{guild_id}`` in the
command or in ``--bot-env`` values is replaced); then pass a ``play_turn`` that speaks its
commands (from Python: ``benchmark(..., bot=bot_process(...), play_turn=...)``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shlex
import statistics
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field

import discord

from tests.fakediscord.harness import discord_endpoints, running
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.messages import RecordedMessage
from tests.fakediscord.models import FakeChannel, FakeGuild, FakeUser
from tests.fakediscord.sample_bot import SampleBot
from tests.fakediscord.server import FakeDiscord


@dataclass(frozen=True)
class Game:
    """One game's place and players."""

    number: int
    channel: FakeChannel
    players: tuple[FakeUser, FakeUser]


@dataclass
class Report:
    """Latencies (seconds) of the turns that got their image, and what went wrong."""

    games: int
    turns: int
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    wall_seconds: float = 0.0
    deliveries: list[float] = field(default_factory=list)
    """Seconds from a change's commit to its post on Discord (when the bench can tell)."""
    schedule: str = ""
    """How the turns were offered, when not ``games x turns`` with think times."""
    late_starts: list[float] = field(default_factory=list)
    """Seconds each turn started after its moment in the schedule (its game's turn before it
    was still unanswered), for the turns that did."""

    def percentile(self, p: float, values: list[float] | None = None) -> float:
        ordered = sorted(self.latencies if values is None else values)
        if not ordered:
            return float("nan")
        index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))
        return ordered[index]

    def render(self) -> str:
        count = len(self.latencies) + len(self.failures)
        rate = count / self.wall_seconds if self.wall_seconds else 0.0

        def ms(seconds: float) -> str:
            return f"{seconds * 1000:.1f} ms"

        offered = self.schedule or f"{self.games} games x {self.turns} turns"
        lines = [f"{offered}: {count} interactions in {self.wall_seconds:.1f} s ({rate:.1f}/s)"]
        if self.latencies:
            lines.append(
                "interaction -> board image: "
                f"p50 {ms(self.percentile(50))}, p90 {ms(self.percentile(90))}, "
                f"p99 {ms(self.percentile(99))}, max {ms(max(self.latencies))}, "
                f"mean {ms(statistics.fmean(self.latencies))}"
            )
        if self.deliveries:
            done = self.deliveries
            lines.append(
                f"commit -> post ({len(done)} posts): p50 {ms(self.percentile(50, done))}, "
                f"p90 {ms(self.percentile(90, done))}, p99 {ms(self.percentile(99, done))}, "
                f"max {ms(max(done))}"
            )
        if self.late_starts:
            lines.append(
                f"turns started late (the game's turn before still unanswered): "
                f"{len(self.late_starts)}, by up to {ms(max(self.late_starts))}"
            )
        lines.append(f"failures: {len(self.failures)}")
        lines.extend(f"  {failure}" for failure in self.failures[:10])
        return "\n".join(lines)


# Runs the bot against the fake (with discord.py pointed at it) while the block runs.
BotRunner = Callable[[FakeDiscord, FakeGuild], AbstractAsyncContextManager[None]]
# Plays turn ``turn`` of ``game``; returns the interaction whose image is awaited.
TurnDriver = Callable[[FakeDiscord, Game, int], Awaitable[InteractionResult]]


def in_process(make_client: Callable[[FakeGuild], discord.Client]) -> BotRunner:
    """A discord.py client in this process and event loop."""

    @contextlib.asynccontextmanager
    async def run(fake: FakeDiscord, guild: FakeGuild) -> AsyncIterator[None]:
        with discord_endpoints(fake):
            async with running(make_client(guild), fake):
                yield

    return run


def sample_client(guild: FakeGuild) -> discord.Client:
    return SampleBot(guild_id=guild.id)


SAMPLE_BOT = in_process(sample_client)


def bot_process(argv: Sequence[str], env: Mapping[str, str] = {}) -> BotRunner:
    """A bot started as its own process, configured through the environment."""

    @contextlib.asynccontextmanager
    async def run(fake: FakeDiscord, guild: FakeGuild) -> AsyncIterator[None]:
        def fill(text: str) -> str:
            return text.replace("{guild_id}", str(guild.id))

        variables = {
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            **{key: fill(value) for key, value in env.items()},
        }
        process = await asyncio.create_subprocess_exec(
            *[fill(a) for a in argv], env=os.environ | variables
        )
        exited = asyncio.create_task(process.wait())
        ready = asyncio.create_task(fake.wait_for_ready(timeout=30))
        try:
            await asyncio.wait({exited, ready}, return_when=asyncio.FIRST_COMPLETED)
            if exited.done():
                raise RuntimeError(f"the bot exited with {exited.result()} before connecting")
            ready.result()
            yield
        finally:
            ready.cancel()
            if process.returncode is None:
                process.terminate()
                try:
                    await asyncio.wait_for(exited, 10)
                except TimeoutError:
                    process.kill()
                    await exited

    return run


async def board_turn(fake: FakeDiscord, game: Game, turn: int) -> InteractionResult:
    player = game.players[turn % 2]
    return fake.send_command(player, game.channel, "dvonn board")


def carries_image(message: RecordedMessage) -> bool:
    return bool(message.files) and not message.deleted


async def time_to_image(
    fake: FakeDiscord, game: Game, result: InteractionResult, *, after: int, timeout: float
) -> RecordedMessage:
    """The first message with a file that answers ``result`` (see the module docstring)."""
    places = [game.channel, *fake.threads_in(game.channel)]

    def found() -> RecordedMessage | None:
        own = [m for m in result.messages if carries_image(m)]
        if own:
            return own[0]
        for place in places:
            posted = [m for m in fake.messages_in(place, after=after) if carries_image(m)]
            if posted:
                return posted[0]
        return None

    message = await fake.wait_until(found, timeout=timeout, what=f"the board of game {game.number}")
    assert message is not None
    return message


async def play(
    fake: FakeDiscord,
    games: Sequence[Game],
    turns: int,
    *,
    play_turn: TurnDriver,
    timeout: float,
    think: float,
    seed: int = 5,
) -> Report:
    """Every game plays ``turns`` turns, all games at once, players thinking ``think`` s."""
    report = Report(games=len(games), turns=turns)
    rng = random.Random(seed)

    async def one_game(game: Game) -> None:
        # Think time is the load model, not a wait for a result: it spreads the moves out.
        await asyncio.sleep(rng.uniform(0, think))
        for turn in range(turns):
            if turn:
                await asyncio.sleep(rng.expovariate(1 / think) if think else 0)
            mark = fake.mark()
            started = time.perf_counter()
            try:
                result = await play_turn(fake, game, turn)
                await time_to_image(fake, game, result, after=mark, timeout=timeout)
            except AssertionError as failure:  # InteractionFailed, FakeDiscordTimeout...
                report.failures.append(f"game {game.number} turn {turn}: {failure}")
                continue
            report.latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(one_game(game) for game in games))
    report.wall_seconds = time.perf_counter() - started
    return report


async def benchmark(
    *,
    games: int,
    turns: int,
    think: float = 2.0,
    bot: BotRunner = SAMPLE_BOT,
    play_turn: TurnDriver = board_turn,
    timeout: float = 10.0,
) -> Report:
    """Set up ``games`` games in one guild, start the bot, play, report."""
    async with FakeDiscord() as fake:
        guild = fake.add_guild("load test")
        setups = []
        for number in range(games):
            channel = guild.add_text_channel(f"game-{number}")
            players = (fake.add_user(f"p{number}a", guild), fake.add_user(f"p{number}b", guild))
            setups.append(Game(number, channel, players))
        async with bot(fake, guild):
            return await play(
                fake, setups, turns, play_turn=play_turn, timeout=timeout, think=think
            )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds between turns")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for a board")
    parser.add_argument("--bot-command", help="start this bot process instead of the sample bot")
    parser.add_argument("--bot-env", action="append", default=[], help="KEY=VALUE for the bot")
    args = parser.parse_args(argv)
    runner = SAMPLE_BOT
    if args.bot_command:
        env = dict(item.split("=", 1) for item in args.bot_env)
        runner = bot_process(shlex.split(args.bot_command), env)
    report = asyncio.run(
        benchmark(
            games=args.games, turns=args.turns, think=args.think, bot=runner, timeout=args.timeout
        )
    )
    print(report.render())


if __name__ == "__main__":
    main()
