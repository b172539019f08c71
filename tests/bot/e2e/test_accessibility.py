"""For blind and low-vision players (issue 27), through the fake Discord: every kind of image
the bot sends carries its alt text (the attachment's description, which Discord gives screen
readers), in the reader's language, and the text board, by command and from the picker.

Each board's alt text is checked against the position the game is in, worked out apart from
the bot (``bot.posting.descriptions`` over the moves played)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import rules
from bot.app import DvonnBot
from bot.i18n import COLOUR_NAMES, ENGLISH, Catalogues, Text, _, n_, p_
from bot.posting.descriptions import (
    MAX_ALT_TEXT,
    board_alt_text,
    board_summary,
    cells_picture,
)
from bot.posting.texts import LastTurn, Players
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import play_turn, said, said_pattern, send_move
from tests.bot.e2e.test_game import accept, start_game
from tests.bot.e2e.test_review import QUICK, finished_game, oracle_game
from tests.bot.e2e.test_tapping import open_picker
from tests.fakediscord import FakeChannel, RecordedMessage, UserAttachment
from tests.fakediscord.messages import RecordedFile

PLAYERS = Players("alice", "bob")
WHITE, BLACK = p_("colour", "White"), p_("colour", "Black")
ALICE = _("{player} ({colour})", player="alice", colour=WHITE)
BOB = _("{player} ({colour})", player="bob", colour=BLACK)
TO_PLACE_DVONN = _("Board at move {number}, placement: {side} to place a DVONN piece.")
TO_PLACE = _("Board at move {number}, placement: {side} to place a piece.")
TO_MOVE = _("Board at move {number}, movement: {side} to move.")
SCORE = _("Score: White {white_score}, Black {black_score}.")
ROW = _("Row {row}: {cells}.")
TITLE = _("DVONN #{game}: {white} (White) vs {black} (Black)")
MOVED = _("Last move: {colour} moved {source} to {target}.")


def colour_of(colour: rules.Colour) -> Text:
    return WHITE if colour is rules.Colour.WHITE else BLACK


def cut_off(count: int) -> Text:
    return n_(
        "Cut off and removed: {count} piece, from {cells}.",
        "Cut off and removed: {count} pieces, from {cells}.",
        count,
    )


def says_a_cut(words: str) -> bool:
    """Whether ``words`` say some pieces were cut off (of fewer than fifty)."""
    return any(said_pattern(cut_off(count)).search(words) for count in range(1, 50))


def described(attached: RecordedFile | None) -> str:
    """An image's alt text (fails if there is no image, or it has none)."""
    assert attached is not None, "no image"
    assert attached.description, f"{attached.filename} has no alt text"
    assert len(attached.description) <= MAX_ALT_TEXT
    return attached.description


def board_words(message: RecordedMessage | None) -> str:
    assert message is not None
    return described(message.embed_image())


def expected(moves: list[rules.Move]) -> str:
    """The alt text of the board after ``moves``, as its turn's post shows it."""
    position = rules.replay(moves)[-1]
    summary = board_summary(position, PLAYERS, last_turn=LastTurn.of(moves))
    return board_alt_text(position, ENGLISH.render, summary=summary)


