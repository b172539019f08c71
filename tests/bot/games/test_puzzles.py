"""Puzzles in the service, on each backend: a puzzle near the player's rating, right and wrong
moves, the rating moved once (also when two processes take the same tap at once), streaks,
practice tries, and the daily puzzle (chosen once a day, posted once a server, counted the next
day). The puzzles are the shipped ones (:mod:`ai.puzzles`), given the ratings a test needs."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime

import pytest

import ai.puzzles
import rules
from ai.puzzles import Puzzle
from bot.games.puzzles.announcements import DAILY_PUZZLE, DAILY_PUZZLE_COUNT, read_daily_puzzle
from bot.games.puzzles.book import WINDOWS, PuzzleBook, rated, start_rating
from bot.games.puzzles.errors import (
    NoDailyPuzzle,
    NoPuzzleLeft,
    NoPuzzleRunning,
    NotYourPuzzle,
    PuzzleMovedOn,
    PuzzleOver,
    UnknownPuzzle,
)
from bot.games.service import GameService
from bot.storage import Store, open_database
from bot.storage.models import GuildSettings
from bot.storage.puzzles import DailyCount, PuzzleWrites
from tests.bot.clock import ManualClock

ALICE, BOB, CAROL = 11, 22, 33
GUILD, OTHER_GUILD, CHANNEL, OTHER_CHANNEL = 500, 501, 600, 601


def shipped(solver_moves: int) -> Puzzle:
    """A shipped puzzle whose line has ``solver_moves`` moves of the solver's."""
    return next(p for p in ai.puzzles.load() if p.solver_moves == solver_moves)


def puzzle(name: str, rating: int, solver_moves: int = 1) -> Puzzle:
    return dataclasses.replace(shipped(solver_moves), id=name, rating=rating)


BOOK = PuzzleBook(
    [
        puzzle("easy", 900),
        puzzle("low", 1450),
        puzzle("high", 1550),
        puzzle("long", 1520, 2),
        puzzle("hard", 2400),
    ]
)


def wrong(position: rules.Position, right: rules.Move) -> rules.Move:
    """A legal move other than ``right``."""
    return next(m for m in rules.legal_moves(position) if m != right)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2025, 3, 1, 12, 0, tzinfo=UTC))


async def open_service(database_target: str, clock: ManualClock, seed: int) -> GameService:
    db = await open_database(database_target)
    return GameService(Store(db), clock=clock, rng=random.Random(seed), puzzles=BOOK)


@pytest.fixture
async def service(database_target: str, clock: ManualClock) -> AsyncIterator[GameService]:
    service = await open_service(database_target, clock, 7)
    yield service
    await service.close()


@pytest.fixture
async def other(database_target: str, clock: ManualClock) -> AsyncIterator[GameService]:
    """Another process's service on the same database and clock."""
    service = await open_service(database_target, clock, 8)
    yield service
    await service.close()


# --- choosing ----------------------------------------------------------------------------------


async def test_a_new_player_gets_a_puzzle_near_their_rating_and_sees_it_again(
    service: GameService,
) -> None:
    near = {"low", "high", "long"}  # within the first window of 1500
    assert WINDOWS[0] >= 80
    for player in range(100, 130):
        shown = await service.puzzles.start(player)
        assert shown.puzzle.id in near and not shown.resumed
        assert shown.attempt.rated and shown.attempt.step == 0
        assert shown.position == shown.puzzle.position
        assert shown.solver is shown.puzzle.position.turn
        again = await service.puzzles.start(player)
        assert again.resumed and again.attempt.id == shown.attempt.id
    current = await service.puzzles.current(100)
    assert current.resumed and current.rating.rating == start_rating(100).rating


async def test_the_window_widens_and_a_strong_player_gets_a_hard_one(
    service: GameService,
) -> None:
    for _ in range(3):  # easy, then the three of 1500, then the hard one
        shown = await service.puzzles.start(ALICE, puzzle_id="easy")
        await service.puzzles.give_up(ALICE, shown.attempt.id, 0)
    chosen = []
    for _ in range(4):
        shown = await service.puzzles.start(BOB)
        chosen.append(shown.puzzle.id)
        await service.puzzles.give_up(BOB, shown.attempt.id, 0)
    assert set(chosen[:3]) == {"low", "high", "long"}
    assert chosen[3] in {"easy", "hard"}


