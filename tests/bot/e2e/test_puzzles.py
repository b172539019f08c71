"""Puzzles through the fake Discord, on each backend: ``/puzzle`` solved by typed moves and by
tapping, failed, the rating moved (and shown in ``/dvonn profile``); practice by name, each
move answered with the reply; the daily puzzle posted once in the channel a server chose (two
housekeeping passes), solved from its button, and its count on the post the next day (a try
still running is not a failure; it is counted when it ends: the post is updated); the words of
a right move (what it cut off) and of a solved puzzle that ends the game; puzzles in a DM by
user install; and a private answer to every bad input. The clock is moved by hand; nothing
sleeps."""

from __future__ import annotations

import dataclasses
import io
import re
from datetime import UTC, date, datetime

import pytest
from PIL import Image

import ai.puzzles
import rules
from bot.app import DvonnBot
from bot.exts.puzzles.posts import DailyPosts
from bot.exts.puzzles.texts import find_line, game_over_line
from bot.games.puzzles.announcements import daily_puzzle_count
from bot.games.puzzles.book import start_rating
from bot.games.puzzles.solving import PuzzleShown
from bot.storage.models import Notification
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.test_private import dm_between, global_runner
from tests.fakediscord import (
    FakeChannel,
    FakeUser,
    InteractionResult,
    Overwrite,
    OverwriteTarget,
    Permission,
    RecordedMessage,
)

__all__ = ["global_runner"]  # the fixture, for the DM


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2025, 3, 1, 9, 0, tzinfo=UTC))


def board_of(message: RecordedMessage | None) -> Image.Image:
    """The board image of a puzzle's answer, with its alt text checked to be there."""
    assert message is not None
    (board,) = [f for f in message.files if f.filename == "board.png"]
    assert board.description  # a position in play, or the end when the solution finished it
    assert "Board at move" in board.description or "Final board." in board.description
    image = Image.open(io.BytesIO(board.data))
    image.load()
    return image


async def current(bot: DvonnBot, user: FakeUser) -> PuzzleShown:
    return await bot.service.puzzles.current(user.id)


def menu_id(message: RecordedMessage, kind: str) -> str:
    """The id of the puzzle picker's menu of ``kind`` (``from`` or ``to``) on ``message``."""
    (found,) = [
        str(c["custom_id"])
        for c in message.iter_components()
        if c.get("type") == 3 and str(c["custom_id"]).startswith(f"dvonn:puzzle:{kind}:")
    ]
    return found


async def tap(
    table: Table, user: FakeUser, message: RecordedMessage, move: rules.Move
) -> InteractionResult:
    """Play ``move`` with the picker under a puzzle's ``message``: the stack, where it lands,
    then **Play**; the result of the last tap (the message, edited into the answer)."""
    fake = table.fake
    assert isinstance(move, rules.Jump)
    source, target = rules.cell_name(move.source), rules.cell_name(move.target)
    await fake.select(user, message, menu_id(message, "from"), [source])
    await fake.select(user, message, menu_id(message, "to"), [target])
    played = await fake.click(user, message, label=f"Play {move}")
    await fake.wait_until(lambda: "Play " not in str(message.components), what="the answer")
    return played


def wrong(position: rules.Position, right: rules.Move) -> rules.Move:
    return next(m for m in rules.legal_moves(position) if m != right)


def multi_step() -> ai.puzzles.Puzzle:
    """A shipped puzzle of two moves of the solver's or more."""
    return next(p for p in ai.puzzles.load() if p.solver_moves >= 2)


