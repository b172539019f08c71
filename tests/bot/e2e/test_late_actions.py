"""A deadline holds at the instant it passes, through the fake Discord on each backend: whatever
the player to move does after it (a placement, a move on a time bank, a vacation, a takeback, an
abort, a line whose first move is their own) ends the game lost on time there and then, exactly
as the housekeeping pass would (the same post, ratings), and the player is told privately why
nothing was done; the housekeeping pass after it ends nothing twice. The clock is moved by hand;
nothing sleeps."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

import rules
from bot.app import DvonnBot
from bot.games.core.errors import LostOnTime, WonOnTime
from bot.games.core.results import GameRecord
from bot.i18n import _, n_
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import play_turn, said, said_pattern
from tests.bot.e2e.test_correspondence import clocked_game
from tests.bot.e2e.test_game import accept
from tests.bot.e2e.test_private import dm_between, global_runner, next_board
from tests.fakediscord import FakeChannel, FakeDiscord, InteractionResult, RecordedMessage

__all__ = ["global_runner"]  # the fixture, for the DM test

LATE = timedelta(seconds=30)
ENDED_ON_TIME = _("{loser} ran out of time: {winner} wins on time.")
ON_VACATION = _(
    "{opponent}: {player} is on vacation until {until}; their clock is paused until then."
)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def discord_time(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:f>"


def on_time_posts(fake: FakeDiscord, thread: FakeChannel) -> list[RecordedMessage]:
    on_time = said_pattern(ENDED_ON_TIME)
    return [m for m in fake.messages_in(thread) if on_time.search(str(m.embeds))]


async def deadline_of(bot: DvonnBot, thread: FakeChannel) -> datetime:
    game = await bot.service.game_in_channel(thread.id)
    assert game is not None and game.deadline_at is not None
    return game.deadline_at


async def ended_once_on_time(
    bot: DvonnBot, table: Table, thread: FakeChannel, winner: str, loser: str
) -> None:
    """The game's one loss-on-time post, as the housekeeping pass makes it; again after a pass."""
    fake = table.fake
    on_time = said(ENDED_ON_TIME, loser=loser, winner=winner)
    ended = await fake.wait_for_message(thread, lambda m: on_time in str(m.embeds))
    assert ended.pinged_user_ids == {table.alice.id, table.bob.id}
    await bot.housekeeping()
    assert on_time_posts(fake, thread) == [ended]


async def record_in(bot: DvonnBot, thread: FakeChannel) -> GameRecord:
    game = await bot.service.latest_game_in_channel(thread.id)
    assert game is not None
    return await bot.service.record(game.id)


def refused_late(reply: InteractionResult, deadline: datetime, *, lost: bool = True) -> bool:
    """Whether ``reply`` privately says the deadline passed at ``deadline`` and how it ended."""
    refusal = LostOnTime if lost else WonOnTime
    return reply.ephemeral and said(refusal, deadline=discord_time(deadline)) in reply.content


