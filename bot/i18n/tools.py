"""Keeping the message catalogues in step with the code: extract, update, check.

After adding or changing any text a player sees, run::

    python -m bot.i18n.tools update     # extract every message, update each language's .po
    python -m bot.i18n.tools check      # what is missing, extra, untranslated or inconsistent

``update`` writes ``bot/i18n/locales/dvonn.pot`` and adds the new messages to every
``bot/i18n/locales/<language>/LC_MESSAGES/dvonn.po`` untranslated (or marked fuzzy, with a guess
from a similar old message), and drops the messages the code no longer has. Then translate, remove
the fuzzy marks, and run ``check`` (the test suite runs the same check). ``init LANGUAGE`` starts
a new language; ``extract`` only writes the template.

The messages are everything the bot shows: the ``_()``, ``n_()`` and ``p_()`` texts and the
``locale_str`` command texts in ``bot/`` (found by Babel's extractor), plus the error templates
of the rules (:class:`rules.IllegalReason`, :class:`rules.InvalidReason`) and of the game service
(each :class:`bot.games.core.errors.ServiceError`'s ``template``), which the bot uses as msgids but
which are not calls the extractor could see.
"""

from __future__ import annotations

import argparse
import enum
import gettext
import io
import string
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

import bot.games.service  # noqa: F401  # the composition root imports every feature: every error
from bot.games.core.errors import ServiceError
from bot.i18n import DEFAULT_LANGUAGE, DOMAIN, LANGUAGE_NAMES, LOCALE_DIR
from rules import IllegalReason, InvalidReason, TranscriptReason

PROJECT_ROOT: Final = Path(__file__).resolve().parents[2]
BOT_DIR: Final = PROJECT_ROOT / "bot"
TEMPLATE: Final = LOCALE_DIR / f"{DOMAIN}.pot"
LANGUAGES: Final = tuple(sorted(set(LANGUAGE_NAMES) - {DEFAULT_LANGUAGE}))
"""The languages the bot speaks besides English (its msgids)."""
UPDATE_COMMAND: Final = ".venv/bin/python -m bot.i18n.tools update"

# Babel keyword specs: n_(singular, plural, count), p_(context, msgid).
KEYWORDS: Final = {"_": None, "n_": (1, 2), "p_": ((1, "c"), 2), "locale_str": None}
COMMAND_KEYWORDS: Final = {"locale_str": None}
COMMAND_TEXT_LIMIT: Final = 100
"""Discord's limit for command and option descriptions and choice names, in characters."""
COMMAND_COMMENT: Final = f"Discord command text: at most {COMMAND_TEXT_LIMIT} characters."
# The date lines change on every run; a file whose other lines are the same is left alone.
_DATE_HEADERS: Final = (b'"POT-Creation-Date:', b'"PO-Revision-Date:')

MessageKey = tuple[str | None, str]
"""A message's identity in a catalogue: its context and its (singular) msgid."""


# --- extraction ----------------------------------------------------------------------------------


def extract(source: Path = BOT_DIR) -> Catalog:
    """Every message of the bot, as a template catalogue (no translations)."""
    template = _new_catalogue(None)
    root = source.parent
    for filename, lineno, msgid, comments, context in extract_from_dir(
        source, keywords=KEYWORDS, comment_tags=("Translators:",), strip_comment_tags=True
    ):
        location = (f"{source.name}/{filename}", lineno)
        template.add(msgid, locations=[location], auto_comments=comments, context=context)
    for _filename, _lineno, msgid, _comments, context in extract_from_dir(
        source, keywords=COMMAND_KEYWORDS
    ):
        message = template.get(msgid, context)
        if message is not None and COMMAND_COMMENT not in message.auto_comments:
            message.auto_comments.append(COMMAND_COMMENT)
    for msgid, where, comment in error_templates():
        path = Path(sys.modules[where].__file__ or where)
        template.add(msgid, locations=[(str(path.relative_to(root)), 0)], auto_comments=[comment])
    return template


def error_templates() -> Iterator[tuple[str, str, str]]:
    """``(template, module, translator comment)`` for every rules and service error."""
    reasons: Iterable[InvalidReason | IllegalReason | TranscriptReason] = [
        *InvalidReason,
        *IllegalReason,
        *TranscriptReason,
    ]
    for reason in reasons:
        yield reason.value, type(reason).__module__, f"rules error {reason.name}"
    for error in _subclasses(ServiceError):
        if "template" in vars(error):
            yield error.template, error.__module__, f"service error {error.key}"


