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
from collections.abc import Mapping
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
from bot.i18n import Text, _, n_, p_
from bot.storage.models import Notification, PuzzleRating
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import said, said_pattern
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

STILL_WAITING = _("Your puzzle is still waiting for your move.")
NEXT_PUZZLE = _("Next puzzle")
SOLVE_IT = _("Solve it")
SETTINGS_SAVED = _("Settings saved.")
DAILY_TITLE = _("🧩 **Daily DVONN puzzle** · {date}")
NOBODY_TRIED = _("Nobody tried it from here.")


def colour_of(colour: rules.Colour) -> Text:
    return p_("colour", "White") if colour is rules.Colour.WHITE else p_("colour", "Black")


def title(puzzle: ai.puzzles.Puzzle, *, rated: bool) -> str:
    """The first line of every answer of a try of ``puzzle``."""
    if rated:
        entry = _("🧩 Puzzle {puzzle} (rating {rating})")
    else:
        entry = _("🧩 Puzzle {puzzle} (rating {rating}) · practice: your rating stays as it is")
    return said(entry, puzzle=puzzle.id, rating=puzzle.rating)


def right_cut(count: int) -> Text:
    return n_(
        "✅ {move} is right: {count} piece cut off and removed ({cells}).",
        "✅ {move} is right: {count} pieces cut off and removed ({cells}).",
        count,
    )


def answers_cut(count: int) -> Text:
    return n_(
        "{colour} answers {reply}: {count} piece cut off and removed ({cells}).",
        "{colour} answers {reply}: {count} pieces cut off and removed ({cells}).",
        count,
    )


def cells_of(removed: Mapping[rules.Cell, rules.Stack]) -> str:
    return ", ".join(rules.CELL_NAMES[cell] for cell in sorted(removed))


def right(position: rules.Position, move: rules.Move) -> str:
    """What an answer says of ``move``, a right one, played in ``position``: what it cut off."""
    removed = rules.apply(position, move).removed
    if not removed:
        return said(_("✅ {move} is right."), move=str(move))
    count = sum(map(len, removed.values()))
    return said(right_cut(count), move=str(move), cells=cells_of(removed))


def answered(position: rules.Position, reply: rules.Move) -> str:
    """What an answer says of the opponent's ``reply`` in ``position``: what it cut off."""
    removed = rules.apply(position, reply).removed
    colour = colour_of(position.turn)
    what = _("a pass (no move)") if reply == rules.PASS else str(reply)
    if not removed:
        return said(_("{colour} answers {reply}."), colour=colour, reply=what)
    count = sum(map(len, removed.values()))
    return said(answers_cut(count), colour=colour, reply=what, cells=cells_of(removed))


def solved(puzzle: ai.puzzles.Puzzle) -> str:
    return said(
        n_(
            "🎉 Solved! With best play on both sides you win by {count} piece.",
            "🎉 Solved! With best play on both sides you win by {count} pieces.",
            puzzle.margin,
        )
    )


def shown_rating(rating: PuzzleRating | None) -> str:
    """A provisional puzzle rating as the answers show it (1500? before the first)."""
    return "1500?" if rating is None else f"{round(rating.rating)}?"


def rating_change(
    before: PuzzleRating | None, after: PuzzleRating | None, *, streak: int, best: int
) -> str:
    assert after is not None
    change = round(after.rating) - (1500 if before is None else round(before.rating))
    return said(
        _("Puzzle rating {before} → {after} ({change}) · streak {streak} (best {best})"),
        before=shown_rating(before),
        after=shown_rating(after),
        change=f"{change:+d}".replace("-", "−"),
        streak=streak,
        best=best,
    )


def profile_line(rating: PuzzleRating | None, *, solved: int, streak: int, best: int) -> str:
    assert rating is not None
    return said(
        n_(
            "Puzzles: rating {rating} · {count} rated puzzle: {solved} solved · streak {streak} "
            "(best {best})",
            "Puzzles: rating {rating} · {count} rated puzzles: {solved} solved · streak {streak} "
            "(best {best})",
            rating.tried,
        ),
        rating=shown_rating(rating),
        solved=solved,
        streak=streak,
        best=best,
    )