async def test_puzzles_solved_typed_and_tapped_then_failed_move_the_rating(
    table: Table, bot_runner: BotRunner
) -> None:
    fake, alice = table.fake, table.alice
    async with bot_runner.run() as bot:
        # Typed: /puzzle, then each of the solver's moves with /puzzle move.
        first = await fake.run_command(alice, table.games, "puzzle")
        assert first.ephemeral and "🧩 Puzzle p" in first.content
        assert "Find the winning move" in first.content
        assert "Your puzzle rating: 1500? (no rated puzzle yet)" in first.content  # provisional
        board_of(first.message)
        shown = await current(bot, alice)
        colour = "White" if shown.solver is rules.Colour.WHITE else "Black"
        assert f"You play {colour}" in first.content and shown.attempt.rated
        again = await fake.run_command(alice, table.games, "puzzle")  # the same one again
        assert f"Puzzle {shown.puzzle.id}" in again.content
        assert "still waiting for your move" in again.content
        line = shown.puzzle.line
        offered = await fake.autocomplete(
            alice, table.games, "puzzle", {"move": ""}, focused="move"
        )
        assert {c.value for c in offered} <= {str(m) for m in rules.legal_moves(shown.position)}
        assert str(line[0]) in {c.value for c in offered} or len(offered) == 25
        for step in range(0, len(line), 2):
            answer = await fake.run_command(alice, table.games, "puzzle", {"move": str(line[step])})
            assert answer.ephemeral
            board_of(answer.message)
            if step + 1 < len(line):
                assert f"{line[step]} is right" in answer.content
                reply = line[step + 1]  # 10 of the 600 puzzles answer with a pass; some cut off
                said = "a pass (no move)" if reply == rules.PASS else str(reply)
                assert re.search(rf"answers {re.escape(said)}[.:]", answer.content)
        assert "Solved!" in answer.content
        solved = r"Puzzle rating 1500\? → 1[5-9]\d\d\? \(\+\d+\) · streak 1"
        assert re.search(solved, answer.content)
        assert answer.message is not None
        next_one = await fake.click(alice, answer.message, label="Next puzzle")
        assert next_one.ephemeral and next_one.message is not None

        # Tapped: the stack, where it lands, Play; the message becomes each answer.
        shown = await current(bot, alice)
        assert shown.attempt.rated and f"Puzzle {shown.puzzle.id}" in next_one.content
        message = next_one.message
        for step in range(0, len(shown.puzzle.line), 2):
            await tap(table, alice, message, shown.puzzle.line[step])
        assert "Solved!" in message.content and "streak 2" in message.content
        assert "Next puzzle" in str(message.components)

        # Failed: a wrong move, the solution drawn (the board before it, the arrow).
        failing = await fake.click(alice, message, label="Next puzzle")
        shown = await current(bot, alice)
        move = wrong(shown.position, shown.puzzle.line[0])
        failed = await fake.run_command(alice, table.games, "puzzle", {"move": str(move)})
        assert failing.ephemeral and "Not this time" in failed.content
        assert f"The winning move was {shown.puzzle.line[0]}" in failed.content
        assert "streak 0 (best 2)" in failed.content
        assert failed.message is not None
        (board,) = failed.message.files
        assert f"The arrow: the winning move, {shown.puzzle.line[0]}." in str(board.description)

        rating = await bot.service.puzzles.rating(alice.id)
        assert rating is not None and (rating.solved, rating.failed) == (2, 1)
        profile = await fake.run_command(alice, table.games, "dvonn profile")
        assert f"Puzzles: rating {round(rating.rating)}?" in profile.content
        assert "3 rated puzzles: 2 solved · streak 0 (best 2)" in profile.content


async def test_a_puzzle_by_name_is_practice_and_each_move_is_answered(
    table: Table, bot_runner: BotRunner
) -> None:
    fake, bob = table.fake, table.bob
    puzzle = multi_step()
    async with bot_runner.run() as bot:
        shown = await fake.run_command(bob, table.games, "puzzle", {"id": puzzle.id})
        assert "practice: your rating stays" in shown.content and shown.message is not None
        message = shown.message
        played = await tap(table, bob, message, puzzle.line[0])
        assert played.ephemeral or played.message is None or played.message.ephemeral
        assert f"{puzzle.line[0]} is right" in message.content
        assert f"answers {puzzle.line[1]}" in message.content
        # A typed move meanwhile: the picker on the older board refuses, privately.
        stale_menu = menu_id(message, "from")
        typed = await fake.run_command(bob, table.games, "puzzle", {"move": str(puzzle.line[2])})
        assert "is right" in typed.content or "Solved!" in typed.content
        refused = await fake.select(
            bob,
            message,
            stale_menu,
            [rules.cell_name(puzzle.line[2].source)],  # type: ignore[union-attr]
        )
        why = "puzzle is over" if "Solved!" in typed.content else "moved on"
        assert refused.ephemeral and why in refused.content
        assert await bot.service.puzzles.rating(bob.id) in (None, start_rating(bob.id))


async def solve_typed(table: Table, bot: DvonnBot, user: FakeUser, place: FakeChannel) -> str:
    """Solve ``user``'s running puzzle with typed moves; the last answer."""
    shown = await current(bot, user)
    answer = None
    for step in range(0, len(shown.puzzle.line), 2):
        move = str(shown.puzzle.line[step])
        answer = await table.fake.run_command(user, place, "puzzle", {"move": move})
    assert answer is not None and answer.ephemeral
    return answer.content


