"""Application commands: validating a sync the way Discord does, and invoking what was synced.

:func:`validate_commands` checks a ``PUT .../commands`` body against Discord's documented limits
and returns an ``errors`` tree shaped like Discord's (empty when the payload is valid).
:class:`CommandRegistry` keeps what was synced per scope (global or one guild), with stable ids.
:func:`build_invocation` turns a test's ``"dvonn move", {"from": "E3"}`` into the ``data`` of an
INTERACTION_CREATE, checking it the way the Discord client would before letting a user send it.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord.errors import ErrorTree, error_leaf

Json = dict[str, Any]

MAX_NAME = 32
MAX_DESCRIPTION = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_CHOICE_STRING = 100
MAX_STRING_LENGTH = 6000
# "Maximum of 8000 characters for combined name, description, and value properties for each
# command, its options (including subcommands and groups), and choices" (was 4000 until 2024).
MAX_COMMAND_SIZE = 8000
# The locales Discord accepts as keys of name_localizations and description_localizations
# (https://discord.com/developers/docs/reference#locales); "ru-RU" or "kr" are refused.
LOCALES = frozenset(
    {
        *("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu"),
        *("nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru"),
        *("uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"),
    }
)
MAX_CHAT_INPUT_COMMANDS = 100
MAX_CONTEXT_MENU_COMMANDS = 15  # per type (user, message)
DAILY_CREATE_LIMIT = 200
SAFE_INTEGER = 2**53


class CommandType(enum.IntEnum):
    CHAT_INPUT = 1
    USER = 2
    MESSAGE = 3
    PRIMARY_ENTRY_POINT = 4


class OptionType(enum.IntEnum):
    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


class InteractionContext(enum.IntEnum):
    """Where an interaction happens (a command's ``contexts``, an interaction's ``context``)."""

    GUILD = 0
    BOT_DM = 1
    PRIVATE_CHANNEL = 2  # DMs and group DMs between users, without the bot


class IntegrationType(enum.IntEnum):
    """How the app is installed (a command's ``integration_types``)."""

    GUILD_INSTALL = 0
    USER_INSTALL = 1


SUBCOMMAND_TYPES = frozenset({OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP})
CHOICE_TYPES = frozenset({OptionType.STRING, OptionType.INTEGER, OptionType.NUMBER})


# --- validation -------------------------------------------------------------------------------


def is_valid_chat_input_name(name: str) -> bool:
    """Discord's ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lower case where it exists.

    Python's ``re`` has no ``\\p{...}``, so each character is checked by its Unicode category;
    Devanagari and Thai vowel signs are combining marks (Mn/Mc).
    """
    if not 1 <= len(name) <= MAX_NAME:
        return False
    for char in name:
        if char in "-_'":
            continue
        category = unicodedata.category(char)
        if not (category[0] in "LN" or category in ("Mn", "Mc")):
            return False
        if char != char.lower():
            return False  # there is a lower-case variant, and Discord insists on it
    return True


def validate_commands(payload: object) -> ErrorTree:
    """Check a bulk-overwrite body; returns Discord's ``errors`` tree, empty when valid."""
    if not isinstance(payload, list):
        return {"_errors": [{"code": "BASE_TYPE_ARRAY", "message": "Must be an array."}]}
    errors: ErrorTree = {}
    seen: dict[tuple[int, str], int] = {}
    counts: dict[int, int] = {}
    for index, command in enumerate(payload):
        problems = validate_command(command)
        if isinstance(command, dict):
            key = (int(command.get("type", 1)), str(command.get("name")))
            if key in seen:
                problems.setdefault(
                    "name",
                    error_leaf(
                        "APPLICATION_COMMANDS_DUPLICATE_NAME",
                        f"Application command names must be unique (same as command {seen[key]})",
                    ),
                )
            seen.setdefault(key, index)
            counts[key[0]] = counts.get(key[0], 0) + 1
        if problems:
            errors[str(index)] = problems
    limits = {
        CommandType.CHAT_INPUT: MAX_CHAT_INPUT_COMMANDS,
        CommandType.USER: MAX_CONTEXT_MENU_COMMANDS,
        CommandType.MESSAGE: MAX_CONTEXT_MENU_COMMANDS,
    }
    for kind, limit in limits.items():
        if counts.get(kind, 0) > limit:
            errors.setdefault("_errors", []).append(
                {
                    "code": "APPLICATION_COMMANDS_TOO_MANY",
                    "message": f"Maximum number of {kind.name} commands reached ({limit})",
                }
            )
    return errors


def validate_command(command: object) -> ErrorTree:
    """Check one application command object."""
    if not isinstance(command, dict):
        return {
            "_errors": [
                {
                    "code": "MODEL_TYPE_CONVERT",
                    "message": "Only dictionaries may be used in a ModelType",
                }
            ]
        }
    errors: ErrorTree = {}
    try:
        kind = CommandType(int(command.get("type", 1)))
    except ValueError:
        return {"type": error_leaf("BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")}
    name = command.get("name")
    description = command.get("description", "")
    chat_input = kind is CommandType.CHAT_INPUT
    if not isinstance(name, str) or not (
        is_valid_chat_input_name(name) if chat_input else 1 <= len(name) <= MAX_NAME
    ):
        errors["name"] = _invalid_name(name)
    if chat_input:
        if not isinstance(description, str) or not 1 <= len(description) <= MAX_DESCRIPTION:
            errors["description"] = _bad_length(1, MAX_DESCRIPTION)
    elif description:
        errors["description"] = error_leaf(
            "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
            "Context menu commands cannot have description",
        )
    errors |= _check_localizations(command, chat_input=chat_input)
    options = command.get("options") or []
    if options and not chat_input:
        errors["options"] = error_leaf(
            "APPLICATION_COMMAND_OPTIONS_INVALID", "Only chat input commands can have options"
        )
    elif options:
        errors |= _check_option_list(options, depth=0)
    perms = command.get("default_member_permissions")
    # A bit set as a string, though Discord also takes a bare integer (discord.py sends one).
    as_text = str(perms) if isinstance(perms, int) and not isinstance(perms, bool) else perms
    if perms is not None and not (isinstance(as_text, str) and as_text.isdigit()):
        errors["default_member_permissions"] = error_leaf(
            "NUMBER_TYPE_COERCE", f'Value "{perms}" is not snowflake.'
        )
    for key, allowed in (("contexts", {0, 1, 2}), ("integration_types", {0, 1})):
        values = command.get(key)
        if values is not None and not set(values) <= allowed:
            errors[key] = error_leaf(
                "BASE_TYPE_CHOICES", f"Value must be one of {sorted(allowed)}."
            )
    if chat_input and not errors and command_size(command) > MAX_COMMAND_SIZE:
        errors["_errors"] = [
            {
                "code": "APPLICATION_COMMAND_TOO_LARGE",
                "message": f"Command exceeds maximum size ({MAX_COMMAND_SIZE})",
            }
        ]
    return errors


def command_size(command: Mapping[str, Any]) -> int:
    """Characters counted towards the size limit; the longest localization counts."""

    def longest(obj: Mapping[str, Any], key: str) -> int:
        values = [str(obj.get(key) or "")]
        values += [str(v) for v in (obj.get(f"{key}_localizations") or {}).values()]
        return max(len(v) for v in values)

    def size(obj: Mapping[str, Any]) -> int:
        total = longest(obj, "name") + longest(obj, "description")
        for choice in obj.get("choices") or []:
            total += longest(choice, "name") + len(str(choice.get("value", "")))
        return total + sum(size(o) for o in obj.get("options") or [])

    return size(command)


def _invalid_name(name: object) -> ErrorTree:
    return error_leaf(
        "APPLICATION_COMMAND_INVALID_NAME",
        f"Command name is invalid: {name!r} (1-32 lower-case letters, digits, - _ ')",
    )


def _bad_length(low: int, high: int) -> ErrorTree:
    return error_leaf("BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def _unknown_locale(locale: str) -> ErrorTree:
    return error_leaf("BASE_TYPE_CHOICES", f"{locale!r} is not a locale: one of {sorted(LOCALES)}")


def _check_localizations(obj: Mapping[str, Any], *, chat_input: bool) -> ErrorTree:
    errors: ErrorTree = {}
    for key in ("name_localizations", "description_localizations"):
        for locale in obj.get(key) or {}:
            if locale not in LOCALES:
                errors.setdefault(key, {})[locale] = _unknown_locale(locale)
    for locale, value in (obj.get("name_localizations") or {}).items():
        ok = is_valid_chat_input_name(value) if chat_input else 1 <= len(value) <= MAX_NAME
        if not ok and locale in LOCALES:
            errors.setdefault("name_localizations", {})[locale] = _invalid_name(value)
    for locale, value in (obj.get("description_localizations") or {}).items():
        if chat_input and not 1 <= len(value) <= MAX_DESCRIPTION and locale in LOCALES:
            errors.setdefault("description_localizations", {})[locale] = _bad_length(
                1, MAX_DESCRIPTION
            )
    return errors


def _check_option_list(options: Sequence[Any], *, depth: int) -> ErrorTree:
    """``depth`` 0: a command's options; 1: a subcommand group's; 2: a subcommand's."""
    if len(options) > MAX_OPTIONS:
        return {
            "options": error_leaf(
                "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_OPTIONS} or fewer in length."
            )
        }
    errors: ErrorTree = {}
    kinds = []
    names: set[str] = set()
    seen_optional = False
    for index, option in enumerate(options):
        problems = _check_option(option, depth=depth)
        if isinstance(option, dict):
            try:
                kind = OptionType(int(option.get("type", 0)))
            except ValueError:
                kind = None
            kinds.append(kind)
            name = str(option.get("name"))
            if name in names:
                problems.setdefault(
                    "name",
                    error_leaf(
                        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                        "Option names must be unique",
                    ),
                )
            names.add(name)
            if kind not in SUBCOMMAND_TYPES:
                if option.get("required") and seen_optional:
                    problems.setdefault(
                        "required",
                        error_leaf(
                            "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                            "Required options must be placed before non-required options",
                        ),
                    )
                seen_optional = seen_optional or not option.get("required")
        if problems:
            errors[str(index)] = problems
    has_sub = any(k in SUBCOMMAND_TYPES for k in kinds)
    if has_sub and not all(k in SUBCOMMAND_TYPES for k in kinds):
        errors.setdefault("_errors", []).append(
            {
                "code": "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "message": (
                    "Sub-command and sub-command group option types are mutually "
                    "exclusive to all other types"
                ),
            }
        )
    return {"options": errors} if errors else {}


def _check_option(option: object, *, depth: int) -> ErrorTree:
    if not isinstance(option, dict):
        return {
            "_errors": [
                {
                    "code": "MODEL_TYPE_CONVERT",
                    "message": "Only dictionaries may be used in a ModelType",
                }
            ]
        }
    errors: ErrorTree = {}
    try:
        kind = OptionType(int(option.get("type", 0)))
    except ValueError:
        return {"type": error_leaf("BASE_TYPE_CHOICES", "Value must be one of {1, 2, ..., 11}.")}
    if not isinstance(option.get("name"), str) or not is_valid_chat_input_name(option["name"]):
        errors["name"] = _invalid_name(option.get("name"))
    description = option.get("description")
    if not isinstance(description, str) or not 1 <= len(description) <= MAX_DESCRIPTION:
        errors["description"] = _bad_length(1, MAX_DESCRIPTION)
    errors |= _check_localizations(option, chat_input=True)
    # Nesting: command -> group -> subcommand -> value options, nothing deeper.
    allowed_here = {
        0: set(OptionType),
        1: {OptionType.SUB_COMMAND},
        2: set(OptionType) - SUBCOMMAND_TYPES,
    }[depth]
    if kind not in allowed_here:
        errors["type"] = error_leaf(
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            f"{kind.name} cannot be nested here (command > group > subcommand > options)",
        )
        return errors
    children = option.get("options") or []
    if kind in SUBCOMMAND_TYPES:
        if option.get("required"):
            errors["required"] = error_leaf(
                "APPLICATION_COMMAND_OPTION_REQUIRED_NOT_ALLOWED",
                "Sub-commands and groups cannot be required",
            )
        if children:
            next_depth = 1 if kind is OptionType.SUB_COMMAND_GROUP else 2
            errors |= _check_option_list(children, depth=next_depth)
        return errors
    if children:
        errors["options"] = error_leaf(
            "APPLICATION_COMMAND_OPTIONS_INVALID", "Only sub-commands and groups have options"
        )
    errors |= _check_value_option(option, kind)
    return errors


def _check_value_option(option: Mapping[str, Any], kind: OptionType) -> ErrorTree:
    errors: ErrorTree = {}
    choices = option.get("choices")
    if choices:
        if kind not in CHOICE_TYPES:
            errors["choices"] = error_leaf(
                "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
                "Only string, integer and number options can have choices",
            )
        elif len(choices) > MAX_CHOICES:
            errors["choices"] = error_leaf(
                "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CHOICES} or fewer in length."
            )
        else:
            for index, choice in enumerate(choices):
                problems = check_choice(choice, kind)
                if problems:
                    errors.setdefault("choices", {})[str(index)] = problems
        if option.get("autocomplete"):
            errors["autocomplete"] = error_leaf(
                "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES",
                "Autocomplete cannot be set for options with choices",
            )
    if option.get("autocomplete") and kind not in CHOICE_TYPES:
        errors["autocomplete"] = error_leaf(
            "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
            "Only string, integer and number options can autocomplete",
        )
    for key in ("min_value", "max_value"):
        if key in option and kind not in (OptionType.INTEGER, OptionType.NUMBER):
            errors[key] = error_leaf(
                "APPLICATION_COMMAND_OPTION_INVALID",
                f"{key} is only for integer and number options",
            )
    for key, low in (("min_length", 0), ("max_length", 1)):
        if key not in option:
            continue
        value = option[key]
        if kind is not OptionType.STRING:
            errors[key] = error_leaf(
                "APPLICATION_COMMAND_OPTION_INVALID", f"{key} is only for string options"
            )
        elif not isinstance(value, int) or not low <= value <= MAX_STRING_LENGTH:
            errors[key] = error_leaf(
                "NUMBER_TYPE_MAX", f"{key} must be between {low} and {MAX_STRING_LENGTH}."
            )
    if option.get("channel_types") and kind is not OptionType.CHANNEL:
        errors["channel_types"] = error_leaf(
            "APPLICATION_COMMAND_OPTION_INVALID", "channel_types is only for channel options"
        )
    return errors


def check_choice(choice: object, kind: OptionType) -> ErrorTree:
    """One ``{"name", "value"}`` choice (in a command, or in an autocomplete answer)."""
    if not isinstance(choice, dict):
        return {
            "_errors": [
                {
                    "code": "MODEL_TYPE_CONVERT",
                    "message": "Only dictionaries may be used in a ModelType",
                }
            ]
        }
    errors: ErrorTree = {}
    name = choice.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_CHOICE_NAME:
        errors["name"] = _bad_length(1, MAX_CHOICE_NAME)
    for locale, localized in (choice.get("name_localizations") or {}).items():
        if locale not in LOCALES:
            errors.setdefault("name_localizations", {})[locale] = _unknown_locale(locale)
        elif not isinstance(localized, str) or not 1 <= len(localized) <= MAX_CHOICE_NAME:
            errors.setdefault("name_localizations", {})[locale] = _bad_length(1, MAX_CHOICE_NAME)
    value = choice.get("value")
    if kind is OptionType.STRING:
        if not isinstance(value, str) or not 1 <= len(value) <= MAX_CHOICE_STRING:
            errors["value"] = _bad_length(1, MAX_CHOICE_STRING)
    elif kind is OptionType.INTEGER:
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > SAFE_INTEGER:
            errors["value"] = error_leaf("NUMBER_TYPE_COERCE", f'Value "{value}" is not int.')
    elif kind is OptionType.NUMBER and (
        not isinstance(value, int | float) or isinstance(value, bool)
    ):
        errors["value"] = error_leaf("NUMBER_TYPE_COERCE", f'Value "{value}" is not a number.')
    return errors


# --- the registry -----------------------------------------------------------------------------


@dataclass(eq=False)
class RegisteredCommand:
    """A command as Discord stores it after a sync."""

    id: int
    application_id: int
    guild_id: int | None
    version: int
    definition: Json  # what the bot sent, normalised

    @property
    def name(self) -> str:
        return str(self.definition["name"])

    @property
    def type(self) -> CommandType:
        return CommandType(int(self.definition.get("type", 1)))

    @property
    def options(self) -> list[Json]:
        return list(self.definition.get("options") or [])

    @property
    def default_member_permissions(self) -> int | None:
        value = self.definition.get("default_member_permissions")
        return None if value is None else int(value)

    @property
    def contexts(self) -> list[int] | None:
        """The top-level ``contexts``; ``None`` (not set) means every context."""
        value = self.definition.get("contexts")
        return None if value is None else [int(c) for c in value]

    @property
    def integration_types(self) -> list[int]:
        """Where the command is installed: ``[0]`` (guild install) unless set.

        Only global commands have installation contexts: a guild's own commands come with the
        app's install in that guild, whatever they say.
        """
        value = self.definition.get("integration_types")
        if self.guild_id is not None or value is None:
            return [int(IntegrationType.GUILD_INSTALL)]
        return [int(t) for t in value]

    def to_payload(self) -> Json:
        payload = {
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            "description": "",
            "options": [],
            **self.definition,
            "id": str(self.id),
            "application_id": str(self.application_id),
            "version": str(self.version),
            "type": int(self.type),
        }
        if payload["integration_types"] is None:  # null (discord.py's unset): the default
            payload["integration_types"] = [int(IntegrationType.GUILD_INSTALL)]
        if self.guild_id is not None:
            payload["guild_id"] = str(self.guild_id)
        return payload

    def __repr__(self) -> str:
        scope = "global" if self.guild_id is None else f"guild {self.guild_id}"
        return f"RegisteredCommand(/{self.name}, {scope}, id={self.id})"


Scope = int | None  # a guild id, or None for global commands


def offering_installs(
    command: RegisteredCommand,
    context: InteractionContext,
    *,
    guild_install: bool,
    user_install: bool,
) -> tuple[set[IntegrationType], str]:
    """The installs through which a user sees ``command`` in ``context``, and if none, why not.

    ``guild_install``: the app is installed where the user is (the bot is in the guild, or it
    is the bot's DM); ``user_install``: the user installed the app to their account. As
    documented: ``contexts`` (top level; ``None`` = all) must include ``context``; a guild
    install offers the command where ``integration_types`` includes ``GUILD_INSTALL``, but never
    in private channels (``PRIVATE_CHANNEL`` "is only meaningful for commands installed to a
    user"); a user install offers it anywhere where they include ``USER_INSTALL``.
    """
    contexts = command.contexts
    if contexts is not None and int(context) not in contexts:
        return set(), f"its contexts are {contexts}, without {context.name} ({int(context)})"
    types = command.integration_types
    found: set[IntegrationType] = set()
    if (
        guild_install
        and IntegrationType.GUILD_INSTALL in types
        and context is not InteractionContext.PRIVATE_CHANNEL
    ):
        found.add(IntegrationType.GUILD_INSTALL)
    if user_install and IntegrationType.USER_INSTALL in types:
        found.add(IntegrationType.USER_INSTALL)
    if found:
        return found, ""
    if IntegrationType.USER_INSTALL not in types:
        where = "a private channel" if context is InteractionContext.PRIVATE_CHANNEL else "here"
        return found, (
            f"its integration_types are {types}: not user-installable, so not offered in {where}"
        )
    return found, "the user has not installed the app (and no guild install offers it here)"


@dataclass
class CommandRegistry:
    """Synced commands per scope. Ids stay stable for a name and type, as on Discord."""

    application_id: int
    new_id: Callable[[], int]
    daily_create_limit: int = DAILY_CREATE_LIMIT
    _scopes: dict[Scope, dict[tuple[int, str], RegisteredCommand]] = field(default_factory=dict)
    creates: dict[Scope, int] = field(default_factory=dict)

    def commands(self, scope: Scope) -> list[RegisteredCommand]:
        return list(self._scopes.get(scope, {}).values())

    def get(self, scope: Scope, command_id: int) -> RegisteredCommand | None:
        return next((c for c in self.commands(scope) if c.id == command_id), None)

    def count_new(self, scope: Scope, definitions: Iterable[Json]) -> int:
        """How many of ``definitions`` would be creates (a name and type not registered yet)."""
        existing = self._scopes.get(scope, {})
        return sum(1 for d in definitions if _key(d) not in existing)

    def bulk_overwrite(self, scope: Scope, definitions: Sequence[Json]) -> list[RegisteredCommand]:
        """Replace the scope's commands; callers validate ``definitions`` first."""
        old = self._scopes.get(scope, {})
        new: dict[tuple[int, str], RegisteredCommand] = {}
        for definition in definitions:
            new[_key(definition)] = self._upsert(scope, old.get(_key(definition)), definition)
        self.creates[scope] = self.creates.get(scope, 0) + self.count_new(scope, definitions)
        self._scopes[scope] = new
        return list(new.values())

    def upsert(self, scope: Scope, definition: Json) -> RegisteredCommand:
        commands = self._scopes.setdefault(scope, {})
        if _key(definition) not in commands:
            self.creates[scope] = self.creates.get(scope, 0) + 1
        command = self._upsert(scope, commands.get(_key(definition)), definition)
        commands[_key(definition)] = command
        return command

    def delete(self, scope: Scope, command_id: int) -> bool:
        commands = self._scopes.get(scope, {})
        for key, command in list(commands.items()):
            if command.id == command_id:
                del commands[key]
                return True
        return False

    def _upsert(
        self, scope: Scope, old: RegisteredCommand | None, definition: Json
    ) -> RegisteredCommand:
        clean = {
            k: v
            for k, v in definition.items()
            if k not in ("id", "application_id", "version", "guild_id")
        }
        if old is None:
            return RegisteredCommand(
                self.new_id(), self.application_id, scope, self.new_id(), clean
            )
        if old.definition != clean:
            old.definition = clean
            old.version = self.new_id()
        return old


def _key(definition: Mapping[str, Any]) -> tuple[int, str]:
    return int(definition.get("type", 1)), str(definition.get("name"))


# --- invoking a command -----------------------------------------------------------------------


class InvalidInvocation(ValueError):
    """The test asked for a command invocation the Discord client would not let a user send."""


# What a test may pass as an option value; users, channels and roles are the fake's objects.
OptionValue = str | int | float | bool | Any


@dataclass(frozen=True, slots=True)
class ResolvedValue:
    """An option value as sent on the wire, plus its entries for ``data.resolved``.

    ``resolved`` maps ``"users"``, ``"members"``, ``"channels"`` or ``"roles"`` to id -> object.
    """

    value: str | int | float | bool
    resolved: Mapping[str, Mapping[str, Json]] = field(default_factory=dict)


# Turns a user/channel/role object into its wire value; supplied by the fake's state.
ValueResolver = Callable[[OptionType, Any, Mapping[str, Any]], ResolvedValue]


@dataclass(frozen=True, slots=True)
class Invocation:
    """The ``data`` of an application-command interaction, and the leaf options' schema."""

    data: Json
    leaf_options: list[Json]
    path: tuple[str, ...]


def build_invocation(
    command: RegisteredCommand,
    path: Sequence[str],
    values: Mapping[str, OptionValue],
    *,
    resolve: ValueResolver,
    focused: str | None = None,
) -> Invocation:
    """The interaction ``data`` for ``/<command> <path...>`` with ``values``.

    For a normal invocation every required option must be given and each value must fit the
    option (type, choices, ranges), since the Discord client enforces that. For autocomplete
    (``focused`` names the option being typed) values are partial: the focused one is the raw
    text typed so far, and required options may be missing.
    """
    options_schema = command.options
    nested_path: list[Json] = []
    for part in path:
        sub = next((o for o in options_schema if o.get("name") == part), None)
        if sub is None or int(sub.get("type", 0)) not in SUBCOMMAND_TYPES:
            names = [o["name"] for o in options_schema if int(o.get("type", 0)) in SUBCOMMAND_TYPES]
            raise InvalidInvocation(f"/{command.name} has no subcommand {part!r}; it has {names}")
        nested_path.append(sub)
        options_schema = list(sub.get("options") or [])
    if any(int(o.get("type", 0)) in SUBCOMMAND_TYPES for o in options_schema):
        names = [o["name"] for o in options_schema]
        raise InvalidInvocation(
            f"/{command.name} {' '.join(path)} needs a subcommand: one of {names}"
        )

    by_name = {o["name"]: o for o in options_schema}
    unknown = set(values) - set(by_name)
    if unknown:
        raise InvalidInvocation(
            f"/{command.name} {' '.join(path)} has no option(s) {sorted(unknown)}; "
            f"it has {sorted(by_name)}"
        )
    if focused is not None:
        if focused not in by_name:
            raise InvalidInvocation(f"cannot focus {focused!r}: no such option")
        if not by_name[focused].get("autocomplete"):
            raise InvalidInvocation(
                f"option {focused!r} does not autocomplete, so Discord never asks the bot"
            )
    else:
        missing = [
            o["name"] for o in options_schema if o.get("required") and o["name"] not in values
        ]
        if missing:
            raise InvalidInvocation(
                f"/{command.name} {' '.join(path)}: required option(s) {missing} missing"
            )

    leaf: list[Json] = []
    resolved: dict[str, dict[str, Any]] = {}
    for name, raw in values.items():
        schema = by_name[name]
        kind = OptionType(int(schema["type"]))
        entry: Json = {"name": name, "type": int(kind)}
        if name == focused:
            # While typing, Discord sends the text as is, whatever the option's type.
            entry["value"] = str(raw)
            entry["focused"] = True
        else:
            wire = resolve(kind, raw, schema)
            if focused is None:
                _check_value(command.name, schema, kind, wire.value)
            entry["value"] = wire.value
            for kind_name, objects in wire.resolved.items():
                resolved.setdefault(kind_name, {}).update(objects)
        leaf.append(entry)

    options: list[Json] = leaf
    for sub in reversed(nested_path):
        options = [{"name": sub["name"], "type": int(sub["type"]), "options": options}]
    data: Json = {
        "id": str(command.id),
        "name": command.name,
        "type": int(command.type),
        "options": options,
    }
    if command.guild_id is not None:
        data["guild_id"] = str(command.guild_id)
    if resolved:
        data["resolved"] = resolved
    return Invocation(data=data, leaf_options=options_schema, path=tuple(path))


def _check_value(command: str, schema: Mapping[str, Any], kind: OptionType, value: Any) -> None:
    name = schema["name"]
    choices = schema.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise InvalidInvocation(
            f"/{command} {name}: {value!r} is not one of {[c['value'] for c in choices]}"
        )
    if kind is OptionType.STRING:
        low, high = schema.get("min_length", 0), schema.get("max_length", MAX_STRING_LENGTH)
        if not low <= len(str(value)) <= high:
            raise InvalidInvocation(f"/{command} {name}: length must be between {low} and {high}")
    if kind in (OptionType.INTEGER, OptionType.NUMBER):
        low, high = schema.get("min_value"), schema.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise InvalidInvocation(f"/{command} {name}: {value} is outside [{low}, {high}]")
