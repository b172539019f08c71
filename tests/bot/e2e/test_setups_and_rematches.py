"""Random setups and rematches (issue 24) through the real bot and the fake Discord, on each
backend: a random-setup challenge accepted (the first post says so, the board is full, the
player to move is pinged, the record holds the 49 placements, exported and imported to the same
board); a rematch offered from a game's last post and accepted, with the refusals a player
meets; against the bot, a rematch that starts at once."""

from __future__ import annotations

import asyncio

import rules
from bot.app import DvonnBot
from bot.i18n import _, n_, p_
from bot.posting.commands import CommandMentions
from tests.bot.e2e.conftest import BotRunner, Table, computer_player
from tests.bot.e2e.helpers import play_turn, said, said_pattern
from tests.bot.e2e.test_game import accept, start_game
from tests.fakediscord import FakeChannel, FakeUser, RecordedMessage, UserAttachment

QUICK = 0.05  # seconds the bot thinks a move: its strength is measured elsewhere
REMATCH = _("Rematch")
WHITE = p_("colour", "White")
REMATCH_OF = _("A rematch of game #{game}, colours swapped.")
NOT_A_PLAYER = _("You are not playing in this game: only its two players can do that.")
HAD_ITS_REMATCH = _(
    "Game #{game_id} has had its rematch already: game #{rematch_id}, in <#{channel}>."
)


def placed_at_random(mentions: CommandMentions) -> str:
    """What the first post of a game with a random setup says."""
    return said(
        _(
            "Random setup: the bot placed all 49 pieces at random, and the movement begins now. "
            "Move stacks with /dvonn move: a stack moves exactly as far as it is high, in a "
            "straight line, onto another stack."
        ),
        mentions=mentions,
    )


def labels(message: RecordedMessage | None) -> set[str]:
    assert message is not None
    return {str(b.get("label")) for b in message.buttons()}


async def resign(
    table: Table, user: FakeUser, thread: FakeChannel, game_id: int
) -> RecordedMessage:
    """``user`` resigns through the command and its button; returns the game's last post."""
    fake = table.fake
    asked = await fake.run_command(user, thread, "dvonn resign")
    assert asked.message is not None, asked.content
    await fake.click(user, asked.message, label=said(_("Resign game #{game}"), game=game_id))
    resigned = said_pattern(_("{loser} resigned: {winner} wins."), loser=user.username)
    return await fake.wait_for_message(thread, lambda m: bool(resigned.search(str(m.embeds))))