# --- moves -------------------------------------------------------------------------------------


async def test_right_moves_are_answered_and_the_last_solves_a_rated_puzzle(
    service: GameService,
) -> None:
    shown = await service.puzzles.start(ALICE, puzzle_id=" Long ")  # as a player may type it
    assert shown.puzzle.id == "long" and not shown.attempt.rated  # asked for by name: practice
    line = shown.puzzle.line
    first = await service.puzzles.play(ALICE, str(line[0]))
    assert first.right and not first.over and first.reply == line[1]
    assert first.attempt.step == 2 and first.attempt.played == (str(line[0]), str(line[1]))
    assert first.position == shown.puzzle.position_at(2)
    current = await service.puzzles.current(ALICE)
    assert current.attempt.step == 2 and current.moves_left == shown.moves_left - 1
    for step in range(2, len(line) - 2, 2):  # a longer line's middle moves
        middle = await service.puzzles.play(ALICE, line[step], step=step)
        assert middle.right and middle.reply == line[step + 1]
    last = await service.puzzles.play(ALICE, str(line[-1]).lower())
    assert last.over and last.solved and last.reply is None
    assert last.position == shown.puzzle.position_at(len(line))
    assert last.attempt.played == tuple(str(m) for m in line)
    assert last.rating_after == last.rating_before  # practice moves no rating
    with pytest.raises(NoPuzzleRunning):
        await service.puzzles.current(ALICE)

    rated_one = await service.puzzles.start(BOB)
    assert rated_one.attempt.rated
    for step in range(0, len(rated_one.puzzle.line), 2):
        done = await service.puzzles.play(BOB, rated_one.puzzle.line[step])
    assert done.over and done.solved and done.rated
    after = await service.puzzles.rating(BOB)
    assert after is not None and after == done.rating_after
    assert after.rating > 1500 and after.deviation < 350
    assert (after.solved, after.failed, after.streak, after.best_streak) == (1, 0, 1, 1)
    assert after == rated(start_rating(BOB), rated_one.puzzle.rating, solved=True)
    assert done.attempt.rating_before == 1500 and done.attempt.rating_after == after.rating


async def test_a_wrong_move_fails_the_puzzle_and_shows_the_solution(
    service: GameService,
) -> None:
    shown = await service.puzzles.start(ALICE)
    move = wrong(shown.position, shown.puzzle.line[0])
    failed = await service.puzzles.play(ALICE, move)
    assert failed.over and not failed.solved and not failed.right
    assert failed.expected == shown.puzzle.line[0]
    assert failed.position == shown.position  # the board before it, to draw the solution on
    assert failed.attempt.played == (str(move),)
    rating = await service.puzzles.rating(ALICE)
    assert rating is not None and rating.rating < 1500
    assert (rating.solved, rating.failed, rating.streak) == (0, 1, 0)
    with pytest.raises(PuzzleOver):
        await service.puzzles.play(ALICE, shown.puzzle.line[0], attempt_id=shown.attempt.id)
    # Tried again (by name): practice, and the rating stays.
    again = await service.puzzles.start(ALICE, puzzle_id=shown.puzzle.id)
    assert not again.attempt.rated and not again.resumed
    await service.puzzles.play(ALICE, shown.puzzle.line[0])
    assert await service.puzzles.rating(ALICE) == rating


async def test_bad_moves_change_nothing(service: GameService) -> None:
    with pytest.raises(NoPuzzleRunning):
        await service.puzzles.play(ALICE, "E3F4")
    shown = await service.puzzles.start(ALICE, puzzle_id="long")
    with pytest.raises(rules.InvalidMoveError):
        await service.puzzles.play(ALICE, "Z9")
    with pytest.raises(rules.IllegalMoveError):
        await service.puzzles.play(ALICE, "E3")  # a placement, in the movement phase
    with pytest.raises(NotYourPuzzle):
        await service.puzzles.play(BOB, shown.puzzle.line[0], attempt_id=shown.attempt.id)
    with pytest.raises(PuzzleMovedOn):
        await service.puzzles.play(ALICE, shown.puzzle.line[0], step=2)
    with pytest.raises(UnknownPuzzle):
        await service.puzzles.start(ALICE, puzzle_id="p9999")
    with pytest.raises(NoDailyPuzzle):
        await service.puzzles.start(ALICE, daily=date(2025, 1, 1))
    current = await service.puzzles.current(ALICE)
    assert current.attempt == shown.attempt