def daily_posts(table: Table, channel: FakeChannel) -> list[RecordedMessage]:
    return [m for m in table.fake.messages_in(channel) if not m.ephemeral]


async def test_the_daily_puzzle_is_posted_once_solved_from_its_button_and_counted_next_day(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake, alice, bob, carol = table.fake, table.alice, table.bob, table.carol
    admin = fake.add_user(
        "admin", table.guild, roles=[table.guild.add_role("admins", Permission.MANAGE_GUILD)]
    )
    puzzles = table.guild.add_text_channel("puzzles")
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        await bot.housekeeping()
        assert daily_posts(table, puzzles) == []  # no channel chosen yet
        saved = await fake.run_command(
            admin, table.games, "dvonn settings", {"puzzle_channel": puzzles}
        )
        assert saved.ephemeral and "Settings saved" in saved.content
        assert f"Daily puzzle: in <#{puzzles.id}>" in saved.content

        # Two passes, one post: the day's puzzle, its board, Solve it.
        await bot.housekeeping()
        await bot.housekeeping()
        (post,) = daily_posts(table, puzzles)
        assert "Daily DVONN puzzle** · 2025-03-01" in post.content
        post_day = date(2025, 3, 1)
        assert "to play and win" in post.content and "Solve it" in str(post.components)
        board_of(post)
        assert post.nonce is not None

        # Bob solves it from the button (rated); Carol gives up; Alice taps twice.
        bobs = await fake.click(bob, post, label="Solve it")
        assert bobs.ephemeral and "🧩 Puzzle p" in bobs.content
        assert "practice" not in bobs.content
        solved = await solve_typed(table, bot, bob, table.games)
        assert "Solved!" in solved and "Puzzle rating 1500? →" in solved
        carols = await fake.click(carol, post, label="Solve it")
        assert carols.message is not None
        message = carols.message
        await fake.click(carol, message, label="Give up (show the solution)")
        await fake.wait_until(lambda: "You gave up" in message.content, what="the solution")
        assert "streak 0" in message.content and "Next puzzle" in str(message.components)
        await fake.click(alice, post, label="Solve it")
        twice = await fake.click(alice, post, label="Solve it")
        assert "still waiting for your move" in twice.content  # and left running overnight
        again = await fake.click(bob, post, label="Solve it")  # solved already: practice
        assert "practice: your rating stays" in again.content

        # The next day: the count on yesterday's post, and the new day's post, once.
        clock.now = datetime(2025, 3, 2, 0, 1, tzinfo=UTC)
        await bot.housekeeping()
        await bot.housekeeping()
        yesterday = fake.message(post.id)
        # Alice's try still runs: not failed, still trying.
        assert (
            "Tried from here by 3 players: solved 1, not solved 1, still trying 1 (counted "
            "when done)." in yesterday.content
        )
        assert "Solve it" in str(yesterday.components) and yesterday.files
        posts = daily_posts(table, puzzles)
        assert len(posts) == 2 and "2025-03-02" in posts[1].content
        assert "Tried from here" not in posts[1].content

        # Alice solves yesterday's puzzle today: its post's count is updated then.
        assert "Solved!" in await solve_typed(table, bot, alice, table.games)
        await fake.wait_until(
            lambda: "solved 2, not solved 1." in fake.message(post.id).content, what="the count"
        )
        assert "Tried from here by 3 players: solved 2, not solved 1." in (
            fake.message(post.id).content
        )
        assert "still trying" not in fake.message(post.id).content
        assert len(daily_posts(table, puzzles)) == 2  # edited, not posted again
        # The first count delivered after the newer one (two processes' posts crossing):
        # the newer count stays.
        stored = await bot.service.puzzles.daily_post(table.guild.id, post_day)
        assert stored is not None and (stored.solvers, stored.tried) == (2, 3)
        first = daily_puzzle_count(dataclasses.replace(stored, solvers=1, tried=2, still_open=1))
        older = Notification(0, first.kind, None, None, first.payload, clock.now, 0)
        assert await DailyPosts(bot, bot.service, bot.publisher).count(older) is None
        assert "solved 2, not solved 1." in fake.message(post.id).content

        # Cleared: no post the day after.
        cleared = await fake.run_command(
            admin, table.games, "dvonn settings", {"clear_puzzle_channel": True}
        )
        assert "Daily puzzle: not posted" in cleared.content
        clock.now = datetime(2025, 3, 3, 0, 1, tzinfo=UTC)
        await bot.housekeeping()
        assert len(daily_posts(table, puzzles)) == 2
        assert "Nobody tried it from here." in fake.message(posts[1].id).content  # counted
        profile = await fake.run_command(bob, table.games, "dvonn profile")
        assert "1 rated puzzle: 1 solved · streak 1 (best 1)" in profile.content


async def test_a_solved_puzzle_that_ends_the_game_says_so_to_the_solver(
    table: Table, bot_runner: BotRunner
) -> None:
    """46 of the puzzles end the game with their last move: the board's words say the solver
    won, grammatically ("you win as White", not "You (White) wins"), in each language."""
    fake, alice, bob = table.fake, table.alice, table.bob
    bob.locale = "fr"
    ending = next(
        p
        for p in ai.puzzles.load()
        if rules.outcome(p.position_at(len(p.line))) is not None and p.solver_moves == 1
    )
    colour = "White" if ending.solver() is rules.Colour.WHITE else "Black"
    async with bot_runner.run() as bot:
        for user in (alice, bob):
            await fake.run_command(user, table.games, "puzzle", {"id": ending.id})
            answer = await fake.run_command(
                user, table.games, "puzzle", {"move": str(ending.line[0])}
            )
            assert answer.message is not None
            (board,) = answer.message.files
            said = str(board.description)
            if user is alice:
                assert "Solved!" in answer.content and "Final board." in said
                assert f"Game over: you win as {colour}." in said
                assert "wins" not in said and "You (" not in said
            else:
                over = game_over_line(ending.position_at(1), ending.solver())
                assert over is not None
                french = bot.catalogues.render(over, "fr")
                assert french != over.english() and french in said


async def test_a_right_move_says_what_it_cut_off(table: Table, bot_runner: BotRunner) -> None:
    """p0030's I2F2 cuts off 8 pieces: the answer says so, as a game's post would; and so
    for a reply that cuts off (p0043's)."""
    fake, alice = table.fake, table.alice
    puzzle = next(p for p in ai.puzzles.load() if p.id == "p0030")
    assert str(puzzle.line[0]) == "I2F2" and puzzle.line[1] == rules.PASS
    async with bot_runner.run():
        await fake.run_command(alice, table.games, "puzzle", {"id": "p0030"})
        answer = await fake.run_command(alice, table.games, "puzzle", {"move": "I2F2"})
        assert "✅ I2F2 is right: 8 pieces cut off and removed (H3, I3, J4, K4)." in answer.content
        assert "White answers a pass (no move)." in answer.content
        answer = await fake.run_command(alice, table.games, "puzzle", {"move": "D2D4"})
        assert "✅ D2D4 is right: 1 piece cut off and removed (D1)." in answer.content
        # A reply that cuts off: p0043's G4D4, after C3E5.
        await fake.run_command(alice, table.games, "puzzle", {"id": "p0043"})
        answer = await fake.run_command(alice, table.games, "puzzle", {"move": "C3E5"})
        assert "✅ C3E5 is right." in answer.content
        assert "White answers G4D4: 4 pieces cut off and removed (G5)." in answer.content


async def test_puzzles_in_a_dm_by_user_install(table: Table, global_runner: BotRunner) -> None:
    fake, alice = table.fake, table.alice
    place = await dm_between(table, alice, table.bob)
    async with global_runner.run() as bot:
        first = await fake.run_command(alice, place, "puzzle")
        assert first.ephemeral and first.message is not None
        shown = await current(bot, alice)
        for step in range(0, len(shown.puzzle.line), 2):
            await tap(table, alice, first.message, shown.puzzle.line[step])
        assert "Solved!" in first.message.content
        board_of(first.message)
        rating = await bot.service.puzzles.rating(alice.id)
        assert rating is not None and rating.solved == 1  # the same rating as in servers
        assert [m for m in fake.messages_in(place) if not m.ephemeral] == []


async def test_every_bad_input_is_answered_privately(table: Table, bot_runner: BotRunner) -> None:
    fake, alice = table.fake, table.alice
    admin = fake.add_user(
        "admin", table.guild, roles=[table.guild.add_role("admins", Permission.MANAGE_GUILD)]
    )
    quiet = table.guild.add_text_channel("quiet", deny_bot=Permission.SEND_MESSAGES)
    async with bot_runner.run() as bot:
        nothing = await fake.run_command(alice, table.games, "puzzle", {"move": "E3F4"})
        assert nothing.ephemeral and "not trying a puzzle" in nothing.content
        unknown = await fake.run_command(alice, table.games, "puzzle", {"id": "p9999"})
        assert unknown.ephemeral and "There is no puzzle “p9999”" in unknown.content
        both = await fake.run_command(alice, table.games, "puzzle", {"id": "p0001", "move": "A1"})
        assert both.ephemeral and "one at a time" in both.content

        await fake.run_command(alice, table.games, "puzzle")
        shown = await current(bot, alice)
        garbled = await fake.run_command(alice, table.games, "puzzle", {"move": "Z9Q"})
        assert garbled.ephemeral and garbled.message is not None and not garbled.message.files
        placement = await fake.run_command(alice, table.games, "puzzle", {"move": "E3"})
        assert placement.ephemeral and not placement.message.files  # type: ignore[union-attr]
        illegal = next(
            str(rules.jump(a, b))
            for a in rules.CELLS
            for b in rules.CELLS
            if a != b and rules.jump(a, b) not in rules.legal_moves(shown.position)
        )
        refused = await fake.run_command(alice, table.games, "puzzle", {"move": illegal})
        assert refused.ephemeral and refused.message is not None and not refused.message.files
        still = await current(bot, alice)
        assert still.attempt == shown.attempt  # nothing changed
        rating = await bot.service.puzzles.rating(alice.id)
        assert rating is not None and rating.tried == 0

        not_admin = await fake.run_command(
            alice, table.games, "dvonn settings", {"puzzle_channel": table.games}
        )
        assert not_admin.ephemeral and "manage the server" in not_admin.content
        cannot = await fake.run_command(
            admin, table.games, "dvonn settings", {"puzzle_channel": quiet}
        )
        assert cannot.ephemeral and f"I cannot post the daily puzzle in <#{quiet.id}>" in (
            cannot.content
        )
        not_both = await fake.run_command(
            admin,
            table.games,
            "dvonn settings",
            {"puzzle_channel": table.games, "clear_puzzle_channel": True},
        )
        assert not_both.ephemeral and "not both" in not_both.content
        assert (await bot.service.guild_settings(table.guild.id)).puzzle_channel_id is None


async def test_a_puzzle_speaks_its_players_language(table: Table, bot_runner: BotRunner) -> None:
    fake, alice = table.fake, table.alice
    alice.locale = "ko"
    async with bot_runner.run() as bot:
        answer = await fake.run_command(alice, table.games, "puzzle")
        shown = await current(bot, alice)
        asked = find_line(shown.solver, shown.moves_left)
        korean = bot.catalogues.render(asked, "ko")
        assert korean != asked.english() and korean in answer.content
        assert answer.message is not None
        labels = [str(c.get("label")) for c in answer.message.iter_components() if c.get("label")]
        assert labels and "Give up (show the solution)" not in labels


async def test_a_channel_that_refuses_the_daily_puzzle_stops_it_until_chosen_again(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    """A moderator takes Send Messages away from the bot in the puzzle channel: the day's post
    is refused once, the server's puzzle channel is cleared (no refused post a day for ever),
    and choosing it again brings the puzzle back the next day."""
    fake = table.fake
    admin = fake.add_user(
        "admin", table.guild, roles=[table.guild.add_role("admins", Permission.MANAGE_GUILD)]
    )
    puzzles = table.guild.add_text_channel("puzzles")
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        await fake.run_command(admin, table.games, "dvonn settings", {"puzzle_channel": puzzles})
        refused = Overwrite(
            fake.world.bot.id, OverwriteTarget.MEMBER, allow=Permission(0),
            deny=Permission.SEND_MESSAGES,
        )  # fmt: skip
        puzzles.overwrites.append(refused)
        await bot.housekeeping()
        await bot.housekeeping()
        path = rf"/channels/{puzzles.id}/messages$"
        tried = [r for r in fake.world.requests if r.status == 403 and re.search(path, r.path)]
        assert len(tried) == 1 and daily_posts(table, puzzles) == []
        assert (await bot.service.guild_settings(table.guild.id)).puzzle_channel_id is None
        clock.now = datetime(2025, 3, 2, 0, 1, tzinfo=UTC)
        await bot.housekeeping()
        assert len([r for r in fake.world.requests if re.search(path, r.path)]) == 1

        puzzles.overwrites.remove(refused)
        await fake.run_command(admin, table.games, "dvonn settings", {"puzzle_channel": puzzles})
        clock.now = datetime(2025, 3, 3, 0, 1, tzinfo=UTC)
        await bot.housekeeping()
        (post,) = daily_posts(table, puzzles)
        assert "2025-03-03" in post.content
