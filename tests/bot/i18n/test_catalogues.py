"""The message catalogues: complete for the code as it is, consistent, and within Discord's limits.

When a test here fails after a code change, run ``.venv/bin/python -m bot.i18n.tools update``
and translate what it reports (the failure message says which messages, where).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, cast

import discord
import pytest
from babel.messages.catalog import Catalog, Message
from discord import app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation, locale_str

import rules
from bot.exts.help import HELP_GROUPS, RULES_TEXT, help_paragraphs, in_messages
from bot.games.core.errors import ServiceError
from bot.games.lobby.errors import InvalidClock
from bot.i18n import ENGLISH, LOCALE_DIR, PLURAL_VARIANTS, Catalogues, Text, n_
from bot.i18n.tools import (
    COMMAND_COMMENT,
    LANGUAGES,
    TEMPLATE,
    Problem,
    check,
    command_texts,
    error_templates,
    extract,
    key,
    messages,
    po_path,
    read_catalogue,
    report,
    update,
    write_catalogue,
)
from bot.i18n.translator import CatalogueTranslator
from bot.posting.commands import CommandMentions
from bot.posting.publisher import Reader
from bot.posting.texts import IMAGE_LABELS, image_labels
from tests.bot.test_command_tree import RECORDED

EMBED_DESCRIPTION_LIMIT = 4096
EMBEDS_IN_A_MESSAGE_LIMIT = 6000
SPOKEN = ("ru", "ko", "pl", "fr")
PLURAL_FORMS = {"ru": 3, "ko": 1, "pl": 3, "fr": 2}


@pytest.fixture(scope="module")
def template() -> Catalog:
    return extract()


@pytest.fixture(scope="module")
def catalogues() -> Catalogues:
    return Catalogues()


# --- the real catalogues -------------------------------------------------------------------------


def test_every_catalogue_has_exactly_the_codes_messages_all_translated(template: Catalog) -> None:
    problems = check(template)
    assert not problems, report(problems)


def test_the_bot_speaks_five_languages(catalogues: Catalogues) -> None:
    assert set(LANGUAGES) == set(SPOKEN)
    assert catalogues.languages == ["en", "fr", "ko", "pl", "ru"]
    for language in SPOKEN:
        assert read_catalogue(language).num_plurals == PLURAL_FORMS[language]
    assert TEMPLATE.is_file()


def test_extraction_finds_every_kind_of_message(template: Catalog) -> None:
    ids = {m.id[0] if isinstance(m.id, tuple) else m.id for m in messages(template)}
    for reason in [*rules.InvalidReason, *rules.IllegalReason]:
        assert reason.value in ids, reason
    assert {t for t, _module, _comment in error_templates()} <= ids
    assert InvalidClock.template in ids
    assert "Play DVONN" in ids  # locale_str
    assert ("colour", "White") in {(m.context, m.id) for m in messages(template)}  # p_
    assert "{count} cell away" in ids  # n_ (a plural variant of a rules error)
    for text in (*RULES_TEXT, *(title for title, _ in HELP_GROUPS), *IMAGE_LABELS.values()):
        assert text.msgid in ids
    assert (None, "Play DVONN") in command_texts(template)
    assert (None, "Accept") not in command_texts(template)


def test_every_service_error_has_its_template_extracted(template: Catalog) -> None:
    def subclasses(cls: type[ServiceError]) -> list[type[ServiceError]]:
        return [c for s in cls.__subclasses__() for c in (s, *subclasses(s))]

    ids = {m.id for m in messages(template)}
    templates = [c.template for c in subclasses(ServiceError) if "template" in vars(c)]
    assert templates and set(templates) <= ids


@pytest.mark.parametrize("language", SPOKEN)
def test_rules_and_help_fit_in_an_embed_and_differ_from_english(
    catalogues: Catalogues, language: str
) -> None:
    rules = "\n\n".join(catalogues.render(t, language) for t in RULES_TEXT)
    assert len(rules) <= EMBED_DESCRIPTION_LIMIT
    assert rules != "\n\n".join(t.english() for t in RULES_TEXT)
    assert "`/dvonn place`" in rules
    descriptions = recorded_descriptions()
    shown = "\n\n".join(help_paragraphs(Reader(catalogues, language), descriptions, LINK))
    english = "\n\n".join(help_paragraphs(Reader(catalogues, "en-US"), descriptions, LINK))
    assert shown != english
    assert all(f"/dvonn {name} ·" in shown for name in descriptions)


@pytest.mark.parametrize("language", ["en-US", *SPOKEN])
def test_the_help_as_sent_keeps_within_discords_limits(
    catalogues: Catalogues, language: str
) -> None:
    """As the bot sends it: its commands tappable (``</dvonn place:ID>``, longer than the
    words), in messages of at most 10 embeds, each at most 4,096 characters and all of one
    message's at most 6,000; nothing lost, nothing reordered."""
    descriptions = recorded_descriptions()
    mentions = CommandMentions()
    mentions.learn(SNOWFLAKE, descriptions)
    mentions.learn_command("puzzle", SNOWFLAKE)
    paragraphs = help_paragraphs(Reader(catalogues, language, mentions), descriptions, LINK)
    assert f"</dvonn place:{SNOWFLAKE}>" in paragraphs[1]
    messages = in_messages(paragraphs)
    for embeds in messages:
        assert 1 <= len(embeds) <= EMBEDS_IN_A_MESSAGE
        assert all(len(text) <= EMBED_DESCRIPTION_LIMIT for text in embeds)
        assert sum(map(len, embeds)) <= EMBEDS_IN_A_MESSAGE_LIMIT
    shown = [text for embeds in messages for text in embeds]
    assert "\n\n".join(shown) == "\n\n".join(paragraphs)


