"""The slash commands and the buttons' ids are a contract with Discord and with old posts.

Games last days: a command renamed, an option dropped or a button id changed would break what
players already see on Discord (a button posted last week must still work). The payload the
bot syncs, in every language, is compared with the one recorded in ``data/commands.json``;
change that file only on purpose (``python -m tests.bot.test_command_tree > ...``).
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from bot.client import DvonnBot
from bot.cogs.dvonn import DvonnCog
from bot.components import COMPONENTS
from bot.settings import Secret, Settings
from bot.translator import CatalogueTranslator

RECORDED = Path(__file__).parent / "data" / "commands.json"
BUTTON_IDS = {
    "dvonn:challenge:12:accept",
    "dvonn:challenge:12:decline",
    "dvonn:challenge:12:cancel",
    "dvonn:resign:12",
    "dvonn:abort:12",
    "dvonn:takeback:12:accept",
    "dvonn:takeback:12:decline",
}


async def synced_payload(tmp: Path = Path("/nonexistent/dvonn.sqlite3")) -> list[dict[str, Any]]:
    """What the bot sends Discord when it syncs its commands (no database is opened)."""
    bot = DvonnBot(Settings(token=Secret("x"), database=tmp, render_processes=0))
    await bot.add_cog(DvonnCog(bot))
    translator = CatalogueTranslator(bot.catalogues)
    return [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    ]


async def test_the_synced_commands_are_the_recorded_ones() -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert await synced_payload() == recorded


def test_every_button_id_posted_before_still_finds_its_button() -> None:
    templates = [item.__discord_ui_compiled_template__ for item in COMPONENTS]
    for custom_id in BUTTON_IDS:
        matches = [t for t in templates if re.fullmatch(t, custom_id)]
        assert len(matches) == 1, custom_id


if __name__ == "__main__":
    print(json.dumps(asyncio.run(synced_payload()), indent=1, sort_keys=True, ensure_ascii=False))
