"""The message-catalogue machinery: languages, plurals, contexts and safe fallbacks."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

import rules
from bot.i18n import ENGLISH, Catalogues, Text, _, n_, p_, rules_error_text

RUSSIAN_PO = r"""
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Language: ru\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : "
"n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n"

msgid "{count} piece removed"
msgid_plural "{count} pieces removed"
msgstr[0] "{count} фишка снята"
msgstr[1] "{count} фишки сняты"
msgstr[2] "{count} фишек снято"

msgctxt "colour"
msgid "White"
msgstr "Белые"

msgid "It is {turn}'s turn, not {colour}'s."
msgstr "Сейчас ходят {turn}, а не {colour}."

msgid "Broken {name}"
msgstr "Сломано {nom}"
"""


@pytest.fixture
def catalogues(tmp_path: Path) -> Catalogues:
    po = tmp_path / "ru" / "LC_MESSAGES" / "dvonn.po"
    po.parent.mkdir(parents=True)
    po.write_text(RUSSIAN_PO, encoding="utf-8")
    return Catalogues(tmp_path)


def test_english_needs_no_catalogue() -> None:
    assert ENGLISH.render(_("Hello {name}", name="Ann")) == "Hello Ann"
    assert ENGLISH.render(n_("{count} piece removed", "{count} pieces removed", 1)) == (
        "1 piece removed"
    )
    assert _("x {n}", n=5).english() == "x 5"


def test_plural_forms_follow_each_languages_rules(catalogues: Catalogues) -> None:
    def removed(count: int) -> str:
        return catalogues.render(n_("{count} piece removed", "{count} pieces removed", count), "ru")

    assert [removed(n) for n in (1, 2, 5, 11, 21, 22)] == [
        "1 фишка снята",
        "2 фишки сняты",
        "5 фишек снято",
        "11 фишек снято",
        "21 фишка снята",
        "22 фишки сняты",
    ]


def test_discord_locales_pick_a_catalogue(catalogues: Catalogues) -> None:
    assert catalogues.language_for(discord.Locale.russian) == "ru"
    assert catalogues.language_for("ru") == "ru"
    assert catalogues.language_for(discord.Locale.american_english) == "en"
    assert catalogues.language_for(discord.Locale.japanese) == "en"  # not spoken yet
    assert catalogues.language_for(None) == "en"
    assert catalogues.languages == ["en", "ru"]


def test_parameters_are_rendered_in_the_same_language(catalogues: Catalogues) -> None:
    pos = rules.play(rules.new_game(), rules.parse_move("E3"))
    with pytest.raises(rules.IllegalMoveError) as caught:
        rules.play(pos, rules.parse_move("F3"), by=rules.Colour.WHITE)
    text = rules_error_text(caught.value)
    assert catalogues.render(text, "ru") == "Сейчас ходят Black, а не Белые."  # Black untranslated
    assert catalogues.render(text, "en-GB") == "It is Black's turn, not White's."
    assert catalogues.render(p_("colour", "White"), "ru") == "Белые"
    assert catalogues.render(_("{x}", x=p_("colour", "White")), "ru") == "Белые"


def test_a_broken_translation_falls_back_to_english(catalogues: Catalogues) -> None:
    assert catalogues.render(_("Broken {name}", name="x"), "ru") == "Broken x"


def test_user_content_passes_through() -> None:
    assert ENGLISH.render("already a string") == "already a string"


def test_plural_text_needs_a_count() -> None:
    with pytest.raises(TypeError):
        ENGLISH.render(Text("a", {"count": "many"}, plural="b"))
