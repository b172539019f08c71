"""The fake's copies of Discord's rules, checked without a network: command limits, message
limits, who a message pings, and permission resolution."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from tests.fakediscord.commands import (
    InvalidInvocation,
    RegisteredCommand,
    ResolvedValue,
    build_invocation,
    is_valid_chat_input_name,
    validate_commands,
)
from tests.fakediscord.errors import flatten_errors
from tests.fakediscord.messages import check_message_fields, compute_pings
from tests.fakediscord.permissions import (
    DEFAULT_EVERYONE,
    Overwrite,
    OverwriteTarget,
    Permission,
    resolve_permissions,
)

Json = dict[str, Any]


def option(name: str, kind: int = 3, **extra: Any) -> Json:
    return {"name": name, "description": f"the {name}", "type": kind, **extra}


def dvonn() -> Json:
    """Roughly what discord.py sends for the bot's /dvonn group."""
    return {
        "name": "dvonn",
        "description": "Play DVONN",
        "type": 1,
        "options": [
            option(
                "move",
                1,
                options=[
                    option("from", required=True, autocomplete=True),
                    option("to", required=True, autocomplete=True),
                ],
            ),
            option(
                "challenge",
                1,
                options=[
                    option("opponent", 6),
                    option(
                        "colour",
                        choices=[
                            {"name": "White", "value": "white"},
                            {"name": "Black", "value": "black"},
                        ],
                    ),
                ],
            ),
        ],
    }


def errors_of(payload: list[Json]) -> dict[str, list[str]]:
    return flatten_errors(validate_commands(payload))


def test_the_bots_kind_of_command_is_valid() -> None:
    assert validate_commands([dvonn(), {"name": "Show board", "type": 3, "description": ""}]) == {}


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("dvonn", True),
        ("move-2", True),
        ("don't", True),
        ("déplacer", True),
        ("移動", True),
        ("चाल", True),  # Devanagari with a vowel sign (a combining mark)
        ("Dvonn", False),  # has a lower-case variant: Discord insists on it
        ("two words", False),
        ("x" * 33, False),
        ("", False),
        ("dvonn!", False),
    ],
)
def test_chat_input_names(name: str, valid: bool) -> None:
    assert is_valid_chat_input_name(name) is valid


def mutate(change: str) -> Json:
    command = dvonn()
    move = command["options"][0]
    if change == "upper-case name":
        command["name"] = "DVONN"
    elif change == "long description":
        command["description"] = "x" * 101
    elif change == "empty description":
        command["description"] = ""
    elif change == "26 subcommands":
        command["options"] = [option(f"sub{i}", 1) for i in range(26)]
    elif change == "26 options":
        move["options"] = [option(f"o{i}") for i in range(26)]
    elif change == "required after optional":
        move["options"][0]["required"] = False
    elif change == "duplicate option":
        move["options"][1]["name"] = "from"
    elif change == "mixed subcommands and options":
        command["options"].append(option("cell"))
    elif change == "group inside subcommand":
        move["options"] = [option("deeper", 2, options=[option("leaf", 1)])]
    elif change == "autocomplete with choices":
        move["options"][0]["choices"] = [{"name": "A1", "value": "A1"}]
    elif change == "autocomplete on a boolean":
        move["options"][0] |= {"type": 5}
    elif change == "26 choices":
        command["options"][1]["options"][1]["choices"] = [
            {"name": f"c{i}", "value": f"c{i}"} for i in range(26)
        ]
    elif change == "choice value too long":
        command["options"][1]["options"][1]["choices"][0]["value"] = "w" * 101
    elif change == "integer choice for a string":
        command["options"][1]["options"][1]["choices"][0]["value"] = 1
    elif change == "long localized description":
        move["description_localizations"] = {"ru": "д" * 101}
    elif change == "unknown locale":
        command["description_localizations"] = {"ru-RU": "Играть в DVONN"}
    elif change == "long localized choice":
        command["options"][1]["options"][1]["choices"][0]["name_localizations"] = {"ko": "하" * 101}
    elif change == "too large":
        move["options"] = [option(f"o{i}", description="d" * 100) for i in range(25)]
        command["options"] += [
            option(f"s{j}", 1, options=[option(f"o{i}", description="d" * 100) for i in range(25)])
            for j in range(3)
        ]
    return command


