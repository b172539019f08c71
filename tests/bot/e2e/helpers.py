"""Playing DVONN through the fake Discord as a user would."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

import rules
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeUser,
    InteractionResult,
    RecordedMessage,
)


@dataclass(frozen=True)
class Turn:
    """A move sent as a command: the private reply, and the public post (if it was accepted)."""

    reply: InteractionResult
    post: RecordedMessage | None


async def play_turn(
    fake: FakeDiscord,
    user: FakeUser,
    channel: FakeChannel,
    move: rules.Move,
    *,
    typed: bool = False,
) -> Turn:
    """Send ``move`` and wait for the turn's post in ``channel`` (none if refused)."""
    before = fake.last_message(channel)
    reply = await send_move(fake, user, channel, move, typed=typed)
    if "You played" not in reply.content:
        return Turn(reply, None)
    post = await fake.wait_for_message(
        channel, lambda m: m.embed_image() is not None and not m.ephemeral, after=before
    )
    return Turn(reply, post)


async def send_move(
    fake: FakeDiscord,
    user: FakeUser,
    channel: FakeChannel,
    move: rules.Move,
    *,
    typed: bool = False,
) -> InteractionResult:
    """Play ``move`` with the command a player would use (``typed``: ``/dvonn play E3F4``)."""
    if typed or isinstance(move, rules.Pass):
        return await fake.run_command(user, channel, "dvonn play", {"move": str(move)})
    if isinstance(move, rules.Place):
        return await fake.run_command(
            user, channel, "dvonn place", {"cell": rules.CELL_NAMES[move.cell]}
        )
    return await fake.run_command(
        user,
        channel,
        "dvonn move",
        {"from": rules.CELL_NAMES[move.source], "to": rules.CELL_NAMES[move.target]},
    )


def board_image(message: RecordedMessage | None) -> Image.Image:
    """The board image attached to a message (fails if there is none)."""
    assert message is not None, "no message"
    attached = message.embed_image()
    assert attached is not None, f"no board image in {message.content!r} {message.embeds}"
    assert attached.filename == "board.png"
    image = Image.open(io.BytesIO(attached.data))
    image.load()
    return image
