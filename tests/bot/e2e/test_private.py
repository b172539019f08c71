"""Play in DMs: two people who added the app to their own accounts play a whole game in their
DM, where the bot may only answer their interactions (it cannot post there by itself).

Each board is the answer to the move before it, public in the DM; the moves are typed and
tapped; the bot never posts into the DM through the channel's REST route; the computer
opponent plays there too; what comes later than an interaction's 15 minutes (a loss on time)
reaches the players by DM.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import AsyncIterator

import pytest

import rules
from bot.app import DvonnBot
from bot.i18n import _
from bot.posting.publisher import RouteUses
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import said, send_move
from tests.bot.e2e.test_tapping import choose, open_picker, turn_button
from tests.fakediscord import FakeChannel, FakeUser, InteractionResult, RecordedMessage

GAME_OVER = _("{players}: the game is over.")


@pytest.fixture
def global_runner(bot_runner: BotRunner) -> BotRunner:
    """Bots that register their commands globally, as for everyone's DMs (a development
    server's commands exist only in that server)."""
    bot_runner.settings = dataclasses.replace(bot_runner.settings, dev_guild=None)
    return bot_runner


@pytest.fixture
async def bot(global_runner: BotRunner) -> AsyncIterator[DvonnBot]:
    async with global_runner.run() as started:
        yield started


def boards(table: Table, place: FakeChannel) -> list[RecordedMessage]:
    return [
        m for m in table.fake.messages_in(place) if m.embed_image() is not None and not m.ephemeral
    ]


def no_bot_posts_by_rest(table: Table, place: FakeChannel) -> None:
    """The bot never tried to post into the private channel on its own."""
    path = re.compile(rf"/channels/{place.id}/messages")
    tried = [r for r in table.fake.world.requests if r.method == "POST" and path.search(r.path)]
    assert not tried, [r.path for r in tried]


async def dm_between(table: Table, *users: FakeUser) -> FakeChannel:
    for user in users:
        table.fake.install_app(user)
    return table.fake.add_private_channel(*users)


async def challenge_in(table: Table, place: FakeChannel) -> RecordedMessage:
    fake = table.fake
    challenge = await fake.run_command(
        table.alice, place, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
    )
    assert challenge.message is not None and not challenge.ephemeral, challenge.content
    accepted = await fake.click(table.bob, challenge.message, label=said(_("Accept")))
    assert not accepted.ephemeral, accepted.content
    return await fake.wait_for_message(
        place, lambda m: m.embed_image() is not None, after=challenge.message
    )


async def next_board(table: Table, place: FakeChannel, after: RecordedMessage) -> RecordedMessage:
    return await table.fake.wait_for_message(
        place, lambda m: m.embed_image() is not None and not m.ephemeral, after=after, timeout=10
    )


