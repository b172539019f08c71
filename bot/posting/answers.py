"""Turns posted as the answer to the command that played them.

A move typed in the game's own thread or channel is answered with the turn's board, publicly,
pinging the player to move, instead of a private "You played …" and a separate channel post.
Discord's interaction endpoints (the answer, followups, and editing or deleting the answer
through its webhook) are outside the bot's global rate limit of 50 requests a second, which a
channel post counts against: a turn answered this way costs no request of that budget, and
nor does deleting the placement board it replaces while that board's token lasts.

Discord takes an answer within 3 seconds of the command, once. So the board must be drawn in
time: :class:`Answer` is claimed once, either by the outbox's deliverer with the board ready
(:meth:`Answer.take`), or by the command when the deadline draws near without it
(:meth:`Answer.close`: then it answers privately and the board is posted in the channel as
before). What keeps the board from being posted twice, after a crash between the answer and
its row's mark, is the route kept with the row (:func:`answer_route`): a later try asks Discord
for the interaction's answer first (:meth:`bot.posting.publisher.Publisher.answered_board`).
"""

from __future__ import annotations

import enum
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

import discord

ANSWER_WITHIN: Final = 2.0
"""Seconds after a command within which the deliverer may still answer it with the board:
Discord's 3, less the time the answer takes to get there."""
ROUTE_LASTS: Final = timedelta(minutes=14)
"""How long an interaction's token can still be used (to answer, follow up, or edit or delete
its messages): Discord's 15 minutes, less a margin for the clocks of two machines."""
ORIGINAL: Final[Any] = "@original"
"""The interaction's answer, where Discord's webhook routes take a message id (discord.py's
``Webhook`` methods put it into the path as given)."""


class AnswerState(enum.Enum):
    OPEN = "open"
    TAKEN = "taken"
    """The deliverer answers with the board."""
    CLOSED = "closed"
    """The command answers itself (privately): the board goes to the channel."""


class Answer:
    """The command whose answer the turn's board may be: claimed once, by whichever side
    first can (the event loop runs one side at a time between awaits)."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction
        self.state = AnswerState.OPEN
        self._age_then = self._discord_age()
        self._then = time.monotonic()

    @property
    def age(self) -> float:
        """Seconds since Discord made the interaction: by its id's time, and at least the time
        since this was made at the age it had then (the bot's clock may lag Discord's)."""
        since = time.monotonic() - self._then
        return max(self._discord_age(), max(self._age_then, 0.0) + since)

    def _discord_age(self) -> float:
        return (discord.utils.utcnow() - self.interaction.created_at).total_seconds()

    @property
    def left(self) -> float:
        """Seconds left to answer with the board."""
        return ANSWER_WITHIN - self.age

    def take(self) -> bool:
        """For the deliverer, the board drawn: ``True`` if it may answer with it now."""
        if self.state is AnswerState.OPEN and self.left > 0:
            self.state = AnswerState.TAKEN
            return True
        if self.state is AnswerState.OPEN:
            self.state = AnswerState.CLOSED  # too late: the command answers itself
        return False

    def close(self) -> bool:
        """For the command: ``True`` if the board will not be the answer (the command must
        answer); ``False`` if the deliverer took it."""
        if self.state is AnswerState.TAKEN:
            return False
        self.state = AnswerState.CLOSED
        return True


@dataclass(frozen=True, slots=True)
class AnswerRoute:
    """A stored way back to an interaction: its id (and so its time), application and token."""

    interaction_id: int
    application_id: int
    token: str

    @classmethod
    def parse(cls, text: str) -> AnswerRoute:
        interaction_id, application_id, token = text.split(":", 2)
        return cls(int(interaction_id), int(application_id), token)

    def lasts(self, now: datetime | None = None) -> bool:
        """Whether its token can still be used."""
        made = discord.utils.snowflake_time(self.interaction_id)
        return (now or discord.utils.utcnow()) - made < ROUTE_LASTS

    def webhook(self, client: discord.Client) -> discord.Webhook:
        """The interaction's webhook."""
        return interaction_webhook(client, self.application_id, self.token)


def interaction_webhook(client: discord.Client, application_id: int, token: str) -> discord.Webhook:
    """An interaction's webhook, from its application and token: the same one discord.py's
    ``Interaction.followup`` makes, so it may carry buttons."""
    payload: Any = {"id": application_id, "type": 3, "token": token}
    return discord.Webhook.from_state(data=payload, state=client._connection)


def as_edit(send: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments for ``send`` (``followup.send``, ``Messageable.send``) made into those
    of an edit (``edit_original_response``, ``Webhook.edit_message``): its ``file`` or
    ``files`` become ``attachments``; ``ephemeral``, ``silent`` and ``wait`` are dropped (the
    visibility of a deferred answer is the defer's; an edit pings nobody).

    A deferred answer is finished by editing it: Discord documents a followup that fills in the
    "thinking…" message as deprecated ("you should use the Edit Original Interaction Response
    endpoint in this case instead")."""
    edit = {
        k: v for k, v in send.items() if k not in ("file", "files", "ephemeral", "silent", "wait")
    }
    files = [*([send["file"]] if send.get("file") is not None else []), *send.get("files", ())]
    if files:
        edit["attachments"] = files
    return edit


def answer_route(interaction: discord.Interaction[Any]) -> str:
    """The route the game service keeps with a turn that ``interaction`` may answer."""
    return f"{interaction.id}:{interaction.application_id}:{interaction.token}"


def is_answer(message: discord.Message) -> bool:
    """Whether a game's post was made through an interaction (an answer, found again or made
    now) rather than posted in the channel: then its route deletes it later."""
    return isinstance(message, (discord.InteractionMessage, discord.WebhookMessage))