SNOWFLAKE = 1_300_000_000_000_000_000
"""A command id as long as Discord's are today (19 digits)."""
LINK = f"https://discord.com/oauth2/authorize?client_id={SNOWFLAKE}&integration_type=1"
EMBEDS_IN_A_MESSAGE = 10


SUBCOMMAND_GROUP = 2


def recorded_descriptions() -> dict[str, str]:
    """Each /dvonn subcommand's English description, as synced."""
    commands = json.loads(RECORDED.read_text(encoding="utf-8"))
    (group,) = [command for command in commands if command["name"] == "dvonn"]
    found = {}
    for option in group["options"]:
        if option["type"] == SUBCOMMAND_GROUP:
            for sub in option["options"]:
                found[f"{option['name']} {sub['name']}"] = sub["description"]
        else:
            found[option["name"]] = option["description"]
    return found


def test_the_help_names_every_command_once() -> None:
    named = [name for _, names in HELP_GROUPS for name in names]
    assert sorted(named) == sorted(recorded_descriptions())


def test_the_rules_use_each_rule_books_words(catalogues: Catalogues) -> None:
    rules_in = {lang: " ".join(catalogues.render(t, lang) for t in RULES_TEXT) for lang in SPOKEN}
    for word in ("столбик", "DVONN-фишк", "фишк"):
        assert word in rules_in["ru"], word
    for word in ("드본 말", "더미", "하양", "까망", "말 놓기", "말 쌓기"):
        assert word in rules_in["ko"], word
    for word in ("pion", "stos", "piony DVONN", "wieża"):
        assert word in rules_in["pl"], word
    for word in ("pion", "pile", "pions DVONN", "plateau"):
        assert word in rules_in["fr"], word


@pytest.mark.parametrize("language", SPOKEN)
def test_the_board_images_words_are_translated(catalogues: Catalogues, language: str) -> None:
    labels = image_labels(catalogues, language)
    english = image_labels(ENGLISH, None)
    assert labels.white != english.white and labels.black != english.black
    assert "{player}" in labels.to_move and "{number}" in labels.move_number


# --- plural-aware error texts --------------------------------------------------------------------


def test_each_plural_variant_replaces_a_current_template() -> None:
    templates = {t for t, _module, _comment in error_templates()}
    assert set(PLURAL_VARIANTS) <= templates


