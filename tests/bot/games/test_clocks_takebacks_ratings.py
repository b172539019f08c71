"""Correspondence play with a hand-moved clock: deadlines, reminders, vacations, takebacks,
ratings. No test sleeps: time moves when the test says so."""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import timedelta
from pathlib import Path

import pytest

import rules
from bot.games.clocks.errors import VacationNotAllowed
from bot.games.clocks.timekeeping import VACATION_DAYS_PER_YEAR
from bot.games.core.errors import GameFinished
from bot.games.core.network import NETWORK
from bot.games.core.ratings import LEADERBOARD_MIN_GAMES, counts, rating_key
from bot.games.lobby.errors import ChannelNotAllowed
from bot.games.service import GameService
from bot.games.takebacks.errors import (
    NoTakebackRequested,
    NothingToTakeBack,
    OwnTakeback,
    TakebackPending,
)
from bot.games.takebacks.requests import TakebackAnswer
from bot.storage import Store, open_database
from bot.storage.models import EndReason, GuildSettings, Result
from tests.bot.clock import ManualClock
from tests.bot.games.test_service import ALICE, BOB, CAROL, CHANNEL, GUILD, start_game


async def pending(service: GameService, kind: str) -> list[dict[str, object]]:
    """The unsent announcements of ``kind`` (leased ones too)."""
    rows = await service.store.db.fetch_all(
        "SELECT id FROM notifications WHERE sent_at IS NULL AND kind = ? ORDER BY id", (kind,)
    )
    found = [await service.outbox.get(row["id"]) for row in rows]
    return [{"user": n.user_id, "game": n.game_id, **n.payload} for n in found if n is not None]


# --- deadlines ---------------------------------------------------------------------------------


async def test_a_missed_deadline_loses_on_time_once(
    service: GameService, clock: ManualClock
) -> None:
    game = await start_game(service, clock_days=2)
    assert game.deadline_at == clock.now + timedelta(days=2)
    clock.advance(days=1, hours=23)
    assert (await service.sweep()).lost_on_time == ()
    clock.advance(hours=2)
    first = await service.sweep()
    (ended,) = first.lost_on_time
    assert ended.game.end_reason is EndReason.TIME
    assert ended.game.result is Result.BLACK  # White was to move and let the clock run out
    assert ended.over.winner_id == BOB
    assert (await service.sweep()).lost_on_time == ()  # once
    assert len(await pending(service, "game_ended")) == 1
    with pytest.raises(GameFinished):
        await service.play(game.id, ALICE, "E3")


async def test_a_deadline_missed_while_the_bot_was_down_is_enforced_after_restart(
    database_target: str, clock: ManualClock
) -> None:
    path = database_target
    first = GameService(Store(await open_database(path)), clock=clock, rng=random.Random(1))
    game = await start_game(first, clock_days=1)
    await first.close()
    clock.advance(days=3)  # the bot was down all along
    second = GameService(Store(await open_database(path)), clock=clock)
    try:
        sweep = await second.sweep()
        assert [e.game.id for e in sweep.lost_on_time] == [game.id]
        assert (await second.sweep()).lost_on_time == ()
    finally:
        await second.close()


async def test_each_move_restarts_the_opponents_clock(
    service: GameService, clock: ManualClock
) -> None:
    game = await start_game(service, clock_days=1)
    clock.advance(hours=20)
    moved = await service.play(game.id, ALICE, "E3")
    assert moved.game.deadline_at == clock.now + timedelta(days=1)
    clock.advance(hours=20)
    assert (await service.sweep()).lost_on_time == ()


# --- reminders ---------------------------------------------------------------------------------


async def test_reminders_are_batched_per_player_at_most_twice_a_day(
    service: GameService, clock: ManualClock
) -> None:
    one = await start_game(service, ALICE, BOB, channel=1, clock_days=2)
    two = await start_game(service, ALICE, CAROL, channel=2, clock_days=2)
    three = await start_game(service, BOB, CAROL, channel=3, clock_days=2)
    assert (await service.sweep()).reminders == ()  # two days left: too early
    clock.advance(days=1, hours=1)
    reminders = {r.user_id: set(r.game_ids) for r in (await service.sweep()).reminders}
    assert reminders == {ALICE: {one.id, two.id}, BOB: {three.id}}  # one message per player
    clock.advance(hours=1)
    assert (await service.sweep()).reminders == ()  # the same deadlines: not again
    await service.play(one.id, ALICE, "E3")  # Bob's turn in game one: a new deadline
    clock.advance(days=1, hours=1)  # within 24 h of Bob's new deadline, 24 h after his reminder
    again = (await service.sweep()).reminders
    assert {r.user_id for r in again} == {BOB}
    assert len(await pending(service, "reminder")) == 3