def tried(count: int, *, still_trying: bool) -> Text:
    """A daily post's count of the players who tried it from there."""
    if still_trying:
        return n_(
            "Tried from here by {count} player: solved {solved}, not solved {failed}, still "
            "trying {still_open} (counted when done).",
            "Tried from here by {count} players: solved {solved}, not solved {failed}, still "
            "trying {still_open} (counted when done).",
            count,
        )
    return n_(
        "Tried from here by {count} player: solved {solved}, not solved {failed}.",
        "Tried from here by {count} players: solved {solved}, not solved {failed}.",
        count,
    )


def counted(content: str) -> bool:
    """Whether a daily post says how many tried it (in any of its words; fewer than ten players
    here)."""
    counts = [tried(n, still_trying=s) for n in range(1, 10) for s in (False, True)]
    return said(NOBODY_TRIED) in content or any(said_pattern(c).search(content) for c in counts)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2025, 3, 1, 9, 0, tzinfo=UTC))


def board_of(message: RecordedMessage | None) -> Image.Image:
    """The board image of a puzzle's answer, with its alt text checked to be there."""
    assert message is not None
    (board,) = [f for f in message.files if f.filename == "board.png"]
    assert board.description  # a position in play, or the end when the solution finished it
    at_move = said_pattern(_("Board at move {number}, movement: {side} to move."))
    assert at_move.search(board.description) or said(_("Final board.")) in board.description
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
    played = await fake.click(user, message, label=said(_("Play {move}"), move=str(move)))
    play_any = said_pattern(_("Play {move}"))
    await fake.wait_until(lambda: not play_any.search(str(message.components)), what="the answer")
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
        shown = await current(bot, alice)
        assert first.ephemeral and title(shown.puzzle, rated=True) in first.content
        find = n_(
            "You play {colour}. Find the winning move: {count} move of yours to find.",
            "You play {colour}. Find the winning moves: {count} moves of yours to find; the "
            "opponent's replies are played for you.",
            shown.puzzle.solver_moves,
        )
        assert said(find, colour=colour_of(shown.solver)) in first.content
        no_rating = _("Your puzzle rating: {rating} (no rated puzzle yet).")
        assert said(no_rating, rating="1500?") in first.content  # provisional
        board_of(first.message)
        assert shown.attempt.rated
        again = await fake.run_command(alice, table.games, "puzzle")  # the same one again
        assert title(shown.puzzle, rated=True) in again.content
        assert said(STILL_WAITING) in again.content
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
            assert right(shown.puzzle.position_at(step), line[step]) in answer.content
            if step + 1 < len(line):
                # 10 of the 600 puzzles answer with a pass; some cut off
                reply = answered(shown.puzzle.position_at(step + 1), line[step + 1])
                assert reply in answer.content
        assert solved(shown.puzzle) in answer.content
        after_one = await bot.service.puzzles.rating(alice.id)
        assert after_one is not None and 1500 <= round(after_one.rating) < 2000
        assert rating_change(None, after_one, streak=1, best=1) in answer.content
        assert answer.message is not None
        next_one = await fake.click(alice, answer.message, label=said(NEXT_PUZZLE))
        assert next_one.ephemeral and next_one.message is not None

        # Tapped: the stack, where it lands, Play; the message becomes each answer.
        shown = await current(bot, alice)
        assert shown.attempt.rated and title(shown.puzzle, rated=True) in next_one.content
        message = next_one.message
        for step in range(0, len(shown.puzzle.line), 2):
            await tap(table, alice, message, shown.puzzle.line[step])
        after_two = await bot.service.puzzles.rating(alice.id)
        assert solved(shown.puzzle) in message.content
        assert rating_change(after_one, after_two, streak=2, best=2) in message.content
        assert said(NEXT_PUZZLE) in str(message.components)

        # Failed: a wrong move, the solution drawn (the board before it, the arrow).
        failing = await fake.click(alice, message, label=said(NEXT_PUZZLE))
        shown = await current(bot, alice)
        move = wrong(shown.position, shown.puzzle.line[0])
        failed = await fake.run_command(alice, table.games, "puzzle", {"move": str(move)})
        not_this_time = _(
            "❌ Not this time: {move} does not win. The winning move was {solution} (the arrow)."
        )
        assert failing.ephemeral
        assert said(not_this_time, move=str(move), solution=str(shown.puzzle.line[0])) in (
            failed.content
        )
        rating = await bot.service.puzzles.rating(alice.id)
        assert rating_change(after_two, rating, streak=0, best=2) in failed.content
        assert failed.message is not None
        (board,) = failed.message.files
        arrow = _("The arrow: the winning move, {move}.")
        assert said(arrow, move=str(shown.puzzle.line[0])) in str(board.description)

        assert rating is not None and (rating.solved, rating.failed) == (2, 1)
        profile = await fake.run_command(alice, table.games, "dvonn profile")
        assert profile_line(rating, solved=2, streak=0, best=2) in profile.content