@pytest.mark.parametrize("language", SPOKEN)
def test_errors_with_numbers_agree_with_them(catalogues: Catalogues, language: str) -> None:
    wrong_distance = rules.IllegalReason.WRONG_DISTANCE.value
    for height, distance in ((1, 2), (2, 1), (3, 5), (21, 22), (5, 11)):
        params = {"source": "C3", "target": "F3", "height": height, "distance": distance}
        text = Text(wrong_distance, params)
        rendered = catalogues.render(text, language)
        assert str(height) in rendered and str(distance) in rendered, rendered
        assert rendered != ENGLISH.render(text)


def test_russian_and_polish_numbers_take_the_right_forms(catalogues: Catalogues) -> None:
    def russian(height: int) -> str:
        params = {"source": "C3", "target": "F3", "height": height, "distance": height + 1}
        return catalogues.render(Text(rules.IllegalReason.WRONG_DISTANCE.value, params), "ru")

    assert "1 фишка" in russian(1) and "на 1 место" in russian(1) and "2 места" in russian(1)
    assert "3 фишки" in russian(3) and "на 3 места" in russian(3) and "4 места" in russian(3)
    assert "5 фишек" in russian(5) and "на 5 мест" in russian(5) and "6 мест" in russian(5)
    assert "21 фишка" in russian(21) and "22 места" in russian(21)

    def cut(count: int, language: str) -> str:
        return catalogues.render(
            n_(
                "{cell}: cuts off {count} piece",
                "{cell}: cuts off {count} pieces",
                count,
                cell="E3",
            ),
            language,
        )

    assert [cut(n, "pl") for n in (1, 2, 5, 22)] == [
        "E3: odcina 1 pion",
        "E3: odcina 2 piony",
        "E3: odcina 5 pionów",
        "E3: odcina 22 piony",
    ]
    assert [cut(n, "fr") for n in (1, 2)] == ["E3 : coupe 1 pion", "E3 : coupe 2 pions"]
    assert cut(7, "ko") == "E3: 말 7개를 끊음"


def test_the_english_of_a_single_piece_is_right_too() -> None:
    params = {"source": "C3", "target": "E3", "height": 1, "distance": 2}
    text = Text(rules.IllegalReason.WRONG_DISTANCE.value, params)
    assert ENGLISH.render(text) == (
        "The piece on C3 is a single piece, so it moves exactly 1 cell in a straight line; "
        "E3 is 2 cells away."
    )
    params = {"source": "C3", "target": "F3", "height": 2, "distance": 3}
    assert ENGLISH.render(Text(rules.IllegalReason.WRONG_DISTANCE.value, params)) == (
        "The stack on C3 is 2 high, so it moves exactly 2 cells in a straight line; "
        "F3 is 3 cells away."
    )


def test_unexpected_params_show_the_template_itself() -> None:
    text = Text(rules.IllegalReason.PASS_NOT_ALLOWED.value, {"count": "many"})
    assert ENGLISH.render(text) == (
        "You may pass only when you have no legal move, and you have many."
    )


# --- command texts -------------------------------------------------------------------------------


def _context(location: TranslationContextLocation) -> app_commands.TranslationContextTypes:
    # The translator looks only at the location; the data would be the command or choice.
    context: app_commands.TranslationContextTypes = cast(Any, TranslationContext)(
        location=location, data=None
    )
    return context


async def test_the_translator_localises_descriptions_and_choices_not_names(
    catalogues: Catalogues,
) -> None:
    translator = CatalogueTranslator(catalogues)
    description = _context(TranslationContextLocation.command_description)
    choice = _context(TranslationContextLocation.choice_name)
    name = _context(TranslationContextLocation.command_name)
    play = locale_str("Play DVONN")
    assert await translator.translate(play, discord.Locale.russian, description) == (
        "Играть в DVONN"
    )
    assert await translator.translate(play, discord.Locale.korean, description) == "DVONN 플레이"
    assert await translator.translate(locale_str("Black"), discord.Locale.french, choice) == "Noir"
    assert await translator.translate(locale_str("move"), discord.Locale.russian, name) is None
    assert await translator.translate(play, discord.Locale.american_english, description) is None
    assert await translator.translate(play, discord.Locale.japanese, description) is None


