"""Playing a move and telling the mover: the one path for a typed command and a tapped picker."""

from __future__ import annotations

from typing import Any, Protocol

import discord

import rules
from bot.games import Game, GameService
from bot.i18n import Text, _, n_
from bot.interactions import events
from bot.interactions.places import remember_reply_route
from bot.posting.outbox import REPLY_WAIT, Deliverer
from bot.posting.publisher import Publisher


def stack_label(position: rules.Position, cell: int) -> Text:
    """A stack to move, as the menus and the autocomplete name it."""
    return n_(
        "{cell}: a single piece",
        "{cell}: a stack of {count}",
        len(position.stacks[cell]),
        cell=rules.cell_name(cell),
    )


def pieces_cut(position: rules.Position, source: int, target: int) -> int:
    """How many pieces the jump from ``source`` to ``target`` cuts off the board."""
    return rules.apply(position, rules.jump(source, target)).pieces_removed


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
    """Play ``move`` for the interaction's user, then answer privately with a link to the board.

    The move is committed first (milliseconds), with its post in the outbox; then the reply is
    deferred so that Discord's three seconds cannot run out while the board renders. The turn is
    posted as a new message, because Discord pings nobody for mentions that a followup edits
    into a deferred reply, and the next player must be pinged. ``in_picker``: the interaction
    is a tap in the mover's private picker, whose message becomes the answer.
    """
    service, publisher, deliverer = host.service, host.publisher, host.deliverer
    await remember_reply_route(service, interaction, game)
    outcome = await service.play(
        game.id, interaction.user.id, move, expected_version=expected_version
    )
    if game.private:
        # Where the bot can only answer, the board is the answer, for both players to see.
        await interaction.response.defer(thinking=True)
    elif in_picker:
        await interaction.response.defer()  # the picker's own message is the answer
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    saved = outcome.game
    interaction.client.dispatch(events.TURN, saved)
    sent = await deliverer.announce(outcome.announcement, game_id=saved.id, timeout=REPLY_WAIT)
    if game.private and sent is not None:
        return  # the board answered
    reader = publisher.private_reader(interaction)
    played = outcome.move.text
    reply = (
        _("You played {move}. [See the board]({link})", move=played, link=sent.jump_url)
        if sent is not None
        else _(
            "You played {move}. The board is on its way to <#{channel}>.",
            move=played,
            channel=saved.channel_id,
        )
    )
    await interaction.edit_original_response(content=reader(reply), view=None)