async def test_a_puzzle_by_name_is_practice_and_each_move_is_answered(
    table: Table, bot_runner: BotRunner
) -> None:
    fake, bob = table.fake, table.bob
    puzzle = multi_step()
    async with bot_runner.run() as bot:
        shown = await fake.run_command(bob, table.games, "puzzle", {"id": puzzle.id})
        assert title(puzzle, rated=False) in shown.content and shown.message is not None
        message = shown.message
        played = await tap(table, bob, message, puzzle.line[0])
        assert played.ephemeral or played.message is None or played.message.ephemeral
        assert right(puzzle.position_at(0), puzzle.line[0]) in message.content
        assert answered(puzzle.position_at(1), puzzle.line[1]) in message.content
        # A typed move meanwhile: the picker on the older board refuses, privately.
        stale_menu = menu_id(message, "from")
        typed = await fake.run_command(bob, table.games, "puzzle", {"move": str(puzzle.line[2])})
        assert right(puzzle.position_at(2), puzzle.line[2]) in typed.content
        refused = await fake.select(
            bob,
            message,
            stale_menu,
            [rules.cell_name(puzzle.line[2].source)],  # type: ignore[union-attr]
        )
        if solved(puzzle) in typed.content:
            why = _("This puzzle is over: /puzzle gives you a new one.")
        else:
            why = _(
                "Your puzzle has moved on since this board was shown: play on its newest board "
                "(/puzzle shows it)."
            )
        assert refused.ephemeral and said(why, mentions=bot.mentions) in refused.content
        assert await bot.service.puzzles.rating(bob.id) in (None, start_rating(bob.id))


