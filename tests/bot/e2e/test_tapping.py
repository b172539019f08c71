"""Moves by tapping: "Your move" under each board, a private picker, a confirm button.

A whole game is played only by tapping; only the player to move gets a picker; a picker left
open goes stale safely when the game moves on, also when a takeback and another move bring the
game back to its ply, and so does a picker opened before the pickers' ids carried the game's
version; the buttons and menus work after a restart.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass

import pytest

import rules
from bot.app import DvonnBot
from bot.i18n import _, n_
from bot.interactions.move_picker import COLUMN_GROUPS
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import play_turn, said, said_pattern, send_move
from tests.bot.e2e.test_game import accept
from tests.fakediscord import FakeChannel, FakeUser, InteractionResult, RecordedMessage

YOUR_MOVE = _("Your move")
OUT_OF_DATE = _("The game has moved on since this was opened: tap “Your move” on the newest board.")
SEE_THE_BOARD = _("You played {move}. [See the board]({link})")


def play(move: rules.Move | str) -> str:
    """The label of the picker's button that plays ``move``."""
    return said(_("Play {move}"), move=str(move))


def turn_button(post: RecordedMessage) -> tuple[int, int]:
    """The game and ply the "Your move" button under a board was made for."""
    (button,) = [b for b in post.buttons() if b.get("label") == said(YOUR_MOVE)]
    _dvonn, _turn, game, ply = str(button["custom_id"]).split(":")
    return int(game), int(ply)


async def open_picker(table: Table, user: FakeUser, post: RecordedMessage) -> InteractionResult:
    opened = await table.fake.click(user, post, label=said(YOUR_MOVE))
    assert opened.ephemeral, opened.content
    return opened


def picker_menu(
    message: RecordedMessage, kind: str, at: tuple[int, int], group: int | None = None
) -> str:
    """The id of the picker's menu of ``kind`` on ``message``, made for ``at`` (game and ply):
    ``cells`` (of column ``group``), ``from`` (the stacks) or ``to`` (the landings)."""
    game, ply = at
    (found,) = [
        str(c["custom_id"])
        for c in message.iter_components()
        if c.get("type") == 3
        and str(c["custom_id"]).startswith(f"dvonn:{kind}:{game}:{ply}:")
        and (group is None or str(c["custom_id"]).endswith(f":{group}"))
    ]
    return found


async def choose(
    table: Table, user: FakeUser, picker: InteractionResult, at: tuple[int, int], move: rules.Move
) -> RecordedMessage:
    """Pick ``move`` in an open picker (made for ``at``: game and ply), up to its confirm
    button; the picker's message."""
    fake = table.fake
    message = picker.message
    assert message is not None
    if isinstance(move, rules.Place):
        cell = rules.CELL_NAMES[move.cell]
        group = next(i for i, letters in enumerate(COLUMN_GROUPS) if cell[0] in letters)
        chosen = await fake.select(user, message, picker_menu(message, "cells", at, group), [cell])
    else:
        assert isinstance(move, rules.Jump)
        source, target = rules.CELL_NAMES[move.source], rules.CELL_NAMES[move.target]
        await fake.select(user, message, picker_menu(message, "from", at), [source])
        chosen = await fake.select(user, message, picker_menu(message, "to", at), [target])
    assert chosen.message is not None
    return chosen.message


async def tap_move(
    table: Table, user: FakeUser, place: FakeChannel, post: RecordedMessage, move: rules.Move
) -> tuple[InteractionResult, RecordedMessage]:
    """Play ``move`` by tapping; the confirm's result and the next board post."""
    fake = table.fake
    picker = await open_picker(table, user, post)
    message = await choose(table, user, picker, turn_button(post), move)
    played = await fake.click(user, message, label=play(move))
    # A deferred update: the picker's message becomes the answer once the move is posted.
    answer = said_pattern(SEE_THE_BOARD, move=str(move))
    await fake.wait_until(
        lambda: bool(answer.search(played.content)), timeout=10, what="the answer"
    )
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
@pytest.mark.machine_speed
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
            assert not [b for b in post.buttons() if b.get("label") == said(YOUR_MOVE)]
        else:
            assert turn_button(post)[1] == pos.ply
            assert post.pinged_user_ids == {players[pos.turn].id}
    running = await bot.service.game_in_channel(place.id)
    assert running is None
    assert said_pattern(_("{players}: the game is over.")).search(post.content)


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
    assert said(_("Place your piece on {cell}?"), cell="E3") in message.content
    # Not taken yet: the game waits for the confirm.
    assert (await bot.service.get_game(game)).position.ply == 0
    await fake.click(table.alice, message, label=said(_("Choose again")))
    assert said(_("Where do you place your piece?")) in message.content


