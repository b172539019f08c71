"""Playing a move and telling the mover: the one path for a typed command and a tapped picker."""

from __future__ import annotations

import logging
from typing import Any, Protocol

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
    if answering:
        answer = Answer(interaction)
        interaction.client.dispatch(events.TURN, saved)
        sent = await deliverer.announce(
            outcome.announcement, game_id=saved.id, timeout=max(answer.left, 0.0), answer=answer
        )
        if not answer.close():
            await _answered(interaction, host, outcome, sent)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
    else:
        if game.private:
            # Where the bot can only answer, the board is the answer, for both players to see.
            await interaction.response.defer(thinking=True)
        elif in_picker:
            await interaction.response.defer()  # the picker's own message is the answer
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
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