async def solve_typed(table: Table, bot: DvonnBot, user: FakeUser, place: FakeChannel) -> str:
    """Solve ``user``'s running puzzle with typed moves; the last answer (checked to say it was
    solved)."""
    shown = await current(bot, user)
    answer = None
    for step in range(0, len(shown.puzzle.line), 2):
        move = str(shown.puzzle.line[step])
        answer = await table.fake.run_command(user, place, "puzzle", {"move": move})
    assert answer is not None and answer.ephemeral
    assert solved(shown.puzzle) in answer.content
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
        assert saved.ephemeral and said(SETTINGS_SAVED) in saved.content
        assert said(_("Daily puzzle: in <#{channel}>"), channel=puzzles.id) in saved.content

        # Two passes, one post: the day's puzzle, its board, Solve it.
        await bot.housekeeping()
        await bot.housekeeping()
        (post,) = daily_posts(table, puzzles)
        assert said(DAILY_TITLE, date="2025-03-01") in post.content
        post_day = date(2025, 3, 1)
        posted = await bot.service.puzzles.daily_post(table.guild.id, post_day)
        assert posted is not None
        daily = bot.service.puzzles.book.get(posted.puzzle_id)
        to_play = n_(
            "{colour} to play and win: {count} move to find (puzzle rating {rating}).",
            "{colour} to play and win: {count} moves to find (puzzle rating {rating}).",
            daily.solver_moves,
        )
        assert said(to_play, colour=colour_of(daily.solver()), rating=daily.rating) in (
            post.content
        )
        assert said(SOLVE_IT) in str(post.components)
        board_of(post)
        assert post.nonce is not None

        # Bob solves it from the button (rated); Carol gives up; Alice taps twice.
        bobs = await fake.click(bob, post, label=said(SOLVE_IT))
        assert bobs.ephemeral and title(daily, rated=True) in bobs.content
        assert title(daily, rated=False) not in bobs.content
        bobs_solved = await solve_typed(table, bot, bob, table.games)
        bobs_rating = await bot.service.puzzles.rating(bob.id)
        assert rating_change(None, bobs_rating, streak=1, best=1) in bobs_solved
        carols = await fake.click(carol, post, label=said(SOLVE_IT))
        assert carols.message is not None
        message = carols.message
        await fake.click(carol, message, label=said(_("Give up (show the solution)")))
        gave_up = said(
            _("You gave up. The winning move was {solution} (the arrow)."),
            solution=str(daily.line[0]),
        )
        await fake.wait_until(lambda: gave_up in message.content, what="the solution")
        carols_rating = await bot.service.puzzles.rating(carol.id)
        assert rating_change(None, carols_rating, streak=0, best=0) in message.content
        assert said(NEXT_PUZZLE) in str(message.components)
        await fake.click(alice, post, label=said(SOLVE_IT))
        twice = await fake.click(alice, post, label=said(SOLVE_IT))
        assert said(STILL_WAITING) in twice.content  # and left running overnight
        again = await fake.click(bob, post, label=said(SOLVE_IT))  # solved already: practice
        assert title(daily, rated=False) in again.content

        # The next day: the count on yesterday's post, and the new day's post, once.
        clock.now = datetime(2025, 3, 2, 0, 1, tzinfo=UTC)
        await bot.housekeeping()
        await bot.housekeeping()
        yesterday = fake.message(post.id)
        # Alice's try still runs: not failed, still trying.
        still_trying = tried(3, still_trying=True)
        assert said(still_trying, solved=1, failed=1, still_open=1) in yesterday.content
        assert said(SOLVE_IT) in str(yesterday.components) and yesterday.files
        posts = daily_posts(table, puzzles)
        assert len(posts) == 2 and said(DAILY_TITLE, date="2025-03-02") in posts[1].content
        assert not counted(posts[1].content)

        # Alice solves yesterday's puzzle today: its post's count is updated then.
        await solve_typed(table, bot, alice, table.games)
        done = said(tried(3, still_trying=False), solved=2, failed=1)
        await fake.wait_until(lambda: done in fake.message(post.id).content, what="the count")
        assert not said_pattern(still_trying).search(fake.message(post.id).content)
        assert len(daily_posts(table, puzzles)) == 2  # edited, not posted again
        # The first count delivered after the newer one (two processes' posts crossing):
        # the newer count stays.
        stored = await bot.service.puzzles.daily_post(table.guild.id, post_day)
        assert stored is not None and (stored.solvers, stored.tried) == (2, 3)
        first = daily_puzzle_count(dataclasses.replace(stored, solvers=1, tried=2, still_open=1))
        older = Notification(0, first.kind, None, None, first.payload, clock.now, 0)
        assert await DailyPosts(bot, bot.service, bot.publisher).count(older) is None
        assert done in fake.message(post.id).content

        # Cleared: no post the day after.
        cleared = await fake.run_command(
            admin, table.games, "dvonn settings", {"clear_puzzle_channel": True}
        )
        not_posted = _("Daily puzzle: not posted (choose a channel with puzzle_channel)")
        assert said(not_posted) in cleared.content
        clock.now = datetime(2025, 3, 3, 0, 1, tzinfo=UTC)
        await bot.housekeeping()
        assert len(daily_posts(table, puzzles)) == 2
        assert said(NOBODY_TRIED) in fake.message(posts[1].id).content  # counted
        profile = await fake.run_command(bob, table.games, "dvonn profile")
        assert bobs_rating is not None and bobs_rating.tried == 1
        assert profile_line(bobs_rating, solved=1, streak=1, best=1) in profile.content


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
    async with bot_runner.run() as bot:
        for user in (alice, bob):
            await fake.run_command(user, table.games, "puzzle", {"id": ending.id})
            answer = await fake.run_command(
                user, table.games, "puzzle", {"move": str(ending.line[0])}
            )
            assert answer.message is not None
            (board,) = answer.message.files
            description = str(board.description)
            if user is alice:
                assert solved(ending) in answer.content
                assert said(_("Final board.")) in description
                you_win = _("Game over: you win as {colour}.")
                assert said(you_win, colour=colour_of(ending.solver())) in description
                assert not said_pattern(_("Game over: {side} wins.")).search(description)
                you = said_pattern(_("{player} ({colour})"), player=said(_("You")))
                assert not you.search(description)
            else:
                over = game_over_line(ending.position_at(1), ending.solver())
                assert over is not None
                french = bot.catalogues.render(over, "fr")
                assert french != over.english() and french in description