async def test_two_processes_taking_the_same_tap_play_and_rate_it_once(
    service: GameService, other: GameService
) -> None:
    shown = await service.puzzles.start(ALICE)
    assert shown.attempt.rated
    right = shown.puzzle.line[0]
    outcomes = await asyncio.gather(
        service.puzzles.play(ALICE, right, attempt_id=shown.attempt.id, step=0),
        other.puzzles.play(ALICE, right, attempt_id=shown.attempt.id, step=0),
        service.puzzles.give_up(ALICE, shown.attempt.id, 0),
        return_exceptions=True,
    )
    done = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(done) == 1, outcomes
    assert all(isinstance(o, (PuzzleMovedOn, PuzzleOver)) for o in refused), refused
    rating = await service.puzzles.rating(ALICE)
    assert rating is not None and rating.tried == (1 if done[0].over else 0)


async def test_two_processes_rate_a_players_puzzles_one_after_the_other(
    service: GameService, other: GameService, clock: ManualClock
) -> None:
    """Two rated tries of one player (two days' daily puzzles) ending at once in two
    processes: both counted, the second from the first's result (the rating row is the
    player's lock)."""
    await service.save_guild_settings(GuildSettings(GUILD, puzzle_channel_id=CHANNEL))
    tries = []
    for day in (date(2025, 3, 1), date(2025, 3, 2)):
        clock.now = datetime(day.year, day.month, day.day, 9, tzinfo=UTC)
        await service.puzzles.queue_daily()
        tries.append(await service.puzzles.start(ALICE, daily=day, guild_id=GUILD))
    one, two = tries
    assert one.attempt.rated and two.attempt.rated and one.puzzle.id != two.puzzle.id
    await asyncio.gather(
        service.puzzles.give_up(ALICE, one.attempt.id, 0),
        other.puzzles.give_up(ALICE, two.attempt.id, 0),
    )
    rating = await service.puzzles.rating(ALICE)
    start = start_rating(ALICE)
    first, second = one.puzzle.rating, two.puzzle.rating
    assert rating in (
        rated(rated(start, first, solved=False), second, solved=False),
        rated(rated(start, second, solved=False), first, solved=False),
    )


async def test_streaks_count_rated_puzzles_solved_in_a_row(service: GameService) -> None:
    async def solve() -> None:
        shown = await service.puzzles.start(ALICE)
        for step in range(0, len(shown.puzzle.line), 2):
            await service.puzzles.play(ALICE, shown.puzzle.line[step])

    async def fail() -> None:
        shown = await service.puzzles.start(ALICE)
        await service.puzzles.play(ALICE, wrong(shown.position, shown.puzzle.line[0]))

    await solve()
    await solve()
    streaks = await service.puzzles.rating(ALICE)
    assert streaks is not None and (streaks.streak, streaks.best_streak) == (2, 2)
    await fail()
    await solve()
    final = await service.puzzles.rating(ALICE)
    assert final is not None
    assert (final.solved, final.failed, final.streak, final.best_streak) == (3, 1, 1, 2)


async def test_a_player_who_tried_every_puzzle_practises_those_never_solved(
    service: GameService,
) -> None:
    ids = BOOK.ids()
    for name in ids:  # solved by name (practice) but the hard one, failed
        shown = await service.puzzles.start(ALICE, puzzle_id=name)
        if name == "hard":
            await service.puzzles.give_up(ALICE, shown.attempt.id, 0)
            continue
        for step in range(0, len(shown.puzzle.line), 2):
            await service.puzzles.play(ALICE, shown.puzzle.line[step])
    again = await service.puzzles.start(ALICE)
    assert again.puzzle.id == "hard" and not again.attempt.rated
    for step in range(0, len(again.puzzle.line), 2):
        await service.puzzles.play(ALICE, again.puzzle.line[step])
    with pytest.raises(NoPuzzleLeft) as error:
        await service.puzzles.start(ALICE)
    assert error.value.params["count"] == len(ids)


