"""The help's splitter: paragraphs into embeds and messages within Discord's limits, in order.
(Whether each language's help fits as the bot sends it is tested with the catalogues,
tests/bot/i18n; the help through Discord, in tests/bot/e2e/test_languages.py.)"""

from __future__ import annotations

import pytest

from bot.exts.help import EMBEDS_IN_A_MESSAGE, help_paragraphs, in_messages
from bot.i18n import Catalogues
from bot.posting.publisher import Reader
from tests.bot.i18n.test_catalogues import LINK, recorded_descriptions

LANGUAGES = ("en-US", "fr", "ko", "pl", "ru")


@pytest.fixture(scope="module")
def catalogues() -> Catalogues:
    return Catalogues()


def within(messages: list[list[str]], embed_limit: int, message_limit: int) -> None:
    for embeds in messages:
        assert 1 <= len(embeds) <= EMBEDS_IN_A_MESSAGE
        assert all(len(text) <= embed_limit for text in embeds), [len(t) for t in embeds]
        assert sum(map(len, embeds)) <= message_limit, [len(t) for t in embeds]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("embed_limit", "message_limit"), [(4096, 2000), (1000, 1500)])
def test_a_help_longer_than_a_message_takes_several_in_order(
    catalogues: Catalogues, language: str, embed_limit: int, message_limit: int
) -> None:
    paragraphs = help_paragraphs(Reader(catalogues, language), recorded_descriptions(), LINK)
    messages = in_messages(paragraphs, embed_limit=embed_limit, message_limit=message_limit)
    within(messages, embed_limit, message_limit)
    assert len(messages) >= 2
    shown = [text for embeds in messages for text in embeds]
    assert "\n\n".join(shown) == "\n\n".join(paragraphs)


def test_what_fits_one_message_stays_in_one() -> None:
    assert in_messages(["a" * 3000, "b" * 1000, "c" * 1900]) == [
        ["a" * 3000 + "\n\n" + "b" * 1000, "c" * 1900]
    ]
    # 4,002 + 1,999 is one past 6,000: the second embed goes to a message of its own.
    assert in_messages(["a" * 3000, "b" * 1000, "c" * 1999]) == [
        ["a" * 3000 + "\n\n" + "b" * 1000],
        ["c" * 1999],
    ]


def test_eleven_embeds_take_two_messages() -> None:
    paragraphs = ["x" * 500] * 11
    messages = in_messages(paragraphs, embed_limit=500)
    assert [len(embeds) for embeds in messages] == [10, 1]


def test_a_paragraph_longer_than_an_embed_is_cut_between_its_lines() -> None:
    lines = [f"line {i} " + "y" * 90 for i in range(60)]  # 60 lines of about 97 characters
    messages = in_messages(["\n".join(lines)])
    within(messages, 4096, 6000)
    shown = [text for embeds in messages for text in embeds]
    assert len(shown) >= 2 and "\n".join(shown) == "\n".join(lines)
    (long,) = in_messages(["z" * 5000])
    assert long == ["z" * 4096, "z" * 904]
