"""The bot as a player: it thinks in worker processes and posts its moves like a human.

A turn of the computer starts after the human's move is committed, and again after a restart
for every game where the bot was to move (the database says so, not memory). The engine's
process pool (the bot's, shared with reviews) keeps thinking off the event loop, and queues
requests fairly across games.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Final

import discord

import ai
from ai.engine import Engine
from bot.games.core.errors import GameChanged, GameFinished
from bot.games.core.leases import COMPUTER_TURNS, computer_turn
from bot.games.core.models import Game
from bot.games.service import GameService
from bot.i18n import _
from bot.interactions.inflight import InFlight
from bot.interactions.thinking import BUDGETS, HINT_LEVEL
from bot.posting.outbox import REPLY_WAIT, Deliverer
from bot.posting.publisher import Publisher

log = logging.getLogger(__name__)

THINKING_NOTICE_AFTER: Final = 1.5
"""Seconds of thought after which the game thread is told the bot is thinking."""


class ComputerPlayer:
    """Plays the bot's side of every game against it."""

    def __init__(
        self,
        service: GameService,
        publisher: Publisher,
        deliverer: Deliverer,
        inflight: InFlight,
        *,
        engine: Engine,
        thinking_time: Callable[[float], float] = lambda default: default,
    ) -> None:
        self._service = service
        self._publisher = publisher
        self._deliverer = deliverer
        self._inflight = inflight
        self._thinking_time = thinking_time  # the bot's rule: DvonnBot.thinking_time
        self._engine = engine
        self._thinking: dict[int, asyncio.Task[None]] = {}

    def budget(self, level: ai.Level) -> float:
        """Seconds to think per move at ``level``, within the operator's cap if one is set."""
        return self._thinking_time(BUDGETS[level])

    def is_thinking(self, game_id: int) -> bool:
        task = self._thinking.get(game_id)
        return task is not None and not task.done()

    def play_if_its_turn(self, game: Game) -> None:
        """Start the bot's turn in ``game`` in the background, if it is the bot's turn and it is
        not thinking about this game already."""
        if not game.is_active or not game.computer_to_move or self.is_thinking(game.id):
            return
        task = asyncio.create_task(self._turn(game), name=f"computer-game-{game.id}")
        self._thinking[game.id] = task
        task.add_done_callback(lambda _: self._thinking.pop(game.id, None))

    async def resume(self) -> int:
        """Think in every game where the bot is to move and no other process is thinking (after
        a restart, an error, or another process's death); how many games that was."""
        games = await self._service.games_with_computer_to_move()
        others = await self._service.leases.held_by_others(COMPUTER_TURNS)
        mine = [game for game in games if computer_turn(game.id) not in others]
        for game in mine:
            self.play_if_its_turn(game)
        return len(mine)

    async def wait_idle(self) -> None:
        """Until no game is being thought about (tests; shutdown)."""
        # Only unfinished tasks: a finished one stays listed until its done-callback runs, and
        # awaiting finished tasks never yields to the loop that would run it.
        while running := [task for task in self._thinking.values() if not task.done()]:
            await asyncio.gather(*running, return_exceptions=True)

    async def hint(self, game: Game) -> str:
        """A suggestion for the player to move, from a medium-strength search."""
        move = await self._engine.choose(
            game.position, HINT_LEVEL, self.budget(HINT_LEVEL) / 2, game=("hint", game.id)
        )
        return str(move)

    async def _turn(self, game: Game) -> None:
        async with self._inflight.track():
            async with self._service.leases.holding(computer_turn(game.id)) as ours:
                if not ours:
                    return  # another process is thinking about this game
                try:
                    game = await self._service.get_game(game.id)  # as it is now that it is ours
                    await self._play(game)
                except (GameChanged, GameFinished):
                    log.info("game %s changed while the bot was thinking; it looks again", game.id)
                except Exception:
                    log.exception("the bot could not play its turn in game %s", game.id)
                    return  # not again: the next poll or restart tries, so an error cannot loop
            # Look again once the lease is free: the game changed under the bot, or the opponent
            # answered while this turn still held the lease (posting the bot's move), so their
            # move found the bot thinking, here or in another process, and started nothing;
            # rather than leave the answer to the next poll, seconds later.
            again = await self._service.get_game(game.id)
        asyncio.get_running_loop().call_soon(self.play_if_its_turn, again)

    async def _play(self, game: Game) -> None:
        # The opponent's automatic passes may leave the bot to move again: go on until not.
        while game.is_active and game.computer_to_move:
            game = await self._play_once(game)

    async def _play_once(self, game: Game) -> Game:
        assert game.computer_id is not None
        level = ai.Level.parse(game.computer_level or HINT_LEVEL.value)
        thinking = asyncio.create_task(
            self._engine.choose(
                game.position,
                level,
                self.budget(level),
                seed=game.id * 1000 + game.ply,
                game=game.id,
            )
        )
        done, _pending = await asyncio.wait({thinking}, timeout=THINKING_NOTICE_AFTER)
        if not done:
            await self._say_thinking(game)
        move = await thinking
        outcome = await self._service.play(
            game.id, game.computer_id, move, expected_version=game.version
        )
        # Its post goes out before the bot thinks again (or, held up, later on its own: the
        # outbox keeps a game's posts in order either way). Not long: another process may be
        # the one posting it, which this one does not hear of, and meanwhile this turn holds
        # the game's lease, so that nobody else would move for the bot.
        await self._deliverer.announce(outcome.announcement, game_id=game.id, timeout=REPLY_WAIT)
        return outcome.game

    async def _say_thinking(self, game: Game) -> None:
        if game.private:
            return  # the bot may only answer there: its move will be the answer
        reader = await self._publisher.public_reader(game.guild_id)
        try:
            await self._publisher.send_text(game, reader(_("Thinking…")), silent=True)
        except discord.HTTPException:
            log.warning("could not say the bot is thinking in game %s", game.id, exc_info=True)

    async def close(self) -> None:
        """Stop thinking (the engine is the bot's: it closes it)."""
        for task in list(self._thinking.values()):
            task.cancel()