@pytest.mark.parametrize(
    ("change", "path", "text"),
    [
        ("upper-case name", "0.name", "Command name is invalid"),
        ("long description", "0.description", "between 1 and 100"),
        ("empty description", "0.description", "between 1 and 100"),
        ("26 subcommands", "0.options", "25 or fewer"),
        ("26 options", "0.options.0.options", "25 or fewer"),
        ("required after optional", "0.options.0.options.1.required", "Required options"),
        ("duplicate option", "0.options.0.options.1.name", "unique"),
        ("mixed subcommands and options", "0.options", "mutually exclusive"),
        ("group inside subcommand", "0.options.0.options.0.type", "cannot be nested"),
        ("autocomplete with choices", "0.options.0.options.0.autocomplete", "choices"),
        ("autocomplete on a boolean", "0.options.0.options.0.autocomplete", "Only string"),
        ("26 choices", "0.options.1.options.1.choices", "25 or fewer"),
        ("choice value too long", "0.options.1.options.1.choices.0.value", "between 1 and 100"),
        (
            "integer choice for a string",
            "0.options.1.options.1.choices.0.value",
            "between 1 and 100",
        ),
        ("long localized description", "0.options.0.description_localizations.ru", "1 and 100"),
        ("unknown locale", "0.description_localizations.ru-RU", "not a locale"),
        (
            "long localized choice",
            "0.options.1.options.1.choices.0.name_localizations.ko",
            "between 1 and 100",
        ),
        ("too large", "0", "maximum size"),
    ],
)
def test_command_limits(change: str, path: str, text: str) -> None:
    found = errors_of([mutate(change)])
    assert path in found, found
    assert any(text in message for message in found[path]), found


def test_duplicate_names_and_context_menu_rules() -> None:
    found = errors_of(
        [
            dvonn(),
            copy.deepcopy(dvonn()),
            {"name": "Board", "type": 2, "description": "not allowed here"},
            {"name": "Board", "type": 3, "description": "", "options": [option("x")]},
        ]
    )
    assert "1.name" in found
    assert "2.description" in found
    assert "3.options" in found


def test_too_many_commands() -> None:
    payload = [{"name": f"c{i}", "description": "d", "type": 1} for i in range(101)]
    assert "Maximum number of CHAT_INPUT commands" in str(validate_commands(payload))


# --- invoking ------------------------------------------------------------------------------------


def registered() -> RegisteredCommand:
    return RegisteredCommand(id=1, application_id=2, guild_id=3, version=4, definition=dvonn())


def plain(kind: Any, value: Any, schema: Any) -> ResolvedValue:
    return ResolvedValue(value)


def test_invocation_nests_the_subcommand_and_names_the_guild() -> None:
    invocation = build_invocation(registered(), ["move"], {"from": "E3", "to": "F4"}, resolve=plain)
    assert invocation.data == {
        "id": "1",
        "name": "dvonn",
        "type": 1,
        "guild_id": "3",
        "options": [
            {
                "name": "move",
                "type": 1,
                "options": [
                    {"name": "from", "type": 3, "value": "E3"},
                    {"name": "to", "type": 3, "value": "F4"},
                ],
            }
        ],
    }


def test_autocomplete_sends_partial_text_and_marks_the_focused_option() -> None:
    invocation = build_invocation(
        registered(), ["move"], {"from": "E3", "to": "F"}, resolve=plain, focused="to"
    )
    leaf = invocation.data["options"][0]["options"]
    assert leaf[1] == {"name": "to", "type": 3, "value": "F", "focused": True}


@pytest.mark.parametrize(
    ("path", "values", "focused", "text"),
    [
        ([], {}, None, "needs a subcommand"),
        (["jump"], {}, None, "no subcommand 'jump'"),
        (["move"], {"from": "E3"}, None, "required option(s) ['to'] missing"),
        (["move"], {"from": "E3", "to": "F4", "via": "x"}, None, "no option(s) ['via']"),
        (["challenge"], {"colour": "red"}, None, "not one of"),
        (["challenge"], {"colour": "white"}, "colour", "does not autocomplete"),
    ],
)
def test_what_the_discord_client_would_not_send(
    path: list[str], values: Json, focused: str | None, text: str
) -> None:
    with pytest.raises(InvalidInvocation, match=re.escape(text)):
        build_invocation(registered(), path, values, resolve=plain, focused=focused)


# --- messages and pings --------------------------------------------------------------------------


