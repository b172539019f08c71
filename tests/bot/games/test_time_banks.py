"""Time-bank clocks through the game service, on both backends, with a hand-moved clock:
banks that fill and run out, reminders, vacations, takebacks, a server's default, and the
days-per-move games that were running before banks came."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

import rules
from bot.games.core.timecontrol import LITTLE_GOLEM, Bank, DaysPerMove
from bot.games.lobby.errors import InvalidClock, InvalidTimeControl
from bot.games.service import GameService
from bot.storage import Store, open_database
from bot.storage.models import EndReason, GuildSettings, Result, time_to_text
from tests.bot.clock import ManualClock
from tests.bot.games.test_clocks_takebacks_ratings import pending
from tests.bot.games.test_service import ALICE, BOB, CAROL, CHANNEL, GUILD, start_game
from tools.bench.service import housekeeping

DAY, HOUR = timedelta(days=1), timedelta(hours=1)
SHORT = Bank(3 * DAY, 12 * HOUR, 5 * DAY)


async def test_each_move_takes_the_time_spent_and_adds_the_increment(
    service: GameService, clock: ManualClock
) -> None:
    game = await start_game(service, clock=SHORT)
    assert game.bank == "bank:3d+12h/5d" and game.clock_days is None
    assert game.white_bank == game.black_bank == 3 * DAY
    assert game.deadline_at == clock.now + 3 * DAY
    clock.advance(hours=20)
    moved = (await service.play(game.id, ALICE, "E3")).game
    assert moved.white_bank == 3 * DAY - 20 * HOUR + 12 * HOUR
    assert moved.black_bank == 3 * DAY and moved.deadline_at == clock.now + 3 * DAY
    clock.advance(hours=1)
    moved = (await service.play(game.id, BOB, "F3")).game
    assert moved.black_bank == 3 * DAY - HOUR + 12 * HOUR
    assert moved.white_bank is not None and moved.deadline_at == clock.now + moved.white_bank
    stored = await service.get_game(game.id)  # as read back from the database
    assert (stored.white_bank, stored.black_bank, stored.deadline_at) == (
        moved.white_bank,
        moved.black_bank,
        moved.deadline_at,
    )
    for move in ("G3", "H3", "I3", "A1", "B1", "C1", "D1", "E1", "F1", "G1"):  # to the cap
        to_move = stored.to_move_id
        assert to_move is not None
        stored = (await service.play(game.id, to_move, move)).game
    assert stored.white_bank == stored.black_bank == 5 * DAY


async def test_a_player_whose_bank_runs_out_loses_on_time_once(
    service: GameService, clock: ManualClock
) -> None:
    game = await start_game(service, clock=SHORT)
    clock.advance(days=2)
    await service.play(game.id, ALICE, "E3")  # 1 d + 12 h left for Alice
    clock.advance(hours=1)
    await service.play(game.id, BOB, "F3")
    clock.advance(days=1, hours=11)
    assert (await service.sweep()).lost_on_time == ()
    clock.advance(hours=1, seconds=1)
    (lost,) = (await service.sweep()).lost_on_time
    assert lost.game.end_reason is EndReason.TIME and lost.game.result is Result.BLACK
    assert lost.over.winner_id == BOB and lost.game.deadline_at is None
    assert (await service.sweep()).lost_on_time == ()
    assert len(await pending(service, "game_ended")) == 1
    bob = await service.ratings.rating(GUILD, BOB)
    assert bob is not None and bob.wins == 1  # rated as any other loss on time


async def test_the_reminder_comes_a_quarter_of_a_small_bank_before_it_runs_out(
    service: GameService, clock: ManualClock
) -> None:
    game = await start_game(service, clock=SHORT)
    clock.advance(days=2, hours=12)  # 12 h of Alice's 3 days left: a quarter would be 18 h
    await service.play(game.id, ALICE, "E3")
    clock.advance(hours=1)
    await service.play(game.id, BOB, "F3")  # Alice has 24 h: reminded 6 h before it ends
    clock.advance(hours=17)
    assert (await service.sweep()).reminders == ()
    clock.advance(hours=1, minutes=1)
    assert [r.user_id for r in (await service.sweep()).reminders] == [ALICE]
    lg = await start_game(service, CAROL, BOB, channel=CHANNEL + 1, clock=LITTLE_GOLEM)
    clock.advance(days=8, hours=23)  # a day and an hour before Carol's 10 days end
    assert CAROL not in {r.user_id for r in (await service.sweep()).reminders}
    clock.advance(hours=2)
    assert [r.game_ids for r in (await service.sweep()).reminders if r.user_id == CAROL] == [
        (lg.id,)
    ]


async def test_a_vacation_pauses_the_bank(service: GameService, clock: ManualClock) -> None:
    game = await start_game(service, clock=SHORT)
    clock.advance(days=1)
    away = await service.clocks.start_vacation(ALICE, 5)
    paused = await service.get_game(game.id)
    assert paused.deadline_at == clock.now + 2 * DAY + 5 * DAY
    clock.advance(days=3)  # moving on vacation costs nothing of the bank
    moved = (await service.play(game.id, ALICE, "E3")).game
    assert moved.white_bank == 2 * DAY + 12 * HOUR
    # Bob's turn comes while he is on vacation: his bank starts when it ends.
    clock.advance(hours=1)
    vacation = await service.clocks.start_vacation(BOB, 2)
    clock.advance(hours=1)
    assert (await service.get_game(game.id)).deadline_at == vacation.until + 3 * DAY - HOUR
    moved = (await service.play(game.id, BOB, "F3")).game
    assert moved.black_bank == 3 * DAY - HOUR + 12 * HOUR
    assert moved.white_bank is not None
    assert moved.deadline_at == away.until + moved.white_bank  # when Alice is back


async def test_a_bank_game_starts_after_a_vacation_of_white(
    service: GameService, clock: ManualClock
) -> None:
    await service.clocks.start_vacation(ALICE, 2)
    game = await start_game(service, clock=SHORT)
    assert game.deadline_at == clock.now + 2 * DAY + 3 * DAY


async def test_a_takeback_puts_both_banks_back_as_they_were(
    service: GameService, clock: ManualClock
) -> None:
    game = await start_game(service, clock=SHORT)
    clock.advance(hours=10)
    first = (await service.play(game.id, ALICE, "E3")).game
    clock.advance(hours=30)
    second = (await service.play(game.id, BOB, "F3")).game
    assert second.black_bank == 3 * DAY - 30 * HOUR + 12 * HOUR
    clock.advance(hours=5)
    await service.takebacks.request(game.id, BOB)
    clock.advance(hours=2)
    answer = await service.takebacks.answer(game.id, ALICE, True)
    back = answer.game
    assert (back.white_bank, back.black_bank) == (first.white_bank, first.black_bank)
    assert back.deadline_at == clock.now + 3 * DAY  # Bob's bank as it was before F3
    stored = await service.get_game(game.id)
    assert (stored.white_bank, stored.black_bank, stored.deadline_at) == (
        back.white_bank,
        back.black_bank,
        back.deadline_at,
    )
    # Back to the start: both banks full again.
    clock.advance(hours=1)
    await service.play(game.id, BOB, "F3")
    await service.takebacks.request(game.id, BOB)
    await service.takebacks.answer(game.id, ALICE, True)
    await service.takebacks.request(game.id, ALICE)  # now E3 can be taken back
    whole = (await service.takebacks.answer(game.id, BOB, True)).game
    assert whole.position.ply == 0
    assert whole.white_bank == whole.black_bank == 3 * DAY
    assert whole.deadline_at == clock.now + 3 * DAY


async def test_a_server_may_default_to_a_bank(service: GameService) -> None:
    await service.save_guild_settings(GuildSettings(GUILD, default_bank=LITTLE_GOLEM.to_text()))
    settings = await service.guild_settings(GUILD)
    assert settings.default_bank == "bank:10d+36h/10d" and settings.default_clock_days is None
    challenge = await service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE
    )
    assert challenge.bank == "bank:10d+36h/10d" and challenge.clock_days is None
    started = await service.accept_challenge(challenge.id, BOB)
    assert started.game.white_bank == 10 * DAY
    chosen = await service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL + 1, challenger_id=ALICE, clock=DaysPerMove(3)
    )
    assert (chosen.clock_days, chosen.bank) == (3, None)
    none = await service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL + 1, challenger_id=ALICE, clock=None
    )
    assert (none.clock_days, none.bank) == (None, None)
    await service.save_guild_settings(GuildSettings(GUILD, default_clock_days=2))
    assert (await service.guild_settings(GUILD)).default_bank is None


async def test_banks_not_offered_are_refused(service: GameService) -> None:
    odd = Bank(DAY, HOUR, 2 * DAY)
    with pytest.raises(InvalidTimeControl) as caught:
        await service.create_challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, clock=odd
        )
    assert "bank:1d+1h/2d" in str(caught.value)
    with pytest.raises(InvalidTimeControl):
        await service.save_guild_settings(GuildSettings(GUILD, default_bank=odd.to_text()))
    with pytest.raises(InvalidTimeControl):  # a bank and days at once
        await service.save_guild_settings(
            GuildSettings(GUILD, default_clock_days=3, default_bank=LITTLE_GOLEM.to_text())
        )
    with pytest.raises(InvalidClock):
        await service.create_challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, clock=DaysPerMove(4)
        )
    assert await service.guild_settings(GUILD) == GuildSettings(GUILD)


async def test_a_days_game_running_before_banks_came_goes_on_unchanged(
    database_target: str, clock: ManualClock
) -> None:
    """A game of the schema before time banks (migration 11), played on after migrating."""
    old = await open_database(database_target, migrate_to=11)
    start, deadline = clock.now, clock.now + 2 * DAY
    async with old.transaction() as conn:
        for user in (ALICE, BOB):
            await conn.execute(
                "INSERT INTO players (user_id, created_at) VALUES (?, ?)",
                (user, time_to_text(start)),
            )
        await conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, white_id, black_id, status, position, "
            "ply, version, clock_days, deadline_at, created_at, updated_at) "
            "VALUES (1, ?, ?, ?, ?, 'active', ?, 1, 1, 2, ?, ?, ?)",
            (
                GUILD,
                CHANNEL,
                ALICE,
                BOB,
                _after_e3(),
                time_to_text(deadline),
                time_to_text(start),
                time_to_text(start),
            ),
        )
        await conn.execute(
            "INSERT INTO moves (game_id, ply, colour, player_id, move, automatic, played_at) "
            "VALUES (1, 0, 'W', ?, 'E3', 0, ?)",
            (ALICE, time_to_text(start)),
        )
    await old.close()
    service = GameService(
        Store(await open_database(database_target)), clock=clock, rng=random.Random(1)
    )
    try:
        game = await service.get_game(1)
        assert (game.clock_days, game.bank, game.white_bank, game.deadline_at) == (
            2,
            None,
            None,
            deadline,
        )
        clock.advance(days=1)
        moved = (await service.play(1, BOB, "F3")).game
        assert moved.deadline_at == clock.now + 2 * DAY and moved.black_bank is None
        await service.takebacks.request(1, BOB)
        back = (await service.takebacks.answer(1, ALICE, True)).game
        assert back.position.ply == 1 and back.deadline_at == clock.now + 2 * DAY
        clock.advance(days=2, seconds=1)
        (lost,) = (await service.sweep()).lost_on_time
        assert lost.over.winner_id == ALICE
    finally:
        await service.close()


def _after_e3() -> str:
    return rules.play(rules.new_game(), rules.parse_move("E3")).to_text()


async def test_the_housekeeping_benchmark_runs(database_target: str) -> None:
    lines = await housekeeping(await open_database(database_target), running=300, passes=2, seed=1)
    assert "300 running games on time banks" in lines[0] and "on a daily digest" in lines[0]
    assert "after an hour down" in lines[1] and "2 passes" in lines[2]
    assert "at the full hour" in lines[3] and " digests)" in lines[3]
