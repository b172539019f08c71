"""The lessons through the fake Discord, on each backend: a new player takes every lesson to
its end from **Learn by playing** under ``/dvonn rules`` (right and wrong tries, tapped in the
picker and typed with ``/learn move``, a question's choices, the game lesson played to its end
against the beginner with a hint asked), then finds them all done; progress survives a
restart (an older board's buttons still work, or say why not); the offer comes once, at a
first challenge or game, and not to a player who has played before; another player cannot act
in someone's lesson; every bad input is answered privately; the lessons work in a DM by user
install. The words checked are the catalogues' (the book's texts for each try)."""

from __future__ import annotations

import io
from collections.abc import Awaitable

import pytest
from PIL import Image

import rules
from bot.app import DvonnBot
from bot.exts.lessons import texts
from bot.games.lessons import book
from bot.games.lessons.errors import LessonMovedOn, NoLessonRunning, NotYourLesson, UnknownLesson
from bot.games.lessons.learning import LessonShown
from bot.i18n import Text, _
from bot.posting.descriptions import score_line
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import said, said_pattern
from tests.bot.e2e.test_private import dm_between, global_runner
from tests.fakediscord import FakeChannel, FakeUser, InteractionResult, RecordedMessage
from tests.fakediscord.interactions import InteractionType

__all__ = ["global_runner"]  # the fixture, for the DM

LEARN = _("Learn by playing")
START = _("Start the lessons")
NEXT = _("Next")
NEXT_LESSON = _("Next lesson")
TRY_AGAIN = _("Try again")
HINT = _("Hint")
PASS = _("Pass")
DONE = _("Lesson done: well done!")
ALL_DONE = _("You have done every lesson. Replay any from the menu below.")
OFFER = _(
    "New to DVONN? Short lessons teach it by playing, only for you: placing, moving, cutting "
    "pieces off, the count, and a first game against the beginner. Take them now or any time "
    "with /learn."
)
AI_BUDGET = 0.05
"""The computer's seconds a move (its replies and hints), to keep the game lesson short."""


def in_lesson(shown: LessonShown) -> str:
    """The first line of a lesson's message while a task is on."""
    return said(
        _("🎓 {lesson} · task {number} of {count}"),
        lesson=texts.lesson_title(shown.lesson.key),
        number=shown.attempt.task + 1,
        count=len(shown.lesson.tasks),
    )


def board_of(message: RecordedMessage | None) -> Image.Image:
    """A lesson's board image, with its alt text there."""
    assert message is not None
    (board,) = [f for f in message.files if f.filename == "board.png"]
    assert board.description
    image = Image.open(io.BytesIO(board.data))
    image.load()
    return image


def menu_ids(message: RecordedMessage, kind: str) -> list[str]:
    return [
        str(c["custom_id"])
        for c in message.iter_components()
        if c.get("type") == 3 and str(c["custom_id"]).startswith(f"dvonn:learn:{kind}:")
    ]


def menu_options(message: RecordedMessage, custom_id: str) -> list[str]:
    (menu,) = [c for c in message.iter_components() if c.get("custom_id") == custom_id]
    return [str(o["value"]) for o in menu.get("options", [])]


async def tap(
    table: Table, user: FakeUser, message: RecordedMessage, move: rules.Move
) -> InteractionResult:
    """Try ``move`` with the picker under a lesson's ``message`` (the message becomes the
    answer): Pass; a cell of the placing menus; or the stack, then where it lands."""
    fake = table.fake
    if move == rules.PASS:
        return await edited(table, message, fake.click(user, message, label=said(PASS)))
    if isinstance(move, rules.Place):
        cell = rules.cell_name(move.cell)
        (menu,) = [m for m in menu_ids(message, "cells") if cell in menu_options(message, m)]
        return await edited(table, message, fake.select(user, message, menu, [cell]))
    assert isinstance(move, rules.Jump)
    (stacks,) = menu_ids(message, "from")
    await edited(table, message, fake.select(user, message, stacks, [rules.cell_name(move.source)]))
    (landings,) = menu_ids(message, "to")
    target = rules.cell_name(move.target)
    return await edited(table, message, fake.select(user, message, landings, [target]))


async def edited(
    table: Table, message: RecordedMessage, interaction: Awaitable[InteractionResult]
) -> InteractionResult:
    """``interaction`` on ``message``, once the bot has edited the message in answer."""
    before = len(message.revisions)
    result = await interaction
    await table.fake.wait_until(lambda: len(message.revisions) > before, what="the answer")
    return result