def _subclasses(cls: type[ServiceError]) -> Iterator[type[ServiceError]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def command_texts(template: Catalog) -> set[MessageKey]:
    """The messages Discord shows as command texts (with a length limit)."""
    return {key(m) for m in messages(template) if COMMAND_COMMENT in m.auto_comments}


# --- catalogues on disk --------------------------------------------------------------------------


def po_path(language: str, directory: Path = LOCALE_DIR) -> Path:
    return directory / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalogue(language: str, directory: Path = LOCALE_DIR) -> Catalog:
    return _read(po_path(language, directory), language)


def _read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


def _keys(catalogue: Catalog) -> set[tuple[str | None, tuple[str, ...]]]:
    return {(m.context, ids(m)) for m in messages(catalogue)}


def update(
    template: Catalog, languages: Sequence[str] = LANGUAGES, directory: Path = LOCALE_DIR
) -> list[Path]:
    """Write the template and bring each language's catalogue in line with it; the files written.

    New messages arrive untranslated, or fuzzy with a guess from a similar message; messages the
    code no longer has are dropped (git remembers them).
    """
    written = []
    if write_catalogue(directory / f"{DOMAIN}.pot", template):
        written.append(directory / f"{DOMAIN}.pot")
    for language in languages:
        path = po_path(language, directory)
        if path.exists():
            catalogue = read_catalogue(language, directory)
        else:
            catalogue = _new_catalogue(language)
        catalogue.update(template)
        catalogue.obsolete.clear()
        if write_catalogue(path, catalogue):
            written.append(path)
    return written


def _new_catalogue(language: str | None) -> Catalog:
    return Catalog(
        locale=language,
        domain=DOMAIN,
        header_comment=(
            "# Messages of dvonn-bot, the DVONN bot for Discord.\n"
            f"# Update after changing the code's messages: {UPDATE_COMMAND}\n#"
        ),
        project="dvonn-bot",
        copyright_holder="the dvonn-bot authors",
        last_translator="the dvonn-bot team",
        language_team=language,
        fuzzy=False,
    )


def write_catalogue(path: Path, catalogue: Catalog) -> bool:
    """Write ``catalogue`` as a .po file, unless only its dates would change; whether written."""
    buffer = io.BytesIO()
    write_po(buffer, catalogue, width=100, include_lineno=False, ignore_obsolete=True)
    new = buffer.getvalue()
    if path.exists() and _without_dates(path.read_bytes()) == _without_dates(new):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(new)
    return True


def _without_dates(content: bytes) -> list[bytes]:
    return [line for line in content.splitlines() if not line.startswith(_DATE_HEADERS)]


# --- checking ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong with one message in one language's catalogue."""

    language: str
    msgid: str
    what: str

    def __str__(self) -> str:
        return f"{self.language}: {self.what}: {self.msgid!r}"


def key(message: Message) -> MessageKey:
    """The message's identity: its context and singular msgid."""
    return (message.context, ids(message)[0])


def ids(message: Message) -> tuple[str, ...]:
    """The message's msgid, and its msgid_plural if it has one."""
    msgid = message.id
    return (msgid,) if isinstance(msgid, str) else tuple(msgid)


def messages(catalogue: Catalog) -> list[Message]:
    """The catalogue's messages without its header entry."""
    return [m for m in catalogue if m.id]


def check(
    template: Catalog, languages: Sequence[str] = LANGUAGES, directory: Path = LOCALE_DIR
) -> list[Problem]:
    """Every way the catalogues differ from the code's messages, or are not usable."""
    problems = []
    pot = directory / f"{DOMAIN}.pot"
    if not pot.exists() or _keys(_read(pot)) != _keys(template):
        problems.append(Problem("template", str(pot.name), "out of date"))
    for language in languages:
        if not po_path(language, directory).exists():
            problems.append(Problem(language, "", "no catalogue"))
            continue
        problems += check_catalogue(template, read_catalogue(language, directory))
    return problems


def check_catalogue(template: Catalog, catalogue: Catalog) -> list[Problem]:
    """One language: complete, nothing extra, translated, and each translation consistent."""
    language = str(catalogue.locale)
    problems: list[Problem] = []

    def problem(msgid: str, what: str) -> None:
        problems.append(Problem(language, msgid, what))

    expected_forms, expected_rule = get_plural(language)
    if catalogue.num_plurals != expected_forms:
        problem("", f"Plural-Forms says {catalogue.num_plurals} forms, not {expected_forms}")
    if catalogue.plural_expr != expected_rule:
        problem("", f"Plural-Forms says plural={catalogue.plural_expr}, not {expected_rule}")
    plural_of = gettext.c2py(expected_rule)
    wanted = {key(m): m for m in messages(template)}
    have = {key(m): m for m in messages(catalogue)}
    limited = command_texts(template)
    for missing in sorted(wanted.keys() - have.keys(), key=_sortable):
        problem(missing[1], "missing (not in the catalogue)")
    for extra in sorted(have.keys() - wanted.keys(), key=_sortable):
        problem(extra[1], "extra (not in the code any more)")
    for message_key in sorted(wanted.keys() & have.keys(), key=_sortable):
        source, message = wanted[message_key], have[message_key]
        msgid = message_key[1]
        if ids(source) != ids(message):
            problem(msgid, "the plural form differs from the code's")
            continue
        if message.fuzzy:
            problem(msgid, "fuzzy (a guess to review; then remove the fuzzy flag)")
        forms = _strings(message)
        if not all(forms):
            problem(msgid, "untranslated")
            continue
        if message.pluralizable and len(forms) != expected_forms:
            problem(msgid, f"{len(forms)} plural forms instead of {expected_forms}")
            continue
        for what in _inconsistencies(source, forms, plural_of):
            problem(msgid, what)
        if message_key in limited and any(len(f) > COMMAND_TEXT_LIMIT for f in forms):
            problem(msgid, f"longer than Discord's {COMMAND_TEXT_LIMIT} characters")
    return problems


def _sortable(message_key: MessageKey) -> tuple[str, str]:
    return (message_key[0] or "", message_key[1])


def _strings(message: Message) -> list[str]:
    value = message.string
    if isinstance(value, str):
        return [value]
    return list(value or [])


def fields(text: str) -> set[str]:
    """The ``{placeholders}`` of a ``str.format`` template (``ValueError`` if malformed)."""
    return {
        f"{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}"
        for _literal, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    }


# Markup that must survive translation: Discord's bold and code, and command names (which stay
# English, so a translation that spells "/dvonn place" differently points to no command).
_MARKUP: Final = ("**", "`")


def _inconsistencies(source: Message, forms: Sequence[str], plural_of: object) -> Iterator[str]:
    english = ids(source)
    try:
        expected = set().union(*(fields(i) for i in english))
    except ValueError as error:
        yield f"the English template itself is malformed ({error})"
        return
    for index, form in enumerate(forms):
        label = f"form {index}" if source.pluralizable else "translation"
        try:
            found = fields(form)
        except ValueError as error:
            yield f"{label} is not a valid template ({error}): {form!r}"
            continue
        missing = expected - found
        # A form used for no number but 1 (0 and 1 in French) may say "one" instead of {count}.
        if missing == {"{count}"} and source.pluralizable and _only_one(index, plural_of):
            missing = set()
        if missing or found - expected:
            yield (
                f"{label} has placeholders {sorted(found)}, the English {sorted(expected)}: "
                f"{form!r}"
            )
        for mark in _MARKUP:
            found_marks, english_marks = form.count(mark), english[-1].count(mark)
            if found_marks != english_marks:
                yield f"{label} has {found_marks} {mark!r}, the English {english_marks}"
        for command in _commands(english[-1]) - _commands(form):
            yield f"{label} lacks the command {command}"


def _only_one(index: int, plural_of: object) -> bool:
    assert callable(plural_of)
    return all(plural_of(n) != index for n in range(2, 1000))


def _commands(text: str) -> set[str]:
    words = text.replace("`", " ").split()
    return {
        f"/dvonn {words[i + 1].strip('.,:;)')}"
        for i, word in enumerate(words[:-1])
        if word == "/dvonn"
    }


def report(problems: Sequence[Problem]) -> str:
    """The problems, grouped by language, and what to do about them."""
    lines = [f"{len(problems)} problems in the message catalogues (bot/i18n/locales):"]
    lines += [f"  {problem}" for problem in problems]
    lines.append(
        f"Run `{UPDATE_COMMAND}` to add new messages to every catalogue and drop old ones, then "
        "translate the empty and fuzzy entries in bot/i18n/locales/<language>/LC_MESSAGES/dvonn.po "
        "(keep every {placeholder}, ** and ` as in the English)."
    )
    return "\n".join(lines)


# --- command line --------------------------------------------------------------------------------


class Command(enum.Enum):
    EXTRACT = "extract"
    UPDATE = "update"
    CHECK = "check"
    INIT = "init"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n.tools", description=__doc__)
    parser.add_argument("command", choices=[c.value for c in Command])
    parser.add_argument("language", nargs="?", help="for init: a language code such as de")
    args = parser.parse_args(argv)
    command = Command(args.command)
    template = extract()
    if command is Command.EXTRACT:
        write_catalogue(TEMPLATE, template)
        print(f"{len(messages(template))} messages in {TEMPLATE.relative_to(PROJECT_ROOT)}")
        return 0
    if command is Command.INIT:
        if not args.language:
            parser.error("init needs a language code")
        languages: Sequence[str] = [args.language]
    else:
        languages = LANGUAGES
    if command is not Command.CHECK:
        for path in update(template, languages):
            print(f"wrote {path.relative_to(PROJECT_ROOT)}")
    problems = check(template, languages)
    if problems:
        print(report(problems))
        return 1
    print(f"{len(messages(template))} messages, all translated in: {', '.join(languages)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