async def test_a_second_reminder_waits_twelve_hours(
    service: GameService, clock: ManualClock
) -> None:
    one = await start_game(service, ALICE, BOB, channel=1, clock_days=1)
    clock.advance(hours=1)
    assert [r.user_id for r in (await service.sweep()).reminders] == [ALICE]
    await service.play(one.id, ALICE, "E3")
    await service.play(one.id, BOB, "F3")  # Alice again, a new deadline within 24 h
    clock.advance(hours=6)
    assert (await service.sweep()).reminders == ()  # reminded 6 h ago: wait
    clock.advance(hours=7)
    assert [r.user_id for r in (await service.sweep()).reminders] == [ALICE]


async def test_players_can_turn_reminders_off(service: GameService, clock: ManualClock) -> None:
    await start_game(service, clock_days=1)
    await service.clocks.set_notify(ALICE, False)
    clock.advance(hours=2)
    assert (await service.sweep()).reminders == ()
    await service.clocks.set_notify(ALICE, True)
    assert [r.user_id for r in (await service.sweep()).reminders] == [ALICE]


# --- vacations ---------------------------------------------------------------------------------


async def test_a_vacation_pauses_the_players_clocks_and_tells_the_opponents(
    service: GameService, clock: ManualClock
) -> None:
    mine = await start_game(service, ALICE, BOB, channel=1, clock_days=2)  # Alice to move
    theirs = await start_game(service, CAROL, ALICE, channel=2, clock_days=2)  # Carol to move
    assert mine.deadline_at is not None
    vacation = await service.clocks.start_vacation(ALICE, 5)
    assert vacation.until == clock.now + timedelta(days=5)
    assert vacation.days_left == VACATION_DAYS_PER_YEAR - 5
    assert (await service.get_game(mine.id)).deadline_at == mine.deadline_at + timedelta(days=5)
    assert (await service.get_game(theirs.id)).deadline_at == theirs.deadline_at  # Carol's clock
    told = await pending(service, "vacation")
    assert {n["game"] for n in told} == {mine.id, theirs.id}
    # Carol moves during the vacation: Alice's clock starts when she is back.
    clock.advance(days=1)
    moved = await service.play(theirs.id, CAROL, "E3")
    assert moved.game.deadline_at == vacation.until + timedelta(days=2)
    clock.advance(days=5)
    assert (await service.sweep()).lost_on_time == ()


async def test_vacation_days_are_limited_per_year(service: GameService) -> None:
    await service.clocks.start_vacation(ALICE, 10)
    with pytest.raises(VacationNotAllowed) as caught:
        await service.clocks.start_vacation(ALICE, 5)
    assert "4 vacation days left" in str(caught.value)
    extended = await service.clocks.start_vacation(ALICE, 4)  # extends the running vacation
    assert extended.days_left == 0
    with pytest.raises(VacationNotAllowed):
        await service.clocks.start_vacation(BOB, 0)


# --- takebacks ---------------------------------------------------------------------------------


async def test_a_takeback_accepted_undoes_exactly_that_move(service: GameService) -> None:
    game = await start_game(service)
    await service.play(game.id, ALICE, "E3")
    await service.play(game.id, BOB, "F3")
    with pytest.raises(NothingToTakeBack):
        await service.takebacks.request(game.id, ALICE)  # Bob moved last
    asked = await service.takebacks.request(game.id, BOB)
    assert not isinstance(asked, TakebackAnswer)  # a person is asked, not the bot
    assert asked.takeback_requested_by == BOB
    with pytest.raises(TakebackPending):
        await service.takebacks.request(game.id, BOB)
    with pytest.raises(OwnTakeback):
        await service.takebacks.answer(game.id, BOB, True)
    answer = await service.takebacks.answer(game.id, ALICE, True)
    assert answer.accepted and answer.undone == ("F3",)
    restored = await service.get_game(game.id)
    assert restored.position.ply == 1 and restored.to_move_id == BOB
    assert [str(m.move) for m in (await service.record(game.id)).moves] == ["E3"]
    await service.play(game.id, BOB, "G3")  # the game goes on from there


async def test_a_takeback_declined_or_overtaken_changes_nothing(service: GameService) -> None:
    game = await start_game(service)
    await service.play(game.id, ALICE, "E3")
    await service.takebacks.request(game.id, ALICE)
    declined = await service.takebacks.answer(game.id, BOB, False)
    assert not declined.accepted and declined.game.position.ply == 1
    await service.takebacks.request(game.id, ALICE)
    await service.play(game.id, BOB, "F3")  # Bob plays on instead of answering: it lapses
    with pytest.raises(NoTakebackRequested):
        await service.takebacks.answer(game.id, BOB, True)
    assert (await service.get_game(game.id)).position.ply == 2


