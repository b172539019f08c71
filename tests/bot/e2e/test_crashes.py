"""Nothing owed is lost or said twice: ``python -m bot`` killed (SIGKILL) again and again.

A whole game between two people, and a game against the bot beside it, are played through the
fake Discord while the bot's process is killed at seeded random moments and started again on
the same database file:

* right after a move was acknowledged;
* while a board is being made as a move's answer (Discord made it, the bot never heard);
* in the middle of a burst of moves whose posts are not out yet;
* while the bot thinks about its own move.

At the end, every turn of both games has exactly one board post, pinging exactly the player to
move (nobody when it is the bot's turn), in the order played; the end is announced once.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import rules
from tests.bot.e2e.conftest import Table
from tests.bot.e2e.helpers import send_move
from tests.bot.e2e.test_game import accept
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, RecordedMessage

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[3]
CALLBACK = r"/interactions/\d+/[^/]+/callback$"
"""The route of an answer to a command."""
RESTART_GOAL = 5.0
"""Seconds from a restart (the process started again) to the post the killed run owed."""
FOOTER_MOVE = re.compile(r"· move (\d+) ·")


class BotProcess:
    """``python -m bot`` on one database file, started and killed as a test says;
    ``environment`` adds settings or changes these (``DVONN_RENDER_PROCESSES="1"``)."""

    def __init__(self, table: Table, database: Path, log: Path, **environment: str) -> None:
        self.table = table
        self.database = database
        self.log = log
        self.environment = environment
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self) -> None:
        fake = self.table.fake
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DVONN_"))},
            "PYTHONPATH": str(REPO),
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "DVONN_DATABASE": str(self.database),
            "DVONN_DEV_GUILD": str(self.table.guild.id),
            "DVONN_RENDER_PROCESSES": "0",
            "DVONN_AI_SECONDS": "0.8",
            # The default lease (30 s) and poll (5 s): a restart takes an earlier run's claims
            # at once, without waiting for them to run out.
            **self.environment,  # a test's own settings win
        }
        argv = ["--sync"] if self.starts == 0 else []
        with self.log.open("a") as out:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                *argv,
                cwd=self.database.parent,
                env=env,
                stdout=out,
                stderr=out,
            )
        self.starts += 1
        await fake.wait_for_ready(timeout=30)
        if argv:
            await fake.wait_until(lambda: fake.commands(self.table.guild), timeout=30, what="sync")

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        fake = self.table.fake
        await fake.wait_until(
            lambda: not fake.gateway.live_sessions(), timeout=10, what="the bot to be gone"
        )

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await asyncio.wait_for(self.process.wait(), 30)


@contextlib.asynccontextmanager
async def bot_process(
    table: Table, tmp_path: Path, **environment: str
) -> AsyncIterator[BotProcess]:
    bot = BotProcess(table, tmp_path / "dvonn.sqlite3", tmp_path / "bot.log", **environment)
    await bot.start()
    try:
        yield bot
    except BaseException:
        print(bot.log.read_text()[-20000:])  # what the bot said, to see why
        raise
    finally:
        await bot.stop()


@dataclass
class Stored:
    """A game as the database holds it now (the test reads the file the bot writes)."""

    position: rules.Position
    active: bool
    record: list[tuple[int, str, int, bool]]  # ply, colour, player, automatic


def stored(database: Path, game_id: int) -> Stored:
    with contextlib.closing(sqlite3.connect(database, timeout=10)) as db:
        text, status = db.execute(
            "SELECT position, status FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        record = db.execute(
            "SELECT ply, colour, player_id, automatic FROM moves WHERE game_id = ? ORDER BY ply",
            (game_id,),
        ).fetchall()
    return Stored(rules.Position.from_text(text), status == "active", record)


async def game_id_in(table: Table, database: Path, channel: FakeChannel) -> int:
    def find() -> int | None:
        with contextlib.closing(sqlite3.connect(database, timeout=10)) as db:
            query = "SELECT id FROM games WHERE channel_id = ?"
            row = db.execute(query, (channel.id,)).fetchone()
        return None if row is None else int(row[0])

    found: int | None = await table.fake.wait_until(find, timeout=10, what="the game to start")
    assert found is not None
    return found


async def alice_against_bob(table: Table, bot: BotProcess) -> tuple[FakeChannel, int]:
    """Alice (White) challenges Bob, who accepts: where the game is played, and its id."""
    challenge = await table.fake.run_command(
        table.alice, table.games, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
    )
    assert challenge.message is not None
    place = await accept(table, challenge.message, table.bob)
    return place, await game_id_in(table, bot.database, place)


def pick(rng: random.Random, position: rules.Position) -> rules.Move:
    moves = [m for m in rules.legal_moves(position) if m != rules.PASS]
    return rng.choice(moves)


def board_posts(fake: FakeDiscord, place: FakeChannel) -> list[RecordedMessage]:
    """The bot's board posts in ``place``, in order, the placement boards it replaced (deleted)
    included."""
    world = fake.world
    found = (world.messages[m] for m in world.channel_messages.get(place.id, []))
    return [
        m
        for m in found
        if m.author_id == world.bot.id and not m.ephemeral and m.embed_image() is not None
    ]


def check_posts(
    fake: FakeDiscord,
    place: FakeChannel,
    game: Stored,
    players: dict[str, int],
    computer: int | None = None,
) -> None:
    """One post per turn, in order, each pinging exactly who is to move; the end once."""
    turns: list[tuple[int, str | None]] = [(0, "W")]  # the start post: White is to move
    record = game.record
    for ply, _colour, _player, automatic in record:
        if automatic:
            continue
        end = ply + 1
        while end < len(record) and record[end][3]:
            end += 1  # the passes recorded with this move
        over = not game.active and end == len(record)
        to_move = None if over else rules.position.colour_to_act(end).value
        turns.append((end, to_move))
    posts = board_posts(fake, place)
    numbers = []
    for post in posts:
        footer = str(post.embeds[0].get("footer", {}).get("text", ""))
        found = FOOTER_MOVE.search(footer)
        numbers.append(int(found[1]) - 1 if found else None)  # the final post has no footer
    expected = [ply for ply, _ in turns]
    if not game.active:
        expected[-1] = None  # type: ignore[call-overload]
    assert numbers == expected, f"posts for plies {numbers}, turns at {expected}"
    for post, (ply, to_move) in zip(posts, turns, strict=True):
        if to_move is None:
            wanted = set(players.values()) - {computer}
        else:
            mover = players[to_move]
            wanted = set() if mover == computer else {mover}
        assert post.pinged_user_ids == wanted, f"the post after ply {ply} pinged {post.pings}"
    if not game.active:
        endings = [p for p in posts if "is over" in p.content]
        assert len(endings) == 1


async def test_every_turn_is_posted_once_however_often_the_bot_is_killed(
    table: Table, tmp_path: Path
) -> None:
    fake = table.fake
    rng = random.Random(2026)
    async with bot_process(table, tmp_path) as bot:
        place, human = await alice_against_bob(table, bot)
        versus = await fake.run_command(
            table.carol, table.no_threads, "dvonn play-bot", {"level": "easy", "colour": "W"}
        )
        assert not versus.ephemeral, versus.content
        computer_game = await game_id_in(table, bot.database, table.no_threads)
        people = {"W": table.alice.id, "B": table.bob.id}
        users: dict[int, FakeUser] = {table.alice.id: table.alice, table.bob.id: table.bob}

        async def human_move(*, settle: bool = True) -> bool:
            game = stored(bot.database, human)
            if not game.active:
                return False
            user = users[people[game.position.turn.value]]
            move = pick(rng, game.position)
            if settle:
                await send_move(fake, user, place, move)
            else:
                result = fake.send_command(user, place, *_command(move))
                await result.wait_response(timeout=10)
            return True

        async def computer_move() -> bool:
            game = stored(bot.database, computer_game)
            if not game.active or game.position.turn is not rules.Colour.WHITE:
                return False
            await send_move(fake, table.carol, table.no_threads, pick(rng, game.position))
            return True

        # Kills at seeded plies across the whole game: nine in the placement phase, and from
        # ply 50 (every game gets there) into the moves, as far as the game goes.
        kill_plies = [*sorted(rng.sample(range(3, 47), 9)), 50, 55, 60, 66, 72]
        modes = ["ack", "upload", "burst", "thinking"]
        kills = 0
        turns = 0
        while (game := stored(bot.database, human)).active:
            turns += 1
            if not kill_plies or game.position.ply < kill_plies[0]:
                await human_move()
                if turns % 3 == 0 and turns < 60:
                    await computer_move()
                continue
            kill_plies.pop(0)
            mode = modes[kills % len(modes)]
            kills += 1
            if mode == "ack":
                await human_move()
            elif mode == "upload":
                # The board answers the command: Discord makes it, the bot never hears.
                hold = fake.world.hold_response("POST", CALLBACK)
                await human_move(settle=False)
                await asyncio.wait_for(hold.entered.wait(), 10)
                await bot.kill()
                hold.release()
            elif mode == "burst":
                for _ in range(4):
                    if not await human_move(settle=False):
                        break
            elif mode == "thinking" and await computer_move():
                await asyncio.sleep(0.2)  # the bot thinks 0.8 s about its answer
            if bot.process is not None and bot.process.returncode is None:
                await bot.kill()
            await bot.start()
        # Let the last posts and the bot's last answer out, then compare.
        await asyncio.sleep(1.5)
        await fake.wait_until(
            lambda: _settled(bot.database, computer_game), timeout=30, what="the outbox to empty"
        )
        check_posts(fake, place, stored(bot.database, human), people)
        versus_game = stored(bot.database, computer_game)
        check_posts(
            fake,
            table.no_threads,
            versus_game,
            {"W": table.carol.id, "B": fake.world.bot.id},
            computer=fake.world.bot.id,
        )
        assert kills >= 10 and bot.starts == kills + 1
        # A board Discord made as an answer the killed process never heard of was found
        # by the next (through the command's token), not posted again.
        assert answers_found(fake) >= 1


def answers_found(fake: FakeDiscord) -> int:
    """How often the bot found a command's answer it had made before (a later try of a turn
    whose earlier one may have answered the command)."""
    return sum(
        1
        for r in fake.world.requests
        if r.method == "GET" and r.path.endswith("/messages/@original") and r.status == 200
    )


def _command(move: rules.Move) -> tuple[str, dict[str, str]]:
    if isinstance(move, rules.Place):
        return "dvonn place", {"cell": rules.CELL_NAMES[move.cell]}
    assert isinstance(move, rules.Jump)
    return "dvonn move", {
        "from": rules.CELL_NAMES[move.source],
        "to": rules.CELL_NAMES[move.target],
    }


def _unsent(database: Path) -> int:
    """How many announcements are not marked sent."""
    with contextlib.closing(sqlite3.connect(database, timeout=10)) as db:
        (unsent,) = db.execute(
            "SELECT count(*) FROM notifications WHERE sent_at IS NULL"
        ).fetchone()
    return int(unsent)


def _settled(database: Path, computer_game: int) -> bool:
    """Every post out, and the bot not thinking (it plays Black)."""
    versus = stored(database, computer_game)
    return _unsent(database) == 0 and (
        not versus.active or versus.position.turn is rules.Colour.WHITE
    )


@pytest.mark.alone  # RESTART_GOAL is seconds of the wall clock for a process starting again
async def test_a_rate_limited_post_then_a_kill_is_posted_once_after_the_restart(
    table: Table, tmp_path: Path
) -> None:
    fake = table.fake
    rng = random.Random(7)
    place = table.no_threads  # the game is played in the channel itself
    path = rf"/channels/{place.id}/messages$"
    async with bot_process(table, tmp_path) as bot:
        # Discord says "slow down, for 5 s" to the game's first post (a post in the channel,
        # answering nobody's command); discord.py waits, and the process dies meanwhile.
        fake.world.rate_limit("POST", path, times=1, retry_after=5.0)
        challenge = await fake.run_command(
            table.alice, place, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
        )
        assert challenge.message is not None
        await fake.click(table.bob, challenge.message, label="Accept")
        await fake.wait_until(
            lambda: any(r.status == 429 for r in fake.world.requests if re.search(path, r.path)),
            timeout=10,
            what="the 429",
        )
        await bot.kill()
        restarted = time.monotonic()
        await bot.start()
        await fake.wait_until(
            lambda: len(board_posts(fake, place)) == 1, timeout=35, what="the held post"
        )
        took = time.monotonic() - restarted
        print(f"the owed post came {took:.1f} s after the restart began")
        assert took <= RESTART_GOAL, f"the owed post came {took:.1f} s after the restart"
        human = await game_id_in(table, bot.database, place)
        players = {"W": table.alice, "B": table.bob}
        for _ in range(3):
            game = stored(bot.database, human)
            await send_move(
                fake, players[game.position.turn.value], place, pick(rng, game.position)
            )
        await asyncio.sleep(1.0)  # nothing more comes
        check_posts(fake, place, stored(bot.database, human), {c: u.id for c, u in players.items()})


async def test_placement_boards_are_replaced_across_a_restart(table: Table, tmp_path: Path) -> None:
    fake = table.fake
    rng = random.Random(11)
    async with bot_process(table, tmp_path) as bot:
        place, human = await alice_against_bob(table, bot)
        players = {"W": table.alice, "B": table.bob}

        async def placements(count: int) -> None:
            for _ in range(count):
                game = stored(bot.database, human)
                user = players[game.position.turn.value]
                await send_move(fake, user, place, pick(rng, game.position))

        await placements(5)
        await fake.wait_until(lambda: _unsent(bot.database) == 0, timeout=10, what="the marks")
        await bot.kill()  # the last board was posted and marked: a restart does not post it
        await bot.start()
        await placements(4)
        await fake.wait_until(
            lambda: len(board_posts(fake, place)) == 10, timeout=15, what="the boards"
        )

        def shown() -> list[str]:
            return [
                str(m.embeds[0].get("footer")) for m in board_posts(fake, place) if not m.deleted
            ]

        # The game's first post, and the last placement board: every other one was replaced.
        await fake.wait_until(lambda: len(shown()) == 2, timeout=5, what="two boards left")
        await asyncio.sleep(0.5)
        assert len(shown()) == 2, shown()
