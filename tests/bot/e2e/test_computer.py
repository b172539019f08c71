"""Playing the bot through the fake Discord: whole games, restarts on its turn, hints."""

from __future__ import annotations

import asyncio
import random

import pytest

import rules
from bot.app import DvonnBot
from bot.i18n import _, n_
from bot.storage.models import Game
from tests.bot.e2e.conftest import BotRunner, Table, computer_player
from tests.bot.e2e.helpers import play_turn, said, said_pattern
from tests.fakediscord import FakeChannel

# Whole games against the engine through the fake Discord (0.2-1.2 s each).
pytestmark = pytest.mark.slow

QUICK = 0.05  # seconds of thought per move: the engine's strength is measured elsewhere


async def after_the_bot(bot: DvonnBot, game_id: int) -> Game:
    """The game once the bot has played its turn (it starts thinking after the human's post)."""
    async with asyncio.timeout(30):
        while True:
            await computer_player(bot).wait_idle()
            game = await bot.service.get_game(game_id)
            if not game.computer_to_move:
                return game
            await asyncio.sleep(0.01)  # its turn is about to be scheduled


async def game_thread(table: Table) -> FakeChannel:
    """The thread the bot opens for a game against it (it opens it after answering)."""
    fake = table.fake
    thread = await fake.wait_until(lambda: next(iter(fake.threads_in(table.games)), None))
    assert thread is not None
    await fake.wait_for_message(thread, lambda m: m.embed_image() is not None)
    return thread


async def start(table: Table, bot: DvonnBot, options: dict[str, object]) -> FakeChannel:
    reply = await table.fake.run_command(table.alice, table.games, "dvonn play-bot", options)
    assert not reply.ephemeral, reply.content
    thread = await game_thread(table)
    await computer_player(bot).wait_idle()
    return thread


GAME_OVER = _("{players}: the game is over.")
LET_YOU = _("The bot let you take it back.")


def assert_never_mentions_itself(table: Table, thread: FakeChannel) -> None:
    """No post in ``thread`` mentions the bot, or asks Discord to notify it."""
    me = f"<@{table.fake.bot.id}>"
    for message in table.fake.messages_in(thread):
        assert table.fake.bot.id not in message.pinged_user_ids, message.content
        assert me not in message.content and me not in str(message.embeds), message.content


@pytest.mark.machine_speed
async def test_a_whole_game_against_the_bot(table: Table, bot_runner: BotRunner) -> None:
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK) as bot:
        thread = await start(table, bot, {"level": "beginner", "colour": "W"})
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and not game.rated
        assert game.white_id == table.alice.id and game.black_id == fake.bot.id
        rng = random.Random(5)
        while game.is_active:
            assert game.to_move_id == table.alice.id  # the bot has answered every move
            move = rng.choice(rules.legal_moves(game.position))
            turn = await play_turn(fake, table.alice, thread, move)
            assert turn.post is not None, turn.reply.content
            game = await after_the_bot(bot, game.id)
            if game.is_active:
                last = fake.last_message(thread)
                assert last is not None and last.pinged_user_ids == {table.alice.id}
        assert game.score is not None
        assert await bot.service.ratings.rating(table.guild.id, table.alice.id) is None
        last = fake.last_message(thread)
        assert last is not None
        assert last.content.endswith(said(GAME_OVER, players=f"<@{table.alice.id}>"))
        assert last.pinged_user_ids == {table.alice.id}
        assert_never_mentions_itself(table, thread)


async def test_the_bot_moves_first_as_white_and_after_a_restart(
    table: Table, bot_runner: BotRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK) as bot:
        # As if the bot went down before it could think: its turn is only in the database.
        monkeypatch.setattr(type(computer_player(bot)), "play_if_its_turn", lambda self, game: None)
        reply = await fake.run_command(
            table.alice, table.games, "dvonn play-bot", {"level": "strong", "colour": "B"}
        )
        assert not reply.ephemeral
        thread = await game_thread(table)
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and game.computer_to_move
    monkeypatch.undo()
    async with bot_runner.run(sync=False, ai_budget=QUICK) as bot:
        await computer_player(bot).wait_idle()
        game = await bot.service.get_game(game.id)
        assert game.position.ply == 1 and game.to_move_id == table.alice.id
        post = fake.last_message(thread)
        assert post is not None and post.pinged_user_ids == {table.alice.id}


