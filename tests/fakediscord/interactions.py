"""Interactions: what the fake sent the bot, what the bot answered, and the tests' view of it.

An :class:`InteractionRecord` is the fake's server-side state of one interaction (its token, its
deadline, the response and followups). An :class:`InteractionResult` is what a test gets back
from ``run_command`` / ``click``: a live view over the record with the reply's content, embeds,
files and followups, and ways to wait for a deferred reply.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.fakediscord.messages import RecordedFile, RecordedMessage

if TYPE_CHECKING:
    from tests.fakediscord.models import FakeChannel, FakeGuild, FakeUser

Json = dict[str, Any]


class InteractionType(enum.IntEnum):
    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    APPLICATION_COMMAND_AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class ResponseType(enum.IntEnum):
    """Interaction callback types."""

    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9
    LAUNCH_ACTIVITY = 12


# Which callbacks Discord accepts for which interaction (the others get a 400).
ALLOWED_RESPONSES: dict[InteractionType, frozenset[ResponseType]] = {
    InteractionType.APPLICATION_COMMAND: frozenset(
        {ResponseType.CHANNEL_MESSAGE, ResponseType.DEFERRED_CHANNEL_MESSAGE, ResponseType.MODAL}
    ),
    InteractionType.MESSAGE_COMPONENT: frozenset(
        {
            ResponseType.CHANNEL_MESSAGE,
            ResponseType.DEFERRED_CHANNEL_MESSAGE,
            ResponseType.DEFERRED_UPDATE_MESSAGE,
            ResponseType.UPDATE_MESSAGE,
            ResponseType.MODAL,
        }
    ),
    InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE: frozenset({ResponseType.AUTOCOMPLETE_RESULT}),
    InteractionType.MODAL_SUBMIT: frozenset(
        {
            ResponseType.CHANNEL_MESSAGE,
            ResponseType.DEFERRED_CHANNEL_MESSAGE,
            ResponseType.DEFERRED_UPDATE_MESSAGE,
            ResponseType.UPDATE_MESSAGE,
        }
    ),
}


@dataclass(frozen=True, slots=True)
class Choice:
    """An autocomplete suggestion."""

    name: str
    value: str | int | float


@dataclass(frozen=True, slots=True)
class RejectedCall:
    """A call about an interaction that the fake refused, as Discord would have."""

    method: str
    path: str
    status: int
    code: int
    message: str
    seconds_after_creation: float


@dataclass(frozen=True, slots=True)
class DeprecatedCall:
    """A call about an interaction that Discord still carries out but documents as deprecated:
    the tests fail on it (see :func:`tests.fakediscord.fixtures.discord_fake`)."""

    method: str
    path: str
    label: str
    """The interaction's, as :attr:`InteractionRecord.label`."""
    instead: str
    """What Discord's documentation says to use instead."""


class InteractionFailed(AssertionError):
    """The bot did not answer an interaction the way a user needs (no reply, still thinking)."""


