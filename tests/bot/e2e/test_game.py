"""A whole game, and every wrong move, through the real bot and the fake Discord."""

from __future__ import annotations

import asyncio
import functools
import os
import random
import re
from pathlib import Path

import pytest

import rules
from bot.app import DvonnBot
from bot.i18n import Text, _, p_
from tests.bot.e2e.conftest import Table
from tests.bot.e2e.helpers import (
    board_image,
    boards_miss_their_answer,
    is_board_post,
    play_turn,
    played_privately,
    said,
    said_pattern,
    send_move,
)
from tests.fakediscord import (
    FakeChannel,
    FakeUser,
    Overwrite,
    OverwriteTarget,
    Permission,
    RecordedMessage,
    ResponseType,
)

SEE_THE_BOARD = _("You played {move}. [See the board]({link})")
"""A mover's private answer when the board is a post of its own (its link)."""


async def start_game(table: Table, channel: FakeChannel | None = None) -> FakeChannel:
    """Alice challenges Bob (Alice White); Bob accepts; returns where the game is played."""
    fake = table.fake
    channel = channel or table.games
    challenge = await fake.run_command(
        table.alice, channel, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
    )
    assert challenge.message is not None
    return await accept(table, challenge.message, table.bob)


async def accept(table: Table, challenge: RecordedMessage, user: FakeUser) -> FakeChannel:
    """``user`` accepts; waits for the game's first post; returns where the game is played.

    Accepting is a deferred update, so the click returns before the bot has finished: wait for
    what a player would see.
    """
    fake = table.fake
    accepted = await fake.click(user, challenge, label=said(_("Accept")))
    assert not accepted.ephemeral, accepted.content
    await fake.wait_until(lambda: not challenge.buttons(), what="the challenge to close")
    threads = fake.threads_in(fake.world.channel(challenge.channel_id))
    place = threads[-1] if threads else fake.world.channel(challenge.channel_id)
    await fake.wait_for_message(place, lambda m: m.embed_image() is not None, after=challenge)
    return place