async def test_every_board_of_a_game_says_its_position_in_words(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    thread = await start_game(table)
    first = fake.messages_in(thread)[-1]
    assert board_words(first).splitlines() == [
        said(TO_PLACE_DVONN, number=1, side=ALICE),
        said(SCORE, white_score=0, black_score=0),
        said(_("The board is empty.")),
    ]
    users = {rules.Colour.WHITE: table.alice, rules.Colour.BLACK: table.bob}
    moves: list[rules.Move] = []
    for text in ("E3", "C1", "G5", "A1"):  # placements, each answered with its board
        move = rules.parse_move(text)
        turn = await play_turn(fake, users[rules.replay(moves)[-1].turn], thread, move)
        moves.append(move)
        assert board_words(turn.post) == expected(moves)
    placed = _("Last move: {colour} placed a piece on {cell}.")
    assert said(placed, colour=BLACK, cell="A1") in board_words(turn.post)
    row_1 = [said(_("{cell} black"), cell="A1"), said(_("{cell} DVONN"), cell="C1")]
    assert said(ROW, row=1, cells=", ".join(row_1)) in board_words(turn.post)
    # /dvonn board: the same position and last move, as the turn's post; spectators may look.
    shown = await fake.run_command(table.carol, thread, "dvonn board")
    assert board_words(shown.message) == board_words(turn.post) == expected(moves)
    # The end, by resignation: the rules still see a game going on, the words do not.
    resigned = await fake.run_command(table.alice, thread, "dvonn resign")
    assert resigned.message is not None
    await fake.click(table.alice, resigned.message, label=said(_("Resign game #{game}"), game=1))
    resigns = said(_("{loser} resigned: {winner} wins."), loser="alice", winner="bob")
    post = await fake.wait_for_message(thread, lambda m: resigns in str(m.embeds))
    assert board_words(post).splitlines()[:2] == [said(_("Final board.")), resigns]


async def test_the_moves_boards_say_what_was_cut_off(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    challenge = await fake.run_command(
        table.alice,
        table.games,
        "dvonn challenge",
        {"opponent": table.bob, "colour": "W", "setup": "random"},
    )
    assert challenge.message is not None
    thread = await accept(table, challenge.message, table.bob)
    game = await bot.service.game_in_channel(thread.id)
    assert game is not None
    moves = [m.move for m in (await bot.service.record(game.id)).moves]
    position = rules.replay(moves)[-1]
    first = board_words(fake.messages_in(thread)[-1])
    assert first == board_alt_text(
        position, ENGLISH.render, summary=board_summary(position, PLAYERS)
    )
    assert first.startswith(said(TO_MOVE, number=50, side=ALICE))
    users = {rules.Colour.WHITE: table.alice, rules.Colour.BLACK: table.bob}
    cut = False
    while not cut:  # moves by command, each answered with its board, until one cuts off
        legal = [m for m in rules.legal_moves(position) if m != rules.PASS]
        cutting = [m for m in legal if rules.apply(position, m).removed]
        move = (cutting or legal)[0]
        mover, removed = position.turn, rules.apply(position, move).removed
        turn = await play_turn(fake, users[position.turn], thread, move)
        moves.append(move)
        words = board_words(turn.post)
        assert words == expected(moves), words
        assert isinstance(move, rules.Jump)
        source, target = rules.CELL_NAMES[move.source], rules.CELL_NAMES[move.target]
        assert said(MOVED, colour=colour_of(mover), source=source, target=target) in words
        cut = bool(cutting)
        assert says_a_cut(words) == cut
        if cut:
            cells = ", ".join(rules.CELL_NAMES[cell] for cell in sorted(removed))
            pieces = sum(map(len, removed.values()))
            assert said(cut_off(pieces), cells=cells) in words
        position = rules.replay(moves)[-1]
        assert rules.legal_moves(position) != (rules.PASS,), "a pass: choose another game"


def cut_then_pass(position: rules.Position, tries: int = 300) -> list[rules.Move]:
    """The shortest line of moves found from ``position`` (random playouts) whose last cuts
    pieces off and leaves the other player no move: they pass. Without the passes, which the
    bot records by itself."""
    best: list[rules.Move] | None = None
    for attempt in range(tries):
        rng, pos, line = random.Random(attempt), position, list[rules.Move]()
        while not rules.is_over(pos) and (best is None or len(line) < len(best) - 1):
            if rules.legal_moves(pos) == (rules.PASS,):
                pos = rules.play(pos, rules.PASS)
                continue
            move = rng.choice(rules.legal_moves(pos))
            result = rules.apply(pos, move)
            line.append(move)
            if result.removed and rules.legal_moves(result.after) == (rules.PASS,):
                best = line
                break
            pos = result.after
    assert best is not None, "no move that cuts off and forces a pass"
    return best


async def test_after_a_forced_pass_the_words_name_the_move_that_cut_off(
    table: Table, bot: DvonnBot
) -> None:
    """The turn's post, ``/dvonn board`` and the text board all tell the turn as its embed
    does: the move, what it cut off, then the other player's pass."""
    fake = table.fake
    challenge = await fake.run_command(
        table.alice,
        table.games,
        "dvonn challenge",
        {"opponent": table.bob, "colour": "W", "setup": "random"},
    )
    assert challenge.message is not None
    thread = await accept(table, challenge.message, table.bob)
    game = await bot.service.game_in_channel(thread.id)
    assert game is not None
    moves = [m.move for m in (await bot.service.record(game.id)).moves]
    position = rules.replay(moves)[-1]
    users = {rules.Colour.WHITE: table.alice, rules.Colour.BLACK: table.bob}
    for move in cut_then_pass(position):
        mover, before = position.turn, position
        turn = await play_turn(fake, users[mover], thread, move)
        assert turn.post is not None, turn.reply.content
        moves.append(move)
        position = rules.play(position, move)
        while rules.legal_moves(position) == (rules.PASS,):
            moves.append(rules.PASS)
            position = rules.play(position, rules.PASS)
    assert moves[-1] == rules.PASS and isinstance(move, rules.Jump)
    cut = rules.apply(before, move).removed
    pieces = sum(map(len, cut.values()))
    told = [
        said(
            MOVED,
            colour=colour_of(mover),
            source=rules.CELL_NAMES[move.source],
            target=rules.CELL_NAMES[move.target],
        ),
        said(cut_off(pieces), cells=", ".join(rules.CELL_NAMES[cell] for cell in sorted(cut))),
        said(_("Then {colour} had no legal move and passed."), colour=colour_of(mover.opponent)),
    ]
    assert turn.post is not None
    words = board_words(turn.post)
    assert words.splitlines()[1:4] == told, words
    assert words == expected(moves)
    passes = said_pattern(_("{player} has no legal move and passes."))
    assert passes.search(str(turn.post.embeds))  # as the embed tells it
    shown = await fake.run_command(table.carol, thread, "dvonn board")
    assert board_words(shown.message) == words
    text = await fake.run_command(table.carol, thread, "dvonn board", {"text": True})
    assert text.content.splitlines()[2:5] == told, text.content


async def test_a_servers_boards_are_described_in_its_language(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    table.guild.locale = "fr"
    challenge = await fake.run_command(
        table.alice, table.games, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
    )
    assert challenge.message is not None
    await fake.click(table.bob, challenge.message, custom_id="dvonn:challenge:1:accept")
    await fake.wait_until(lambda: fake.threads_in(table.games), what="the game's thread")
    (thread,) = fake.threads_in(table.games)
    first = await fake.wait_for_message(thread, lambda m: m.embed_image() is not None)
    words = board_words(first)
    white = Catalogues().render(COLOUR_NAMES[rules.Colour.WHITE], "fr")
    assert white == "Blanc" and said(ALICE, locale="fr") in words, words


@pytest.fixture
def global_runner(bot_runner: BotRunner) -> BotRunner:
    """Bots whose commands are everyone's, for DMs."""
    bot_runner.settings = dataclasses.replace(bot_runner.settings, dev_guild=None)
    return bot_runner


@pytest.fixture
async def global_bot(global_runner: BotRunner) -> AsyncIterator[DvonnBot]:
    async with global_runner.run() as started:
        yield started


async def dm_game(table: Table) -> tuple[FakeChannel, RecordedMessage]:
    """Alice (White) and Bob, who added the app, play in their DM; its first board."""
    fake = table.fake
    for user in (table.alice, table.bob):
        fake.install_app(user)
    place = fake.add_private_channel(table.alice, table.bob)
    challenge = await fake.run_command(
        table.alice, place, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
    )
    assert challenge.message is not None, challenge.content
    await fake.click(table.bob, challenge.message, label=said(_("Accept")))
    first = await fake.wait_for_message(
        place, lambda m: m.embed_image() is not None, after=challenge.message
    )
    return place, first


async def test_boards_answered_in_a_dm_say_their_position_too(
    table: Table, global_bot: DvonnBot
) -> None:
    place, first = await dm_game(table)
    assert board_words(first).startswith(said(TO_PLACE_DVONN, number=1, side=ALICE))
    await send_move(table.fake, table.alice, place, rules.parse_move("E3"))
    board = await table.fake.wait_for_message(
        place, lambda m: m.embed_image() is not None and not m.ephemeral, after=first
    )
    assert board_words(board) == expected([rules.parse_move("E3")])


async def test_replay_import_and_help_pictures_say_what_they_show(
    table: Table, bot: DvonnBot, shared_dir: Path
) -> None:
    fake = table.fake
    thread = await start_game(table)
    for user, cell in ((table.alice, "E3"), (table.bob, "C1"), (table.alice, "G5")):
        await play_turn(fake, user, thread, rules.parse_move(cell))
    replay = await fake.run_command(table.carol, thread, "dvonn replay")
    (gif,) = replay.files
    animated = n_(
        "Animated replay of game #{game}, {white} (White) against {black} (Black): one frame, "
        "for its only action.",
        "Animated replay of game #{game}, {white} (White) against {black} (Black): one frame for "
        "each of its {count} actions.",
        3,
    )
    assert described(gif).splitlines() == [
        said(animated, game=1, white="alice", black="bob"),
        said(_("{player} ({colour}) is to play."), player="bob", colour=BLACK),
        said(_("The record: {record}"), record="E3 C1 G5"),
    ]
    # An analysis board of a transcript: its names, its last move, what it cut off.
    moves = oracle_game(shared_dir)
    transcript = rules.format_little_golem(moves, headers={"White": "ann", "Black": "ben"})
    imported = await fake.run_command(
        table.carol,
        table.games,
        "dvonn import",
        {"transcript": UserAttachment("game.txt", transcript.encode()), "ply": 60},
    )
    (board,) = imported.files
    positions = rules.replay(moves[:60])
    summary = board_summary(
        positions[-1],
        Players("ann", "ben"),
        last_move=moves[59],
        removed=rules.apply(positions[-2], moves[59]).removed,
    )
    assert described(board) == board_alt_text(
        positions[-1], ENGLISH.render, summary=(_("Analysis board (not a game)."), *summary)
    )
    # The cells' picture of the rules and the help.
    for command in ("dvonn rules", "dvonn help"):
        reply = await fake.run_command(table.carol, table.games, command)
        assert reply.message is not None
        assert described(reply.message.embed_image()) == ENGLISH.render(cells_picture())


async def test_a_reviews_graph_and_mistake_boards_say_what_they_show(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK) as bot:
        # To its end: the review lists only mistakes it proves, in the endgame.
        thread = await finished_game(table, bot, plies=None)
        reply = await fake.run_command(table.alice, thread, "dvonn review", timeout=60)
        (graph,) = reply.files
        words = described(graph).splitlines()
        graph_of = _(
            "Graph of the lead in pieces after each move, as the engine sees it: White's lead "
            "above the middle line, Black's below it."
        )
        assert words[0] == said(graph_of)
        # Who led when, as the review itself says it.
        leads = [line for line in words if led(line)]
        assert leads
        assert all(line in reply.content for line in leads if line != said(LEVEL))
        swings = said_pattern(_("Biggest swings: {swings}."))
        assert any(swings.fullmatch(line) for line in words), words
        buttons = reply.message.buttons() if reply.message else []
        marks = n_(
            "The numbered mark is the mistake listed in the message.",
            "The {count} numbered marks are the mistakes listed in the message.",
            len(buttons),
        )
        assert buttons and words[-1] == said(marks)
        assert reply.message is not None
        shown = await fake.click(table.carol, reply.message, custom_id=buttons[0]["custom_id"])
        (board,) = shown.files
        lines = described(board).splitlines()
        assert lines[0] == shown.content.split(" Cost:")[0]  # the move, the better one
        shown_move = _(
            "Move {number}: {player} played {move}; the engine prefers {best} (the arrow)."
        )
        assert said_pattern(shown_move).fullmatch(lines[0])
        turns = (TO_PLACE_DVONN, TO_PLACE, TO_MOVE)
        assert any(said_pattern(turn).fullmatch(lines[1]) for turn in turns), lines
        rows = (said_pattern(ROW, row=3), said_pattern(_("Row {row}: empty."), row=3))
        assert any(row.fullmatch(line) for row in rows for line in lines), lines


# --- the text board -----------------------------------------------------------------------------


LEVEL = _("After the placement the game was level.")


def led(line: str) -> bool:
    """Whether ``line`` says who led a reviewed game when (of leads under fifty pieces)."""
    patterns = [
        said_pattern(_("{player} was ahead from the end of the placement to the end.")),
        said_pattern(_("{player} was ahead for good from move {number}.")),
    ]
    for count in range(1, 50):
        patterns.append(
            said_pattern(
                n_(
                    "After the placement {player} was ahead by about {count} piece.",
                    "After the placement {player} was ahead by about {count} pieces.",
                    count,
                )
            )
        )
        patterns.append(
            said_pattern(
                n_(
                    "{player} was ahead by up to {count} piece (move {number}).",
                    "{player} was ahead by up to {count} pieces (move {number}).",
                    count,
                )
            )
        )
    return line == said(LEVEL) or any(p.fullmatch(line) for p in patterns)


def text_board_rows(content: str) -> list[str]:
    rows = (said_pattern(ROW), said_pattern(_("Row {row}: empty.")))
    return [line for line in content.splitlines() if any(r.fullmatch(line) for r in rows)]


def cells_in_order(rows: list[str]) -> list[str]:
    words = [word.rstrip(",.") for row in rows for word in row.split()]
    return [word for word in words if word in rules.CELL_NAMES]


async def test_the_text_board_by_command_privately_cell_by_cell(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    thread = await start_game(table)
    for user, cell in ((table.alice, "E3"), (table.bob, "C1"), (table.alice, "G5")):
        await play_turn(fake, user, thread, rules.parse_move(cell))
    for user in (table.alice, table.carol):  # a player, or anyone looking on
        reply = await fake.run_command(user, thread, "dvonn board", {"text": True})
        assert reply.ephemeral and not reply.files
        lines = reply.content.splitlines()
        assert lines[:4] == [
            said(TITLE, game=1, white="alice", black="bob"),
            said(TO_PLACE, number=4, side=BOB),
            said(_("Last move: {colour} placed a DVONN piece on {cell}."), colour=WHITE, cell="G5"),
            said(SCORE, white_score=0, black_score=0),
        ]
        rows = text_board_rows(reply.content)
        assert cells_in_order(rows) == list(rules.CELL_NAMES)
        row_1 = [
            said(_("{cell} DVONN"), cell=cell)
            if cell == "C1"
            else said(_("{cell} empty"), cell=cell)
            for cell in ("A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "I1")
        ]
        assert rows[0] == said(ROW, row=1, cells=", ".join(row_1))
    # By number, from elsewhere; and what cannot be.
    elsewhere = await fake.run_command(
        table.carol, table.games, "dvonn board", {"text": True, "game": 1}
    )
    title = said(TITLE, game=1, white="alice", black="bob")
    assert elsewhere.ephemeral and elsewhere.content.startswith(title)
    both = await fake.run_command(
        table.alice, thread, "dvonn board", {"text": True, "theme": "light"}
    )
    not_both = _(
        "A text board has no colours: ask /dvonn board for the text, or for a theme, not both."
    )
    assert both.ephemeral and said(not_both, mentions=bot.mentions) in both.content
    nowhere = await fake.run_command(table.carol, table.games, "dvonn board", {"text": True})
    assert nowhere.ephemeral and not nowhere.files
    assert not said_pattern(TITLE).search(nowhere.content)
    missing = await fake.run_command(
        table.carol, table.games, "dvonn board", {"text": True, "game": 99}
    )
    assert missing.ephemeral and "99" in missing.content


async def test_the_text_board_from_the_picker(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    thread = await start_game(table)
    turn = await play_turn(fake, table.alice, thread, rules.parse_move("E3"))
    assert turn.post is not None
    # Bob, to move: his picker offers the text board beside its menus.
    picker = await open_picker(table, table.bob, turn.post)
    assert picker.message is not None
    text_board = said(_("Text board"))
    shown = await fake.click(table.bob, picker.message, label=text_board)
    assert shown.ephemeral and not shown.files
    assert said(TO_PLACE_DVONN, number=2, side=BOB) in shown.content
    assert cells_in_order(text_board_rows(shown.content)) == list(rules.CELL_NAMES)
    assert said(_("{cell} DVONN"), cell="E3") in shown.content
    # Alice, who waits: "Your move" offers to plan a reply, and the text board too.
    waiting = await fake.click(table.alice, turn.post, label=said(_("Your move")))
    assert waiting.ephemeral and waiting.message is not None
    again = await fake.click(table.alice, waiting.message, label=text_board)
    assert again.ephemeral and again.content == shown.content