async def test_a_placement_after_the_deadline_is_not_played_and_the_game_is_lost_on_time(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        thread = await clocked_game(table)  # 1 day per move; Alice (White) places first
        deadline = await deadline_of(bot, thread)
        clock.now = deadline + LATE  # before the next housekeeping pass
        turn = await play_turn(fake, table.alice, thread, rules.parse_move("E3"))
        assert turn.post is None and refused_late(turn.reply, deadline), turn.reply.content
        await ended_once_on_time(bot, table, thread, "bob", "alice")
        record = await record_in(bot, thread)
        assert record.game.winner_id == table.bob.id and record.moves == ()
        profile = await fake.run_command(table.bob, table.games, "dvonn profile")
        record_line = n_(
            "Rating {rating} (± {deviation}) · {count} game: {wins} won, {losses} lost, {draws} "
            "drawn",
            "Rating {rating} (± {deviation}) · {count} games: {wins} won, {losses} lost, {draws} "
            "drawn",
            1,
        )
        assert said_pattern(record_line, wins=1, losses=0, draws=0).search(profile.content)


async def test_a_move_after_a_time_bank_ran_out_does_not_refill_it(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        challenge = await fake.run_command(
            table.alice,
            table.games,
            "dvonn challenge",
            {"opponent": table.bob, "colour": "W", "clock": "bank:3d+12h/5d"},
        )
        assert challenge.message is not None
        thread = await accept(table, challenge.message, table.bob)
        clock.advance(hours=20)
        assert (await play_turn(fake, table.alice, thread, rules.parse_move("E3"))).post
        deadline = await deadline_of(bot, thread)  # Bob's 3 days
        clock.now = deadline + LATE
        turn = await play_turn(fake, table.bob, thread, rules.parse_move("F3"))
        assert turn.post is None and refused_late(turn.reply, deadline), turn.reply.content
        await ended_once_on_time(bot, table, thread, "alice", "bob")
        refilled = said_pattern(
            _(
                "Clock: time bank of {terms}; {player} must play by {deadline} ({relative}), "
                "{opponent} has {left} in the bank."
            ),
            left=said(_("{hours} h", hours=12)),
        )
        assert not [m for m in fake.messages_in(thread) if refilled.search(str(m.embeds))]
        record = await record_in(bot, thread)
        assert record.game.winner_id == table.alice.id and len(record.moves) == 1
        assert record.game.black_bank == timedelta(days=3)  # never refilled from nothing


async def test_a_vacation_after_a_deadline_pauses_the_other_games_only(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        thread = await clocked_game(table)  # 1 day per move
        elsewhere = table.guild.add_text_channel("more-games")
        challenge = await fake.run_command(
            table.alice,
            elsewhere,
            "dvonn challenge",
            {"opponent": table.carol, "colour": "W", "clock": "days:2"},
        )
        assert challenge.message is not None
        other = await accept(table, challenge.message, table.carol)
        late = await bot.service.game_in_channel(thread.id)
        assert late is not None and late.deadline_at is not None
        deadline = late.deadline_at
        in_time = await deadline_of(bot, other)
        clock.now = deadline + LATE
        reply = await fake.run_command(table.alice, table.games, "dvonn vacation", {"days": 3})
        paused = n_(
            "Your clock is paused until {until} in your {count} running game.",
            "Your clocks are paused until {until} in your {count} running games.",
            1,
            until=discord_time(clock.now + timedelta(days=3)),
        )
        assert reply.ephemeral and said(paused) in reply.content, reply.content
        not_paused = _(
            "Game #{game} in <#{channel}> was not paused: your time to move "
            "there ran out at {deadline}, so you lost it on time.",
        )
        assert (
            said(not_paused, game=late.id, channel=thread.id, deadline=discord_time(deadline))
            in reply.content
        )
        await ended_once_on_time(bot, table, thread, "bob", "alice")
        vacation = said_pattern(ON_VACATION)
        assert not [m for m in fake.messages_in(thread) if vacation.search(m.content)]
        record = await record_in(bot, thread)
        assert record.game.winner_id == table.bob.id
        # The game still in time is paused, and its opponent told.
        told = await fake.wait_for_message(other, lambda m: bool(vacation.search(m.content)))
        assert told.pinged_user_ids == {table.carol.id}
        assert await deadline_of(bot, other) == in_time + timedelta(days=3)


async def test_a_takeback_accepted_after_the_deadline_is_not_granted(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        thread = await clocked_game(table)
        assert (await play_turn(fake, table.alice, thread, rules.parse_move("E3"))).post
        asked = await fake.run_command(table.alice, thread, "dvonn takeback")
        assert asked.message is not None
        deadline = await deadline_of(bot, thread)  # Bob's
        clock.now = deadline + LATE
        accepted = await fake.click(table.bob, asked.message, label=said(_("Accept the takeback")))
        assert refused_late(accepted, deadline), accepted.content
        await ended_once_on_time(bot, table, thread, "alice", "bob")
        taken_back = said_pattern(_("Takeback accepted: {moves} undone."))
        assert not [m for m in fake.messages_in(thread) if taken_back.search(str(m.embeds))]
        record = await record_in(bot, thread)
        assert record.game.winner_id == table.alice.id and len(record.moves) == 1


async def test_a_takeback_asked_after_the_opponents_deadline_is_not_asked(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        thread = await clocked_game(table)
        assert (await play_turn(fake, table.alice, thread, rules.parse_move("E3"))).post
        deadline = await deadline_of(bot, thread)  # Bob's
        clock.now = deadline + LATE
        asked = await fake.run_command(table.alice, thread, "dvonn takeback")
        assert refused_late(asked, deadline, lost=False), asked.content
        await ended_once_on_time(bot, table, thread, "alice", "bob")
        game = (await record_in(bot, thread)).game
        assert game.winner_id == table.alice.id and game.takeback_requested_by is None


async def test_an_abort_asked_after_the_deadline_is_not_asked(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        thread = await clocked_game(table)
        deadline = await deadline_of(bot, thread)  # Alice's
        clock.now = deadline + LATE
        asked = await fake.run_command(table.alice, thread, "dvonn abort")
        assert refused_late(asked, deadline), asked.content
        await ended_once_on_time(bot, table, thread, "bob", "alice")
        game = (await record_in(bot, thread)).game
        assert game.winner_id == table.bob.id and game.abort_requested_by is None


async def test_a_late_move_plays_no_planned_reply(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        thread = await clocked_game(table)
        planned = await fake.run_command(table.bob, thread, "dvonn plan", {"line": "E3 F3"})
        assert planned.ephemeral and "F3" in planned.content, planned.content
        deadline = await deadline_of(bot, thread)  # Alice's
        clock.now = deadline + LATE
        turn = await play_turn(fake, table.alice, thread, rules.parse_move("E3"))
        assert turn.post is None and refused_late(turn.reply, deadline), turn.reply.content
        await ended_once_on_time(bot, table, thread, "bob", "alice")
        record = await record_in(bot, thread)
        assert record.game.winner_id == table.bob.id and record.moves == ()


async def test_a_line_beginning_with_a_late_move_is_not_played(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        thread = await clocked_game(table)
        deadline = await deadline_of(bot, thread)  # Alice's
        clock.now = deadline + LATE
        planned = await fake.run_command(table.alice, thread, "dvonn plan", {"line": "E3 F3 G3"})
        assert refused_late(planned, deadline), planned.content
        await ended_once_on_time(bot, table, thread, "bob", "alice")
        record = await record_in(bot, thread)
        assert record.game.winner_id == table.bob.id and record.moves == ()


async def test_a_resignation_after_the_opponents_deadline_does_not_turn_the_result(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        thread = await clocked_game(table)
        assert (await play_turn(fake, table.alice, thread, rules.parse_move("E3"))).post
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and game.deadline_at is not None  # Bob's
        asked = await fake.run_command(table.alice, thread, "dvonn resign")
        really = said(_("Really resign game #{game}? Your opponent will win."), game=game.id)
        assert asked.message is not None and really in asked.content
        clock.now = game.deadline_at + LATE
        resigned = await fake.click(
            table.alice, asked.message, label=said(_("Resign game #{game}"), game=game.id)
        )
        assert refused_late(resigned, game.deadline_at, lost=False), resigned.content
        await ended_once_on_time(bot, table, thread, "alice", "bob")
        resigns = said_pattern(_("{loser} resigned: {winner} wins."))
        assert not [m for m in fake.messages_in(thread) if resigns.search(str(m.embeds))]
        assert (await record_in(bot, thread)).game.winner_id == table.alice.id


async def test_a_late_move_in_a_dm_is_refused_and_the_loss_is_posted_there(
    table: Table, global_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    place = await dm_between(table, table.alice, table.bob)
    async with global_runner.run(clock=clock, housekeeping_interval=0) as bot:
        challenge = await fake.run_command(
            table.alice, place, "dvonn challenge", {"opponent": table.bob, "colour": "W",
                                                    "clock": "days:1"},
        )  # fmt: skip
        assert challenge.message is not None and not challenge.ephemeral, challenge.content
        await fake.click(table.bob, challenge.message, label=said(_("Accept")))
        await next_board(table, place, challenge.message)
        deadline = await deadline_of(bot, place)
        clock.now = deadline + LATE
        late = await fake.run_command(table.alice, place, "dvonn place", {"cell": "E3"})
        assert refused_late(late, deadline), late.content
        on_time = said(ENDED_ON_TIME, loser="alice", winner="bob")
        ended = await fake.wait_for_message(place, lambda m: on_time in str(m.embeds))
        await bot.housekeeping()
        assert on_time_posts(fake, place) == [ended]
        assert (await record_in(bot, place)).moves == ()