async def test_a_right_move_says_what_it_cut_off(table: Table, bot_runner: BotRunner) -> None:
    """p0030's I2F2 cuts off 8 pieces: the answer says so, as a game's post would; and so
    for a reply that cuts off (p0043's)."""
    fake, alice = table.fake, table.alice
    puzzle = next(p for p in ai.puzzles.load() if p.id == "p0030")
    assert str(puzzle.line[0]) == "I2F2" and puzzle.line[1] == rules.PASS
    async with bot_runner.run():
        await fake.run_command(alice, table.games, "puzzle", {"id": "p0030"})
        answer = await fake.run_command(alice, table.games, "puzzle", {"move": "I2F2"})
        i2f2 = said(right_cut(8), move="I2F2", cells="H3, I3, J4, K4")
        assert i2f2 in answer.content
        white = colour_of(rules.Colour.WHITE)
        passed = said(_("{colour} answers {reply}."), colour=white, reply=_("a pass (no move)"))
        assert passed in answer.content
        answer = await fake.run_command(alice, table.games, "puzzle", {"move": "D2D4"})
        assert said(right_cut(1), move="D2D4", cells="D1") in answer.content
        # A reply that cuts off: p0043's G4D4, after C3E5.
        await fake.run_command(alice, table.games, "puzzle", {"id": "p0043"})
        answer = await fake.run_command(alice, table.games, "puzzle", {"move": "C3E5"})
        assert said(_("✅ {move} is right."), move="C3E5") in answer.content
        g4d4 = said(answers_cut(4), colour=white, reply="G4D4", cells="G5")
        assert g4d4 in answer.content


async def test_puzzles_in_a_dm_by_user_install(table: Table, global_runner: BotRunner) -> None:
    fake, alice = table.fake, table.alice
    place = await dm_between(table, alice, table.bob)
    async with global_runner.run() as bot:
        first = await fake.run_command(alice, place, "puzzle")
        assert first.ephemeral and first.message is not None
        shown = await current(bot, alice)
        for step in range(0, len(shown.puzzle.line), 2):
            await tap(table, alice, first.message, shown.puzzle.line[step])
        assert solved(shown.puzzle) in first.message.content
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
        none_running = _("You are not trying a puzzle right now: /puzzle gives you one.")
        assert nothing.ephemeral and said(none_running, mentions=bot.mentions) in nothing.content
        unknown = await fake.run_command(alice, table.games, "puzzle", {"id": "p9999"})
        no_such = _("There is no puzzle “{puzzle_id}”: check its name, or let /puzzle choose one.")
        assert (
            unknown.ephemeral
            and said(no_such, puzzle_id="p9999", mentions=bot.mentions) in unknown.content
        )
        both = await fake.run_command(alice, table.games, "puzzle", {"id": "p0001", "move": "A1"})
        one_at_a_time = _("Play a move, or ask for a puzzle by its name: one at a time.")
        assert both.ephemeral and said(one_at_a_time) in both.content

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
        only_managers = _("Only members who may manage the server can change its settings.")
        assert not_admin.ephemeral and said(only_managers) in not_admin.content
        cannot = await fake.run_command(
            admin, table.games, "dvonn settings", {"puzzle_channel": quiet}
        )
        cannot_post = _(
            "I cannot post the daily puzzle in <#{channel}>: I need to see the channel, send "
            "messages and attach files there. Give me those permissions, or choose another "
            "channel."
        )
        assert cannot.ephemeral and said(cannot_post, channel=quiet.id) in cannot.content
        not_both = await fake.run_command(
            admin,
            table.games,
            "dvonn settings",
            {"puzzle_channel": table.games, "clear_puzzle_channel": True},
        )
        not_both_words = _("Choose a channel for the daily puzzle, or clear it: not both.")
        assert not_both.ephemeral and said(not_both_words) in not_both.content
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
        assert labels and said(_("Give up (show the solution)")) not in labels


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
        assert said(DAILY_TITLE, date="2025-03-03") in post.content