async def typed(table: Table, user: FakeUser, move: str) -> RecordedMessage:
    """Try ``move`` typed with ``/learn move``: answered in a new private message."""
    answer = await table.fake.run_command(user, table.games, "learn", {"move": move})
    assert answer.ephemeral and answer.message is not None, answer.content
    return answer.message


async def click(
    table: Table, user: FakeUser, message: RecordedMessage, text: Text
) -> RecordedMessage:
    """A button of a lesson's message: the message becomes the answer."""
    await edited(table, message, table.fake.click(user, message, label=said(text)))
    return message


def illegal_try(position: rules.Position) -> str:
    """A try the rules refuse in ``position``: a jump between two stacks that is no move, a
    placement on an occupied cell, or a text that is no move."""
    legal = set(rules.legal_moves(position))
    if position.is_placement:
        occupied = position.occupied_cells()
        return rules.cell_name(occupied[0]) if occupied else "Z9"
    stacks = position.occupied_cells()
    return next(
        (
            str(rules.jump(a, b))
            for a in stacks
            for b in stacks
            if a != b and rules.jump(a, b) not in legal
        ),
        "Z9",
    )


def illegal_tap(message: RecordedMessage, position: rules.Position) -> rules.Move | None:
    """A try the picker under ``message`` offers that the rules refuse: **Pass** with a move
    left, or a stack offered and a landing offered for it that is no move."""
    legal = set(rules.legal_moves(position))
    labels = {c.get("label") for c in message.iter_components()}
    if said(PASS) in labels and rules.PASS not in legal:
        return rules.PASS
    stacks = menu_ids(message, "from")
    if not stacks:
        return None
    for name in menu_options(message, stacks[0]):
        source = rules.lookup_cell(name)
        assert source is not None
        for ray in rules.RAYS[source]:
            for target in ray:
                if rules.jump(source, target) not in legal:
                    return rules.jump(source, target)
    return None


async def current(bot: DvonnBot, user: FakeUser) -> LessonShown:
    return await bot.service.lessons.current(user.id)


async def take_move_task(
    table: Table, bot: DvonnBot, message: RecordedMessage, task: book.MoveTask, *, tapped: bool
) -> RecordedMessage:
    """A move task: a miss (tapped), an illegal try on the lesson's first task (typed), each
    explained and tried again; then the right move, tapped or typed, and Next."""
    alice = table.alice
    position = task.position
    verdicts = [book.judge(task, m) for m in rules.legal_moves(position)]
    right = next(v for v in verdicts if v.right)
    miss = next((v for v in verdicts if v.miss is not None), None)
    if miss is not None and miss.move is not None:
        await tap(table, alice, message, miss.move)
        assert said(texts.miss_text(task, miss)) in message.content
        board_of(message)  # drawn after the miss, with what it cut off
        await click(table, alice, message, TRY_AGAIN)
    wrong_tap = illegal_tap(message, position)
    if wrong_tap is not None:  # a stack that may not go there, a pass: the rules say why
        verdict = book.judge(task, wrong_tap)
        assert verdict.error is not None
        await tap(table, alice, message, wrong_tap)
        assert said(texts.error_text(task, verdict)) in message.content, message.content
        await click(table, alice, message, TRY_AGAIN)
    shown = await current(bot, alice)
    if shown.attempt.task == 0:
        wrong = illegal_try(position)
        verdict = book.judge(task, wrong)
        assert verdict.error is not None, wrong
        answer = await typed(table, alice, wrong)
        assert said(texts.error_text(task, verdict)) in answer.content
        message = answer
        await click(table, alice, message, TRY_AGAIN)
    assert right.move is not None
    if tapped:
        await tap(table, alice, message, right.move)
    else:
        message = await typed(table, alice, str(right.move))
    assert said(texts.right_text(task, right)) in message.content, message.content
    board_of(message)
    return message


async def take_question(
    table: Table, message: RecordedMessage, question: book.Question
) -> RecordedMessage:
    """A question: a wrong choice (explained), Try again, the right one."""
    alice = table.alice
    right = book.answer_of(question)
    wrong = next(c for c in question.choices if c != right)
    score = said(score_line(question.position))
    hidden = not book.shows_score(question)
    if hidden:  # the board does not give the answer away: no cards, no score in its words
        (board,) = message.files
        assert score not in str(board.description)
        height = board_of(message).height
    await click(table, alice, message, texts.choice_text(question, wrong))
    assert said(texts.question_wrong(question, wrong)) in message.content
    await click(table, alice, message, TRY_AGAIN)
    await click(table, alice, message, texts.choice_text(question, right))
    assert said(texts.question_right(question)) in message.content
    if hidden:  # answered: the cards and the score are back
        (board,) = message.files
        assert score in str(board.description) and board_of(message).height > height
    return message