# --- the daily puzzle --------------------------------------------------------------------------


async def test_the_daily_puzzle_is_posted_once_a_server_a_day_and_counted_the_next(
    service: GameService, other: GameService, clock: ManualClock
) -> None:
    await service.save_guild_settings(GuildSettings(GUILD, puzzle_channel_id=CHANNEL))
    await service.save_guild_settings(GuildSettings(OTHER_GUILD, puzzle_channel_id=OTHER_CHANNEL))
    await service.save_guild_settings(GuildSettings(502))  # no channel: no post
    passes = await asyncio.gather(
        service.puzzles.queue_daily(), other.puzzles.queue_daily(), service.sweep()
    )
    posts = [p for done in passes[:2] for p in done.posts] + list(passes[2].daily_puzzles.posts)
    assert len(posts) == 2
    notices = [await service.outbox.get(p) for p in posts]
    assert {n.kind for n in notices if n is not None} == {DAILY_PUZZLE}
    read = sorted(
        (read_daily_puzzle(n) for n in notices if n is not None), key=lambda p: p.guild_id
    )
    assert [(p.guild_id, p.channel_id) for p in read] == [
        (GUILD, CHANNEL),
        (OTHER_GUILD, OTHER_CHANNEL),
    ]
    today = date(2025, 3, 1)
    assert {p.puzzle_id for p in read} == {await service.store.daily_puzzle(today)}
    assert (await service.puzzles.queue_daily()).posts == ()

    # A server that chooses a channel later in the day gets the day's post at the next pass.
    clock.advance(hours=3)
    await service.save_guild_settings(GuildSettings(503, puzzle_channel_id=603))
    late = await service.puzzles.queue_daily()
    assert len(late.posts) == 1 and late.counts == ()

    # Tries from the first server's post: Alice solves it, Bob fails it then solves it again
    # (practice: only first tries count), Carol tries it from the other server's.
    day_puzzle = read[0].puzzle_id
    line = BOOK.get(day_puzzle).line
    alice = await service.puzzles.start(ALICE, daily=today, guild_id=GUILD)
    assert alice.attempt.rated and alice.attempt.daily_day == today
    for step in range(0, len(line), 2):
        await service.puzzles.play(ALICE, line[step], attempt_id=alice.attempt.id)
    bob = await service.puzzles.start(BOB, daily=today, guild_id=GUILD)
    await service.puzzles.give_up(BOB, bob.attempt.id, 0)
    again = await service.puzzles.start(BOB, daily=today, guild_id=GUILD)
    assert not again.attempt.rated
    for step in range(0, len(line), 2):
        await service.puzzles.play(BOB, line[step], attempt_id=again.attempt.id)
    await service.puzzles.start(CAROL, daily=today, guild_id=OTHER_GUILD)

    clock.now = datetime(2025, 3, 2, 0, 1, tzinfo=UTC)
    next_day = await asyncio.gather(service.sweep(), other.sweep())
    counts = [c for s in next_day for c in s.daily_puzzles.counts]
    new_posts = [p for s in next_day for p in s.daily_puzzles.posts]
    assert len(counts) == 3 and len(new_posts) == 3
    counted = {}
    for row in counts:
        notice = await service.outbox.get(row)
        assert notice is not None and notice.kind == DAILY_PUZZLE_COUNT
        post = read_daily_puzzle(notice)
        counted[post.guild_id] = (post.solvers, post.tried, post.still_open)
    # Carol's try still runs: still trying, neither solved nor failed.
    assert counted == {GUILD: (1, 2, 0), OTHER_GUILD: (0, 0, 1), 503: (0, 0, 0)}
    stored = await service.puzzles.daily_post(GUILD, today)
    assert stored is not None and (stored.solvers, stored.tried) == (1, 2)
    tomorrow = await service.store.daily_puzzle(date(2025, 3, 2))
    assert tomorrow is not None and tomorrow != day_puzzle  # a puzzle is a day's once
    assert (await service.sweep()).daily_puzzles.announcements == ()

    # Carol solves it the day after the count: the post's count is updated, once.
    carols = await service.puzzles.current(CAROL)
    for step in range(0, len(line), 2):
        moved = await service.puzzles.play(CAROL, line[step], attempt_id=carols.attempt.id)
    assert moved.solved and len(moved.announcements) == 1
    notice = await service.outbox.get(moved.announcements[0])
    assert notice is not None and notice.kind == DAILY_PUZZLE_COUNT
    recounted = read_daily_puzzle(notice)
    assert (recounted.guild_id, recounted.solvers, recounted.tried, recounted.still_open) == (
        OTHER_GUILD,
        1,
        1,
        0,
    )
    stored = await service.puzzles.daily_post(OTHER_GUILD, today)
    assert stored is not None and (stored.solvers, stored.tried) == (1, 1)
    # A second try of hers from there (practice) changes nothing: only first tries count.
    practice = await service.puzzles.start(CAROL, daily=today, guild_id=OTHER_GUILD)
    given_up = await service.puzzles.give_up(CAROL, practice.attempt.id, 0)
    assert given_up.announcements == ()
    assert (await service.sweep()).daily_puzzles.announcements == ()


