"""Random setups and rematches (issue 24) through the real bot and the fake Discord, on each
backend: a random-setup challenge accepted (the first post says so, the board is full, the
player to move is pinged, the record holds the 49 placements, exported and imported to the same
board); a rematch offered from a game's last post and accepted, with the refusals a player
meets; against the bot, a rematch that starts at once."""

from __future__ import annotations

import asyncio

import rules
from bot.app import DvonnBot
from tests.bot.e2e.conftest import BotRunner, Table, computer_player
from tests.bot.e2e.helpers import play_turn
from tests.bot.e2e.test_game import accept, start_game
from tests.fakediscord import FakeChannel, FakeUser, RecordedMessage, UserAttachment

QUICK = 0.05  # seconds the bot thinks a move: its strength is measured elsewhere


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
    await fake.click(user, asked.message, label=f"Resign game #{game_id}")
    return await fake.wait_for_message(thread, lambda m: "resigned" in str(m.embeds))


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
    assert "3 days per move, random setup" in challenge.message.content
    thread = await accept(table, challenge.message, bob)

    # The first post: the setup was random, the board is full, Alice (White) moves first.
    first = fake.messages_in(thread)[-1]
    assert "placed all 49 pieces at random" in str(first.embeds)
    assert first.pinged_user_ids == {alice.id}
    assert "/dvonn move" in first.content and "/dvonn place" not in first.content
    assert "Your move" in labels(first) and "move 50" in str(first.embeds)
    game = await bot.service.game_in_channel(thread.id)
    assert game is not None and game.setup_seed is not None
    assert all(game.position.stack(cell) for cell in range(rules.CELL_COUNT))  # full
    assert game.to_move_id == alice.id and game.deadline_at is not None

    # The record: the 49 placements, said to be random; exported, and imported to that board.
    record = await bot.service.record(game.id)
    history = await fake.run_command(carol, thread, "dvonn history")
    assert history.ephemeral and f"Random setup (seed {game.setup_seed})" in history.content
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
    assert "alice vs bob after 49 of 49 actions" in shown.content, shown.content

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
    assert "Rematch" in labels(last)

    stranger = await fake.click(carol, last, label="Rematch")
    assert stranger.ephemeral and "only its two players" in stranger.content

    offered = await fake.click(bob, last, label="Rematch")
    assert not offered.ephemeral and offered.message is not None, offered.content
    offer = offered.message
    assert offer.channel_id == thread.id  # under the game, where both players are
    assert f"{alice.mention}, bob offers you a rematch of game #1" in offer.content
    assert "bob plays White" in offer.content and offer.pinged_user_ids == {alice.id}
    assert labels(offer) == {"Accept", "Decline", "Cancel"}
    twice = await fake.click(bob, last, label="Rematch")
    assert twice.ephemeral and "offered a rematch of game #1 already" in twice.content
    other = await fake.click(alice, last, label="Rematch")
    assert other.ephemeral and "offered you a rematch of game #1 already" in other.content

    place = await accept(table, offer, alice)
    assert place == thread  # played where game 1 was
    first = fake.messages_in(thread)[-1]
    assert "A rematch of game #1, colours swapped." in str(first.embeds)
    assert first.pinged_user_ids == {bob.id}  # Bob plays White now
    rematch = await bot.service.game_in_channel(thread.id)
    assert rematch is not None and rematch.rematch_of == 1
    assert (rematch.white_id, rematch.black_id) == (bob.id, alice.id)
    made = await fake.click(alice, last, label="Rematch")
    assert made.ephemeral and f"its rematch already: game #{rematch.id}" in made.content


async def test_a_game_called_off_offers_no_rematch(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    thread = await start_game(table)
    await fake.run_command(table.moderator, thread, "dvonn abort")
    last = await fake.wait_for_message(thread, lambda m: "called off" in str(m.embeds))
    assert "Rematch" not in labels(last)
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
        assert "placed all 49 pieces at random" in str(first.embeds)
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and game.setup_seed is not None and game.to_move_id == alice.id

        last = await resign(table, alice, thread, game.id)
        assert "Rematch" in labels(last)
        stranger = await fake.click(table.bob, last, label="Rematch")
        assert stranger.ephemeral and "only its two players" in stranger.content
        again = await fake.click(alice, last, label="Rematch")
        assert not again.ephemeral, again.content
        assert f"alice plays game #{game.id} again against the bot (beginner)" in again.content
        start = await fake.wait_for_message(
            thread, lambda m: "A rematch of game" in str(m.embeds), after=last
        )
        assert "placed all 49 pieces at random" in str(start.embeds)
        rematch = await bot.service.game_in_channel(thread.id)
        assert rematch is not None and rematch.rematch_of == game.id
        assert rematch.white_id == fake.bot.id and rematch.setup_seed is not None
        # The bot (White now) moves first, at once.
        async with asyncio.timeout(30):
            while (await bot.service.get_game(rematch.id)).computer_to_move:
                await computer_player(bot).wait_idle()
                await asyncio.sleep(0.01)
        twice = await fake.click(alice, last, label="Rematch")
        assert twice.ephemeral and f"its rematch already: game #{rematch.id}" in twice.content


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
        assert "against the bot" in reply.content, reply.content
        thread = await fake.wait_until(lambda: next(iter(fake.threads_in(table.games)), None))
        assert thread is not None
        first = await fake.wait_for_message(thread, lambda m: m.embed_image() is not None)
        assert "placed all 49 pieces at random" in str(first.embeds)
        assert first.pinged_user_ids == frozenset()  # the bot (White) is to move: nobody
        await computer_player(bot).wait_idle()
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and game.setup_seed is not None
        assert game.ply > rules.PLACEMENT_PLIES or game.computer_to_move
