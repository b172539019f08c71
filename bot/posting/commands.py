"""Commands as Discord shows them tappable: ``</dvonn move:123>`` instead of ``/dvonn move``,
``</network join:456>`` instead of ``/network join``.

A mention needs the command's id, which Discord gives when the commands are synced or listed;
the bot learns it at start. Until then, and if Discord could not be asked, texts keep the plain
``/dvonn move``, which players can still type.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from discord import app_commands

GROUP: Final = "dvonn"


def _spelled(group: str) -> re.Pattern[str]:
    """``/group subcommand`` (and ``/group subgroup subcommand``) as texts spell it."""
    return re.compile(rf"`?/{re.escape(group)} ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?`?")


def subcommands(group: app_commands.Group) -> dict[str, app_commands.Command[Any, ..., Any]]:
    """``group``'s commands by their names under it: ``move``, ``tournament join`` (a group
    within it stands for nothing itself)."""
    return {
        c.qualified_name.partition(" ")[2]: c
        for c in group.walk_commands()
        if isinstance(c, app_commands.Command)
    }


@dataclass(frozen=True, slots=True)
class _Group:
    """A top-level command with subcommands, as synced: its id and its subcommands' names."""

    name: str
    command_id: int
    names: frozenset[str]
    spelled: re.Pattern[str]

    def mention(self, subcommand: str) -> str:
        if subcommand not in self.names:
            return f"/{self.name} {subcommand}"
        return f"</{self.name} {subcommand}:{self.command_id}>"

    def replace(self, match: re.Match[str]) -> str:
        name, then = match[1], match[2]
        if then is not None and f"{name} {then}" in self.names:
            return self.mention(f"{name} {then}")
        if name not in self.names:
            return match[0]
        # A one-word subcommand followed by a word of the sentence: keep that word.
        return self.mention(name) + ("" if then is None else f" {then}")


class CommandMentions:
    def __init__(self) -> None:
        self._groups: dict[str, _Group] = {}
        self._top_level: dict[str, int] = {}
        self._spelled_top_level: re.Pattern[str] | None = None

    def learn(self, group_id: int, subcommands: Iterable[str]) -> None:
        """The id of ``/dvonn`` as synced, and the names of its subcommands (those in a group
        as ``group subcommand``, e.g. ``tournament join``)."""
        self.learn_group(GROUP, group_id, subcommands)

    def learn_group(self, name: str, command_id: int, subcommands: Iterable[str]) -> None:
        """The id of a top-level command with subcommands (``/dvonn``, ``/network``) as synced,
        and its subcommands' names."""
        self._groups[name] = _Group(name, command_id, frozenset(subcommands), _spelled(name))

    def learn_command(self, name: str, command_id: int) -> None:
        """The id of a top-level command without subcommands beside ``/dvonn`` (``/puzzle``)."""
        self._top_level[name] = command_id
        names = "|".join(re.escape(n) for n in sorted(self._top_level, key=len, reverse=True))
        self._spelled_top_level = re.compile(rf"(?<![\w/<])`?/({names})`?(?![\w-])")

    @property
    def known(self) -> bool:
        return GROUP in self._groups

    def mention(self, subcommand: str) -> str:
        """``/dvonn subcommand`` as a tappable mention, or as plain text while its id is not
        known."""
        group = self._groups.get(GROUP)
        return f"/{GROUP} {subcommand}" if group is None else group.mention(subcommand)

    def link(self, text: str) -> str:
        """``text`` with every ``/dvonn subcommand`` (or ``/network subcommand``) it names, with
        or without backticks, and every top-level command learned (``/puzzle``), made a
        mention."""
        if self._spelled_top_level is not None:
            text = self._spelled_top_level.sub(lambda m: f"</{m[1]}:{self._top_level[m[1]]}>", text)
        for group in self._groups.values():
            text = group.spelled.sub(group.replace, text)
        return text