async def take_game(
    table: Table, bot: DvonnBot, message: RecordedMessage, task: book.GameTask
) -> RecordedMessage:
    """The game lesson: a hint asked, then moves (tapped, and every third typed) until the
    game is over; the computer answers each."""
    alice = table.alice
    await click(table, alice, message, HINT)
    assert said_pattern(_("Hint: the bot would play {move}.")).search(message.content)
    moves = 0
    while True:
        try:
            shown = await current(bot, alice)
        except NoLessonRunning:
            break
        assert not shown.computer_to_move  # answered before the board came back
        move = rules.legal_moves(shown.position)[0]
        if moves % 3 == 2:
            message = await typed(table, alice, str(move))
        else:
            await tap(table, alice, message, move)
        assert said(_("You played {move}."), move=str(move)) in message.content
        moves += 1
    assert moves >= 1
    done = await bot.service.lessons.looked_at(alice.id, shown.attempt.id)
    assert said(texts.game_over_text(task, done.position)) in message.content
    return message


@pytest.mark.machine_speed
async def test_a_new_player_takes_every_lesson_to_its_end(
    table: Table, bot_runner: BotRunner
) -> None:
    fake, alice = table.fake, table.alice
    assert book.LESSONS and isinstance(book.LESSONS[-1].tasks[-1], book.GameTask)
    async with bot_runner.run(ai_budget=AI_BUDGET) as bot:
        rules_answer = await fake.run_command(alice, table.games, "dvonn rules")
        assert rules_answer.ephemeral and rules_answer.message is not None
        opened = await fake.click(alice, rules_answer.message, label=said(LEARN))
        assert opened.ephemeral and opened.message is not None
        message = opened.message
        for index, lesson in enumerate(book.LESSONS):
            shown = await current(bot, alice)
            assert shown.lesson == lesson and shown.attempt.task == 0
            assert in_lesson(shown) in message.content
            assert said(texts.lesson_intro(lesson.key)) in message.content
            board_of(message)
            for number, task in enumerate(lesson.tasks):
                shown = await current(bot, alice)
                assert shown.attempt.task == number
                assert said(texts.task_prompt(task)) in message.content, message.content
                if isinstance(task, book.MoveTask):
                    if any(
                        isinstance(t, book.MoveTask) and t.goal.aim is book.Aim.PASS
                        for t in lesson.tasks
                    ):  # the lesson about passing offers Pass in each task, right or wrong
                        labels = {c.get("label") for c in message.iter_components()}
                        assert said(PASS) in labels
                    tapped = (index + number) % 2 == 0
                    message = await take_move_task(table, bot, message, task, tapped=tapped)
                elif isinstance(task, book.Question):
                    message = await take_question(table, message, task)
                else:
                    message = await take_game(table, bot, message, task)
                if number + 1 < len(lesson.tasks):
                    await click(table, alice, message, NEXT)
            assert said(DONE) in message.content
            progress = await bot.service.lessons.progress(alice.id)
            assert lesson.key in progress.done
            if index + 1 < len(book.LESSONS):
                following = book.LESSONS[index + 1]
                title = texts.lesson_title(following.key)
                assert said(_("Next: {lesson}."), lesson=title) in message.content
                await click(table, alice, message, NEXT_LESSON)
        assert said(ALL_DONE) in message.content
        progress = await bot.service.lessons.progress(alice.id)
        assert progress.done == {each.key for each in book.LESSONS} and progress.running is None

        # Everything done: /learn lists them, with the menu to replay any.
        listed = await fake.run_command(alice, table.games, "learn")
        assert listed.ephemeral and said(_("You have done every lesson:")) in listed.content
        menu = listed.message
        assert menu is not None
        replay = book.LESSONS[0]
        assert replay.key in menu_options(menu, "dvonn:learn:lessons")
        await edited(table, menu, fake.select(alice, menu, "dvonn:learn:lessons", [replay.key]))
        board_of(menu)
        shown = await current(bot, alice)
        assert shown.lesson == replay and shown.attempt.step == 0
        assert said(texts.task_prompt(replay.tasks[0])) in menu.content
        assert not [m for m in fake.messages_in(table.games) if not m.ephemeral]


