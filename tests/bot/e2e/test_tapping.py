"""Moves by tapping: "Your move" under each board, a private picker, a confirm button.

A whole game is played only by tapping; only the player to move gets a picker; a picker left
open goes stale safely when the game moves on; the buttons and menus work after a restart.
"""

from __future__ import annotations

import random

import pytest

import rules
from bot.app import DvonnBot
from bot.exts.play.picker import COLUMN_GROUPS
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import send_move
from tests.bot.e2e.test_game import accept
from tests.fakediscord import FakeChannel, FakeUser, InteractionResult, RecordedMessage


def turn_button(post: RecordedMessage) -> tuple[int, int]:
    """The game and ply the "Your move" button under a board was made for."""
    (button,) = [b for b in post.buttons() if b.get("label") == "Your move"]
    _, _, game, ply = str(button["custom_id"]).split(":")
    return int(game), int(ply)


async def open_picker(table: Table, user: FakeUser, post: RecordedMessage) -> InteractionResult:
    opened = await table.fake.click(user, post, label="Your move")
    assert opened.ephemeral, opened.content
    return opened


async def choose(
    table: Table, user: FakeUser, picker: InteractionResult, at: tuple[int, int], move: rules.Move
) -> RecordedMessage:
    """Pick ``move`` in an open picker (made for ``at``: game and ply), up to its confirm
    button; the picker's message."""
    fake = table.fake
    game, ply = at
    message = picker.message
    assert message is not None
    if isinstance(move, rules.Place):
        cell = rules.CELL_NAMES[move.cell]
        group = next(i for i, letters in enumerate(COLUMN_GROUPS) if cell[0] in letters)
        chosen = await fake.select(user, message, f"dvonn:cells:{game}:{ply}:{group}", [cell])
    else:
        assert isinstance(move, rules.Jump)
        source, target = rules.CELL_NAMES[move.source], rules.CELL_NAMES[move.target]
        await fake.select(user, message, f"dvonn:from:{game}:{ply}", [source])
        chosen = await fake.select(user, message, f"dvonn:to:{game}:{ply}:{source}", [target])
    assert chosen.message is not None
    return chosen.message


async def tap_move(
    table: Table, user: FakeUser, place: FakeChannel, post: RecordedMessage, move: rules.Move
) -> tuple[InteractionResult, RecordedMessage]:
    """Play ``move`` by tapping; the confirm's result and the next board post."""
    fake = table.fake
    picker = await open_picker(table, user, post)
    message = await choose(table, user, picker, turn_button(post), move)
    played = await fake.click(user, message, label=f"Play {move}")
    # A deferred update: the picker's message becomes the answer once the move is posted.
    await fake.wait_until(lambda: "You played" in played.content, timeout=10, what="the answer")
    board = await fake.wait_for_message(
        place, lambda m: m.embed_image() is not None and not m.ephemeral, after=post
    )
    return played, board


async def start(table: Table) -> tuple[FakeChannel, RecordedMessage]:
    challenge = await table.fake.run_command(
        table.alice, table.games, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
    )
    assert challenge.message is not None
    place = await accept(table, challenge.message, table.bob)
    return place, table.fake.messages_in(place)[-1]


@pytest.mark.slow
async def test_a_whole_game_only_by_tapping(table: Table, bot: DvonnBot) -> None:
    place, post = await start(table)
    players = {rules.Colour.WHITE: table.alice, rules.Colour.BLACK: table.bob}
    rng = random.Random(19)
    pos = rules.new_game()
    while not rules.is_over(pos):
        move = rng.choice([m for m in rules.legal_moves(pos) if m != rules.PASS])
        played, post = await tap_move(table, players[pos.turn], place, post, move)
        assert f"/{post.id}" in played.content  # the picker's answer links to the board
        pos = rules.play(pos, move)
        while rules.legal_moves(pos) == (rules.PASS,):  # the bot records passes by itself
            pos = rules.play(pos, rules.PASS)
        if rules.is_over(pos):
            assert not [b for b in post.buttons() if b.get("label") == "Your move"]
        else:
            assert turn_button(post)[1] == pos.ply
            assert post.pinged_user_ids == {players[pos.turn].id}
    running = await bot.service.game_in_channel(place.id)
    assert running is None
    assert "is over" in post.content


async def test_the_picker_offers_only_legal_choices_and_says_what_a_move_cuts_off(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    _place, post = await start(table)
    picker = await open_picker(table, table.alice, post)
    assert picker.message is not None
    menus = [c for c in picker.message.iter_components() if c.get("type") == 3]
    offered = [option["value"] for menu in menus for option in menu["options"]]
    assert sorted(offered) == sorted(rules.CELL_NAMES)  # every cell is empty at the start
    assert all(len(menu["options"]) <= 25 for menu in menus)
    game, _ply = turn_button(post)
    message = await choose(table, table.alice, picker, turn_button(post), rules.Place(rules.E3))
    assert "E3" in message.content
    # Not taken yet: the game waits for the confirm.
    assert (await bot.service.get_game(game)).position.ply == 0
    await fake.click(table.alice, message, label="Choose again")
    assert "Where do you place" in message.content


async def test_only_the_player_to_move_gets_a_picker(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    _place, post = await start(table)
    not_yours = await fake.click(table.bob, post, label="Your move")
    assert not_yours.ephemeral and "not your turn" in not_yours.content
    stranger = await fake.click(table.carol, post, label="Your move")
    assert stranger.ephemeral and "not your game" in stranger.content


async def test_a_picker_left_open_goes_stale_when_the_game_moves_on(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    place, post = await start(table)
    game, _ply = turn_button(post)
    picker = await open_picker(table, table.alice, post)
    message = await choose(table, table.alice, picker, turn_button(post), rules.Place(rules.E3))
    await send_move(fake, table.alice, place, rules.Place(rules.F3))  # typed meanwhile
    stale = await fake.click(table.alice, message, label="Play E3")
    assert stale.ephemeral and "moved on" in stale.content
    record = await bot.service.record(game)
    assert [str(m.move) for m in record.moves] == ["F3"]


async def test_the_buttons_and_menus_work_after_a_restart(bot_runner: BotRunner) -> None:
    table = bot_runner.table
    async with bot_runner.run():
        _place, post = await start(table)
        picker = await open_picker(table, table.alice, post)
    async with bot_runner.run(sync=False):
        message = await choose(table, table.alice, picker, turn_button(post), rules.Place(rules.C3))
        played = await table.fake.click(table.alice, message, label="Play C3")
        await table.fake.wait_until(
            lambda: "You played C3" in played.content, timeout=10, what="the answer"
        )
