"""Restarts, dropped connections and shutdown: nothing is lost, buttons keep working."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import rules
from bot.app import DvonnBot
from bot.i18n import _
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import play_turn, said, says_played
from tests.bot.e2e.test_game import accept

RESTARTING = _("The bot is restarting: try again in a minute. Nothing was lost.")


async def test_a_challenge_survives_a_restart(table: Table, bot_runner: BotRunner) -> None:
    fake = table.fake
    async with bot_runner.run():
        challenge = await fake.run_command(
            table.alice, table.games, "dvonn challenge", {"opponent": table.bob}
        )
    assert challenge.message is not None
    # A new process on the same database, no command sync: the old Accept button still works.
    async with bot_runner.run(sync=False):
        thread = await accept(table, challenge.message, table.bob)
        assert thread in fake.threads_in(table.games)


@pytest.mark.slow
async def test_a_game_survives_a_restart(table: Table, bot_runner: BotRunner) -> None:
    fake = table.fake
    async with bot_runner.run():
        challenge = await fake.run_command(
            table.alice, table.games, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
        )
        assert challenge.message is not None
        thread = await accept(table, challenge.message, table.bob)
        await play_turn(fake, table.alice, thread, rules.parse_move("E3"))
        await play_turn(fake, table.bob, thread, rules.parse_move("F3"))
    async with bot_runner.run(sync=False) as bot:
        turn = await play_turn(fake, table.alice, thread, rules.parse_move("G3"))
        assert turn.post is not None and turn.post.pinged_user_ids == {table.bob.id}
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None
        assert [str(m.move) for m in (await bot.service.record(game.id)).moves] == [
            "E3",
            "F3",
            "G3",
        ]


@pytest.mark.slow
async def test_resign_button_works_after_a_restart(table: Table, bot_runner: BotRunner) -> None:
    fake = table.fake
    async with bot_runner.run():
        challenge = await fake.run_command(
            table.alice, table.games, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
        )
        assert challenge.message is not None
        thread = await accept(table, challenge.message, table.bob)
        asked = await fake.run_command(table.bob, thread, "dvonn resign")
        assert asked.ephemeral and asked.message is not None
    async with bot_runner.run(sync=False) as bot:
        done = await fake.click(
            table.bob, asked.message, label=said(_("Resign game #{game}"), game=1)
        )
        assert said(_("You resigned game #{game}."), game=1) in done.content
        resigned = said(_("{loser} resigned: {winner} wins."), loser="bob", winner="alice")
        post = await fake.wait_for_message(thread, lambda m: resigned in str(m.embeds))
        assert post.pinged_user_ids == {table.alice.id, table.bob.id}
        game = await bot.service.get_game(1)
        assert not game.is_active and game.ended_by == table.bob.id


async def test_a_dropped_gateway_is_resumed_and_no_interaction_is_lost(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    challenge = await fake.run_command(
        table.alice, table.games, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
    )
    assert challenge.message is not None
    thread = await accept(table, challenge.message, table.bob)
    await fake.drop_gateway()
    # Sent while the bot is reconnecting: delivered on RESUME, answered in time.
    pending = fake.send_command(table.alice, thread, "dvonn place", {"cell": "E3"})
    await fake.wait_for_resume()
    await pending.wait_response()
    reply = await pending.settled()
    assert says_played(reply, "E3"), reply.content
    turn = await play_turn(fake, table.bob, thread, rules.parse_move("F3"))
    assert turn.post is not None


@pytest.mark.slow
async def test_shutdown_finishes_what_is_in_flight_then_closes_the_database(
    table: Table, bot_runner: BotRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = table.fake
    async with bot_runner.run() as bot:
        challenge = await fake.run_command(
            table.alice, table.games, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
        )
        assert challenge.message is not None
        thread = await accept(table, challenge.message, table.bob)
        # Hold the next move inside the service, so it is surely in flight during shutdown.
        entered, release = asyncio.Event(), asyncio.Event()
        play = bot.service.play

        async def held_play(*args: Any, **kwargs: Any) -> Any:
            entered.set()
            await release.wait()
            return await play(*args, **kwargs)

        monkeypatch.setattr(bot.service, "play", held_play)
        pending = fake.send_command(table.alice, thread, "dvonn place", {"cell": "E3"})
        await asyncio.wait_for(entered.wait(), 5)
        closing = asyncio.create_task(bot.close())
        await asyncio.sleep(0.05)
        assert not closing.done()  # waiting for the move in flight
        late = await fake.run_command(table.bob, thread, "dvonn games")
        assert said(RESTARTING) in late.content  # no new work meanwhile
        release.set()
        await pending.wait_response()
        reply = await pending.settled()
        await closing
        assert says_played(reply, "E3"), reply.content
    async with bot_runner.run(sync=False) as again:
        game = await again.service.game_in_channel(thread.id)
        assert game is not None and game.position.ply == 1


async def test_commands_during_shutdown_are_refused_politely(
    table: Table, bot_runner: BotRunner
) -> None:
    async with bot_runner.run() as bot:
        bot.accepting = False  # as close() does first
        reply = await table.fake.run_command(table.alice, table.games, "dvonn games")
        assert reply.ephemeral and said(RESTARTING) in reply.content
        bot.accepting = True