def _select(
    *, label: str = "E3", value: str = "E3", description: str = "a stack of 2", **select: object
) -> Json:
    """A message with one string select of one option, as Discord's components reference
    describes them: ``select`` adds or replaces the select's own fields."""
    option = {"label": label, "value": value, "description": description}
    menu = {"type": 3, "custom_id": "pick", "options": [option], **select}
    return {"components": [{"type": 1, "components": [menu]}]}


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({"content": "x" * 2001}, "content"),
        ({"embeds": [{"title": "t"}] * 11}, "embeds"),
        ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title"),
        ({"embeds": [{"description": "d" * 4097}]}, "embeds.0.description"),
        ({"embeds": [{"fields": [{"name": "", "value": "v"}]}]}, "embeds.0.fields.0.name"),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "embeds"),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "custom_id": f"b{i}", "label": "x"}
                            for i in range(6)
                        ],
                    }
                ]
            },
            "components.0.components",
        ),
        (
            {
                "components": [
                    {"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "c" * 101}]}
                ]
            },
            "components.0.components.0.custom_id",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "custom_id": "same"},
                            {"type": 2, "style": 1, "custom_id": "same"},
                        ],
                    }
                ]
            },
            "components.0.components.1.custom_id",
        ),
        ({"components": [{"type": 1, "components": []}] * 6}, "components"),
        ({"attachments": [{"id": 0, "description": "d" * 1025}]}, "attachments.0.description"),
        (_select(placeholder="p" * 151), "components.0.components.0.placeholder"),
        (_select(min_values=-1), "components.0.components.0.min_values"),
        (_select(min_values=26), "components.0.components.0.min_values"),
        (_select(max_values=0), "components.0.components.0.max_values"),
        (_select(max_values=26), "components.0.components.0.max_values"),
        (_select(label="l" * 101), "components.0.components.0.options.0.label"),
        (_select(label=""), "components.0.components.0.options.0.label"),
        (_select(value="v" * 101), "components.0.components.0.options.0.value"),
        (_select(description="d" * 101), "components.0.components.0.options.0.description"),
        ({"allowed_mentions": {"parse": ["users"], "users": ["1"]}}, "allowed_mentions.users"),
    ],
)
def test_message_limits(payload: Json, path: str) -> None:
    found = flatten_errors(check_message_fields(payload, file_count=0))
    assert path in found, found


def test_selects_and_alt_text_at_their_limits_pass() -> None:
    at_most = _select(
        label="l" * 100,
        value="v" * 100,
        description="d" * 100,
        placeholder="p" * 150,
        min_values=0,
        max_values=25,
    )
    at_most["attachments"] = [{"id": 0, "filename": "a.png", "description": "d" * 1024}]
    assert check_message_fields(at_most, file_count=1) == {}


def test_a_valid_board_message_passes() -> None:
    payload = {
        "content": "<@1> to move",
        "embeds": [{"title": "Game 7", "image": {"url": "attachment://board.png"}}],
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "custom_id": "dvonn:7:resign", "label": "Resign"},
                    {"type": 2, "style": 5, "url": "https://example.com/rules", "label": "Rules"},
                ],
            }
        ],
        "allowed_mentions": {"parse": [], "users": ["1"]},
    }
    assert check_message_fields(payload, file_count=1) == {}


@pytest.mark.parametrize(
    ("allowed", "users", "everyone"),
    [
        (None, {1, 2}, True),  # no allowed_mentions: everything in the text pings
        ({"parse": []}, set(), False),
        ({"parse": [], "users": ["2"]}, {2}, False),
        ({"parse": ["users"]}, {1, 2}, False),
        # discord.py's AllowedMentions(users=[...]) alone still allows @everyone and roles:
        ({"parse": ["everyone", "roles"], "users": ["2"]}, {2}, True),
    ],
)
def test_allowed_mentions_decide_who_is_pinged(
    allowed: Json | None, users: set[int], everyone: bool
) -> None:
    pings = compute_pings(
        "<@1> <@!2> @everyone <@&9>",
        allowed,
        may_mention_everyone=True,
        mentionable_role_ids=frozenset(),
    )
    assert pings.user_ids == users
    assert pings.everyone is everyone


def test_everyone_and_unmentionable_roles_need_mention_everyone() -> None:
    pings = compute_pings(
        "@here <@&9> <@&8>", None, may_mention_everyone=False, mentionable_role_ids=frozenset({8})
    )
    assert not pings.everyone
    assert pings.role_ids == {8}


# --- permissions ---------------------------------------------------------------------------------


def resolve(
    overwrites: list[Overwrite],
    *,
    roles: dict[int, Permission] | None = None,
    member_roles: tuple[int, ...] = (),
) -> Permission:
    return resolve_permissions(
        everyone_role_id=100,
        role_permissions={100: DEFAULT_EVERYONE, **(roles or {})},
        member_role_ids=member_roles,
        member_id=7,
        is_owner=False,
        overwrites=overwrites,
    )


def test_member_overwrite_beats_role_overwrites() -> None:
    threads = Permission.CREATE_PUBLIC_THREADS
    denied = resolve([Overwrite(7, OverwriteTarget.MEMBER, deny=threads)])
    assert not denied & threads
    allowed_again = resolve(
        [
            Overwrite(100, OverwriteTarget.ROLE, deny=threads),
            Overwrite(5, OverwriteTarget.ROLE, allow=threads),
        ],
        roles={5: Permission(0)},
        member_roles=(5,),
    )
    assert allowed_again & threads


def test_no_view_channel_means_nothing_and_administrator_means_everything() -> None:
    hidden = resolve([Overwrite(100, OverwriteTarget.ROLE, deny=Permission.VIEW_CHANNEL)])
    assert hidden == Permission(0)
    admin = resolve(
        [Overwrite(100, OverwriteTarget.ROLE, deny=Permission.VIEW_CHANNEL)],
        roles={5: Permission.ADMINISTRATOR},
        member_roles=(5,),
    )
    assert admin & Permission.MANAGE_THREADS
