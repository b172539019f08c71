"""Every text a player sees, in the player's language.

Bot code never sends a string literal to a user. It builds a :class:`Text` with :func:`_`
(or :func:`n_` for plurals, :func:`p_` for a context), whose message id is the English text as
in gettext; the Discord adapter renders it for the reader's locale with
:meth:`Catalogues.render`. So one reply can be rendered in Russian for the player who typed the
command and in the server's language for the game thread.

Catalogues are gettext ``.po`` files, ``bot/i18n/locales/<language>/LC_MESSAGES/dvonn.po``,
each read and compiled in memory by Babel when its language is first needed (no ``.mo`` build
step). English needs no catalogue. After changing any message,
``python -m bot.i18n.tools update`` extracts them all (these calls, ``locale_str``, and the
rules' and the service's error templates) and updates every language's catalogue; then
translate what it reports (:mod:`bot.i18n.tools`).

The rules' errors are English templates with numbers in them ("is {height} high, so it moves
exactly {height} cells"); a few need plural forms to read well in every language, so
:data:`PLURAL_VARIANTS` renders those few as plural messages instead.

This package imports nothing else of the bot: every room of the Discord layer uses it.
"""

from __future__ import annotations

import enum
import gettext
import io
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import rules
from rules import IllegalReason

log = logging.getLogger(__name__)

DOMAIN: Final = "dvonn"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locales"
DEFAULT_LANGUAGE: Final = "en"
LANGUAGE_NAMES: Final = {
    "en": "English",
    "ru": "Русский",
    "ko": "한국어",
    "pl": "Polski",
    "fr": "Français",
}
"""The languages the bot speaks, each by its own name (as language menus show them)."""

Locale = str | enum.Enum | None
"""A Discord locale (``discord.Locale`` or its code such as ``"en-US"``); ``None``: English."""


@dataclass(frozen=True, slots=True)
class Text:
    """A message to render later in some language: an English message id and its parameters."""

    msgid: str
    params: Mapping[str, object] = field(default_factory=dict)
    plural: str | None = None
    """The English plural form; then ``params["count"]`` picks the form in each language."""
    context: str | None = None
    """A gettext context, for the same English words with different meanings."""

    def english(self) -> str:
        """The text in English (for logs and tests; never for users in other languages)."""
        return ENGLISH.render(self)


def _(msgid: str, /, **params: object) -> Text:
    """Mark ``msgid`` (English, with ``{name}`` placeholders) as a message for players."""
    return Text(msgid, params)


def n_(singular: str, plural: str, count: int, /, **params: object) -> Text:
    """A message whose form depends on ``count`` (passed to the text as ``{count}``)."""
    return Text(singular, {"count": count, **params}, plural=plural)


def p_(context: str, msgid: str, /, **params: object) -> Text:
    """A message with a disambiguating gettext context."""
    return Text(msgid, params, context=context)


COLOUR_NAMES: Final[Mapping[rules.Colour, Text]] = {
    rules.Colour.WHITE: p_("colour", "White"),
    rules.Colour.BLACK: p_("colour", "Black"),
}


MAX_QUOTE: Final = 24
"""The most characters of a user's input an answer quotes (Discord refuses replies over 2,000
characters, and a player needs only to recognise what they typed)."""


def excerpt(text: str, limit: int = MAX_QUOTE) -> str:
    """``text`` as an answer may quote it: at most ``limit`` characters, marked "…" if cut, on
    one line, with Discord's formatting characters made harmless."""
    flat = " ".join(text.split())
    if len(flat) > limit:
        flat = flat[: limit - 1].rstrip() + "…"
    return flat.replace("`", "ʹ").replace("@", "@\u200b")


def quoted(params: Mapping[str, object]) -> dict[str, object]:
    """``params`` with every text a user typed cut to an :func:`excerpt`."""
    return {
        name: excerpt(value) if isinstance(value, str) else value for name, value in params.items()
    }


def rules_error_text(error: rules.RulesError) -> Text:
    """A player-facing text for an error from the rules (its English template is the msgid),
    quoting what the player typed as an :func:`excerpt`.

    When rendered, reasons with a number in them become plural messages (:data:`PLURAL_VARIANTS`).
    """
    return Text(error.reason.value, quoted(error.params))


def transcript_error_text(error: rules.TranscriptError) -> Text:
    """A player-facing text for a transcript that cannot be read: where, and why (translated)."""
    params = {
        name: rules_error_text(value) if isinstance(value, rules.RulesError) else value
        for name, value in quoted(error.params).items()
    }
    return Text(error.reason.value, params)


# --- numbers in the rules' and the service's error templates ------------------------------------
# Those templates are one English sentence each, whatever the number: "exactly 1 cells" is wrong
# even in English, and Russian or Polish need three forms. Each function below gets the error's
# params and returns a plural message with the same information; it may raise KeyError or
# TypeError on unexpected params, and then the template itself is shown.

