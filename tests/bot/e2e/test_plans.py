"""Conditional moves through the fake Discord: a line planned with ``/dvonn plan`` and by
tapping "Plan a reply"; the opponent's expected move answered at once by its own board, marked
as planned and pinging the right player; lines listed, cleared, dropped by a takeback; a
placement phase played mostly by planned moves; and the secrecy: nothing of a plan in anything
the opponent sees (posts, autocomplete, picker, history, export) before its move is played."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

import rules
from bot.app import DvonnBot
from bot.i18n import _, n_, p_
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import play_turn, said, said_pattern, send_move
from tests.bot.e2e.test_game import accept
from tests.bot.e2e.test_private import (
    challenge_in,
    dm_between,
    next_board,
    no_bot_posts_by_rest,
)
from tests.bot.e2e.test_tapping import open_picker, start
from tests.fakediscord import FakeChannel, FakeUser, InteractionResult, RecordedMessage

PLANNED_THIS = _("{player} had planned this reply:")
FOLLOWS = _("{player} had planned a reply: it follows.")
NO_LINES = _("You have no planned lines in game #{game}.")
PLANNED_IN = _(
    "Planned in game #{game}: {line}. It is played for you, and announced, as soon as your "
    "opponent plays the move you expect."
)


def planned_board(message: RecordedMessage) -> bool:
    return message.embed_image() is not None and bool(
        said_pattern(PLANNED_THIS).search(message.content)
    )


async def plan(
    table: Table, user: FakeUser, place: FakeChannel, **options: Any
) -> InteractionResult:
    """``/dvonn plan`` with ``options``; its answer, which must be private."""
    reply = await table.fake.run_command(user, place, "dvonn plan", options)
    assert reply.ephemeral, reply.content
    return reply


async def tap_plan(
    table: Table, user: FakeUser, post: RecordedMessage, expected: str, reply: str
) -> InteractionResult:
    """Plan a reply by tapping: "Your move" on ``post``, "Plan a reply", the cell expected, the
    cell of the reply (placing), "Plan it"."""
    fake = table.fake
    opponent = (table.alice if user is table.bob else table.bob).username
    offer = await open_picker(table, user, post)
    not_your_turn = _(
        "It is not your turn: your opponent is to move. You may plan your reply to the move you "
        "expect; it is played for you as soon as they play it, and only you see it."
    )
    assert said(not_your_turn) in offer.content
    assert said(_("Plan a reply")) in str(offer.components)
    assert offer.message is not None
    step = await fake.click(user, offer.message, label=said(_("Plan a reply")))
    which = _("Plan a reply. Which move do you expect from {player}?")
    assert step.message is not None and said(which, player=opponent) in step.message.content
    for cell in (expected, reply):
        menu = _cells_menu(step.message, cell)
        step = await fake.select(user, step.message, menu, [cell])
        assert step.message is not None
    confirm = step.message
    plan_it = _("If {player} plays {move}, you play {reply}. Plan it?")
    assert confirm is not None
    assert said(plan_it, player=opponent, move=expected, reply=reply) in confirm.content
    return await fake.click(user, confirm, label=said(_("Plan it")))


def _cells_menu(message: RecordedMessage, cell: str) -> str:
    (found,) = [
        str(c["custom_id"])
        for c in message.iter_components()
        if c.get("type") == 3
        and str(c["custom_id"]).startswith("dvonn:plan:cells:")
        and any(option["value"] == cell for option in c.get("options", []))
    ]
    return found


async def test_a_line_planned_by_command_answers_the_expected_move_with_its_own_board(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    place, post = await start(table)
    before = fake.messages_in(place)
    planned = await plan(table, table.bob, place, line="e3 f4 d2 d3")
    assert said(PLANNED_IN, game=1, line="E3 → **F4**, D2 → **D3**") in planned.content
    assert fake.messages_in(place) == before  # nothing public

    played = await play_turn(fake, table.alice, place, rules.parse_move("E3"))
    assert played.post is not None
    reply = await fake.wait_for_message(place, planned_board, after=post)
    assert said(PLANNED_THIS, player="bob") in reply.content
    assert "F4" in reply.content and reply.pinged_user_ids == {table.alice.id}
    game = await bot.service.game_in_channel(place.id)
    assert game is not None and game.ply == 2 and game.to_move_id == table.alice.id
    # Alice's own board called nobody to move: the reply came at once (and, while placing,
    # replaced it, as every placement board replaces the one before).
    assert played.post.pinged_user_ids == frozenset()
    assert said(FOLLOWS, player="bob") in played.post.content

    listed = await plan(table, table.bob, place)
    assert "D2 → **D3**" in listed.content and "E3" not in listed.content
    await play_turn(fake, table.alice, place, rules.parse_move("D2"))
    await fake.wait_for_message(place, lambda m: planned_board(m) and "D3" in m.content)
    assert said(NO_LINES, game=1) in (await plan(table, table.bob, place)).content


async def test_a_reply_planned_by_tapping_is_played_when_its_move_comes(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    place, post = await start(table)
    planned = await tap_plan(table, table.bob, post, "E3", "F4")
    tapped = n_(
        "Planned: if {player} plays {move}, you play {reply}. You have {count} planned line in "
        "this game; /dvonn plan lists them.",
        "Planned: if {player} plays {move}, you play {reply}. You have {count} planned lines in "
        "this game; /dvonn plan lists them.",
        1,
    )
    assert (
        said(tapped, player="alice", move="E3", reply="F4", mentions=bot.mentions)
        in planned.content
    )
    listed = await plan(table, table.bob, place)
    assert "E3 → **F4**" in listed.content
    await play_turn(fake, table.alice, place, rules.parse_move("E3"))
    reply = await fake.wait_for_message(place, planned_board, after=post)
    assert "F4" in reply.content and reply.pinged_user_ids == {table.alice.id}


async def test_bad_lines_and_games_against_the_bot_get_a_clear_private_answer(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    place, _post = await start(table)
    illegal = await plan(table, table.bob, place, line="E3 E3")
    occupied = _(rules.IllegalReason.CELL_OCCUPIED.value, cell="E3")
    cannot = _("Move {number} of your line, {move}, could not be played there: {reason}")
    assert said(cannot, number=2, move="E3", reason=occupied) in illegal.content
    ends = await plan(table, table.bob, place, line="E3 F4 D2")
    theirs = _(
        "Your line ends with {move}, a move of your opponent's: end it with your reply to it."
    )
    assert said(theirs, move="D2") in ends.content
    nonsense = await plan(table, table.bob, place, line="E3 banana")
    not_a_move = _("Move {number} of your line is not a move: {reason}")
    banana = _(rules.InvalidReason.NOT_A_MOVE.value, text="banana")
    assert said(not_a_move, number=2, reason=banana) in nonsense.content
    stranger = await plan(table, table.carol, place, line="E3 F4")
    not_a_player = _("You are not playing in this game: only its two players can do that.")
    assert said(not_a_player) in stranger.content
    assert await bot.service.store.has_plans(1) is False

    await fake.run_command(table.carol, table.games, "dvonn play-bot", {"colour": "B"})
    computer = await bot.service.active_games(table.carol.id)
    while not computer:
        await asyncio.sleep(0.05)
        computer = await bot.service.active_games(table.carol.id)
    refused = await plan(table, table.carol, table.games, line="E3 F4", game=computer[0].id)
    against_the_bot = _(
        "The bot answers your moves at once, so there is nothing to plan in a game against it: "
        "play your moves as they come."
    )
    assert said(against_the_bot) in refused.content


async def test_lines_are_cleared_and_a_takeback_drops_them(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    place, _post = await start(table)
    await play_turn(fake, table.alice, place, rules.parse_move("E3"))
    await play_turn(fake, table.bob, place, rules.parse_move("F4"))
    await plan(table, table.bob, place, line="D2 D3")
    await plan(table, table.bob, place, line="C2 C3")
    cleared = await plan(table, table.bob, place, clear=True, line="D2 D3")
    dropped = n_(
        "Dropped {count} planned line in game #{game}.",
        "Dropped {count} planned lines in game #{game}.",
        2,
    )
    assert said(dropped, game=1) in cleared.content and "D2 → **D3**" in cleared.content
    asked = await fake.run_command(table.bob, place, "dvonn takeback")
    assert asked.message is not None
    await fake.click(table.alice, asked.message, label=said(_("Accept the takeback")))
    accepted = said(_("Takeback accepted: {moves} undone."), moves="F4")
    await fake.wait_for_message(place, lambda m: accepted in str(m.embeds))
    assert said(NO_LINES, game=1) in (await plan(table, table.bob, place)).content
    await play_turn(fake, table.bob, place, rules.parse_move("F4"))
    played = await play_turn(fake, table.alice, place, rules.parse_move("D2"))
    assert played.post is not None and played.post.pinged_user_ids == {table.bob.id}
    game = await bot.service.game_in_channel(place.id)
    assert game is not None and game.ply == 3  # no reply was played for Bob


async def test_a_board_followed_at_once_by_a_planned_reply_still_shows_the_clock(
    table: Table, bot_runner: BotRunner
) -> None:
    """Every board post shows the clock (docs/players/correspondence.md), the one a planned
    reply follows too: it stays in the thread, above the reply's own board."""
    fake, alice, bob = table.fake, table.alice, table.bob
    clock = ManualClock()
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        challenge = await fake.run_command(
            alice,
            table.games,
            "dvonn challenge",
            {"opponent": bob, "colour": "W", "setup": "random", "clock": "days:2"},
        )
        assert challenge.message is not None
        place = await accept(table, challenge.message, bob)
        game = await bot.service.game_in_channel(place.id)
        assert game is not None and not game.position.is_placement
        # Alice's move, and a reply of Bob's to it (neither a pass).
        move, reply = next(
            (move, reply)
            for move in rules.legal_moves(game.position)
            if move != rules.PASS
            for reply in rules.legal_moves(rules.apply(game.position, move).after)
            if reply != rules.PASS
        )
        await plan(table, bob, place, line=f"{move} {reply}")
        played_at = clock.advance(hours=5)
        played = await play_turn(fake, alice, place, move)
        assert played.post is not None
        assert said(FOLLOWS, player="bob") in played.post.content
        answer = await fake.wait_for_message(place, planned_board, after=played.post)
        deadline = int((played_at + timedelta(days=2)).timestamp())
        for post, to_move in ((played.post, bob), (answer, alice)):
            assert not post.deleted
            clocked = said(
                _("Clock: {days} per move; {player} must play by {deadline} ({relative})."),
                days=n_("{count} day", "{count} days", 2),
                player=to_move.mention,
                deadline=f"<t:{deadline}:f>",
                relative=f"<t:{deadline}:R>",
            )
            assert clocked in str(post.embeds), post.embeds