async def test_a_takeback_also_undoes_the_automatic_passes_after_the_move(
    service: GameService, shared_dir: Path
) -> None:
    line = (shared_dir / "oracle" / "edge_games.jsonl").open().readline()
    record = json.loads(line)  # White is blocked at its first move and must pass
    game = await start_game(service)
    players = {"W": ALICE, "B": BOB}
    for position in record["positions"][:49]:  # the placements
        await service.play(game.id, players[position["to_move"]], position["action"])
    current = await service.get_game(game.id)
    moves = [str(m.move) for m in (await service.record(game.id)).moves]
    assert moves[-1] == "PASS"  # White could not move after the 49th placement: passed for it
    assert current.to_move_id == BOB
    black_move = next(str(m) for m in rules.legal_moves(current.position))
    outcome = await service.play(game.id, BOB, black_move)
    await service.takebacks.request(game.id, BOB)
    answer = await service.takebacks.answer(game.id, ALICE, True)
    undone = (black_move, *[str(m.move) for m in outcome.automatic_passes])
    assert answer.undone == undone
    assert (await service.get_game(game.id)).to_move_id == BOB


# --- ratings -----------------------------------------------------------------------------------


async def test_ratings_change_exactly_once_per_rated_game(
    service: GameService, clock: ManualClock
) -> None:
    game = await start_game(service, clock_days=1)
    await service.resign(game.id, ALICE)
    alice = await service.ratings.rating(GUILD, ALICE)
    bob = await service.ratings.rating(GUILD, BOB)
    assert alice is not None and bob is not None
    assert (alice.games, alice.losses, bob.wins) == (1, 1, 1)
    assert alice.rating < 1500 < bob.rating
    assert await service.ratings.rate_finished_games() == 0  # already rated
    assert await service.ratings.rate_game(await service.get_game(game.id)) is None
    # A loss on time counts; an abort does not.
    timed = await start_game(service, channel=CHANNEL + 1, clock_days=1)
    clock.advance(days=2)
    await service.sweep()
    aborted = await start_game(service, channel=CHANNEL + 2)
    await service.abort(aborted.id, ALICE, moderator=True)
    bob_after = await service.ratings.rating(GUILD, BOB)
    assert bob_after is not None and bob_after.games == 2 and bob_after.wins == 2
    assert timed.id != aborted.id


async def test_whose_ratings_a_game_goes_into(service: GameService) -> None:
    """A server's game into its server's; a network game (no server) into the network's only
    (guild 0); a private game (no server, not the network's) into nobody's."""
    game = await start_game(service, clock_days=1)
    await service.resign(game.id, ALICE)
    ended = await service.get_game(game.id)
    assert (rating_key(ended), counts(ended)) == (GUILD, True)
    network = dataclasses.replace(ended, guild_id=None, network=True)
    assert (rating_key(network), counts(network)) == (NETWORK, True) and NETWORK == 0
    private = dataclasses.replace(ended, guild_id=None)
    assert (rating_key(private), counts(private)) == (None, False)


async def test_profile_and_leaderboard(service: GameService) -> None:
    for n in range(LEADERBOARD_MIN_GAMES):
        game = await start_game(service, ALICE, BOB, channel=100 + n)
        await service.resign(game.id, BOB)
    running = await start_game(service, ALICE, CAROL, channel=200)
    profile = await service.ratings.profile(GUILD, ALICE)
    assert profile.rating is not None and profile.rating.wins == LEADERBOARD_MIN_GAMES
    assert [g.id for g in profile.active] == [running.id]
    board = await service.ratings.leaderboard(GUILD)
    assert [r.user_id for r in board] == [ALICE, BOB]
    assert board[0].rating > board[1].rating
    assert await service.ratings.leaderboard(GUILD + 1) == []


# --- server settings ---------------------------------------------------------------------------


async def test_a_server_can_keep_games_to_some_channels(service: GameService) -> None:
    await service.save_guild_settings(GuildSettings(GUILD, channels=frozenset({CHANNEL})))
    with pytest.raises(ChannelNotAllowed) as caught:
        await service.create_challenge(guild_id=GUILD, channel_id=999, challenger_id=ALICE)
    assert f"<#{CHANNEL}>" in str(caught.value)
    await service.create_challenge(guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE)
    await service.create_challenge(
        guild_id=GUILD, channel_id=4242, challenger_id=BOB, parent_channel_id=CHANNEL
    )
