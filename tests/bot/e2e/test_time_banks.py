"""Time banks through the fake Discord, on each backend: a whole game on a bank where one player
runs out, a server's default bank, a bank game in a DM, and the clear answers to what makes no
sense. The clock is moved by hand; nothing sleeps."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

import rules
from bot.i18n import Text, _, n_
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import play_turn, said, said_pattern
from tests.bot.e2e.test_game import accept
from tests.bot.e2e.test_private import dm_between, global_runner, next_board
from tests.fakediscord import Permission, RecordedMessage

__all__ = ["global_runner"]  # the fixture, for the DM test

SHORT = "bank:3d+12h/5d"
BANK_LINE = _(
    "Clock: time bank of {terms}; {player} must play by {deadline} ({relative}), {opponent} has "
    "{left} in the bank."
)
TIME_BANK = _("time bank: {terms}")
TERMS = _("{initial} + {increment} a move, at most {cap}")
ON_TIME = _("{loser} ran out of time: {winner} wins on time.")


def days(count: int) -> Text:
    return _("{days} d", days=count)


def hours(count: int) -> Text:
    return _("{hours} h", hours=count)


def days_hours(day_count: int, hour_count: int) -> Text:
    return _("{days} d {hours} h", days=day_count, hours=hour_count)


SHORT_TERMS = _(TERMS.msgid, initial=days(3), increment=hours(12), cap=days(5))
LONG_TERMS = _(TERMS.msgid, initial=days(10), increment=hours(36), cap=days(10))


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def clock_line(post: RecordedMessage | None) -> re.Match[str]:
    """The post's clock line, as a reader sees it in the embed: its values by name (``player``
    to move, ``deadline``, ``opponent``, ``left`` in the opponent's bank, ``terms``)."""
    assert post is not None
    found = said_pattern(BANK_LINE).search(str(post.embeds))
    assert found is not None, post.embeds
    return found


def banks(post: RecordedMessage | None, to_move: str, waiting: str, left: Text) -> bool:
    """Whether ``post``'s clock line calls ``to_move`` to play and says ``waiting`` has
    ``left`` in the bank."""
    line = clock_line(post)
    return (line["player"], line["opponent"], line["left"]) == (to_move, waiting, said(left))


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
        assert said(TIME_BANK, terms=SHORT_TERMS) in challenge.message.content
        thread = await accept(table, challenge.message, bob)
        first = fake.messages_in(thread)[-1]
        assert banks(first, alice.mention, bob.mention, days(3))
        assert clock_line(first)["terms"] == said(SHORT_TERMS)
        deadline = int((clock.now + timedelta(days=3)).timestamp())
        assert deadline_of(clock_line(first)["deadline"]) == deadline

        # Each move takes the time spent from the mover's bank and adds 12 h, up to 5 days;
        # each board shows the bank of the player to move as a deadline, the other's as time.
        start = clock.now
        clock.advance(hours=20)
        turn = await play_turn(fake, alice, thread, rules.parse_move("E3"))
        assert banks(turn.post, bob.mention, alice.mention, days_hours(2, 16))
        clock.advance(hours=1)
        turn = await play_turn(fake, bob, thread, rules.parse_move("F3"))
        assert banks(turn.post, alice.mention, bob.mention, days_hours(3, 11))
        assert deadline_of(clock_line(turn.post)["deadline"]) == int(
            (clock.now + timedelta(days=2, hours=16)).timestamp()
        )
        # A takeback puts both banks back as they were before Bob's move.
        asked = await fake.run_command(bob, thread, "dvonn takeback")
        assert asked.message is not None
        clock.advance(hours=3)
        await fake.click(alice, asked.message, label=said(_("Accept the takeback")))
        accepted = said(_("Takeback accepted: {moves} undone."), moves="F3")
        back = await fake.wait_for_message(
            thread, lambda m: accepted in str(m.embeds), after=turn.post
        )
        assert banks(back, bob.mention, alice.mention, days_hours(2, 16))
        deadline = int((clock.now + timedelta(days=3)).timestamp())
        assert deadline_of(clock_line(back)["deadline"]) == deadline
        moves = ["F3", "G3", "H3", "I3", "A1", "B1"]
        for number, move in enumerate(moves):
            clock.advance(hours=2)
            player = bob if number % 2 == 0 else alice
            turn = await play_turn(fake, player, thread, rules.parse_move(move))
            assert turn.post is not None, turn.reply.content
        board = await fake.run_command(table.carol, thread, "dvonn board")
        assert clock_line(board.message)["terms"] == said(SHORT_TERMS)

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
        on_time = said(ON_TIME, loser="bob", winner="alice")
        ended = await fake.wait_for_message(thread, lambda m: on_time in str(m.embeds))
        assert ended.pinged_user_ids == {alice.id, bob.id}
        await bot.housekeeping()
        assert len([m for m in fake.messages_in(thread) if on_time in str(m.embeds)]) == 1
        finished = await bot.service.get_game(game.id)
        assert finished.winner_id == alice.id and clock.now - start > timedelta(days=4)
        profile = await fake.run_command(alice, table.games, "dvonn profile")
        record = n_(
            "Rating {rating} (± {deviation}) · {count} game: {wins} won, {losses} lost, {draws} "
            "drawn",
            "Rating {rating} (± {deviation}) · {count} games: {wins} won, {losses} lost, {draws} "
            "drawn",
            1,
        )
        assert said_pattern(record, wins=1, losses=0, draws=0).search(profile.content)


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
        default_clock = _("Default clock: {clock}")
        long_bank = _(TIME_BANK.msgid, terms=LONG_TERMS)
        assert saved.ephemeral and said(_("Settings saved.")) in saved.content
        assert said(default_clock, clock=long_bank) in saved.content
        challenge = await fake.run_command(
            table.alice, table.games, "dvonn challenge", {"opponent": table.bob}
        )
        assert challenge.message is not None
        assert said(long_bank) in challenge.message.content
        every_two = await fake.run_command(
            admin, table.games, "dvonn settings", {"clock": "days:2"}
        )
        two_days = n_("{count} day per move", "{count} days per move", 2)
        assert said(default_clock, clock=two_days) in every_two.content
        # A bank for a game that has no clock: the bot's own games have none.
        against_bot = await fake.run_command(
            table.carol, table.no_threads, "dvonn challenge", {"opponent": fake.bot,
                                                               "clock": SHORT},
        )  # fmt: skip
        no_clock = _("Games against the bot have no clock: challenge it without one.")
        assert against_bot.ephemeral and said(no_clock) in against_bot.content
        helped = await fake.run_command(table.carol, table.games, "dvonn help")
        assert said(LONG_TERMS) in str(helped.embeds)


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
        await fake.click(table.bob, challenge.message, label=said(_("Accept")))
        first = await next_board(table, place, challenge.message)
        assert banks(first, table.alice.mention, table.bob.mention, days(3))
        clock.advance(hours=1)
        await fake.run_command(table.alice, place, "dvonn place", {"cell": "E3"})
        post = await next_board(table, place, first)
        assert banks(post, table.bob.mention, table.alice.mention, days_hours(3, 11))