async def test_late_tries_of_a_counted_daily_post_ending_at_once_are_both_counted(
    service: GameService, other: GameService, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players' tries from yesterday's post end at once in two processes, after the
    count: each locks the post's row before counting, so the last count takes in both.

    Each count waits (2 s at most) for the other process to come to its count too: without
    the lock both count at once, neither seeing the other's try end (not committed yet); with
    it the second waits for the first's commit, and the first goes on when the wait runs out.
    """
    counting = 0
    both = asyncio.Event()
    counted_by = PuzzleWrites.daily_first_tries

    async def side_by_side(self: PuzzleWrites, guild_id: int, day: date) -> DailyCount:
        nonlocal counting
        counting += 1
        if counting == 2:
            both.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(both.wait(), 2.0)
        return await counted_by(self, guild_id, day)

    await service.save_guild_settings(GuildSettings(GUILD, puzzle_channel_id=CHANNEL))
    await service.puzzles.queue_daily()
    today = date(2025, 3, 1)
    tries = {
        user: await service.puzzles.start(user, daily=today, guild_id=GUILD)
        for user in (ALICE, BOB)
    }
    clock.now = datetime(2025, 3, 2, 0, 1, tzinfo=UTC)
    (count,) = (await service.puzzles.queue_daily()).counts
    first = await service.outbox.get(count)
    assert first is not None
    assert (read_daily_puzzle(first).tried, read_daily_puzzle(first).still_open) == (0, 2)
    monkeypatch.setattr(PuzzleWrites, "daily_first_tries", side_by_side)
    ended = await asyncio.gather(
        service.puzzles.give_up(ALICE, tries[ALICE].attempt.id, 0),
        other.puzzles.give_up(BOB, tries[BOB].attempt.id, 0),
    )
    latest = max(row for moved in ended for row in moved.announcements)
    notice = await service.outbox.get(latest)
    assert notice is not None
    post = read_daily_puzzle(notice)
    assert (post.solvers, post.tried, post.still_open) == (0, 2, 0)
    stored = await service.puzzles.daily_post(GUILD, today)
    assert stored is not None and (stored.solvers, stored.tried) == (0, 2)


async def test_a_daily_post_keeps_its_message(service: GameService) -> None:
    await service.save_guild_settings(GuildSettings(GUILD, puzzle_channel_id=CHANNEL))
    await service.puzzles.queue_daily()
    today = date(2025, 3, 1)
    await service.puzzles.daily_post_made(GUILD, today, 4242)
    post = await service.puzzles.daily_post(GUILD, today)
    assert post is not None and post.message_id == 4242 and post.solvers is None


def test_the_days_puzzle_is_drawn_among_middling_ones_never_used_before() -> None:
    used: set[str] = set()
    for number in range(3):
        chosen = BOOK.daily(date(2025, 3, 1 + number), used)
        assert 1300 <= chosen.rating <= 1700 and chosen.id not in used
        used.add(chosen.id)
    assert BOOK.daily(date(2025, 3, 9), used).id in {"easy", "hard"}
    assert BOOK.daily(date(2025, 3, 9), used) == BOOK.daily(date(2025, 3, 9), used)