async def test_progress_survives_a_restart_and_old_boards_say_why_not(
    table: Table, bot_runner: BotRunner
) -> None:
    fake, alice = table.fake, table.alice
    lesson = next(
        each
        for each in book.LESSONS
        if len(each.tasks) > 1 and isinstance(each.tasks[0], book.MoveTask)
    )
    first = lesson.tasks[0]
    assert isinstance(first, book.MoveTask)
    verdicts = (book.judge(first, m) for m in rules.legal_moves(first.position))
    right = next(v for v in verdicts if v.right)
    assert right.move is not None
    async with bot_runner.run() as bot:
        started = await fake.run_command(alice, table.games, "learn", {"lesson": lesson.key})
        assert started.message is not None
        stale = started.message
        answer = await typed(table, alice, str(right.move))  # a new message: the older is stale
        assert said(texts.right_text(first, right)) in answer.content
    async with bot_runner.run() as bot:
        again = await fake.run_command(alice, table.games, "learn")
        shown = await current(bot, alice)
        assert shown.lesson == lesson and shown.attempt.task == 1
        assert said(texts.task_prompt(lesson.tasks[1])) in again.content
        # The older board's picker, after the restart: it says why not, privately.
        kind = "cells" if first.position.is_placement else "from"
        menu = menu_ids(stale, kind)[0]
        refused = await fake.select(alice, stale, menu, [menu_options(stale, menu)[0]])
        assert refused.ephemeral and said(LessonMovedOn, mentions=bot.mentions) in (refused.content)
        # The newest board's Next, from before the restart, still works.
        await click(table, alice, answer, NEXT)
        assert said(texts.task_prompt(lesson.tasks[1])) in answer.content


async def challenge_posted(
    table: Table, user: FakeUser, channel: FakeChannel, options: dict[str, object] | None = None
) -> InteractionResult:
    """``user``'s challenge, posted (not refused), once the bot is done with it (an offer, if
    one is due, has followed)."""
    made = await table.fake.run_command(user, channel, "dvonn challenge", options or {})
    assert made.message is not None and not made.ephemeral, made.content
    return made


async def test_the_offer_comes_once_to_newcomers_only(table: Table, bot_runner: BotRunner) -> None:
    fake, alice, bob, carol = table.fake, table.alice, table.bob, table.carol
    guild = table.guild
    old, second, third, fourth = (guild.add_text_channel(f"room-{n}") for n in range(4))
    dave, eve, frank = (fake.add_user(name, guild) for name in ("dave", "eve", "frank"))
    async with bot_runner.run(ai_budget=AI_BUDGET) as bot:
        # Carol played before the lessons came (a game recorded for her).
        before = await bot.service.create_challenge(
            guild_id=guild.id, channel_id=old.id, challenger_id=carol.id
        )
        await bot.service.accept_challenge(before.id, table.moderator.id)

        first = await challenge_posted(table, alice, table.games, {"opponent": bob})
        (offer,) = await first.wait_for_followups(1)
        assert offer.ephemeral and offer.visible_to == alice.id
        assert said(OFFER, mentions=bot.mentions) in offer.content
        again = await challenge_posted(table, alice, second)  # still no game of hers: once
        assert first.message is not None
        accepted = await fake.click(bob, first.message, label=said(_("Accept")))
        (bobs,) = await accepted.wait_for_followups(1)  # his first game begins
        assert bobs.ephemeral and bobs.visible_to == bob.id
        carols = await fake.run_command(carol, table.games, "dvonn play-bot", {"level": "beginner"})
        assert not carols.ephemeral, carols.content
        bot_game = await fake.run_command(
            dave, table.games, "dvonn play-bot", {"level": "beginner"}
        )
        (daves,) = await bot_game.wait_for_followups(1)  # his first game, against the bot
        assert daves.visible_to == dave.id and said(OFFER, mentions=bot.mentions) in daves.content
        assert await bot.inflight.wait_idle(10)
        assert again.followups == [] and carols.followups == []
        for user in (alice, bob, dave):
            assert await bot.service.store.lesson_offered(user.id)
        assert not await bot.service.store.lesson_offered(carol.id)

        # The offer's button opens the lessons, for whoever taps.
        lessons = await fake.click(alice, offer, label=said(START))
        assert lessons.ephemeral and lessons.message is not None
        shown = await current(bot, alice)
        assert shown.lesson == book.LESSONS[0] and in_lesson(shown) in lessons.content
        eves = await challenge_posted(table, eve, fourth, {"opponent": frank})
        assert len(await eves.wait_for_followups(1)) == 1
        assert eves.message is not None
        declined = await fake.click(frank, eves.message, label=said(_("Decline")))
        (franks,) = await declined.wait_for_followups(1)  # declining is a first step too
        assert franks.visible_to == frank.id and said(OFFER, mentions=bot.mentions) in (
            franks.content
        )
    async with bot_runner.run() as bot:  # after a restart too: once (and still no game of hers)
        later = await challenge_posted(table, eve, third)
        assert await bot.inflight.wait_idle(10)
        assert later.followups == []