async def test_a_random_setup_challenge_begins_with_the_movement(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    alice, bob, carol = table.alice, table.bob, table.carol
    challenge = await fake.run_command(
        alice,
        table.games,
        "dvonn challenge",
        {"opponent": bob, "colour": "W", "clock": "days:3", "setup": "random"},
    )
    assert challenge.message is not None, challenge.content
    three_days = n_("{count} day per move", "{count} days per move", 3)
    random_setup = said(_("{clock}, random setup"), clock=three_days)
    assert random_setup in challenge.message.content
    thread = await accept(table, challenge.message, bob)

    # The first post: the setup was random, the board is full, Alice (White) moves first.
    first = fake.messages_in(thread)[-1]
    assert placed_at_random(bot.mentions) in str(first.embeds)
    assert first.pinged_user_ids == {alice.id}
    your_turn = said(
        _("{mention}, your turn ({colour}): move with /dvonn move."),
        mention=alice.mention,
        colour=WHITE,
        mentions=bot.mentions,
    )
    assert your_turn in first.content and "/dvonn place" not in first.content
    footer = _("Game #{game} · move {number} · White {white_score} – Black {black_score}")
    assert said(_("Your move")) in labels(first)
    assert said_pattern(footer, number=50).search(str(first.embeds))
    game = await bot.service.game_in_channel(thread.id)
    assert game is not None and game.setup_seed is not None
    assert all(game.position.stack(cell) for cell in range(rules.CELL_COUNT))  # full
    assert game.to_move_id == alice.id and game.deadline_at is not None

    # The record: the 49 placements, said to be random; exported, and imported to that board.
    record = await bot.service.record(game.id)
    history = await fake.run_command(carol, thread, "dvonn history")
    seeded = _("Random setup (seed {seed}): the bot made the 49 placements, at random.")
    assert history.ephemeral and said(seeded, seed=game.setup_seed) in history.content
    assert record.text in history.content and len(record.text.split()) == 49
    exported = await fake.run_command(carol, thread, "dvonn export")
    (transcript,) = exported.files
    parsed = rules.parse_little_golem(transcript.data.decode())
    assert [m.move for m in record.moves] == list(parsed.moves)
    assert rules.replay(list(parsed.moves))[-1] == game.position
    shown = await fake.run_command(
        carol,
        table.games,
        "dvonn import",
        {"transcript": UserAttachment("game.txt", transcript.data)},
    )
    analysis = n_(
        "Analysis board (not a game): {white} vs {black} after {ply} of {count} action.",
        "Analysis board (not a game): {white} vs {black} after {ply} of {count} actions.",
        49,
    )
    assert said(analysis, white="alice", black="bob", ply=49) in shown.content, shown.content

    # Nobody can take a random placement back; the players play on.
    refused = await fake.run_command(bob, thread, "dvonn takeback")
    assert refused.ephemeral
    move = rules.legal_moves(game.position)[0]
    turn = await play_turn(fake, alice, thread, move)
    assert turn.post is not None and turn.post.pinged_user_ids == {bob.id}


async def test_a_rematch_offered_from_the_last_post_and_accepted(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    alice, bob, carol = table.alice, table.bob, table.carol
    thread = await start_game(table)  # game 1: Alice (White) vs Bob, in a thread
    await play_turn(fake, alice, thread, rules.parse_move("E3"))
    last = await resign(table, bob, thread, 1)
    assert said(REMATCH) in labels(last)

    stranger = await fake.click(carol, last, label=said(REMATCH))
    assert stranger.ephemeral and said(NOT_A_PLAYER) in stranger.content

    offered = await fake.click(bob, last, label=said(REMATCH))
    assert not offered.ephemeral and offered.message is not None, offered.content
    offer = offered.message
    assert offer.channel_id == thread.id  # under the game, where both players are
    offers = said(
        _("{opponent}, {player} offers you a rematch of game #{game} ({clock}, {colour})."),
        opponent=alice.mention,
        player="bob",
        game=1,
        clock=_("no clock"),
        colour=_("{player} plays {colour}", player="bob", colour=WHITE),
    )
    assert offers in offer.content and offer.pinged_user_ids == {alice.id}
    assert labels(offer) == {said(_("Accept")), said(_("Decline")), said(_("Cancel"))}
    twice = await fake.click(bob, last, label=said(REMATCH))
    already = _(
        "You have offered a rematch of game #{game_id} already: it waits for your opponent's "
        "answer."
    )
    assert twice.ephemeral and said(already, game_id=1) in twice.content
    other = await fake.click(alice, last, label=said(REMATCH))
    to_you = _(
        "Your opponent has offered you a rematch of game #{game_id} already: accept or decline "
        "it under its challenge."
    )
    assert other.ephemeral and said(to_you, game_id=1) in other.content

    place = await accept(table, offer, alice)
    assert place == thread  # played where game 1 was
    first = fake.messages_in(thread)[-1]
    assert said(REMATCH_OF, game=1) in str(first.embeds)
    assert first.pinged_user_ids == {bob.id}  # Bob plays White now
    rematch = await bot.service.game_in_channel(thread.id)
    assert rematch is not None and rematch.rematch_of == 1
    assert (rematch.white_id, rematch.black_id) == (bob.id, alice.id)
    made = await fake.click(alice, last, label=said(REMATCH))
    had = said(HAD_ITS_REMATCH, game_id=1, rematch_id=rematch.id, channel=thread.id)
    assert made.ephemeral and had in made.content


async def test_a_game_called_off_offers_no_rematch(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    thread = await start_game(table)
    await fake.run_command(table.moderator, thread, "dvonn abort")
    called_off = said(_("The game was called off: no result."))
    last = await fake.wait_for_message(thread, lambda m: called_off in str(m.embeds))
    assert said(REMATCH) not in labels(last)
    assert not (await bot.service.get_game(1)).is_active


async def test_against_the_bot_a_rematch_starts_at_once(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    alice = table.alice
    async with bot_runner.run(ai_budget=QUICK) as bot:
        reply = await fake.run_command(
            alice,
            table.games,
            "dvonn play-bot",
            {"level": "beginner", "colour": "W", "setup": "random"},
        )
        assert not reply.ephemeral, reply.content
        thread = await fake.wait_until(lambda: next(iter(fake.threads_in(table.games)), None))
        assert thread is not None
        first = await fake.wait_for_message(thread, lambda m: m.embed_image() is not None)
        assert placed_at_random(bot.mentions) in str(first.embeds)
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and game.setup_seed is not None and game.to_move_id == alice.id

        last = await resign(table, alice, thread, game.id)
        assert said(REMATCH) in labels(last)
        stranger = await fake.click(table.bob, last, label=said(REMATCH))
        assert stranger.ephemeral and said(NOT_A_PLAYER) in stranger.content
        again = await fake.click(alice, last, label=said(REMATCH))
        assert not again.ephemeral, again.content
        against_the_bot = _(
            "{player} plays game #{game} again against the bot ({level}), colours swapped."
        )
        assert (
            said(against_the_bot, player="alice", game=game.id, level=_("beginner"))
            in again.content
        )
        rematch_of = said(REMATCH_OF, game=game.id)
        start = await fake.wait_for_message(
            thread, lambda m: rematch_of in str(m.embeds), after=last
        )
        assert placed_at_random(bot.mentions) in str(start.embeds)
        rematch = await bot.service.game_in_channel(thread.id)
        assert rematch is not None and rematch.rematch_of == game.id
        assert rematch.white_id == fake.bot.id and rematch.setup_seed is not None
        # The bot (White now) moves first, at once.
        async with asyncio.timeout(30):
            while (await bot.service.get_game(rematch.id)).computer_to_move:
                await computer_player(bot).wait_idle()
                await asyncio.sleep(0.01)
        twice = await fake.click(alice, last, label=said(REMATCH))
        had = said(HAD_ITS_REMATCH, game_id=game.id, rematch_id=rematch.id, channel=thread.id)
        assert twice.ephemeral and had in twice.content


async def test_a_challenge_to_the_bot_takes_the_setup_too(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK) as bot:
        reply = await fake.run_command(
            table.alice,
            table.games,
            "dvonn challenge",
            {"opponent": fake.bot, "colour": "B", "setup": "random"},
        )
        starts = said_pattern(
            _("{player} starts a game against the bot ({level})."), player="alice"
        )
        assert starts.search(reply.content), reply.content
        thread = await fake.wait_until(lambda: next(iter(fake.threads_in(table.games)), None))
        assert thread is not None
        first = await fake.wait_for_message(thread, lambda m: m.embed_image() is not None)
        assert placed_at_random(bot.mentions) in str(first.embeds)
        assert first.pinged_user_ids == frozenset()  # the bot (White) is to move: nobody
        await computer_player(bot).wait_idle()
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and game.setup_seed is not None
        assert game.ply > rules.PLACEMENT_PLIES or game.computer_to_move