async def test_only_the_player_to_move_gets_a_picker(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    _place, post = await start(table)
    not_yours = await fake.click(table.bob, post, label=said(YOUR_MOVE))
    not_your_turn = _(
        "It is not your turn: your opponent is to move. You may plan your reply to the move you "
        "expect; it is played for you as soon as they play it, and only you see it."
    )
    assert not_yours.ephemeral and said(not_your_turn) in not_yours.content
    stranger = await fake.click(table.carol, post, label=said(YOUR_MOVE))
    not_your_game = _("This is not your game: only its two players can move in it.")
    assert stranger.ephemeral and said(not_your_game) in stranger.content


async def test_a_picker_left_open_goes_stale_when_the_game_moves_on(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    place, post = await start(table)
    game, _ply = turn_button(post)
    picker = await open_picker(table, table.alice, post)
    message = await choose(table, table.alice, picker, turn_button(post), rules.Place(rules.E3))
    await send_move(fake, table.alice, place, rules.Place(rules.F3))  # typed meanwhile
    stale = await fake.click(table.alice, message, label=play("E3"))
    assert stale.ephemeral and said(OUT_OF_DATE) in stale.content
    record = await bot.service.record(game)
    assert [str(m.move) for m in record.moves] == ["F3"]


async def test_the_buttons_and_menus_work_after_a_restart(bot_runner: BotRunner) -> None:
    table = bot_runner.table
    async with bot_runner.run():
        _place, post = await start(table)
        picker = await open_picker(table, table.alice, post)
    async with bot_runner.run(sync=False):
        message = await choose(table, table.alice, picker, turn_button(post), rules.Place(rules.C3))
        played = await table.fake.click(table.alice, message, label=play("C3"))
        answer = said_pattern(SEE_THE_BOARD, move="C3")
        await table.fake.wait_until(
            lambda: bool(answer.search(played.content)), timeout=10, what="the answer"
        )


@dataclass(frozen=True)
class Line:
    """A game's moves up to White's ``first`` move, and a ``second`` White could play instead
    (after a takeback), after either of which Black may play ``reply``."""

    before: tuple[rules.Move, ...]
    first: rules.Move
    second: rules.Move
    reply: rules.Move


PLACING = Line((), rules.Place(rules.E3), rules.Place(rules.F3), rules.Place(rules.C3))


def moving_line(seed: int = 0, plies: int = 60) -> Line:
    """Random moves into the movement phase, then a ``first`` and a ``second`` after which
    Black's ``reply`` is legal, and cuts off nothing after the first but some pieces after the
    second (as in the issue: "Move E5 to D5?" played where it cut off three)."""
    rng = random.Random(seed)
    pos, before = rules.new_game(), []
    while pos.is_placement or pos.ply < plies or pos.turn is not rules.Colour.WHITE:
        move = rng.choice(rules.legal_moves(pos))
        before.append(move)
        pos = rules.play(pos, move)
    assert not rules.is_over(pos), "another seed"
    ours = [m for m in rules.legal_moves(pos) if m != rules.PASS]
    for first, second in itertools.permutations(ours, 2):
        after_first, after_second = rules.play(pos, first), rules.play(pos, second)
        if rules.PASS in (*rules.legal_moves(after_first), *rules.legal_moves(after_second)):
            continue  # Black must pass (or the game is over)
        for reply in sorted(
            set(rules.legal_moves(after_first)) & set(rules.legal_moves(after_second)), key=str
        ):
            if not rules.apply(after_first, reply).pieces_removed and (
                rules.apply(after_second, reply).pieces_removed
            ):
                return Line(tuple(before), first, second, reply)
    raise AssertionError("another seed")


def refused_as_out_of_date(result: InteractionResult) -> bool:
    return result.ephemeral and said(OUT_OF_DATE) in result.content


@pytest.mark.parametrize("phase", ["placing", "moving"])
@pytest.mark.machine_speed
async def test_a_picker_refuses_when_a_takeback_and_another_move_bring_its_ply_back(
    table: Table, bot: DvonnBot, phase: str
) -> None:
    fake = table.fake
    line = PLACING if phase == "placing" else moving_line()
    place, _post = await start(table)
    players = {rules.Colour.WHITE: table.alice, rules.Colour.BLACK: table.bob}
    pos = rules.new_game()
    for move in line.before:
        if rules.legal_moves(pos) != (rules.PASS,):  # the bot records passes by itself
            turn = await play_turn(fake, players[pos.turn], place, move, typed=True)
            assert turn.post is not None, turn.reply.content
        pos = rules.play(pos, move)
    first = await play_turn(fake, table.alice, place, line.first, typed=True)
    assert first.post is not None, first.reply.content
    shown = turn_button(first.post)  # the game, and the ply that comes round again
    game_id, ply = shown

    # Bob opens pickers of the position after Alice's first move, and leaves them open: one at
    # its first menu, one at the landings (when moving), one at "Play".
    menus = await open_picker(table, table.bob, first.post)
    assert menus.message is not None
    landings = None
    if isinstance(line.reply, rules.Jump):
        landings = await open_picker(table, table.bob, first.post)
        assert landings.message is not None
        source = rules.CELL_NAMES[line.reply.source]
        from_menu = picker_menu(landings.message, "from", shown)
        await fake.select(table.bob, landings.message, from_menu, [source])
    confirm = await choose(
        table, table.bob, await open_picker(table, table.bob, first.post), shown, line.reply
    )
    assert confirm.button_labelled(play(line.reply)) is not None
    if isinstance(line.reply, rules.Jump):  # here it cuts off nothing
        source = rules.CELL_NAMES[line.reply.source]
        target = rules.CELL_NAMES[line.reply.target]
        question = said(_("Move {source} to {target}?"), source=source, target=target)
        assert question in confirm.content
        cuts = [
            n_(
                "Move {source} to {target}? It cuts off {count} piece.",
                "Move {source} to {target}? It cuts off {count} pieces.",
                count,
                source=source,
                target=target,
            )
            for count in range(1, 50)
        ]
        assert not [c for c in cuts if said(c) in confirm.content]
    else:
        assert isinstance(line.reply, rules.Place)
        place_it = _("Place your piece on {cell}?")
        assert said(place_it, cell=rules.CELL_NAMES[line.reply.cell]) in confirm.content

    # Alice takes her move back, Bob agrees, Alice plays another: the same ply, another position.
    asked = await fake.run_command(table.alice, place, "dvonn takeback")
    assert asked.message is not None
    await fake.click(table.bob, asked.message, label=said(_("Accept the takeback")))
    accepted = said(_("Takeback accepted: {moves} undone."), moves=str(line.first))
    await fake.wait_for_message(place, lambda m: accepted in str(m.embeds))
    second = await play_turn(fake, table.alice, place, line.second, typed=True)
    assert second.post is not None, second.reply.content
    game = await bot.service.get_game(game_id)
    assert game.position.ply == ply and game.to_move_id == table.bob.id
    moves = [str(m.move) for m in (await bot.service.record(game_id)).moves]

    # Every step of the old pickers refuses, privately; the game is as it was.
    assert menus.message is not None
    if isinstance(line.reply, rules.Place):
        cell = rules.CELL_NAMES[line.reply.cell]
        group = next(i for i, letters in enumerate(COLUMN_GROUPS) if cell[0] in letters)
        menu = picker_menu(menus.message, "cells", shown, group)
        taps = [await fake.select(table.bob, menus.message, menu, [cell])]
    else:
        assert isinstance(line.reply, rules.Jump) and landings is not None
        assert landings.message is not None
        source, target = rules.CELL_NAMES[line.reply.source], rules.CELL_NAMES[line.reply.target]
        taps = [
            await fake.select(
                table.bob, menus.message, picker_menu(menus.message, "from", shown), [source]
            ),
            await fake.select(
                table.bob, landings.message, picker_menu(landings.message, "to", shown), [target]
            ),
        ]
    taps.append(await fake.click(table.bob, confirm, label=play(line.reply)))
    for tap in taps:
        assert refused_as_out_of_date(tap), tap.content
        assert tap.message is not None and not tap.message.components  # a new answer
    after = await bot.service.get_game(game_id)
    assert after.version == game.version and after.position == game.position
    assert [str(m.move) for m in (await bot.service.record(game_id)).moves] == moves
    # A picker opened now shows the position as it is, and plays.
    played, _board = await tap_move(table, table.bob, place, second.post, line.reply)
    assert said_pattern(SEE_THE_BOARD, move=str(line.reply)).search(played.content)


async def test_a_picker_opened_before_its_ids_carried_the_version_refuses_politely(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    place, post = await start(table)
    game_id, _ply = turn_button(post)
    menus = await open_picker(table, table.alice, post)
    assert menus.message is not None
    picker = await open_picker(table, table.alice, post)
    confirm = await choose(table, table.alice, picker, (game_id, 0), rules.Place(rules.E3))
    # As Discord still shows a picker the bot's previous version opened: game and ply only.
    for message in (menus.message, confirm):
        for component in message.iter_components():
            if "custom_id" in component:
                component["custom_id"] = re.sub(
                    r"^(dvonn:(?:cells|from|to|confirm):\d+:\d+):\d+", r"\1", component["custom_id"]
                )
    assert confirm.component(f"dvonn:confirm:{game_id}:0:E3") is not None
    group = next(i for i, letters in enumerate(COLUMN_GROUPS) if "E" in letters)
    taps = [
        await fake.select(table.alice, menus.message, f"dvonn:cells:{game_id}:0:{group}", ["E3"]),
        await fake.click(table.alice, confirm, label=play("E3")),
    ]
    for tap in taps:
        assert refused_as_out_of_date(tap), tap.content
    assert (await bot.service.get_game(game_id)).position.ply == 0
    # The button under the board kept its id, and opens a picker that plays.
    assert post.component(f"dvonn:turn:{game_id}:0") is not None
    played, _board = await tap_move(table, table.alice, place, post, rules.Place(rules.E3))
    assert said_pattern(SEE_THE_BOARD, move="E3").search(played.content)