async def test_a_too_long_translation_falls_back_to_english(tmp_path: Path) -> None:
    po = tmp_path / "ru" / "LC_MESSAGES" / "dvonn.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        f'msgid "Play DVONN"\nmsgstr "{"Играть " * 20}"\n',
        encoding="utf-8",
    )
    translator = CatalogueTranslator(Catalogues(tmp_path))
    description = _context(TranslationContextLocation.command_description)
    assert (
        await translator.translate(locale_str("Play DVONN"), discord.Locale.russian, description)
        is None
    )


# --- the checker itself: a small template and catalogues in a temporary directory ----------------


def _template() -> Catalog:
    template = Catalog(fuzzy=False)
    template.add("Hello {name}")
    template.add(("{count} piece", "{count} pieces"))
    template.add("Use `/dvonn place` **now**")
    template.add("White", context="colour")
    template.add("Play", auto_comments=[COMMAND_COMMENT])
    return template


TRANSLATIONS = {
    "ru": {
        "Hello {name}": "Привет, {name}",
        "{count} piece": ("{count} фишка", "{count} фишки", "{count} фишек"),
        "Use `/dvonn place` **now**": "Используйте `/dvonn place` **сейчас**",
        "White": "Белые",
        "Play": "Играть",
    },
    "fr": {
        "Hello {name}": "Bonjour {name}",
        "{count} piece": ("une pièce", "{count} pièces"),  # French form 0: 0 and 1 only
        "Use `/dvonn place` **now**": "Utilisez `/dvonn place` **maintenant**",
        "White": "Blanc",
        "Play": "Jouer",
    },
}


@pytest.fixture
def small(tmp_path: Path) -> tuple[Catalog, Path]:
    """A template and complete Russian and French catalogues for it in ``tmp_path``."""
    template = _template()
    update(template, ["ru", "fr"], tmp_path)
    for language, strings in TRANSLATIONS.items():
        _edit(tmp_path, language, lambda catalogue, strings=strings: _fill(catalogue, strings))
    assert check(template, ["ru", "fr"], tmp_path) == []
    return template, tmp_path


def _fill(catalogue: Catalog, strings: dict[str, str | tuple[str, ...]]) -> None:
    for message in messages(catalogue):
        message.string = strings[key(message)[1]]


def _message(catalogue: Catalog, msgid: str, context: str | None = None) -> Message:
    message = catalogue.get(msgid, context)
    assert message is not None, msgid
    return message


def _edit(directory: Path, language: str, change: object) -> None:
    catalogue = read_catalogue(language, directory)
    assert callable(change)
    change(catalogue)
    write_catalogue(po_path(language, directory), catalogue)


def _whats(problems: list[Problem]) -> list[tuple[str, str, str]]:
    return [(p.language, p.msgid, p.what.split(" (")[0].split(":")[0]) for p in problems]


def test_a_message_added_in_one_language_only_is_reported(small: tuple[Catalog, Path]) -> None:
    template, directory = small
    _edit(directory, "ru", lambda c: c.add("Goodbye", "Пока"))
    problems = check(template, ["ru", "fr"], directory)
    assert _whats(problems) == [("ru", "Goodbye", "extra")]
    assert "bot.i18n.tools update" in report(problems)


def test_a_new_message_in_the_code_is_missing_everywhere(small: tuple[Catalog, Path]) -> None:
    template, directory = small
    template.add("A new message")
    problems = check(template, ["ru", "fr"], directory)
    assert _whats(problems) == [
        ("template", "dvonn.pot", "out of date"),
        ("ru", "A new message", "missing"),
        ("fr", "A new message", "missing"),
    ]
    assert "'A new message'" in report(problems)
    update(template, ["ru", "fr"], directory)  # the fix: update, then translate
    assert _whats(check(template, ["ru", "fr"], directory)) == [
        ("ru", "A new message", "untranslated"),
        ("fr", "A new message", "untranslated"),
    ]


