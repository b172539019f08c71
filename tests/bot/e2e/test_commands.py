"""Every other command and button, and autocomplete, through the fake Discord."""

from __future__ import annotations

import dataclasses
import io
import random
import time

import pytest
from PIL import Image

import rules
from bot.app import DvonnBot
from bot.i18n import _, n_
from tests.bot.e2e.conftest import Table
from tests.bot.e2e.helpers import board_image, play_turn, said, said_pattern
from tests.bot.e2e.test_game import accept, start_game
from tests.fakediscord import FakeChannel


async def play_random(
    table: Table, thread: FakeChannel, plies: int, seed: int = 1
) -> rules.Position:
    """Play ``plies`` random moves (Alice White, Bob Black); returns the position."""
    users = {rules.Colour.WHITE: table.alice, rules.Colour.BLACK: table.bob}
    rng = random.Random(seed)
    pos = rules.new_game()
    for _ply in range(plies):
        move = rng.choice(rules.legal_moves(pos))
        turn = await play_turn(table.fake, users[pos.turn], thread, move)
        assert turn.post is not None, turn.reply.content
        pos = rules.play(pos, move)
        while rules.legal_moves(pos) == (rules.PASS,):
            pos = rules.play(pos, rules.PASS)
    return pos


# --- challenges ----------------------------------------------------------------------------------