# --- the secret -------------------------------------------------------------------------------


async def what_alice_sees(table: Table, place: FakeChannel, post: RecordedMessage) -> list[Any]:
    """Everything Alice can look at of the game: its posts, her DMs, her picker, her
    autocomplete (of a move and of a plan), her lines, the history and the export."""
    fake, alice = table.fake, table.alice
    seen: list[Any] = [
        [(m.content, m.embeds, m.components) for m in fake.messages_in(place)],
        [m.content for m in fake.dms_to(alice)],
    ]
    picker = await open_picker(table, alice, post)
    seen.append((picker.content, picker.components))
    for command, options, focused in (
        ("dvonn place", {"cell": "E"}, "cell"),
        ("dvonn play", {"move": ""}, "move"),
        ("dvonn plan", {"line": "E3 "}, "line"),
    ):
        choices = await fake.autocomplete(alice, place, command, options, focused=focused)
        seen.append([(c.name, c.value) for c in choices])
    seen.append((await plan(table, alice, place)).content)
    history = await fake.run_command(alice, place, "dvonn history")
    seen.append((history.content, [f.data for f in history.files]))
    exported = await fake.run_command(alice, place, "dvonn export")
    seen.append((exported.content, [f.data for f in exported.files]))
    return seen


async def test_the_opponent_sees_nothing_of_a_plan_before_its_move_is_played(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    place, post = await start(table)
    before = await what_alice_sees(table, place, post)
    visible = {m.id for m in fake.visible_to(table.alice, place)}
    await plan(table, table.bob, place, line="E3 F4 D2 D3")
    await tap_plan(table, table.bob, post, "G3", "H4")
    assert [m for m in fake.visible_to(table.alice, place) if m.id not in visible] == []
    after = await what_alice_sees(table, place, post)
    assert after == before  # her view of the game is the same in every detail
    # Nor does anyone else see the planner's answers.
    answers = [
        said_pattern(PLANNED_IN, game=1),
        said_pattern(_("You had planned that already.")),
        said_pattern(
            n_(
                "Planned: if {player} plays {move}, you play {reply}. You have {count} planned "
                "line in this game; /dvonn plan lists them.",
                "Planned: if {player} plays {move}, you play {reply}. You have {count} planned "
                "lines in this game; /dvonn plan lists them.",
                2,
            ),
            mentions=bot.mentions,
        ),
    ]
    assert (
        sum(
            bool(a.search(m.content))
            for a in answers
            for m in fake.messages_in(place, include_ephemeral=True)
        )
        == 2
    )
    for message in fake.messages_in(place, include_ephemeral=True):
        if any(a.search(message.content) for a in answers):
            assert message.ephemeral and fake.visible_to(table.alice, place).count(message) == 0


# --- a placement played mostly by plans -------------------------------------------------------


@pytest.mark.slow
async def test_a_placement_phase_played_mostly_by_planned_moves(
    table: Table, bot_runner: BotRunner
) -> None:
    """The player who waits plans the next placements (those they expect, and their replies);
    the player to move plays their next one with the same line: both plans answer each other,
    and the 49 placements take five commands, each planned one on its own board."""
    fake = table.fake
    fake.limits.per_channel = False  # some fifty boards in moments: not the point here
    cells = [rules.cell_name(c) for c in rules.empty_cells(rules.new_game())]
    async with bot_runner.run() as bot:
        place, _post = await start(table)
        commands = 0
        while True:
            game = await bot.service.game_in_channel(place.id)
            assert game is not None and game.to_move_id is not None
            left = rules.PLACEMENT_PLIES - game.ply
            if left <= 0:
                break
            mover = table.alice if game.to_move_id == table.alice.id else table.bob
            waiting = table.bob if mover is table.alice else table.alice
            if left == 1:
                await play_turn(fake, mover, place, rules.parse_move(cells[game.ply]))
                commands += 1
                continue
            coming = cells[game.ply : game.ply + min(24, left - left % 2)]
            await plan(table, waiting, place, line=" ".join(coming))  # theirs, then replies
            played = await plan(table, mover, place, line=" ".join(coming[:-1]))  # own first
            see_board = said_pattern(
                _("You played {move}. [See the board]({link})"), move=coming[0]
            )
            on_its_way = _("You played {move}. The board is on its way to <#{channel}>.")
            assert see_board.search(played.content) or (
                said(on_its_way, move=coming[0], channel=place.id) in played.content
            )
            after_it = n_(
                "{count} planned move was played after it: {moves}.",
                "{count} planned moves were played after it: {moves}.",
                len(coming) - 1,
            )
            assert said(after_it, moves=" ".join(coming[1:])) in played.content
            commands += 2
        assert commands == 5
        record = await bot.service.record(game.id)
        assert [str(m.move) for m in record.moves] == cells
        assert sum(not m.automatic for m in record.moves) == rules.PLACEMENT_PLIES

        to_move = said(
            _("{mention}, your turn ({colour}): move with /dvonn move."),
            mention=table.alice.mention,
            colour=p_("colour", "White"),
            mentions=bot.mentions,
        )

        def moving(message: RecordedMessage) -> bool:
            return message.embed_image() is not None and to_move in message.content

        last = await fake.wait_for_message(place, moving)
        assert last.pinged_user_ids == {table.alice.id}
        await fake.wait_until(  # each placement board replaces the one before, as always
            lambda: not [m for m in fake.messages_in(place) if planned_board(m)],
            what="the last planned placement board replaced",
        )


# --- where the bot may only answer ------------------------------------------------------------


@pytest.fixture
async def global_bot(bot_runner: BotRunner) -> AsyncIterator[DvonnBot]:
    """A bot whose commands are global, as for everyone's DMs (as in test_private)."""
    bot_runner.settings = dataclasses.replace(bot_runner.settings, dev_guild=None)
    async with bot_runner.run() as started:
        yield started


async def test_a_planned_reply_in_a_dm_comes_as_an_answer_like_every_board(
    table: Table, global_bot: DvonnBot
) -> None:
    fake = table.fake
    place = await dm_between(table, table.alice, table.bob)
    post = await challenge_in(table, place)
    await plan(table, table.bob, place, line="E3 F4")
    await send_move(fake, table.alice, place, rules.parse_move("E3"))
    played = await next_board(table, place, post)
    assert "E3" in played.content
    reply = await next_board(table, place, played)
    assert planned_board(reply) and "F4" in reply.content
    assert table.alice.mention in reply.content
    no_bot_posts_by_rest(table, place)
    # Playing one's own move by a plan would make its board the plan's answer: refused.
    refused = await plan(table, table.alice, place, line="D2 D3 C2")
    own_move = _(
        "It is your turn: play your move with /dvonn play first, then plan your replies while you "
        "wait."
    )
    assert said(own_move, mentions=global_bot.mentions) in refused.content
