"""Time banks through the fake Discord, on each backend: a whole game on a bank where one player
runs out, a server's default bank, a bank game in a DM, and the clear answers to what makes no
sense. The clock is moved by hand; nothing sleeps."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

import rules
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import play_turn
from tests.bot.e2e.test_game import accept
from tests.bot.e2e.test_private import dm_between, global_runner, next_board
from tests.fakediscord import Permission, RecordedMessage

__all__ = ["global_runner"]  # the fixture, for the DM test

SHORT = "bank:3d+12h/5d"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def clock_line(post: RecordedMessage | None) -> str:
    """The post's clock line, as a reader sees it in the embed."""
    assert post is not None
    found = re.search(r"Clock: [^\n\"']*", str(post.embeds))
    assert found is not None, post.embeds
    return found.group(0)


def deadline_of(line: str) -> int:
    """The moment (Unix seconds) of the first Discord timestamp in ``line``."""
    found = re.search(r"<t:(\d+):f>", line)
    assert found is not None, line
    return int(found.group(1))


async def test_a_whole_game_on_a_time_bank_where_one_player_runs_out(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    alice, bob = table.alice, table.bob
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        challenge = await fake.run_command(
            alice, table.games, "dvonn challenge", {"opponent": bob, "colour": "W", "clock": SHORT}
        )
        assert challenge.message is not None
        assert "time bank: 3 d + 12 h a move, at most 5 d" in challenge.message.content
        thread = await accept(table, challenge.message, bob)
        first = fake.messages_in(thread)[-1]
        line = clock_line(first)
        assert f"{alice.mention} must play by" in line
        assert f"{bob.mention} has 3 d in the bank" in line
        assert deadline_of(line) == int((clock.now + timedelta(days=3)).timestamp())

        # Each move takes the time spent from the mover's bank and adds 12 h, up to 5 days;
        # each board shows the bank of the player to move as a deadline, the other's as time.
        start = clock.now
        clock.advance(hours=20)
        turn = await play_turn(fake, alice, thread, rules.parse_move("E3"))
        line = clock_line(turn.post)
        assert f"{bob.mention} must play by" in line and f"{alice.mention} has 2 d 16 h" in line
        clock.advance(hours=1)
        turn = await play_turn(fake, bob, thread, rules.parse_move("F3"))
        assert f"{bob.mention} has 3 d 11 h in the bank" in clock_line(turn.post)
        assert deadline_of(clock_line(turn.post)) == int(
            (clock.now + timedelta(days=2, hours=16)).timestamp()
        )
        # A takeback puts both banks back as they were before Bob's move.
        asked = await fake.run_command(bob, thread, "dvonn takeback")
        assert asked.message is not None
        clock.advance(hours=3)
        await fake.click(alice, asked.message, label="Accept the takeback")
        back = await fake.wait_for_message(
            thread, lambda m: "Takeback accepted" in str(m.embeds), after=turn.post
        )
        line = clock_line(back)
        assert f"{alice.mention} has 2 d 16 h in the bank" in line
        assert deadline_of(line) == int((clock.now + timedelta(days=3)).timestamp())
        moves = ["F3", "G3", "H3", "I3", "A1", "B1"]
        for number, move in enumerate(moves):
            clock.advance(hours=2)
            player = bob if number % 2 == 0 else alice
            turn = await play_turn(fake, player, thread, rules.parse_move(move))
            assert turn.post is not None, turn.reply.content
        board = await fake.run_command(table.carol, thread, "dvonn board")
        assert "time bank" in clock_line(board.message)

        # Bob (3 days again after the takeback, and 10 h more for each of his 3 moves since)
        # stops playing: reminded a day before his bank runs out, then he loses on time, once.
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and game.to_move_id == bob.id and game.deadline_at is not None
        assert game.black_bank == timedelta(days=3) + 3 * timedelta(hours=10)
        clock.now = game.deadline_at - timedelta(hours=23)
        await bot.housekeeping()
        (dm,) = fake.dms_to(bob)
        assert f"<#{thread.id}>" in dm.content
        clock.now = game.deadline_at + timedelta(seconds=1)
        await bot.housekeeping()
        ended = await fake.wait_for_message(thread, lambda m: "on time" in str(m.embeds))
        assert "bob ran out of time: alice wins on time" in str(ended.embeds)
        assert ended.pinged_user_ids == {alice.id, bob.id}
        await bot.housekeeping()
        assert len([m for m in fake.messages_in(thread) if "on time" in str(m.embeds)]) == 1
        finished = await bot.service.get_game(game.id)
        assert finished.winner_id == alice.id and clock.now - start > timedelta(days=4)
        profile = await fake.run_command(alice, table.games, "dvonn profile")
        assert "1 game: 1 won" in profile.content


async def test_a_server_default_bank_and_what_makes_no_sense(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    admin = fake.add_user(
        "admin", table.guild, roles=[table.guild.add_role("admins", Permission.MANAGE_GUILD)]
    )
    async with bot_runner.run():
        saved = await fake.run_command(
            admin, table.games, "dvonn settings", {"clock": "bank:10d+36h/10d"}
        )
        assert saved.ephemeral and "Settings saved" in saved.content
        assert "Default clock: time bank: 10 d + 36 h a move, at most 10 d" in saved.content
        challenge = await fake.run_command(
            table.alice, table.games, "dvonn challenge", {"opponent": table.bob}
        )
        assert challenge.message is not None
        assert "time bank: 10 d + 36 h a move, at most 10 d" in challenge.message.content
        days = await fake.run_command(admin, table.games, "dvonn settings", {"clock": "days:2"})
        assert "Default clock: 2 days per move" in days.content
        # A bank for a game that has no clock: the bot's own games have none.
        against_bot = await fake.run_command(
            table.carol, table.no_threads, "dvonn challenge", {"opponent": fake.bot,
                                                               "clock": SHORT},
        )  # fmt: skip
        assert against_bot.ephemeral and "Games against the bot have no clock" in (
            against_bot.content
        )
        helped = await fake.run_command(table.carol, table.games, "dvonn help")
        assert "10 d + 36 h a move, at most 10 d" in str(helped.embeds)


async def test_a_bank_game_in_a_dm(
    table: Table, global_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    place = await dm_between(table, table.alice, table.bob)
    async with global_runner.run(clock=clock, housekeeping_interval=0):
        challenge = await fake.run_command(
            table.alice, place, "dvonn challenge", {"opponent": table.bob, "colour": "W",
                                                    "clock": SHORT},
        )  # fmt: skip
        assert challenge.message is not None and not challenge.ephemeral, challenge.content
        await fake.click(table.bob, challenge.message, label="Accept")
        first = await next_board(table, place, challenge.message)
        assert f"{table.bob.mention} has 3 d in the bank" in clock_line(first)
        clock.advance(hours=1)
        await fake.run_command(table.alice, place, "dvonn place", {"cell": "E3"})
        post = await next_board(table, place, first)
        assert f"{table.alice.mention} has 3 d 11 h in the bank" in clock_line(post)
