"""The slash commands and the buttons' ids are a contract with Discord and with old posts.

Games last days: a command renamed, an option dropped or a button id changed would break what
players already see on Discord (a button posted last week must still work). The payload the
bot syncs, in every language, is compared with the one recorded in ``data/commands.json``
(with the default settings: the network on); change that file only on purpose
(``python -m tests.bot.test_command_tree > ...``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import tempfile
from pathlib import Path
from typing import Any

from bot.app import DvonnBot
from bot.config import Secret, Settings
from bot.i18n.translator import CatalogueTranslator

RECORDED = Path(__file__).parent / "data" / "commands.json"
BUTTON_IDS = {
    "dvonn:challenge:12:accept",
    "dvonn:challenge:12:decline",
    "dvonn:challenge:12:cancel",
    "dvonn:resign:12",
    "dvonn:abort:12",
    "dvonn:takeback:12:accept",
    "dvonn:takeback:12:decline",
    "dvonn:turn:12:40",
    "dvonn:text:12",
    "dvonn:cells:12:40:1",
    "dvonn:from:12:52",
    "dvonn:to:12:52:E3",
    "dvonn:confirm:12:52:E3F4",
    "dvonn:confirm:12:40:E3",
    "dvonn:confirm:12:60:PASS",
    "dvonn:review:g12:60:E3F4",
    "dvonn:review:g12:20:E3",
    "dvonn:review:t0123456789abcdef:60:E3F4",
    "dvonn:tournament:12:join",
    "dvonn:rematch:12",
    "dvonn:plan:12:40:7",
    "dvonn:plan:cells:12:40:7:1:",
    "dvonn:plan:cells:12:40:7:2:E3",
    "dvonn:plan:from:12:52:9:",
    "dvonn:plan:from:12:52:9:E3F4",
    "dvonn:plan:to:12:52:9::E3",
    "dvonn:plan:to:12:52:9:E3F4:D2",
    "dvonn:plan:confirm:12:40:7:E3:F4",
    "dvonn:plan:confirm:12:52:9:E3F4:D2D3",
    "dvonn:puzzle:daily:20250301",
    "dvonn:puzzle:from:12:2",
    "dvonn:puzzle:to:12:2:E3",
    "dvonn:puzzle:again:12:2",
    "dvonn:puzzle:play:12:2:E3F4",
    "dvonn:puzzle:solution:12:0",
    "dvonn:puzzle:next",
    "dvonn:learn:open",
    "dvonn:learn:lessons",
    "dvonn:learn:cells:12:3:1",
    "dvonn:learn:from:12:3",
    "dvonn:learn:to:12:3:E3",
    "dvonn:learn:again:12:3",
    "dvonn:learn:next:12:3",
    "dvonn:learn:pass:12:3",
    "dvonn:learn:hint:12:3",
    "dvonn:learn:answer:12:3:white",
    "dvonn:net:challenge:12:accept",
    "dvonn:net:challenge:12:decline",
    "dvonn:net:challenge:12:cancel",
    "dvonn:net:pick",
    "dvonn:net:champ:enter",
}
"""With the default settings (the network on, so its buttons too)."""


async def loaded_bot(database: Path) -> DvonnBot:
    """A bot with every feature loaded, not connected (its service opens on ``database``)."""
    bot = DvonnBot(Settings(token=Secret("x"), database=database, render_processes=0))
    await bot.setup_hook()
    return bot


async def synced_payload(bot: DvonnBot) -> list[dict[str, Any]]:
    """What the bot sends Discord when it syncs its commands (subcommands in name order:
    Discord lists them so)."""
    translator = CatalogueTranslator(bot.catalogues)
    payload = [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    ]
    for command in payload:
        command.get("options", []).sort(key=lambda option: option["name"])
    return payload


async def test_the_synced_commands_are_the_recorded_ones(tmp_path: Path) -> None:
    bot = await loaded_bot(tmp_path / "dvonn.sqlite3")
    try:
        recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
        assert await synced_payload(bot) == recorded
    finally:
        await bot.close()


async def test_every_button_id_posted_before_still_finds_its_button(tmp_path: Path) -> None:
    bot = await loaded_bot(tmp_path / "dvonn.sqlite3")
    try:
        # What discord.py matches a click's custom_id against (it has no public accessor).
        templates = list(bot._connection._view_store._dynamic_items)
    finally:
        await bot.close()
    for custom_id in BUTTON_IDS:
        matches = [t for t in templates if re.fullmatch(t, custom_id)]
        assert len(matches) == 1, custom_id


async def _main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        bot = await loaded_bot(Path(folder) / "dvonn.sqlite3")
        try:
            payload = await synced_payload(bot)
        finally:
            await bot.close()
    print(json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False))


if __name__ == "__main__":
    asyncio.run(_main())


DISCORD_COMMAND_LIMIT = 8000
"""Discord's limit on the characters of one command: names, descriptions and choices' names and
values of the command, its options (subcommands and groups included) and their choices, each
field counted at its longest localisation."""
DISCORD_GLOBAL_COMMANDS = 100
"""Discord's limit on an application's global chat commands."""


def _longest(item: dict[str, Any], field: str) -> int:
    localised = item.get(f"{field}_localizations") or {}
    return max([len(str(item.get(field, ""))), *(len(text) for text in localised.values())])


def command_size(item: dict[str, Any]) -> int:
    """The characters of a command (or option, or choice) as Discord counts them."""
    size = _longest(item, "name") + _longest(item, "description") + len(str(item.get("value", "")))
    for option in item.get("options", []):
        size += command_size(option)
    for choice in item.get("choices", []):
        size += command_size(choice)
    return size


async def test_by_default_there_is_network_and_every_command_within_discord_s_limits(
    tmp_path: Path,
) -> None:
    """The network is on by default (players and servers opt in themselves): ``/network`` is
    one more top-level command, spoken in every language ``/dvonn`` speaks, and every command
    is within Discord's size limit, and all within its 100 global commands."""
    bot = await loaded_bot(tmp_path / "dvonn.sqlite3")
    try:
        payload = await synced_payload(bot)
    finally:
        await bot.close()
    by_name = {command["name"]: command for command in payload}
    network = by_name["network"]
    subcommands = {option["name"] for option in network["options"]}
    assert {"join", "leave", "block", "unblock", "server", "championship"} <= subcommands
    assert network["contexts"] == [0, 1, 2] and network["integration_types"] == [0, 1]
    languages = set(by_name["dvonn"]["description_localizations"])
    assert len(languages) >= 4
    described = [network, *network["options"]]
    described += [o for sub in network["options"] for o in sub.get("options", [])]
    for item in described:  # in every language /dvonn speaks
        assert set(item["description_localizations"]) == languages, item["name"]
    for command in payload:
        assert command_size(command) < DISCORD_COMMAND_LIMIT, command["name"]
    assert len(payload) <= DISCORD_GLOBAL_COMMANDS


async def test_with_the_network_off_there_is_no_network(tmp_path: Path) -> None:
    """``DVONN_NETWORK=off``: no ``/network``; the other commands are the recorded ones."""
    settings = Settings(token=Secret("x"), database=tmp_path / "dvonn.sqlite3", network=False)
    bot = DvonnBot(dataclasses.replace(settings, render_processes=0))
    await bot.setup_hook()
    try:
        payload = await synced_payload(bot)
        assert bot.get_cog("Network") is None
    finally:
        await bot.close()
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert payload == [c for c in recorded if c["name"] != "network"]
    assert len(payload) == len(recorded) - 1


def test_a_command_s_size_counts_each_field_at_its_longest_localisation() -> None:
    command = {
        "name": "ab",
        "description": "cd",
        "description_localizations": {"fr": "cdefg"},
        "options": [{"name": "x", "description": "y", "choices": [{"name": "n", "value": "vv"}]}],
    }
    assert command_size(command) == 2 + 5 + 1 + 1 + 1 + 2