def test_update_drops_old_messages_and_marks_guesses_fuzzy(small: tuple[Catalog, Path]) -> None:
    template, directory = small
    changed = Catalog(fuzzy=False)
    for message in messages(template):
        if message.id != "Hello {name}":
            changed.add(message.id, context=message.context)
    changed.add("Hello {name}!")
    assert update(changed, ["ru"], directory)
    assert update(changed, ["ru"], directory) == []  # nothing changed: nothing written
    problems = _whats(check(changed, ["ru"], directory))
    assert problems == [("ru", "Hello {name}!", "fuzzy")]
    assert read_catalogue("ru", directory).get("Hello {name}") is None


def test_placeholders_markup_and_commands_must_survive(small: tuple[Catalog, Path]) -> None:
    template, directory = small

    def break_them(catalogue: Catalog) -> None:
        _message(catalogue, "Hello {name}").string = "Привет, {nom}"
        _message(
            catalogue, "Use `/dvonn place` **now**"
        ).string = "Используйте /dvonn поставить сейчас"

    _edit(directory, "ru", break_them)
    whats = [p.what for p in check(template, ["ru", "fr"], directory)]
    assert any("placeholders ['{nom}']" in w for w in whats), whats
    assert any("'**'" in w for w in whats) and any("'`'" in w for w in whats)
    assert any("lacks the command /dvonn place" in w for w in whats)


def test_a_form_used_for_many_numbers_must_show_the_count(small: tuple[Catalog, Path]) -> None:
    template, directory = small

    def one_piece(catalogue: Catalog) -> None:
        # Russian form 0 is also 21, 31, ...: "одна фишка" would be wrong for them.
        _message(catalogue, "{count} piece").string = (
            "одна фишка",
            "{count} фишки",
            "{count} фишек",
        )

    _edit(directory, "ru", one_piece)
    assert _whats(check(template, ["ru", "fr"], directory)) == [
        ("ru", "{count} piece", "form 0 has placeholders [], the English ['{count}']")
    ]


def test_fuzzy_and_malformed_translations_are_reported(small: tuple[Catalog, Path]) -> None:
    template, directory = small

    def spoil(catalogue: Catalog) -> None:
        _message(catalogue, "{count} piece").string = ("{count} pièce", "")
        _message(catalogue, "Hello {name}").flags.add("fuzzy")
        _message(catalogue, "White", "colour").string = "Blanc {"

    _edit(directory, "fr", spoil)
    assert _whats(check(template, ["ru", "fr"], directory)) == [
        ("fr", "Hello {name}", "fuzzy"),
        ("fr", "{count} piece", "untranslated"),
        ("fr", "White", "translation is not a valid template"),
    ]


def test_plural_forms_must_be_the_languages(small: tuple[Catalog, Path]) -> None:
    template, directory = small
    po = po_path("ru", directory)
    text = po.read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith('"Plural-Forms:'))
    # A header copied from the French catalogue: two forms where Russian needs three.
    po.write_text(
        text.replace(header, '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"'), encoding="utf-8"
    )
    whats = [p.what for p in check(template, ["ru", "fr"], directory)]
    assert "Plural-Forms says 2 forms, not 3" in whats
    assert "2 plural forms instead of 3" in whats


def test_command_texts_must_fit_discords_limit(small: tuple[Catalog, Path]) -> None:
    template, directory = small
    _edit(directory, "fr", lambda c: setattr(c.get("Play"), "string", "Jouer " * 20))
    assert _whats(check(template, ["ru", "fr"], directory)) == [
        ("fr", "Play", "longer than Discord's 100 characters")
    ]


def test_a_missing_language_is_reported(small: tuple[Catalog, Path]) -> None:
    template, directory = small
    assert _whats(check(template, ["ru", "fr", "de"], directory)) == [("de", "", "no catalogue")]


@pytest.mark.slow
def test_update_leaves_the_real_catalogues_alone_when_nothing_changed(tmp_path: Path) -> None:
    copy = tmp_path / "locales"
    shutil.copytree(LOCALE_DIR, copy)
    template = extract()
    update(template, LANGUAGES, copy)
    assert update(template, LANGUAGES, copy) == []