@pytest.mark.slow
async def test_a_whole_game_in_a_dm_between_two_players_who_added_the_app(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    place = await dm_between(table, table.alice, table.bob)
    post = await challenge_in(table, place)
    assert turn_button(post)[1] == 0
    players = {rules.Colour.WHITE: table.alice, rules.Colour.BLACK: table.bob}
    rng = random.Random(23)
    pos = rules.new_game()
    turns = 0
    while not rules.is_over(pos):
        mover = players[pos.turn]
        move = rng.choice([m for m in rules.legal_moves(pos) if m != rules.PASS])
        if turns % 2:
            picker = await open_picker(table, mover, post)
            message = await choose(table, mover, picker, turn_button(post), move)
            await fake.click(mover, message, label=said(_("Play {move}"), move=str(move)))
        else:
            await send_move(fake, mover, place, move)
        post = await next_board(table, place, post)
        turns += 1
        pos = rules.play(pos, move)
        while rules.legal_moves(pos) == (rules.PASS,):
            pos = rules.play(pos, rules.PASS)
        if not rules.is_over(pos):
            assert players[pos.turn].mention in post.content  # the DM tells whose turn it is
    assert said(GAME_OVER, players=f"{table.alice.mention} {table.bob.mention}") in post.content
    assert len(boards(table, place)) == turns + 1  # the first board, then one a move
    no_bot_posts_by_rest(table, place)


async def test_the_computer_opponent_plays_in_a_dm(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    table.fake.install_app(table.alice)
    place = table.fake.add_private_channel(table.alice, table.bob)
    started = await fake.run_command(
        table.alice, place, "dvonn play-bot", {"level": "beginner", "colour": "B"}
    )
    assert not started.ephemeral, started.content
    assert started.message is not None
    # White (the bot) moves first: its board, then the first board for Alice.
    first = await next_board(table, place, started.message)
    bot_answer = await next_board(table, place, first)
    assert table.alice.mention in bot_answer.content
    await send_move(fake, table.alice, place, rules.Place(rules.E3))
    mine = await next_board(table, place, bot_answer)
    answer = await next_board(table, place, mine)
    assert table.alice.mention in answer.content
    no_bot_posts_by_rest(table, place)


async def test_a_loss_on_time_in_a_dm_game_reaches_the_players_by_dm(
    table: Table, global_runner: BotRunner
) -> None:
    fake = table.fake
    clock = ManualClock()
    place = await dm_between(table, table.alice, table.bob)
    async with global_runner.run(clock=clock, housekeeping_interval=0) as bot:
        challenge = await fake.run_command(
            table.alice, place, "dvonn challenge", {"opponent": table.bob, "clock": "days:1"}
        )
        assert challenge.message is not None
        await fake.click(table.bob, challenge.message, label=said(_("Accept")))
        await fake.wait_for_message(place, lambda m: m.embed_image() is not None)
        clock.advance(days=2)  # White never places; the interactions' 15 minutes are long over
        fake.advance_time(2 * 24 * 3600)
        await bot.housekeeping()

        def told(user: FakeUser) -> bool:
            return any(m.embed_image() is not None for m in fake.dms_to(user))

        await fake.wait_until(
            lambda: told(table.alice) and told(table.bob), timeout=10, what="the end, by DM"
        )
    no_bot_posts_by_rest(table, place)


async def test_server_records_say_they_belong_to_servers(table: Table, bot: DvonnBot) -> None:
    place = await dm_between(table, table.alice, table.bob)
    reply = await table.fake.run_command(table.alice, place, "dvonn leaderboard")
    per_server = _(
        "This works in a server that added the bot: ratings, the leaderboard and "
        "settings are kept per server."
    )
    assert reply.ephemeral and said(per_server) in reply.content, reply.content


async def test_a_takeback_and_a_resignation_in_a_dm_game(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    place = await dm_between(table, table.alice, table.bob)
    post = await challenge_in(table, place)
    await send_move(fake, table.alice, place, rules.Place(rules.E3))
    post = await next_board(table, place, post)
    asked = await fake.run_command(table.alice, place, "dvonn takeback")
    assert asked.message is not None and not asked.ephemeral, asked.content
    await fake.click(table.bob, asked.message, label=said(_("Accept the takeback")))
    post = await next_board(table, place, post)
    assert table.alice.mention in post.content  # her move again
    resign = await fake.run_command(table.bob, place, "dvonn resign")
    assert resign.message is not None
    await fake.click(
        table.bob, resign.message, label=said(_("Resign game #{game}"), game=turn_button(post)[0])
    )
    post = await next_board(table, place, post)
    assert said(GAME_OVER, players=f"{table.alice.mention} {table.bob.mention}") in post.content
    no_bot_posts_by_rest(table, place)


async def test_a_game_in_a_server_without_the_bot_for_players_who_added_the_app(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    elsewhere = fake.add_guild("friends", bot_member=False)
    channel = elsewhere.add_text_channel("general")
    dana, eve = (fake.add_user(name, elsewhere) for name in ("dana", "eve"))
    for user in (dana, eve):
        fake.install_app(user)
    challenge = await fake.run_command(
        dana, channel, "dvonn challenge", {"opponent": eve, "colour": "W"}
    )
    assert challenge.message is not None and not challenge.ephemeral, challenge.content
    await fake.click(eve, challenge.message, label=said(_("Accept")))
    post = await next_board(table, channel, challenge.message)
    await send_move(fake, dana, channel, rules.Place(rules.E3))
    post = await next_board(table, channel, post)
    assert eve.mention in post.content
    assert not fake.threads_in(channel)  # no thread: the bot may only answer there
    game = await bot.service.game_in_channel(channel.id)
    assert game is not None and game.private and not game.rated  # that server has no ladder
    no_bot_posts_by_rest(table, channel)


async def test_a_group_dm_challenge_open_to_anyone_there(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    group = await dm_between(table, table.alice, table.bob, table.carol)
    challenge = await fake.run_command(table.alice, group, "dvonn challenge", {"colour": "W"})
    assert challenge.message is not None and not challenge.ephemeral, challenge.content
    await fake.click(table.carol, challenge.message, label=said(_("Accept")))
    post = await next_board(table, group, challenge.message)
    game, _ply = turn_button(post)
    stranger = await fake.click(
        table.bob, post, label=said(_("Your move"))
    )  # in the group, not playing
    not_yours = _("This is not your game: only its two players can move in it.")
    assert stranger.ephemeral and said(not_yours) in stranger.content, stranger.content
    await send_move(fake, table.alice, group, rules.Place(rules.E3))
    post = await next_board(table, group, post)
    assert table.carol.mention in post.content
    assert (await bot.service.get_game(game)).private
    no_bot_posts_by_rest(table, group)


def finished_by_edit(table: Table, result: InteractionResult) -> None:
    """The deferred answer of ``result`` was filled in by editing it (``PATCH
    …/messages/@original``), not by a followup (``POST /webhooks/{app}/{token}``), which
    Discord documents as deprecated."""
    hook = f"/webhooks/{table.fake.application_id}/{result.record.token}"
    calls = [
        (r.method, r.path[r.path.index(hook) :]) for r in table.fake.requests if hook in r.path
    ]
    assert result.deferred and ("PATCH", f"{hook}/messages/@original") in calls, calls
    assert ("POST", hook) not in calls, calls


async def test_a_private_games_boards_fill_in_the_deferred_answers_by_editing_them(
    table: Table, bot: DvonnBot
) -> None:
    """A typed move, a tapped one (the picker's confirm button) and ``/dvonn board`` each
    answer with a deferred "thinking…", which the board fills in, public in the DM."""
    fake = table.fake
    place = await dm_between(table, table.alice, table.bob)
    post = await challenge_in(table, place)
    typed = await send_move(fake, table.alice, place, rules.Place(rules.E3))
    post = await next_board(table, place, post)
    assert post.id == typed.record.original_message_id and table.bob.mention in post.content
    finished_by_edit(table, typed)
    picker = await open_picker(table, table.bob, post)
    message = await choose(table, table.bob, picker, turn_button(post), rules.Place(rules.F3))
    tapped = await fake.click(table.bob, message, label=said(_("Play {move}"), move="F3"))
    post = await next_board(table, place, post)
    assert post.id == tapped.record.original_message_id
    finished_by_edit(table, tapped)
    shown = await fake.run_command(table.bob, place, "dvonn board")
    assert shown.message is not None and not shown.ephemeral and shown.files, shown.content
    finished_by_edit(table, shown)
    assert all(not m.loading for m in fake.messages_in(place))


async def test_posts_beyond_an_interactions_followups_go_by_dm(table: Table, bot: DvonnBot) -> None:
    """A user install's interaction allows five followups; a private game's later posts through
    it go to the players' DMs at once, counted, instead of being refused by Discord first (and
    never lost)."""
    fake = table.fake
    fake.install_app(table.alice)
    place = fake.add_private_channel(table.alice, table.bob)
    started = await fake.run_command(
        table.alice, place, "dvonn play-bot", {"level": "beginner", "colour": "W"}
    )
    assert started.message is not None
    await next_board(table, place, started.message)  # the first followup
    game = await bot.service.game_in_channel(place.id)
    assert game is not None and game.private
    for n in range(6):
        await bot.publisher.send_text(game, f"note {n}", ping=(table.alice.id,))
    in_place = [m.content for m in fake.messages_in(place) if m.content.startswith("note")]
    by_dm = [m.content for m in fake.dms_to(table.alice) if m.content.startswith("note")]
    assert in_place == [f"note {n}" for n in range(4)]  # five followups in all
    assert by_dm == ["note 4", "note 5"]
    assert started.rejected == []  # no sixth followup tried (Discord: 400, 40094)
    # A process that did not count them (restarted, or another one): refused once, then not
    # tried again.
    bot.publisher._routes = RouteUses()
    for n in range(6, 9):
        await bot.publisher.send_text(game, f"note {n}", ping=(table.alice.id,))
    by_dm = [m.content for m in fake.dms_to(table.alice) if m.content.startswith("note")]
    assert by_dm == [f"note {n}" for n in range(4, 9)]
    assert [r.code for r in started.rejected] == [40094]
