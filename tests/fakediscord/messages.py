"""Messages the bot posted, as the fake records them, and the rules Discord applies to them.

A :class:`RecordedMessage` is live: edits change it in place and keep the earlier states in
``revisions``. Its files keep their bytes, so a test can open the board image the bot attached.
"""

from __future__ import annotations

import enum
import re
import struct
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Final

from tests.fakediscord.errors import ErrorTree, error_leaf, invalid_form_body

Json = dict[str, Any]


class MessageFlag(enum.IntFlag):
    """Message flags the fake looks at (Discord's values)."""

    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


class MessageType(enum.IntEnum):
    DEFAULT = 0
    THREAD_CREATED = 18
    REPLY = 19
    CHAT_INPUT_COMMAND = 20
    THREAD_STARTER_MESSAGE = 21


class MessageSource(enum.Enum):
    """How the bot produced a message."""

    CHANNEL = "channel"  # POST /channels/{id}/messages (DMs included)
    INTERACTION_RESPONSE = "interaction response"  # the callback (type 4 or 5)
    FOLLOWUP = "followup"  # POST /webhooks/{app}/{token}
    SYSTEM = "system"  # made by Discord itself, e.g. "started a thread"


# Documented limits (https://discord.com/developers/docs/resources/message).
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR_NAME = 256
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_SELECT_PLACEHOLDER = 150
MAX_SELECT_VALUES = 25  # min_values 0 to 25, max_values 1 to 25
MAX_OPTION_TEXT = 100  # an option's label, value and description
MAX_FILES = 10
MAX_ATTACHMENT_DESCRIPTION = 1024  # alt text
MAX_ALLOWED_MENTION_IDS = 100

COMPONENT_ACTION_ROW = 1
COMPONENT_BUTTON = 2
SELECT_STRING = 3
SELECT_TYPES = frozenset({SELECT_STRING, 5, 6, 7, 8})
BUTTON_LINK = 5
BUTTON_PREMIUM = 6

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")
_EVERYONE = re.compile(r"@(everyone|here)\b")


@dataclass(eq=False)
class RecordedFile:
    """An uploaded attachment with its bytes, as the bot sent it."""

    id: int
    filename: str
    data: bytes
    content_type: str | None
    description: str | None
    url: str

    @property
    def size(self) -> int:
        return len(self.data)

    def image_size(self) -> tuple[int, int] | None:
        """Width and height if the bytes are a PNG (read from its IHDR chunk), else ``None``."""
        if self.data[:8] != b"\x89PNG\r\n\x1a\n" or len(self.data) < 24:
            return None
        width, height = struct.unpack(">II", self.data[16:24])
        return width, height

    def to_payload(self) -> Json:
        payload: Json = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            payload["description"] = self.description
        if (dims := self.image_size()) is not None:
            payload["width"], payload["height"] = dims
        return payload

    def __repr__(self) -> str:
        return f"RecordedFile({self.filename!r}, {self.size} bytes)"


@dataclass(frozen=True, slots=True)
class MessageRevision:
    """An earlier state of an edited message."""

    content: str
    embeds: list[Json]
    components: list[Json]
    files: list[RecordedFile]
    flags: int
    edited_at: datetime | None


@dataclass(frozen=True, slots=True)
class Pings:
    """Who a new message notifies, after ``allowed_mentions`` filtered its mentions."""

    user_ids: frozenset[int] = frozenset()
    role_ids: frozenset[int] = frozenset()
    everyone: bool = False


