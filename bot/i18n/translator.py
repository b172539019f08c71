"""Slash commands' descriptions and choices in the user's language, from our catalogues.

Discord shows each user the command texts for their client's language; discord.py asks this
translator for every ``locale_str`` when it syncs the commands, and sends what it returns as
``description_localizations`` and choices' ``name_localizations``.

Command, group and option *names* stay English in every language, although Discord allows
localised ones: the bot's replies, the help text and the thread posts (read by players whose
clients speak different languages) all spell commands as ``/dvonn place``, and a Russian user
whose client showed ``/dvonn поставить`` would look in vain for the command the thread names.
Descriptions and choices carry the meaning instead.
"""

from __future__ import annotations

import logging
from typing import Final

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation

from bot.i18n import DEFAULT_LANGUAGE, Catalogues, Text

log = logging.getLogger(__name__)

# Names must match Discord's pattern and stay what the help text says: they stay English.
_NAMES = (
    TranslationContextLocation.command_name,
    TranslationContextLocation.group_name,
    TranslationContextLocation.parameter_name,
)
MAX_TEXT: Final = 100
"""Discord's limit for a description or a choice name; a longer one would fail the whole sync."""


class CatalogueTranslator(app_commands.Translator):
    """Descriptions and choice names from the catalogues; ``None`` (English) for the rest."""

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
        if translated == string.message:
            return None
        if not 1 <= len(translated) <= MAX_TEXT:
            # The catalogue test keeps this from happening; if it does, English beats no sync.
            log.warning("%s translation of %r is too long for Discord", locale, string.message)
            return None
        return translated