async def test_a_move_made_while_the_bots_post_is_on_its_way_is_answered_at_once(
    table: Table, bot_runner: BotRunner
) -> None:
    """Alice answers the bot's move while its post is still on its way (its turn holds the
    game's lease until then): once the post is out, the bot answers her, without waiting for
    a poll (there is none here) to find its turn."""
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK, housekeeping_interval=0) as bot:
        thread = await start(table, bot, {"level": "beginner", "colour": "W"})
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None
        hold = fake.world.hold_response("POST", rf"/channels/{thread.id}/messages$")
        await play_turn(fake, table.alice, thread, rules.parse_move("E3"))
        await asyncio.wait_for(hold.entered.wait(), 10)  # the bot's move, made and posting
        assert computer_player(bot).is_thinking(game.id)  # its turn holds on until it is out
        game = await bot.service.get_game(game.id)
        assert game.position.ply == 2 and not game.computer_to_move
        answer = rules.legal_moves(game.position)[0]
        assert isinstance(answer, rules.Place)
        cell = rules.CELL_NAMES[answer.cell]
        reply = fake.send_command(table.alice, thread, "dvonn place", {"cell": cell})
        async with asyncio.timeout(10):
            while (await bot.service.get_game(game.id)).position.ply < 3:
                await asyncio.sleep(0.01)
        hold.release()
        await reply.wait_response(timeout=10)
        game = await after_the_bot(bot, game.id)  # nothing else would start its turn
        assert game.position.ply == 4 and game.to_move_id == table.alice.id


async def test_hints_are_for_games_against_the_bot(table: Table, bot_runner: BotRunner) -> None:
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK) as bot:
        thread = await start(table, bot, {"colour": "W"})
        hint = await fake.run_command(table.alice, thread, "dvonn hint")
        would_play = said_pattern(_("The bot would play {move}.")).search(hint.content)
        assert hint.ephemeral and would_play is not None, hint.content
        suggested = would_play["move"]
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None
        assert suggested in {str(m) for m in rules.legal_moves(game.position)}
        other = table.guild.add_text_channel("humans")
        challenge = await fake.run_command(
            table.bob, other, "dvonn challenge", {"opponent": table.carol}
        )
        assert challenge.message is not None
        await fake.click(table.carol, challenge.message, label=said(_("Accept")))
        human_thread = await fake.wait_until(lambda: next(iter(fake.threads_in(other)), None))
        assert human_thread is not None
        await fake.wait_for_message(human_thread, lambda m: m.embed_image() is not None)
        refused = await fake.run_command(table.bob, human_thread, "dvonn hint")
        only_against = _("Hints are only for games against the bot.")
        assert refused.ephemeral and said(only_against) in refused.content


async def test_challenging_the_bot_starts_at_once_and_it_allows_takebacks(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK) as bot:
        reply = await fake.run_command(
            table.alice, table.games, "dvonn challenge", {"opponent": fake.bot, "colour": "W"}
        )
        starts = _("{player} starts a game against the bot ({level}).")
        assert said_pattern(starts, player="alice").search(reply.content)
        thread = await game_thread(table)
        human = await play_turn(fake, table.alice, thread, rules.parse_move("E3"))
        assert human.post is not None and human.post.pinged_user_ids == frozenset()  # not the bot
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None
        game = await after_the_bot(bot, game.id)
        assert game.position.ply == 2
        taken = await fake.run_command(table.alice, thread, "dvonn takeback")
        assert said(LET_YOU) in taken.content
        game = await bot.service.get_game(game.id)
        assert game.position.ply == 0 and game.to_move_id == table.alice.id


@pytest.mark.machine_speed
async def test_the_bot_never_mentions_itself_from_the_start_to_the_end(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK) as bot:
        thread = await start(table, bot, {"level": "beginner", "colour": "B"})  # the bot opens
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None
        game = await after_the_bot(bot, game.id)
        opening = fake.messages_in(thread)[0]
        assert said(_("The bot is thinking about its move.")) in opening.content
        assert not opening.pinged_user_ids
        await play_turn(fake, table.alice, thread, rules.legal_moves(game.position)[0])
        game = await after_the_bot(bot, game.id)
        taken = await fake.run_command(table.alice, thread, "dvonn takeback")
        assert said(LET_YOU) in taken.content
        asked = await fake.run_command(table.alice, thread, "dvonn resign")
        assert asked.message is not None
        await fake.click(
            table.alice, asked.message, label=said(_("Resign game #{game}"), game=game.id)
        )
        resigned = said_pattern(_("{loser} resigned: {winner} wins."), loser="alice")
        end = await fake.wait_for_message(thread, lambda m: bool(resigned.search(str(m.embeds))))
        assert end.content == said(GAME_OVER, players=f"<@{table.alice.id}>")
        assert end.pinged_user_ids == {table.alice.id}
        assert_never_mentions_itself(table, thread)


async def test_the_bot_agrees_to_an_abort_and_is_not_told_of_vacations(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK) as bot:
        thread = await start(table, bot, {"level": "beginner", "colour": "W"})
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None
        away = await fake.run_command(table.alice, thread, "dvonn vacation", {"days": 2})
        paused = n_(
            "Your clock is paused until {until} in your {count} running game.",
            "Your clocks are paused until {until} in your {count} running games.",
            0,
        )
        # the bot's game has no clock
        assert said_pattern(paused).search(away.content), away.content
        aborted = await fake.run_command(table.alice, thread, "dvonn abort")
        assert aborted.message is not None or aborted.content, aborted
        stored = await bot.service.get_game(game.id)
        assert stored.status.value == "aborted"  # at once: the bot agrees
        await asyncio.sleep(0.2)
        assert_never_mentions_itself(table, thread)