@pytest.mark.slow
@pytest.mark.machine_speed
async def test_a_complete_game_only_through_interactions(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    challenge = await fake.run_command(
        table.alice, table.games, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
    )
    assert challenge.message is not None and not challenge.ephemeral
    assert challenge.message.pinged_user_ids == {table.bob.id}
    labels = {b.get("label") for b in challenge.message.buttons()}
    assert labels == {said(_("Accept")), said(_("Decline")), said(_("Cancel"))}

    thread = await accept(table, challenge.message, table.bob)
    assert challenge.message.buttons() == []  # the challenge is closed
    assert fake.threads_in(table.games) == [thread]
    accepted = said_pattern(
        _(
            "{player} accepted: game #{game} is on in <#{channel}>. {white} plays White, {black} "
            "plays Black."
        ),
        player="bob",
        channel=thread.id,
    )
    assert accepted.search(challenge.message.content)
    first = fake.messages_in(thread)[-1]
    assert first.pinged_user_ids == {table.alice.id}  # White places first
    to_place = said(
        _("{mention}, your turn ({colour}): place a DVONN piece with /dvonn place."),
        mention=table.alice.mention,
        colour=p_("colour", "White"),
        mentions=bot.mentions,
    )
    assert to_place in first.content
    assert first.embed_image() is not None

    running = await bot.service.game_in_channel(thread.id)
    assert running is not None and running.white_id == table.alice.id
    players = {rules.Colour.WHITE: table.alice, rules.Colour.BLACK: table.bob}
    rng = random.Random(7)
    pos = rules.new_game()
    turns = 0
    while not rules.is_over(pos):
        mover = players[pos.turn]
        move = rng.choice(rules.legal_moves(pos))
        turn = await play_turn(fake, mover, thread, move, typed=turns % 7 == 3)
        turns += 1
        assert turn.post is not None and turn.answered, f"{move}: {turn.reply.content}"
        pos = rules.play(pos, move)
        while rules.legal_moves(pos) == (rules.PASS,):  # the bot records passes by itself
            pos = rules.play(pos, rules.PASS)
        image = board_image(turn.post)
        assert image.format == "PNG" and image.width >= 400
        if keep := os.environ.get("DVONN_E2E_IMAGES"):  # to look at what players see
            image.save(Path(keep) / f"turn-{turns:03}.png")
        if rules.is_over(pos):
            assert turn.post.pinged_user_ids == {table.alice.id, table.bob.id}
        else:
            assert turn.post.pinged_user_ids == {players[pos.turn].id}
            assert players[pos.turn].mention in turn.post.content

    assert turn.post is not None
    white, black = rules.score(pos)
    final = turn.post.embeds[0]["description"]
    winner = rules.outcome(pos)
    assert winner is not None
    if winner.winner is not None:
        game_over = _("Game over: {winner} wins, {white_score}–{black_score}.")
        winner_name = players[winner.winner].username
        ended = said(game_over, winner=winner_name, white_score=white, black_score=black)
    else:
        game_over = _("Game over: a draw, {white_score}–{black_score}.")
        ended = said(game_over, white_score=white, black_score=black)
    assert ended in final
    stored = await bot.service.get_game(running.id)
    assert stored.score == (white, black)
    assert stored.position == pos


@pytest.mark.parametrize(
    ("who", "move", "expected"),
    [
        ("alice", "Z9", _(rules.InvalidReason.UNKNOWN_CELL.value, text="Z9")),
        ("alice", "hello", _(rules.InvalidReason.NOT_A_MOVE.value, text="hello")),
        (
            "bob",
            "E3",
            _(
                "It is not your turn: {turn} is to play, and you play {colour}.",
                colour=p_("colour", "Black"),
            ),
        ),
        ("carol", "E3", _("You are not playing in this game: only its two players can do that.")),
    ],
)
async def test_bad_moves_are_answered_privately_and_change_nothing(
    table: Table, bot: DvonnBot, who: str, move: str, expected: Text
) -> None:
    thread = await start_game(table)
    game = await bot.service.game_in_channel(thread.id)
    assert game is not None
    user: FakeUser = getattr(table, who)
    result = await table.fake.run_command(user, thread, "dvonn play", {"move": move})
    assert result.response_type is ResponseType.CHANNEL_MESSAGE
    assert result.ephemeral
    assert said_pattern(expected).search(result.content), result.content
    after = await bot.service.get_game(game.id)
    assert after.version == game.version and after.position == game.position


async def test_illegal_moves_say_why(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    thread = await start_game(table)
    await send_move(fake, table.alice, thread, rules.parse_move("E3"))
    occupied = await fake.run_command(table.bob, thread, "dvonn place", {"cell": "E3"})
    assert occupied.ephemeral
    assert occupied.content == said(_(rules.IllegalReason.CELL_OCCUPIED.value), cell="E3")
    moving_early = await fake.run_command(
        table.bob, thread, "dvonn move", {"from": "E3", "to": "F3"}
    )
    still_placing = _(
        "Pieces are still being placed: put one on an empty cell with /dvonn place. Moving starts "
        "once all 49 pieces are on the board."
    )
    assert moving_early.ephemeral
    assert said(still_placing, mentions=bot.mentions) in moving_early.content


async def test_commands_outside_a_game_channel_point_to_the_game(
    table: Table, bot: DvonnBot
) -> None:
    thread = await start_game(table)
    elsewhere = await table.fake.run_command(
        table.alice, table.games, "dvonn place", {"cell": "E3"}
    )
    assert elsewhere.ephemeral
    games_in = _("There is no game in this channel. Your games are in: {channels}.")
    assert said(games_in, channels=f"<#{thread.id}>") in elsewhere.content
    nobody = await table.fake.run_command(table.carol, table.no_threads, "dvonn board")
    assert nobody.ephemeral and said(_("No game is being played here.")) in nobody.content


async def test_without_thread_rights_the_game_is_played_in_the_channel(
    table: Table, bot: DvonnBot
) -> None:
    place = await start_game(table, table.no_threads)
    assert place is table.no_threads
    assert table.fake.threads_in(table.no_threads) == []
    turn = await play_turn(table.fake, table.alice, place, rules.parse_move("A1"))
    assert board_image(turn.post).width > 0


async def test_a_second_game_in_the_same_place_is_refused_when_it_is_proposed(
    table: Table, bot: DvonnBot
) -> None:
    """Where a game would be played in the channel itself (no thread can be made there) and one
    runs already, the challenge is refused at once, not posted for Accept to fail later."""
    fake = table.fake
    place = await start_game(table, table.no_threads)
    before = len(fake.messages_in(place))
    for command, options in [
        ("dvonn challenge", {"opponent": table.moderator}),
        ("dvonn play-bot", {}),
    ]:
        again = await fake.run_command(table.carol, table.no_threads, command, options)
        assert again.ephemeral, again.content
        busy = _(
            "A game is already being played in <#{channel_id}> (game {game_id}): finish it "
            "first, or play in another channel or thread."
        )
        assert said_pattern(busy, channel_id=table.no_threads.id).search(again.content)
    assert len(fake.messages_in(place)) == before  # nothing was posted
    # In a channel where games get threads, a second challenge is fine.
    await start_game(table, table.games)
    other = await fake.run_command(
        table.carol, table.games, "dvonn challenge", {"opponent": table.moderator}
    )
    assert not other.ephemeral and other.message is not None


@pytest.mark.machine_speed
async def test_a_board_too_late_for_its_answer_is_posted_and_the_mover_told_privately(
    table: Table, bot: DvonnBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    boards_miss_their_answer(monkeypatch)
    thread = await start_game(table)
    users = {rules.Colour.WHITE: table.alice, rules.Colour.BLACK: table.bob}
    pos = rules.new_game()
    for move in map(rules.parse_move, ("E3", "F3", "G3", "C3")):
        turn = await play_turn(table.fake, users[pos.turn], thread, move)
        pos = rules.play(pos, move)
        assert turn.post is not None and not turn.answered
        assert turn.reply.ephemeral and said_pattern(SEE_THE_BOARD, move=str(move)).search(
            turn.reply.content
        )
        assert f"/{turn.post.id}" in turn.reply.content  # the private reply links to the post
        assert turn.post.pinged_user_ids == {users[pos.turn].id}
    boards = [m for m in table.fake.messages_in(thread) if is_board_post(m) and not m.deleted]
    assert len(boards) == 2  # the game's first post and the newest board


@pytest.mark.slow
async def test_a_rate_limited_board_post_is_retried_not_lost(
    table: Table, bot: DvonnBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord answers 429 to the turn's post: discord.py waits and retries, and the post lands
    once, after the move, with its ping; the mover's reply still links to it."""
    boards_miss_their_answer(monkeypatch)  # so that the board is a post in the channel
    thread = await start_game(table)
    world = table.fake.world
    world.rate_limit("POST", rf"/channels/{thread.id}/messages$", times=2, retry_after=0.2)
    turn = await play_turn(table.fake, table.alice, thread, rules.parse_move("E3"))
    assert turn.post is not None, turn.reply.content
    assert turn.post.pinged_user_ids == {table.bob.id}
    assert f"/{turn.post.id}" in turn.reply.content  # the reply links to the post
    posts = [m for m in table.fake.messages_in(thread) if m.embed_image() is not None]
    assert len(posts) == 2  # the game's first post and this one: none doubled, none lost
    statuses = [r.status for r in world.requests if r.path.endswith(f"/{thread.id}/messages")]
    assert statuses[-3:] == [429, 429, 200]
    game = await bot.service.game_in_channel(thread.id)
    assert game is not None and game.position.ply == 1


@pytest.mark.slow
async def test_a_post_discord_keeps_rate_limiting_is_not_a_failed_try(
    table: Table, bot: DvonnBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five 429s in a row make discord.py give up the request: the outbox waits and tries
    again (the next poll), without counting it among the tries after which a post is given
    up."""
    boards_miss_their_answer(monkeypatch)  # so that the board is a post in the channel
    fake = table.fake
    thread = await start_game(table)
    path = rf"/channels/{thread.id}/messages$"
    fake.world.rate_limit("POST", path, times=5, retry_after=0.05)
    await send_move(fake, table.alice, thread, rules.parse_move("E3"))

    def posts() -> list[RecordedMessage]:
        return [m for m in fake.messages_in(thread) if m.embed_image() is not None]

    await fake.wait_until(lambda: len(posts()) == 2, timeout=15, what="the turn's post")
    assert posts()[-1].pinged_user_ids == {table.bob.id}
    statuses = [r.status for r in fake.world.requests if re.search(path, r.path)]
    assert statuses[-6:] == [429] * 5 + [200]
    row = await bot.service.store.db.fetch_one(
        "SELECT attempts FROM notifications WHERE kind = 'turn' ORDER BY id DESC LIMIT 1"
    )
    assert row is not None and row[0] == 0, "the rate limit was counted as a failed try"


@pytest.mark.machine_speed
async def test_placement_boards_replace_each_other_and_every_turn_still_pings(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    thread = await start_game(table)
    users = {rules.Colour.WHITE: table.alice, rules.Colour.BLACK: table.bob}
    pos = rules.new_game()
    pinged = []
    for _turn in range(12):
        move = rules.legal_moves(pos)[0]
        turn = await play_turn(fake, users[pos.turn], thread, move)
        assert turn.post is not None
        pos = rules.play(pos, move)
        pinged.append((turn.post.pinged_user_ids, users[pos.turn].id))
    assert all(ping == {wanted} for ping, wanted in pinged)  # every turn pinged the next player

    def boards() -> list[RecordedMessage]:
        return [m for m in fake.messages_in(thread) if m.embed_image() is not None]

    # The game's first post, and the newest board: not twelve (the one before it is deleted
    # right after the newest answers its command).
    await fake.wait_until(lambda: len(boards()) == 2, timeout=5, what="two boards")
    footer = _("Game #{game} · move {number} · White {white_score} – Black {black_score}")
    assert said_pattern(footer, number=13).search(str(boards()[-1].embeds[0].get("footer")))


async def test_a_channel_that_refuses_the_bot_is_given_up_once_and_the_players_told(
    table: Table, bot: DvonnBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A moderator takes the bot's Send Messages away where a game is played: the first post
    refused there gives the game's posts up (one 403, never a loop of them), both players
    hear of it by DM; moves still show the board as their answer; once the permission is
    back, a player's next move there brings the posts back."""
    fake = table.fake
    place = await start_game(table, table.no_threads)
    refused = Overwrite(
        fake.world.bot.id,
        OverwriteTarget.MEMBER,
        allow=Permission(0),
        deny=Permission.SEND_MESSAGES,
    )
    place.overwrites.append(refused)
    boards_miss_their_answer(monkeypatch)  # so that boards are posts in the channel
    users = {rules.Colour.WHITE: table.alice, rules.Colour.BLACK: table.bob}
    pos = rules.new_game()
    for move in map(rules.parse_move, ("E3", "F3", "G3")):
        reply = await send_move(fake, users[pos.turn], place, move)
        on_its_way = _("You played {move}. The board is on its way to <#{channel}>.")
        assert reply.ephemeral and said(on_its_way, move=str(move), channel=place.id) in (
            reply.content
        )
        pos = rules.play(pos, move)
    path = rf"/channels/{place.id}/messages$"

    def forbidden() -> int:
        return sum(1 for r in fake.world.requests if r.status == 403 and re.search(path, r.path))

    for user in (table.alice, table.bob):
        await fake.wait_until(functools.partial(fake.dms_to, user), timeout=10, what="a DM")
        (dm,) = fake.dms_to(user)
        lost = _(
            "I can no longer post in <#{channel}>, where your DVONN game #{game} is played: I lost "
            "my permission to send messages there, or the channel is gone. Ask a moderator to let "
            "me post there again. Meanwhile your moves there still show the board."
        )
        assert said_pattern(lost, channel=place.id).search(dm.content)
    await asyncio.sleep(0.5)
    assert forbidden() == 1, "the refused channel was tried again"
    game = await bot.service.game_in_channel(place.id)
    assert game is not None and game.channel_lost_at is not None
    assert await bot.service.store.unsent_notifications(game.id) == []  # given up, not pending

    monkeypatch.undo()  # boards answer their commands again
    turn = await play_turn(fake, users[pos.turn], place, rules.parse_move("C3"))
    assert turn.answered  # an answer needs no permission in the channel
    pos = rules.play(pos, rules.parse_move("C3"))

    place.overwrites.remove(refused)  # a moderator gives the permission back
    boards_miss_their_answer(monkeypatch)
    turn = await play_turn(fake, users[pos.turn], place, rules.parse_move("D3"))
    assert turn.post is not None and not turn.answered  # posted in the channel again
    assert turn.post.pinged_user_ids == {table.bob.id}
    game = await bot.service.game_in_channel(place.id)
    assert game is not None and game.channel_lost_at is None
    assert forbidden() == 1


@pytest.mark.machine_speed
async def test_a_move_the_busy_bot_is_slow_to_play_is_acknowledged_within_discord_s_3_s(
    table: Table, bot: DvonnBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot, busy with many moves at once, takes 3.3 s to play one (the database, say):
    Discord's 3 seconds would pass with no answer (the interaction dropped, "the application
    did not respond"). The move's interaction is deferred in time, the move played, the board
    posted with its ping, and the mover told privately where it is."""
    thread = await start_game(table)
    play = bot.service.play

    async def slow_play(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(3.3)
        return await play(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bot.service, "play", slow_play)
    turn = await play_turn(table.fake, table.alice, thread, rules.parse_move("E3"))
    assert turn.reply.response_type is ResponseType.DEFERRED_CHANNEL_MESSAGE
    assert turn.reply.ephemeral and played_privately(turn.reply, "E3"), turn.reply.content
    assert turn.post is not None and turn.post.pinged_user_ids == {table.bob.id}
    game = await bot.service.game_in_channel(thread.id)
    assert game is not None and game.position.ply == 1
