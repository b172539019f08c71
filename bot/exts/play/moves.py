"""Playing a move and telling the mover: the one path for a typed command and a tapped picker."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Final, Protocol

import discord

import rules
from bot.games.core.models import Game
from bot.games.core.results import MoveOutcome
from bot.games.service import GameService
from bot.i18n import Text
from bot.interactions import events
from bot.interactions.places import may_post, remember_reply_route
from bot.posting.answers import Answer, answer_route
from bot.posting.outbox import REPLY_WAIT, Deliverer
from bot.posting.publisher import Publisher
from bot.posting.texts import played_reply

log = logging.getLogger(__name__)

LATE: Final = 2.3
"""Seconds after Discord made a move's interaction by which it is acknowledged, whatever is
still under way: Discord drops an interaction not answered within 3 seconds, and the bot, busy
with many moves at once, may still be waiting for the database or for the board then (past
:data:`~bot.posting.answers.ANSWER_WITHIN`, the board is no longer the answer anyway)."""


class Acknowledgement:
    """A move's interaction deferred once, by whichever comes first: the command, when the
    board will not be its answer, or the guard, :data:`LATE` seconds after Discord made it.
    Either may wait for the other's defer (its answer is edited only once it is made)."""

    def __init__(
        self, interaction: discord.Interaction[Any], *, ephemeral: bool, thinking: bool
    ) -> None:
        self._interaction = interaction
        self._ephemeral = ephemeral
        self._thinking = thinking
        self._deferred: asyncio.Future[Any] | None = None

    async def defer(self) -> None:
        if self._deferred is None:
            self._deferred = asyncio.ensure_future(
                self._interaction.response.defer(ephemeral=self._ephemeral, thinking=self._thinking)
            )
        await asyncio.shield(self._deferred)

    async def settled(self) -> None:
        """Wait for a defer under way, if any (its failure is the command's next answer's)."""
        if self._deferred is not None:
            with contextlib.suppress(discord.HTTPException):
                await asyncio.shield(self._deferred)

    async def guard(self, answer: Answer) -> None:
        """Defer at :data:`LATE` seconds unless the command is answered by then (or the
        deliverer took its answer for the board)."""
        await asyncio.sleep(max(LATE - answer.age, 0.0))
        if self._deferred is not None or self._interaction.response.is_done():
            return
        if answer.close():
            log.info("%s deferred at %.1f s: the bot is busy", self._interaction.id, answer.age)
            await self.defer()


class Services(Protocol):
    """What playing a move needs: the play feature's cog has them, and so has the bot."""

    @property
    def service(self) -> GameService: ...

    @property
    def publisher(self) -> Publisher: ...

    @property
    def deliverer(self) -> Deliverer: ...


async def play_and_report(
    host: Services,
    interaction: discord.Interaction[Any],
    game: Game,
    move: rules.Move | str,
    *,
    expected_version: int | None = None,
    in_picker: bool = False,
) -> None:
    """Play ``move`` for the interaction's user, and answer.

    The move is committed first (milliseconds), with its post in the outbox. A command typed in
    the game's own thread or channel is answered with the turn's board itself, pinging the
    player to move, if the board is ready within Discord's three seconds (it almost always is:
    see :mod:`bot.posting.answers`, and why that costs no request of the bot's global rate
    limit). Otherwise, and for a tap in the mover's private picker (``in_picker``: its message
    becomes the answer), the reply is deferred and says privately where the board is; the
    turn is then posted as a new message, because Discord pings nobody for mentions edited
    into a deferred reply, and the next player must be pinged.
    """
    answer = Answer(interaction)
    # Where the bot can only answer, the board is the answer, for both players to see; a tap in
    # the picker answers by its own message; else the mover is told privately.
    ack = Acknowledgement(
        interaction,
        ephemeral=not game.private and not in_picker,
        thinking=game.private or not in_picker,
    )
    guard = asyncio.create_task(ack.guard(answer))
    try:
        await _play_and_report(
            host,
            interaction,
            game,
            move,
            answer=answer,
            ack=ack,
            expected_version=expected_version,
            in_picker=in_picker,
        )
    finally:
        guard.cancel()
        await ack.settled()  # a refusal's answer waits for a defer under way


async def _play_and_report(
    host: Services,
    interaction: discord.Interaction[Any],
    game: Game,
    move: rules.Move | str,
    *,
    answer: Answer,
    ack: Acknowledgement,
    expected_version: int | None,
    in_picker: bool,
) -> None:
    service, publisher, deliverer = host.service, host.publisher, host.deliverer
    await remember_reply_route(service, interaction, game)
    answering = (
        not game.private and not in_picker and await _in_its_place(service, interaction, game)
    )
    lost = game.channel_lost_at is not None and not game.network
    if answering and lost and may_post(interaction, game):
        await service.regain_channel(game.id)  # a moderator gave the bot its permissions back
    outcome = await service.play(
        game.id,
        interaction.user.id,
        move,
        expected_version=expected_version,
        answer=answer_route(interaction) if answering else None,
    )
    saved = outcome.game
    if answering and answer.left > 0:
        interaction.client.dispatch(events.TURN, saved)
        sent = await deliverer.announce(
            outcome.announcement, game_id=saved.id, timeout=max(answer.left, 0.0), answer=answer
        )
        if not answer.close():
            await _answered(interaction, host, outcome, sent)
            return
        await ack.defer()
    else:
        answer.close()
        await ack.defer()
        interaction.client.dispatch(events.TURN, saved)
    sent = await deliverer.announce(outcome.announcement, game_id=saved.id, timeout=REPLY_WAIT)
    if game.private and sent is not None:
        return  # the board answered
    reply = _played_reply(outcome, sent)
    await interaction.edit_original_response(
        content=publisher.private_reader(interaction)(reply), view=None
    )


async def _in_its_place(
    service: GameService, interaction: discord.Interaction[Any], game: Game
) -> bool:
    """Whether the command was used where the game's posts go: its thread or channel, or, for a
    network game, one of its homes (the lookup let only the mover's own through), whose post
    of the turn is then the command's answer."""
    if not game.network:
        return interaction.channel_id == game.channel_id
    homes = await service.network.games.homes(game.id)
    return any(h.channel_id == interaction.channel_id and h.lost_at is None for h in homes)


async def _answered(
    interaction: discord.Interaction[Any],
    host: Services,
    outcome: MoveOutcome,
    sent: discord.Message | None,
) -> None:
    """The deliverer took the command's answer for the board: wait for it to be made; if it
    could not be (Discord refused it), say privately that the board follows, while the
    interaction still takes an answer."""
    if sent is None:
        sent = await host.deliverer.announce(
            outcome.announcement, game_id=outcome.game.id, timeout=REPLY_WAIT
        )
    if interaction.response.is_done():
        return
    reader = host.publisher.private_reader(interaction)
    try:
        await interaction.response.send_message(
            reader(_played_reply(outcome, sent)), ephemeral=True
        )
    except discord.HTTPException:
        log.warning("game %s: the command that played it went unanswered", outcome.game.id)


def _played_reply(outcome: MoveOutcome, sent: discord.Message | None) -> Text:
    """The mover's private reply: what they played, and where the board is."""
    return played_reply(
        outcome.move.text, None if sent is None else sent.jump_url, outcome.game.channel_id
    )