@dataclass(eq=False)
class RecordedMessage:
    """A message in a channel (or an ephemeral one shown to one user), as it is now."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    source: MessageSource
    type: MessageType
    created_at: datetime
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    files: list[RecordedFile] = field(default_factory=list)
    flags: int = 0
    tts: bool = False
    allowed_mentions: Json | None = None
    pings: Pings = field(default_factory=Pings)
    interaction_id: int | None = None
    visible_to: int | None = None  # the only user who sees an ephemeral message
    thread_id: int | None = None  # a thread started from this message
    message_reference: Json | None = None
    nonce: str | None = None
    edited_at: datetime | None = None
    deleted: bool = False
    revisions: list[MessageRevision] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Still the "Bot is thinking..." placeholder of a deferred response."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def silent(self) -> bool:
        return bool(self.flags & MessageFlag.SUPPRESS_NOTIFICATIONS)

    @property
    def pinged_user_ids(self) -> frozenset[int]:
        """Users this message notified when it was created (edits never notify)."""
        return self.pings.user_ids

    def pinged(self, user: Any) -> bool:
        """Whether ``user`` (anything with an ``id``) got a notification from this message."""
        return int(user.id) in self.pings.user_ids

    def embed_image(self, index: int = 0) -> RecordedFile | None:
        """The attached file that embed ``index`` shows as its image (``attachment://name``)."""
        if index >= len(self.embeds):
            return None
        url = str(self.embeds[index].get("image", {}).get("url", ""))
        return self.file_for_url(url)

    def file_for_url(self, url: str) -> RecordedFile | None:
        if url.startswith("attachment://"):
            name = url.removeprefix("attachment://")
            return next((f for f in self.files if f.filename == name), None)
        return next((f for f in self.files if f.url == url), None)

    def file(self, filename: str) -> RecordedFile | None:
        return next((f for f in self.files if f.filename == filename), None)

    def iter_components(self) -> Iterator[Json]:
        """Every component, nested ones included (rows, sections, containers...)."""
        yield from walk_components(self.components)

    def buttons(self) -> list[Json]:
        return [c for c in self.iter_components() if c.get("type") == COMPONENT_BUTTON]

    def component(self, custom_id: str) -> Json | None:
        return next((c for c in self.iter_components() if c.get("custom_id") == custom_id), None)

    def button_labelled(self, label: str) -> Json | None:
        return next((b for b in self.buttons() if b.get("label") == label), None)

    def snapshot(self) -> MessageRevision:
        return MessageRevision(
            content=self.content,
            embeds=list(self.embeds),
            components=list(self.components),
            files=list(self.files),
            flags=self.flags,
            edited_at=self.edited_at,
        )

    def __repr__(self) -> str:
        text = self.content if len(self.content) <= 40 else self.content[:37] + "..."
        extras = []
        if self.embeds:
            extras.append(f"{len(self.embeds)} embed(s)")
        if self.files:
            extras.append(f"files={[f.filename for f in self.files]}")
        if self.ephemeral:
            extras.append("ephemeral")
        if self.loading:
            extras.append("loading")
        more = ", " + ", ".join(extras) if extras else ""
        return f"RecordedMessage(id={self.id}, {text!r}{more})"


def walk_components(components: Sequence[Json]) -> Iterator[Json]:
    for component in components:
        yield component
        children = list(component.get("components", []))
        if "component" in component:  # a Label wraps one component
            children.append(component["component"])
        if "accessory" in component:  # a Section's button or thumbnail
            children.append(component["accessory"])
        yield from walk_components(children)


def compute_pings(
    content: str,
    allowed_mentions: Mapping[str, Any] | None,
    *,
    may_mention_everyone: bool,
    mentionable_role_ids: frozenset[int],
) -> Pings:
    """Who a new message with ``content`` notifies, as Discord decides it.

    Without ``allowed_mentions`` every mention in the text pings. With it, users ping only if
    ``"users"`` is in ``parse`` or their id is in ``users``; likewise roles; @everyone/@here only
    with ``"everyone"`` in ``parse``. @everyone also needs the Mention Everyone permission, and a
    role needs to be mentionable or the author to have that permission.
    """
    user_ids = {int(m) for m in _USER_MENTION.findall(content)}
    role_ids = {int(m) for m in _ROLE_MENTION.findall(content)}
    everyone = bool(_EVERYONE.search(content))
    if allowed_mentions is not None:
        parse = set(allowed_mentions.get("parse", []))
        allowed_users = {int(u) for u in allowed_mentions.get("users", [])}
        allowed_roles = {int(r) for r in allowed_mentions.get("roles", [])}
        user_ids = user_ids if "users" in parse else user_ids & allowed_users
        role_ids = role_ids if "roles" in parse else role_ids & allowed_roles
        everyone = everyone and "everyone" in parse
    if not may_mention_everyone:
        everyone = False
        role_ids &= mentionable_role_ids
    return Pings(frozenset(user_ids), frozenset(role_ids), everyone)


# --- validation -------------------------------------------------------------------------------


def check_allowed_mentions(allowed: Mapping[str, Any] | None) -> ErrorTree:
    """Discord rejects ``parse: ["users"]`` together with a ``users`` list (and roles alike)."""
    if not allowed:
        return {}
    errors: ErrorTree = {}
    parse = allowed.get("parse", [])
    for kind in ("users", "roles"):
        ids = allowed.get(kind, [])
        if kind in parse and ids:
            errors[kind] = error_leaf(
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
            )
        elif len(ids) > MAX_ALLOWED_MENTION_IDS:
            errors[kind] = _too_long(MAX_ALLOWED_MENTION_IDS)
    for value in parse:
        if value not in ("users", "roles", "everyone"):
            errors["parse"] = error_leaf(
                "BASE_TYPE_CHOICES", "Value must be one of users, roles, everyone."
            )
    return {"allowed_mentions": errors} if errors else {}


NONCE_WINDOW: Final = timedelta(minutes=3)
"""How long Discord recognises a message nonce with ``enforce_nonce`` ("the past few minutes")."""
MAX_NONCE: Final = 25


def check_nonce(nonce: object) -> str | None:
    """A create-message nonce as Discord takes it: an integer or a string of at most 25
    characters (compared as text); raises Invalid Form Body otherwise."""
    if nonce is None:
        return None
    if isinstance(nonce, bool) or not isinstance(nonce, int | str):
        raise invalid_form_body({"nonce": error_leaf("BASE_TYPE_BAD_TYPE", "Must be a nonce.")})
    text = str(nonce)
    if len(text) > MAX_NONCE:
        raise invalid_form_body({"nonce": _too_long(MAX_NONCE)})
    return text


def check_message_fields(payload: Mapping[str, Any], *, file_count: int) -> ErrorTree:
    """The documented limits for a message's content, embeds, components and files."""
    errors: ErrorTree = {}
    content = payload.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        errors["content"] = _too_long(MAX_CONTENT)
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        errors["embeds"] = _too_long(MAX_EMBEDS)
    else:
        errors |= _check_embeds(embeds)
    flags = int(payload.get("flags") or 0)
    components = payload.get("components") or []
    if not flags & MessageFlag.IS_COMPONENTS_V2:
        errors |= _check_components(components)
    if file_count > MAX_FILES:
        errors["files"] = _too_long(MAX_FILES)
    errors |= _check_attachments(payload.get("attachments") or [])
    errors |= check_allowed_mentions(payload.get("allowed_mentions"))
    return errors


def raise_if_invalid(errors: ErrorTree) -> None:
    if errors:
        raise invalid_form_body(errors)


def _too_long(limit: int) -> ErrorTree:
    return error_leaf("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _check_attachments(attachments: Sequence[Json]) -> ErrorTree:
    """An attachment's description (its alt text) takes at most 1,024 characters."""
    errors: ErrorTree = {}
    for index, attachment in enumerate(attachments):
        description = attachment.get("description")
        if isinstance(description, str) and len(description) > MAX_ATTACHMENT_DESCRIPTION:
            errors[str(index)] = {"description": _too_long(MAX_ATTACHMENT_DESCRIPTION)}
    return {"attachments": errors} if errors else {}


def _check_embeds(embeds: Sequence[Json]) -> ErrorTree:
    errors: ErrorTree = {}
    total = 0
    for index, embed in enumerate(embeds):
        problems: ErrorTree = {}
        limits = {"title": MAX_EMBED_TITLE, "description": MAX_EMBED_DESCRIPTION}
        for key, limit in limits.items():
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > limit:
                problems[key] = _too_long(limit)
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        if len(footer) > MAX_FOOTER:
            problems["footer"] = {"text": _too_long(MAX_FOOTER)}
        if len(author) > MAX_AUTHOR_NAME:
            problems["author"] = {"name": _too_long(MAX_AUTHOR_NAME)}
        fields = embed.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            problems["fields"] = _too_long(MAX_EMBED_FIELDS)
        for f_index, fld in enumerate(fields):
            name, value = str(fld.get("name", "")), str(fld.get("value", ""))
            total += len(name) + len(value)
            field_errors: ErrorTree = {}
            if not name or len(name) > MAX_FIELD_NAME:
                field_errors["name"] = _length_between(1, MAX_FIELD_NAME)
            if not value or len(value) > MAX_FIELD_VALUE:
                field_errors["value"] = _length_between(1, MAX_FIELD_VALUE)
            if field_errors:
                problems.setdefault("fields", {})[str(f_index)] = field_errors
        if problems:
            errors[str(index)] = problems
    if total > MAX_EMBED_TOTAL:
        return {
            "embeds": error_leaf(
                "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
            )
        }
    return {"embeds": errors} if errors else {}


def _length_between(low: int, high: int) -> ErrorTree:
    return error_leaf("BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def _check_components(rows: Sequence[Json]) -> ErrorTree:
    """Classic components: at most 5 action rows of 5 buttons or 1 select, unique custom_ids."""
    errors: ErrorTree = {}
    if len(rows) > MAX_ACTION_ROWS:
        return {"components": _too_long(MAX_ACTION_ROWS)}
    seen: set[str] = set()
    for r_index, row in enumerate(rows):
        row_errors: ErrorTree = {}
        if row.get("type") != COMPONENT_ACTION_ROW:
            row_errors["type"] = error_leaf(
                "UNION_TYPE_CHOICES", "Top-level components must be action rows."
            )
            errors[str(r_index)] = row_errors
            continue
        children = row.get("components") or []
        kinds = {c.get("type") for c in children}
        if not children:
            row_errors["components"] = _length_between(1, MAX_ROW_BUTTONS)
        elif kinds & SELECT_TYPES and len(children) > 1:
            row_errors["components"] = error_leaf(
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        elif len(children) > MAX_ROW_BUTTONS:
            row_errors["components"] = _too_long(MAX_ROW_BUTTONS)
        for c_index, child in enumerate(children):
            child_errors = _check_interactive(child, seen)
            if child_errors:
                row_errors.setdefault("components", {})[str(c_index)] = child_errors
        if row_errors:
            errors[str(r_index)] = row_errors
    return {"components": errors} if errors else {}


def _check_interactive(component: Json, seen: set[str]) -> ErrorTree:
    errors: ErrorTree = {}
    kind = component.get("type")
    custom_id = component.get("custom_id")
    if kind == COMPONENT_BUTTON:
        style = component.get("style")
        label = component.get("label") or ""
        if len(label) > MAX_BUTTON_LABEL:
            errors["label"] = _too_long(MAX_BUTTON_LABEL)
        if style == BUTTON_LINK:
            if not component.get("url"):
                errors["url"] = error_leaf("BASE_TYPE_REQUIRED", "This field is required")
            if custom_id is not None:
                errors["custom_id"] = error_leaf(
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A link button cannot have a custom_id",
                )
            return errors
        if style == BUTTON_PREMIUM:
            return errors
    elif kind not in SELECT_TYPES:
        return {
            "type": error_leaf(
                "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (2, 3, 5, 6, 7, 8).'
            )
        }
    else:
        errors |= _check_select(component)
    if not custom_id:
        errors["custom_id"] = error_leaf("BASE_TYPE_REQUIRED", "This field is required")
    elif len(custom_id) > MAX_CUSTOM_ID:
        errors["custom_id"] = _too_long(MAX_CUSTOM_ID)
    elif custom_id in seen:
        errors["custom_id"] = error_leaf(
            "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
        )
    else:
        seen.add(custom_id)
    return errors


def _check_select(select: Json) -> ErrorTree:
    """A select menu: its placeholder, how many values may be chosen, and (a string select)
    its options, each with a label and value of 1 to 100 characters and a description of at
    most 100."""
    errors: ErrorTree = {}
    placeholder = select.get("placeholder")
    if isinstance(placeholder, str) and len(placeholder) > MAX_SELECT_PLACEHOLDER:
        errors["placeholder"] = _too_long(MAX_SELECT_PLACEHOLDER)
    for key, low in (("min_values", 0), ("max_values", 1)):
        count = select.get(key)
        if count is None:
            continue
        if count < low:
            errors[key] = error_leaf(
                "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {low}."
            )
        elif count > MAX_SELECT_VALUES:
            errors[key] = error_leaf(
                "NUMBER_TYPE_MAX",
                f"int value should be less than or equal to {MAX_SELECT_VALUES}.",
            )
    if select.get("type") != SELECT_STRING:
        return errors
    options = select.get("options")
    if not options or len(options) > MAX_SELECT_OPTIONS:
        errors["options"] = _length_between(1, MAX_SELECT_OPTIONS)
        return errors
    for index, option in enumerate(options):
        problems: ErrorTree = {}
        for key in ("label", "value"):
            text = str(option.get(key) or "")
            if not text or len(text) > MAX_OPTION_TEXT:
                problems[key] = _length_between(1, MAX_OPTION_TEXT)
        description = option.get("description")
        if isinstance(description, str) and len(description) > MAX_OPTION_TEXT:
            problems["description"] = _too_long(MAX_OPTION_TEXT)
        if problems:
            errors.setdefault("options", {})[str(index)] = problems
    return errors


def is_empty(payload: Mapping[str, Any], *, file_count: int) -> bool:
    """Discord refuses a message with nothing to show (50006)."""
    return not (
        payload.get("content")
        or payload.get("embeds")
        or payload.get("components")
        or payload.get("sticker_ids")
        or payload.get("poll")
        or file_count
    )