@dataclass(eq=False)
class InteractionRecord:
    """The fake's state of one interaction."""

    id: int
    token: str
    type: InteractionType
    user: FakeUser
    channel: FakeChannel
    guild: FakeGuild | None
    payload: Json  # the INTERACTION_CREATE data as dispatched
    created_at: float  # on the fake's clock
    label: str  # "/dvonn move from:E3 to:F4", "click dvonn:7:accept" (for messages)
    component_message_id: int | None = None
    focused_option_type: int | None = None  # autocomplete: the type of the focused option
    session_id: str | None = None  # the gateway session it was dispatched to
    # In a server the app is not installed in, a member without Send Messages or Use External
    # Apps there sees the app's replies to them as ephemeral ones.
    forced_ephemeral: bool = False

    response_type: ResponseType | None = None
    responded_at: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[Choice] | None = None
    modal: Json | None = None
    rejected: list[RejectedCall] = field(default_factory=list)

    @property
    def delivered(self) -> bool:
        return self.session_id is not None

    @property
    def owners(self) -> dict[str, str]:
        """``authorizing_integration_owners``: ``{"0": guild id or "0", "1": installing user}``."""
        return dict(self.payload.get("authorizing_integration_owners", {}))

    @property
    def context(self) -> int | None:
        """The interaction context: 0 guild, 1 the bot's DM, 2 a private channel."""
        value = self.payload.get("context")
        return None if value is None else int(value)

    @property
    def user_install_only(self) -> bool:
        """Authorized by a user install alone (no guild install where it happened)."""
        return self.owners.keys() == {"1"}

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the initial response."""
        return None if self.responded_at is None else self.responded_at - self.created_at


class InteractionResult:
    """What a test sees of an interaction it started: the reply and what followed it.

    Attributes read the live state, so after ``await result.settled()`` or a followup they show
    the newest content. ``message`` is the original response: the reply message for a
    ``CHANNEL_MESSAGE`` or deferred response, or the clicked message for an update.
    """

    def __init__(
        self,
        record: InteractionRecord,
        *,
        lookup: Callable[[int], RecordedMessage],
        wait_until: Callable[..., Any],
        deadline: Callable[[], float],
        now: Callable[[], float],
    ) -> None:
        self.record = record
        self._lookup = lookup
        self._wait_until = wait_until
        self._deadline = deadline
        self._now = now

    # -- identity and the initial response --------------------------------------------------------

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def response_type(self) -> ResponseType | None:
        return self.record.response_type

    @property
    def responded(self) -> bool:
        return self.record.response_type is not None

    @property
    def timed_out(self) -> bool:
        """No response within the deadline: the user saw "The application did not respond"."""
        return not self.responded and self._now() - self.record.created_at > self._deadline()

    @property
    def latency(self) -> float | None:
        return self.record.latency

    @property
    def rejected(self) -> list[RejectedCall]:
        """Calls the bot made for this interaction that Discord refused (late, duplicate...)."""
        return list(self.record.rejected)

    @property
    def deferred(self) -> bool:
        return self.record.response_type in (
            ResponseType.DEFERRED_CHANNEL_MESSAGE,
            ResponseType.DEFERRED_UPDATE_MESSAGE,
        )

    # -- the reply --------------------------------------------------------------------------------

    @property
    def message(self) -> RecordedMessage | None:
        mid = self.record.original_message_id
        return None if mid is None else self._lookup(mid)

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[Json]:
        return self.message.embeds if self.message else []

    @property
    def files(self) -> list[RecordedFile]:
        return self.message.files if self.message else []

    @property
    def components(self) -> list[Json]:
        return self.message.components if self.message else []

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def followups(self) -> list[RecordedMessage]:
        return [self._lookup(mid) for mid in self.record.followup_ids]

    @property
    def messages(self) -> list[RecordedMessage]:
        """The reply (if it is a message of its own) and every followup, in order."""
        own = self.message
        first = [own] if own is not None and own.interaction_id == self.record.id else []
        return first + self.followups

    @property
    def choices(self) -> list[Choice]:
        return list(self.record.choices or [])

    @property
    def modal(self) -> Json | None:
        return self.record.modal

    # -- waiting ----------------------------------------------------------------------------------

    async def wait_response(self, *, timeout: float | None = None) -> InteractionResult:
        """Wait for the initial response, at most until the deadline has passed."""
        limit = timeout if timeout is not None else self._remaining() + 0.05
        await self._wait_until(
            lambda: self.responded,
            timeout=max(limit, 0.0),
            what=f"a response to {self.record.label}",
            raise_on_timeout=False,
        )
        return self

    async def settled(self, *, timeout: float = 10.0) -> InteractionResult:
        """Wait until a deferred "thinking..." reply has been filled in, or deleted and
        followed up (what the bot said is then in :attr:`followups`); a no-op for other
        replies."""
        if self.record.response_type is not ResponseType.DEFERRED_CHANNEL_MESSAGE:
            return self

        def answered() -> bool:
            message = self.message
            if message is None:
                return False
            return not message.loading or (message.deleted and bool(self.record.followup_ids))

        await self._wait_until(
            answered,
            timeout=timeout,
            what=f"the deferred reply to {self.record.label} to be filled in",
            failure=InteractionFailed,
        )
        return self

    async def wait_for_followups(
        self, count: int = 1, *, timeout: float = 10.0
    ) -> list[RecordedMessage]:
        """Wait until at least ``count`` followup messages exist; returns all of them."""
        await self._wait_until(
            lambda: len(self.record.followup_ids) >= count,
            timeout=timeout,
            what=f"{count} followup(s) to {self.record.label}",
        )
        return self.followups

    def require_response(self) -> InteractionResult:
        """Raise :class:`InteractionFailed` unless the bot answered in time."""
        if not self.responded:
            refused = "; ".join(
                f"{r.method} {r.path} -> {r.code} {r.message}" for r in self.record.rejected
            )
            raise InteractionFailed(
                f"The application did not respond to {self.record.label} within "
                f"{self._deadline():g} s" + (f" (Discord refused: {refused})" if refused else "")
            )
        return self

    def _remaining(self) -> float:
        return self.record.created_at + self._deadline() - self._now()

    def __repr__(self) -> str:
        kind = self.response_type.name if self.response_type else "no response"
        parts = [f"{self.record.label!r}", kind]
        if self.message is not None:
            parts.append(repr(self.message))
        if self.record.followup_ids:
            parts.append(f"{len(self.record.followup_ids)} followup(s)")
        if self.record.choices is not None:
            parts.append(f"choices={[c.name for c in self.record.choices]}")
        return f"InteractionResult({', '.join(parts)})"


def describe_options(values: Sequence[tuple[str, Any]]) -> str:
    """``from:E3 to:F4`` as Discord shows an invocation."""
    shown = []
    for name, value in values:
        text = getattr(value, "mention", None) or str(value)
        shown.append(f"{name}:{text}")
    return " ".join(shown)
