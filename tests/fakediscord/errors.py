"""Discord's error responses: an HTTP status, a numeric JSON error code and a message.

Handlers raise :class:`DiscordError`; the server turns it into the JSON body Discord sends, which
discord.py parses into ``HTTPException.status`` / ``.code`` / ``.text``. Codes and messages are
those of Discord's documented JSON error codes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Nested like Discord's ``errors`` object: field path -> ... -> {"_errors": [{"code", "message"}]}.
ErrorTree = dict[str, Any]


class DiscordError(Exception):
    """An error response the fake sends instead of a success, shaped as Discord's."""

    def __init__(
        self, status: int, code: int, message: str, errors: ErrorTree | None = None
    ) -> None:
        super().__init__(f"{status} {message} (error code {code})")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        """The JSON body Discord sends with this error."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def unauthorized() -> DiscordError:
    return DiscordError(401, 0, "401: Unauthorized")


def not_found() -> DiscordError:
    """A route Discord does not have (or the fake does not implement yet)."""
    return DiscordError(404, 0, "404: Not Found")


def unknown_channel() -> DiscordError:
    return DiscordError(404, 10003, "Unknown Channel")


def unknown_guild() -> DiscordError:
    return DiscordError(404, 10004, "Unknown Guild")


def unknown_member() -> DiscordError:
    return DiscordError(404, 10007, "Unknown Member")


def unknown_message() -> DiscordError:
    return DiscordError(404, 10008, "Unknown Message")


def unknown_user() -> DiscordError:
    return DiscordError(404, 10013, "Unknown User")


def unknown_webhook() -> DiscordError:
    return DiscordError(404, 10015, "Unknown Webhook")


def unknown_interaction() -> DiscordError:
    """A callback for an interaction that expired (3 s) or does not exist."""
    return DiscordError(404, 10062, "Unknown interaction")


def unknown_command() -> DiscordError:
    return DiscordError(404, 10063, "Unknown application command")


def max_daily_command_creates(limit: int) -> DiscordError:
    return DiscordError(
        429, 30034, f"Max number of daily application command creates has been reached ({limit})"
    )


def request_too_large() -> DiscordError:
    return DiscordError(413, 40005, "Request entity too large")


def already_acknowledged() -> DiscordError:
    return DiscordError(400, 40060, "Interaction has already been acknowledged.")


def max_followups() -> DiscordError:
    """A user-installed app's sixth followup to one interaction."""
    return DiscordError(
        400, 40094, "This interaction has hit the maximum number of follow up messages"
    )


def missing_access() -> DiscordError:
    return DiscordError(403, 50001, "Missing Access")


def empty_message() -> DiscordError:
    return DiscordError(400, 50006, "Cannot send an empty message")


def cannot_dm_user() -> DiscordError:
    return DiscordError(403, 50007, "Cannot send messages to this user")


def missing_permissions() -> DiscordError:
    return DiscordError(403, 50013, "Missing Permissions")


def wrong_channel_type() -> DiscordError:
    return DiscordError(400, 50024, "Cannot execute action on this channel type")


def invalid_webhook_token() -> DiscordError:
    """What Discord answers once an interaction token is older than 15 minutes."""
    return DiscordError(401, 50027, "Invalid Webhook Token")


def invalid_recipients() -> DiscordError:
    return DiscordError(400, 50033, "Invalid Recipient(s)")


def thread_already_created() -> DiscordError:
    return DiscordError(400, 160004, "A thread has already been created for this message")


def invalid_form_body(errors: ErrorTree) -> DiscordError:
    """The 400 Discord sends when a payload breaks a documented limit."""
    return DiscordError(400, 50035, "Invalid Form Body", errors)


def error_leaf(code: str, message: str) -> ErrorTree:
    """One entry of an ``errors`` tree: ``{"_errors": [{"code": ..., "message": ...}]}``."""
    return {"_errors": [{"code": code, "message": message}]}


def flatten_errors(tree: Mapping[str, Any], prefix: str = "") -> dict[str, list[str]]:
    """``{"0.options.1.name": ["Must be 32 or fewer in length."]}``: handy in assertions."""
    flat: dict[str, list[str]] = {}
    for key, value in tree.items():
        if key == "_errors":
            flat.setdefault(prefix, []).extend(e["message"] for e in value)
        elif isinstance(value, Mapping):
            flat.update(flatten_errors(value, f"{prefix}.{key}" if prefix else key))
    return flat


def field_error(path: str, code: str, message: str) -> DiscordError:
    """A 400 for one field: ``field_error("data.choices", "BASE_TYPE_MAX_LENGTH", "...")``."""
    tree: ErrorTree = error_leaf(code, message)
    for key in reversed(path.split(".")):
        tree = {key: tree}
    return invalid_form_body(tree)