async def test_an_open_challenge_is_accepted_by_anyone_but_the_challenger(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    challenge = await fake.run_command(table.alice, table.games, "dvonn challenge")
    assert challenge.message is not None and challenge.message.pinged_user_ids == frozenset()
    looking = _(
        "{player} is looking for a DVONN opponent ({clock}, {colour}): anyone here may accept."
    )
    assert said_pattern(looking, player="alice").search(challenge.content)
    labels = {b.get("label") for b in challenge.message.buttons()}
    assert labels == {said(_("Accept")), said(_("Cancel"))}
    own = await fake.click(table.alice, challenge.message, label=said(_("Accept")))
    own_challenge = _(
        "This is your own challenge: wait for someone to accept it, or cancel it if you changed "
        "your mind."
    )
    assert own.ephemeral and said(own_challenge) in own.content
    thread = await accept(table, challenge.message, table.carol)
    game = await bot.service.game_in_channel(thread.id)
    assert game is not None and {game.white_id, game.black_id} == {table.alice.id, table.carol.id}


async def test_a_challenge_to_someone_else_cannot_be_taken(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    challenge = await fake.run_command(
        table.alice, table.games, "dvonn challenge", {"opponent": table.bob}
    )
    assert challenge.message is not None
    stranger = await fake.click(table.carol, challenge.message, label=said(_("Accept")))
    not_for_you = _("This challenge was made to another player, not to you.")
    assert stranger.ephemeral and said(not_for_you) in stranger.content
    assert fake.threads_in(table.games) == []  # no thread made for nothing
    declined = await fake.click(table.bob, challenge.message, label=said(_("Decline")))
    assert said(_("{player} declined the challenge."), player="bob") in declined.content
    assert challenge.message.buttons() == []


async def test_the_challenger_cancels(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    challenge = await fake.run_command(
        table.alice, table.games, "dvonn challenge", {"opponent": table.bob, "clock": "days:3"}
    )
    three_days = n_("{count} day per move", "{count} days per move", 3)
    challenges = _("{opponent}, {player} challenges you to a game of DVONN ({clock}, {colour}).")
    assert challenge.message is not None
    assert said_pattern(
        challenges, opponent=table.bob.mention, player="alice", clock=three_days
    ).search(challenge.content)
    not_yours = await fake.click(table.bob, challenge.message, label=said(_("Cancel")))
    assert not_yours.ephemeral
    cancelled = await fake.click(table.alice, challenge.message, label=said(_("Cancel")))
    assert said(_("{player} cancelled the challenge."), player="alice") in cancelled.content
    assert challenge.message.buttons() == []


async def test_challenging_yourself_or_a_bot_is_refused(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    me = await fake.run_command(
        table.alice, table.games, "dvonn challenge", {"opponent": table.alice}
    )
    yourself = _(
        "You cannot challenge yourself: name another player, or leave the opponent out to "
        "challenge anyone here."
    )
    assert me.ephemeral and said(yourself) in me.content
    # Another bot cannot play (challenging this bot itself starts a game against it).
    other_bot = dataclasses.replace(fake.add_user("otherbot", table.guild), bot=True)
    robot = await fake.run_command(
        table.alice, table.games, "dvonn challenge", {"opponent": other_bot}
    )
    assert robot.ephemeral
    assert said(_("Bots cannot accept challenges: challenge a person.")) in robot.content


# --- autocomplete --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.machine_speed
async def test_autocomplete_offers_only_legal_choices_quickly(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    thread = await start_game(table)
    started = time.perf_counter()
    cells = await fake.autocomplete(table.alice, thread, "dvonn place", focused="cell")
    assert len(cells) == 25  # 49 empty cells, Discord's limit
    assert time.perf_counter() - started < 1.0
    assert [c.value for c in cells] == list(rules.CELL_NAMES[:25])
    typed = await fake.autocomplete(
        table.alice, thread, "dvonn place", {"cell": "e"}, focused="cell"
    )
    assert [c.value for c in typed] == ["E1", "E2", "E3", "E4", "E5"]
    not_yet = await fake.autocomplete(table.bob, thread, "dvonn place", focused="cell")
    assert not_yet == []  # not Bob's turn
    pos = await play_random(table, thread, 49)
    mover = table.alice if pos.turn is rules.Colour.WHITE else table.bob
    sources = await fake.autocomplete(mover, thread, "dvonn move", focused="from")
    assert [c.value for c in sources] == [rules.CELL_NAMES[c] for c in rules.movable_cells(pos)][
        :25
    ]
    assert all(c.name.startswith(str(c.value)) for c in sources)
    source = str(sources[0].value)
    targets = await fake.autocomplete(mover, thread, "dvonn move", {"from": source}, focused="to")
    cell = rules.lookup_cell(source)
    assert cell is not None
    assert [c.value for c in targets] == [
        rules.CELL_NAMES[t] for t in rules.destinations(pos, cell)
    ]
    typed_moves = await fake.autocomplete(
        mover, thread, "dvonn play", {"move": source}, focused="move"
    )
    assert {c.value for c in typed_moves} == {
        str(m) for m in rules.legal_moves(pos) if str(m).startswith(source)
    }


@pytest.mark.slow
@pytest.mark.machine_speed
async def test_autocomplete_says_how_many_pieces_a_move_cuts_off(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    thread = await start_game(table)
    seed, plies, source, target, cut = _first_cutting_choice()
    pos = await play_random(table, thread, plies, seed=seed)
    mover = table.alice if pos.turn is rules.Colour.WHITE else table.bob
    choices = await fake.autocomplete(
        mover, thread, "dvonn move", {"from": rules.CELL_NAMES[source]}, focused="to"
    )
    label = next(c.name for c in choices if c.value == rules.CELL_NAMES[target])
    cuts = n_("{cell}: cuts off {count} piece", "{cell}: cuts off {count} pieces", cut)
    assert label == said(cuts, cell=rules.CELL_NAMES[target])


def _first_cutting_choice() -> tuple[int, int, int, int, int]:
    """(seed, plies, source, target, pieces cut) for the first random-game position where the
    mover has a move that cuts pieces off: the same RNG sequence as :func:`play_random`."""
    for seed in range(1, 50):
        rng = random.Random(seed)
        pos = rules.new_game()
        for plies in range(200):
            if rules.is_over(pos):
                break
            if not pos.is_placement:
                for source in rules.movable_cells(pos):
                    for target in rules.destinations(pos, source):
                        cut = rules.apply(pos, rules.jump(source, target)).pieces_removed
                        if cut:
                            return seed, plies, source, target, cut
            pos = rules.play(pos, rng.choice(rules.legal_moves(pos)))
            while rules.legal_moves(pos) == (rules.PASS,):
                pos = rules.play(pos, rules.PASS)
    raise AssertionError("no cutting move in 49 random games")


# --- the game as a whole -------------------------------------------------------------------------


@pytest.mark.machine_speed
async def test_board_games_and_history(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    thread = await start_game(table)
    await play_random(table, thread, 4)
    board = await fake.run_command(table.carol, thread, "dvonn board")  # spectators may look
    assert not board.ephemeral and board_image(board.message).width > 0
    assert board.message is not None and board.message.pinged_user_ids == frozenset()
    games = await fake.run_command(table.alice, table.games, "dvonn games")
    assert games.ephemeral and f"<#{thread.id}>" in games.content and "bob" in games.content
    none = await fake.run_command(table.carol, table.games, "dvonn games")
    no_games = _("You have no running games. Start one with /dvonn challenge.")
    assert said(no_games, mentions=bot.mentions) in none.content
    history = await fake.run_command(table.bob, thread, "dvonn history")
    assert history.ephemeral
    record = await bot.service.record(1)
    assert record.text in history.content
    (transcript,) = history.files
    assert transcript.filename == "dvonn-1.txt"
    parsed = rules.parse_little_golem(transcript.data.decode())
    assert [str(m) for m in parsed.moves] == record.text.split()


async def test_rules_and_help_explain_with_a_picture_of_the_cells(
    table: Table, bot: DvonnBot
) -> None:
    for command in ("dvonn rules", "dvonn help"):
        reply = await table.fake.run_command(table.carol, table.games, command)
        assert reply.ephemeral and reply.message is not None
        attached = reply.message.embed_image()
        assert attached is not None and attached.filename == "cells.png"
        picture = Image.open(io.BytesIO(attached.data))
        assert picture.height < 0.5 * picture.width  # the board alone, no game header above
    help_text = reply.embeds[0]["description"] if reply.embeds else ""
    assert "</dvonn challenge:" in help_text and "</dvonn play-bot:" in help_text


async def test_resign_asks_first_and_strangers_cannot(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    thread = await start_game(table)
    stranger = await fake.run_command(table.carol, thread, "dvonn resign")
    not_yours = _("This is not your game: only its two players can resign it.")
    assert stranger.ephemeral and said(not_yours) in stranger.content
    asked = await fake.run_command(table.alice, thread, "dvonn resign")
    really = _("Really resign game #{game}? Your opponent will win.")
    assert asked.ephemeral and said(really, game=1) in asked.content
    assert (await bot.service.get_game(1)).is_active  # nothing happens before the click
    assert asked.message is not None
    await fake.click(table.alice, asked.message, label=said(_("Resign game #{game}"), game=1))
    resigned = said(_("{loser} resigned: {winner} wins."), loser="alice", winner="bob")
    post = await fake.wait_for_message(thread, lambda m: resigned in str(m.embeds))
    assert board_image(post).width > 0
    assert post.pinged_user_ids == {table.alice.id, table.bob.id}
    # The end says what it did to the ratings (new players: provisional), and how to look back.
    ending = post.embeds[0]["description"]
    rating = _("{player}: rating {before} → {after} ({change})")
    alices = said_pattern(rating, player="alice", before="1500").search(ending)
    bobs = said_pattern(rating, player="bob", before="1500").search(ending)
    assert alices is not None and bobs is not None, ending
    assert alices["after"].endswith("?") and bobs["after"].endswith("?")
    assert alices["change"].startswith("−") and bobs["change"].startswith("+")
    look_back = _(
        "See it again with /dvonn replay, or take its transcript with /dvonn export (game: {game})."
    )
    assert said(look_back, game=1, mentions=bot.mentions) in ending
    assert "</dvonn replay:" in ending and "</dvonn export:" in ending
    again = await fake.run_command(table.alice, thread, "dvonn place", {"cell": "E3"})
    assert again.ephemeral
    profile = await fake.run_command(table.bob, thread, "dvonn profile")
    provisional = _(
        "A “?” after a rating means it is provisional: too few rated games yet to be sure of it. "
        "It settles as more games are played."
    )
    assert "?" in profile.content and said(provisional) in profile.content, profile.content


async def test_abort_by_agreement(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    thread = await start_game(table)
    asked = await fake.run_command(table.alice, thread, "dvonn abort")
    assert not asked.ephemeral and asked.message is not None
    assert asked.message.pinged_user_ids == {table.bob.id}
    agree = said(_("Agree to call it off"))
    mine = await fake.click(table.alice, asked.message, label=agree)
    assert mine.ephemeral and said(_("Waiting for your opponent to agree.")) in mine.content
    await fake.click(table.bob, asked.message, label=agree)
    called_off = said(_("The game was called off: no result."))
    await fake.wait_for_message(thread, lambda m: called_off in str(m.embeds))
    game = await bot.service.get_game(1)
    assert game.status.value == "aborted"


async def test_a_moderator_aborts_any_game_and_others_cannot(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    thread = await start_game(table)
    stranger = await fake.run_command(table.carol, thread, "dvonn abort")
    assert stranger.ephemeral
    assert (await bot.service.get_game(1)).is_active
    moderated = await fake.run_command(table.moderator, thread, "dvonn abort")
    assert not moderated.ephemeral
    assert not (await bot.service.get_game(1)).is_active