PluralVariant = Callable[[Mapping[str, object]], Text]
"""Builds the plural-aware text for an error template from the error's params."""


def _count(params: Mapping[str, object], name: str) -> int:
    value = params[name]
    if not isinstance(value, int):
        raise TypeError(f"{name} is not a count: {value!r}")
    return value


def _wrong_distance(params: Mapping[str, object]) -> Text:
    distance = n_("{count} cell away", "{count} cells away", _count(params, "distance"))
    return n_(
        "The piece on {source} is a single piece, so it moves exactly {count} cell in a straight "
        "line; {target} is {distance}.",
        "The stack on {source} is {count} high, so it moves exactly {count} cells in a straight "
        "line; {target} is {distance}.",
        _count(params, "height"),
        source=params["source"],
        target=params["target"],
        distance=distance,
    )


def _pass_not_allowed(params: Mapping[str, object]) -> Text:
    return n_(
        "You may pass only when you have no legal move, and you have {count} legal move.",
        "You may pass only when you have no legal move, and you have {count} legal moves.",
        _count(params, "count"),
    )


PLURAL_VARIANTS: Final[Mapping[str, PluralVariant]] = {
    IllegalReason.WRONG_DISTANCE.value: _wrong_distance,
    IllegalReason.PASS_NOT_ALLOWED.value: _pass_not_allowed,
}
"""The rules' error templates (msgids) shown as plural messages instead, keyed by the
template."""


def _plural_variant(text: Text) -> Text:
    variant = PLURAL_VARIANTS.get(text.msgid)
    if variant is None or text.plural is not None or text.context is not None:
        return text
    try:
        return variant(text.params)
    except (KeyError, TypeError):
        log.warning("unexpected params for %r: %r", text.msgid, dict(text.params))
        return text


class Catalogues:
    """The message catalogues of every language we speak, each compiled once, when first
    used (a start compiles none: a bot whose players all speak English never needs them)."""

    def __init__(self, directory: Path = LOCALE_DIR) -> None:
        self._sources: dict[str, Path] = {}
        if directory.is_dir():
            for po_file in sorted(directory.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
                self._sources[po_file.parent.parent.name] = po_file
        self._translations: dict[str, gettext.NullTranslations] = {}
        if DEFAULT_LANGUAGE not in self._sources:
            self._translations[DEFAULT_LANGUAGE] = gettext.NullTranslations()

    @property
    def languages(self) -> list[str]:
        return sorted({DEFAULT_LANGUAGE, *self._sources})

    def _translations_of(self, language: str) -> gettext.NullTranslations:
        translations = self._translations.get(language)
        if translations is None:
            translations = _compile(self._sources[language], language)
            self._translations[language] = translations
        return translations

    def language_for(self, locale: Locale) -> str:
        """The catalogue language for a Discord locale: ``"en-US"`` → ``"en"``, ``"ru"`` → ``"ru"``.

        Unknown or missing locales fall back to English.
        """
        if locale is None:
            return DEFAULT_LANGUAGE
        code = str(locale.value if isinstance(locale, enum.Enum) else locale)
        if code == DEFAULT_LANGUAGE or code in self._sources:
            return code
        base = code.replace("_", "-").split("-")[0].lower()
        return base if base in self._sources else DEFAULT_LANGUAGE

    def render(self, text: Text | str, locale: Locale = None) -> str:
        """``text`` in the language of ``locale``, with its parameters filled in."""
        if isinstance(text, str):
            return text  # already rendered (user content such as names)
        text = _plural_variant(text)
        translations = self._translations_of(self.language_for(locale))
        if text.plural is not None:
            count = text.params.get("count")
            if not isinstance(count, int):
                raise TypeError(f"plural message without an int count: {text.msgid!r}")
            if text.context is not None:
                template = translations.npgettext(text.context, text.msgid, text.plural, count)
            else:
                template = translations.ngettext(text.msgid, text.plural, count)
        elif text.context is not None:
            template = translations.pgettext(text.context, text.msgid)
        else:
            template = translations.gettext(text.msgid)
        if not text.params:
            return template
        values = {name: self._param(value, locale) for name, value in text.params.items()}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            # A broken translation must never hide the message: fall back to English.
            log.exception("bad translation of %r for %s", text.msgid, locale)
            return ENGLISH.render(text)

    def _param(self, value: object, locale: Locale) -> object:
        if isinstance(value, Text):
            return self.render(value, locale)
        if isinstance(value, rules.Colour):
            return self.render(COLOUR_NAMES[value], locale)
        return value


def _compile(po_file: Path, language: str) -> gettext.GNUTranslations:
    with po_file.open("rb") as source:
        catalog = read_po(source, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


ENGLISH: Final = Catalogues(Path("/nonexistent"))
"""English only: for logs and tests."""