async def forged(
    user: FakeUser, message: RecordedMessage, data: dict[str, object], *, table: Table
) -> InteractionResult:
    """``user`` uses a component of ``message``, which is not theirs: Discord shows a private
    message to nobody else, but a shared or forged interaction must still be refused."""
    fake = table.fake
    record = fake.desk.start(
        kind=InteractionType.MESSAGE_COMPONENT,
        user=user,
        channel=fake.world.channel(message.channel_id),
        data=data,
        message=message,
        label=f"forged {data['custom_id']!r}",
    )
    result = fake.result_for(record)
    await result.wait_response()
    return result.require_response()


async def test_every_bad_input_is_answered_privately(table: Table, bot_runner: BotRunner) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    async with bot_runner.run() as bot:
        nothing = await fake.run_command(alice, table.games, "learn", {"move": "E3"})
        assert nothing.ephemeral and said(NoLessonRunning, mentions=bot.mentions) in nothing.content
        unknown = await fake.run_command(alice, table.games, "learn", {"lesson": "nope"})
        assert unknown.ephemeral
        assert said(UnknownLesson, lesson="nope", mentions=bot.mentions) in unknown.content
        both = await fake.run_command(
            alice, table.games, "learn", {"lesson": book.LESSONS[0].key, "move": "E3"}
        )
        one_at_a_time = _("Choose a lesson, or try a move: one at a time.")
        assert both.ephemeral and said(one_at_a_time) in both.content
        offered = await fake.autocomplete(
            alice, table.games, "learn", {"lesson": ""}, focused="lesson"
        )
        assert [c.value for c in offered] == [each.key for each in book.LESSONS]

        started = await fake.run_command(alice, table.games, "learn")
        assert started.message is not None
        shown = await current(bot, alice)
        moves = await fake.autocomplete(alice, table.games, "learn", {"move": ""}, focused="move")
        legal = {str(m) for m in rules.legal_moves(shown.position)}
        assert moves and {c.value for c in moves} <= legal
        wrong = await typed(table, alice, illegal_try(shown.position))  # Try again under it
        (again,) = [
            str(c["custom_id"])
            for c in wrong.iter_components()
            if str(c.get("custom_id")).startswith("dvonn:learn:again:")
        ]
        # Bob, on Alice's lesson's boards: refused, and nothing changes.
        refused = await forged(bob, wrong, {"custom_id": again, "component_type": 2}, table=table)
        assert refused.ephemeral and said(NotYourLesson, mentions=bot.mentions) in refused.content
        menus = menu_ids(started.message, "cells") or menu_ids(started.message, "from")
        choice = menu_options(started.message, menus[0])[0]
        data = {"custom_id": menus[0], "component_type": 3, "values": [choice]}
        refused = await forged(bob, started.message, data, table=table)
        assert refused.ephemeral and said(NotYourLesson, mentions=bot.mentions) in refused.content
        before = (await current(bot, alice)).attempt
        # Alice on her board from before the wrong try: it has moved on.
        stale = await fake.select(alice, started.message, menus[0], [choice])
        assert stale.ephemeral and said(LessonMovedOn, mentions=bot.mentions) in stale.content
        assert (await current(bot, alice)).attempt == before


async def test_lessons_in_a_dm_by_user_install(table: Table, global_runner: BotRunner) -> None:
    fake, alice = table.fake, table.alice
    place = await dm_between(table, alice, table.bob)
    async with global_runner.run() as bot:
        helped = await fake.run_command(alice, place, "dvonn help")
        assert helped.ephemeral, helped.content
        last = helped.messages[-1]  # Learn by playing, under the help's last message
        first = await fake.click(alice, last, label=said(LEARN))
        assert first.ephemeral and first.message is not None
        shown = await current(bot, alice)
        task = shown.task
        assert isinstance(task, book.MoveTask)
        right = next(
            v for v in (book.judge(task, m) for m in rules.legal_moves(task.position)) if v.right
        )
        assert right.move is not None
        await tap(table, alice, first.message, right.move)
        assert said(texts.right_text(task, right)) in first.message.content
        board_of(first.message)
        assert [m for m in fake.messages_in(place) if not m.ephemeral] == []
