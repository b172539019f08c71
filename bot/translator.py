"""Slash commands' descriptions and choices in the user's language, from our catalogues.

Discord shows each user the command texts for their client's language; discord.py asks this
translator for every ``locale_str`` when it syncs the commands.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation

from bot.i18n import DEFAULT_LANGUAGE, Catalogues, Text

# Names must match Discord's pattern and stay what the help text says: they stay English.
_NAMES = (
    TranslationContextLocation.command_name,
    TranslationContextLocation.group_name,
    TranslationContextLocation.parameter_name,
)


class CatalogueTranslator(app_commands.Translator):
    def __init__(self, catalogues: Catalogues) -> None:
        self._catalogues = catalogues

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location in _NAMES:
            return None
        if self._catalogues.language_for(locale) == DEFAULT_LANGUAGE:
            return None
        translated = self._catalogues.render(Text(string.message), locale)
        return None if translated == string.message else translated
