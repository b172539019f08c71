"""A game between a Russian and a Korean player on a Polish server, through the fake Discord.

Each player's private replies come in their own client's language (``interaction.locale``);
everything posted for both of them (the challenge, the thread, every turn) in the server's
(``interaction.guild_locale``, or the server's setting). Names are Cyrillic and Hangul, and the
board images must draw them, not boxes. Set ``DVONN_E2E_IMAGES=<dir>`` to keep the images.
"""

from __future__ import annotations

import io
import os
import random
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from PIL import Image, ImageDraw

import rules
from bot.config import user_install_url
from bot.exts.help import RULES_TEXT, command_descriptions, help_paragraphs
from bot.i18n import ENGLISH, Catalogues, Text, rules_error_text
from bot.i18n.tools import LANGUAGES
from bot.posting.publisher import Reader
from bot.posting.texts import image_labels
from render import DEFAULT_FONTS
from render import fonts as F
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import board_image, is_board_post, send_move
from tests.fakediscord import FakeChannel, FakeUser, Permission, RecordedMessage

ALENA = "Алёна Ёлкина"
MINJUN = "김민준"
CATALOGUES = Catalogues()
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
HANGUL = re.compile("[가-힣]")
AUTONYMS = ("English", "Русский", "한국어", "Polski", "Français")
"""The server's language choices: each language's own name, the same in every client."""
CLOCK_TIME = re.compile(r"\d\d:00")
"""The daily digest's hours (``/dvonn notify hour``): a 24-hour clock reads the same in every
language."""


def said(text: Text, locale: str) -> str:
    return CATALOGUES.render(text, locale)


def keep(image: Image.Image, name: str) -> None:
    """Save ``image`` for a person to look at, when ``DVONN_E2E_IMAGES`` names a directory."""
    if directory := os.environ.get("DVONN_E2E_IMAGES"):
        image.save(Path(directory) / name)


@pytest.fixture
def international(table: Table) -> Table:
    """Alice speaks Russian, Bob Korean, the server Polish: three languages in one game."""
    table.alice.locale, table.alice.global_name = "ru", ALENA
    table.bob.locale, table.bob.global_name = "ko", MINJUN
    table.guild.locale = "pl"
    return table


async def play(
    table: Table, user: FakeUser, thread: FakeChannel, move: rules.Move
) -> RecordedMessage:
    """``user`` plays ``move``; the turn's post, which answers the command (everyone reads it,
    in the server's language)."""
    reply = await send_move(table.fake, user, thread, move)
    assert is_board_post(reply.message), reply.content
    assert reply.message is not None
    return reply.message


@pytest.mark.slow
@pytest.mark.machine_speed
async def test_each_player_reads_their_language_and_the_thread_the_servers(
    international: Table, bot_runner: BotRunner
) -> None:
    table = international
    fake, alice, bob = table.fake, table.alice, table.bob
    async with bot_runner.run() as bot:
        # The challenge is public: Polish, with Polish buttons.
        challenge = await fake.run_command(
            alice, table.games, "dvonn challenge", {"opponent": bob, "colour": "W"}
        )
        message = challenge.message
        assert message is not None and not challenge.ephemeral
        assert "wyzywa cię na partię DVONN" in challenge.content
        assert f"{ALENA} gra jako Biały" in challenge.content
        assert {b.get("label") for b in message.buttons()} == {"Przyjmij", "Odrzuć", "Anuluj"}
        accepted = await fake.click(bob, message, label="Przyjmij")
        assert not accepted.ephemeral
        await fake.wait_until(lambda: not message.buttons(), what="the challenge to close")
        (thread,) = fake.threads_in(table.games)
        assert thread.name == f"DVONN: {ALENA} – {MINJUN}"
        first = await fake.wait_for_message(thread, lambda m: m.embed_image() is not None)
        assert "twój ruch (Biały): postaw pion DVONN poleceniem </dvonn place:" in first.content
        assert first.embeds[0]["title"] == f"DVONN #1: {ALENA} (Biały) – {MINJUN} (Czarny)"
        keep(board_image(first), "languages-start.png")

        # Out of turn, in Korean; a cell that does not exist, in Russian.
        early = await fake.run_command(bob, thread, "dvonn place", {"cell": "E3"})
        assert early.ephemeral
        assert early.content == "내 차례가 아닙니다. 지금은 하양 차례입니다(내 색: 까망)."
        nowhere = await fake.run_command(alice, thread, "dvonn play", {"move": "Z9"})
        assert nowhere.ephemeral and nowhere.content.startswith("«Z9» — такого места на поле нет")

        # Placements: each answered with its board, in Polish.
        pos = rules.new_game()
        players = {rules.Colour.WHITE: alice, rules.Colour.BLACK: bob}
        names = {rules.Colour.WHITE: ALENA, rules.Colour.BLACK: MINJUN}
        rng = random.Random(9)
        post = await play(table, alice, thread, rules.parse_move("E3"))
        assert post.embeds[0]["description"] == f"{ALENA} stawia pion DVONN na E3."
        pos = rules.play(pos, rules.parse_move("E3"))
        taken = await fake.run_command(bob, thread, "dvonn place", {"cell": "E3"})
        assert taken.content == "E3 칸에는 이미 말이 있습니다. 빈칸에 놓으세요."
        while pos.is_placement:
            move = rng.choice(rules.legal_moves(pos))
            post = await play(table, players[pos.turn], thread, move)
            pos = rules.play(pos, move)
        assert "wykonaj ruch poleceniem </dvonn move:" in post.content
        assert post.embeds[0]["footer"]["text"] == "Partia #1 · ruch 50 · Biały 23 – Czarny 23"
        keep(board_image(post), "languages-placed.png")

        # Moving: the autocomplete speaks the mover's language, an illegal move says why in it.
        mover = players[pos.turn]
        sources = await fake.autocomplete(mover, thread, "dvonn move", focused="from")
        assert sources and all(
            c.name == f"{c.value}: {'1 фишка' if mover is alice else '말 1개'}" for c in sources
        ), sources
        wrong = _wrong_distance(pos)
        refused = await send_move(fake, mover, thread, wrong.move)
        expected = said(rules_error_text(wrong.error), mover.locale)
        assert refused.ephemeral and refused.content == expected
        assert expected != ENGLISH.render(rules_error_text(wrong.error))
        assert (CYRILLIC if mover is alice else HANGUL).search(refused.content)

        move = rules.legal_moves(pos)[0]
        post = await play(table, mover, thread, move)
        source, target = str(move)[:2], str(move)[2:]
        assert f"{names[pos.turn]} wykonuje ruch {source}→{target}" in post.embeds[0]["description"]
        keep(board_image(post), "languages-moved.png")
        again = await send_move(fake, mover, thread, rules.legal_moves(pos)[0])
        assert again.ephemeral
        if mover is alice:
            assert again.content == "Сейчас не ваш ход: ходят Чёрные, а вы — Белые."
        else:
            assert again.content == "내 차례가 아닙니다. 지금은 하양 차례입니다(내 색: 까망)."

        # The rules and the help, each in the reader's language, with the cell picture.
        descriptions = command_descriptions(bot.dvonn)
        assert bot.application_id is not None
        install = user_install_url(bot.application_id)
        for user, command, paragraphs in (
            (alice, "dvonn rules", lambda r: [r(t) for t in RULES_TEXT]),
            (bob, "dvonn help", lambda r: help_paragraphs(r, descriptions, install)),
        ):
            reply = await fake.run_command(user, thread, command)
            assert reply.ephemeral and reply.message is not None
            description = reply.message.embeds[0]["description"]
            reader = Reader(CATALOGUES, user.locale, bot.mentions)
            assert description == "\n\n".join(paragraphs(reader))
            assert "</dvonn place:" in description  # tappable
            cells = reply.message.embed_image()
            assert cells is not None
            keep(Image.open(io.BytesIO(cells.data)), f"languages-{command[6:]}-{user.locale}.png")

        games = await fake.run_command(alice, table.games, "dvonn games")
        assert games.content.startswith("Ваши текущие партии:")
        assert (await bot.service.get_game(1)).is_active


class _Wrong(NamedTuple):
    move: rules.Move
    error: rules.IllegalMoveError


def _wrong_distance(pos: rules.Position) -> _Wrong:
    """A move of one of the mover's stacks by the wrong number of cells."""
    for source in rules.movable_cells(pos):
        for target in range(len(rules.CELL_NAMES)):
            move = rules.jump(source, target)
            try:
                rules.play(pos, move)
            except rules.IllegalMoveError as error:
                if error.reason is rules.IllegalReason.WRONG_DISTANCE:
                    return _Wrong(move, error)
    raise AssertionError("every stack can reach every cell?")


async def test_the_servers_setting_beats_its_discord_language(
    international: Table, bot_runner: BotRunner
) -> None:
    table = international
    fake = table.fake
    admin = fake.add_user(
        "admin", table.guild, roles=[table.guild.add_role("admins", Permission.MANAGE_GUILD)]
    )
    admin.locale = "fr"
    async with bot_runner.run():
        saved = await fake.run_command(admin, table.games, "dvonn settings", {"language": "ko"})
        assert saved.ephemeral and saved.content.startswith("Réglages enregistrés.")
        challenge = await fake.run_command(table.alice, table.no_threads, "dvonn challenge")
        assert challenge.message is not None
        assert "님이 DVONN 상대를 찾습니다" in challenge.content  # Korean, not the server's Polish
        assert {b.get("label") for b in challenge.message.buttons()} == {"수락", "취소"}
        await fake.click(table.bob, challenge.message, label="수락")
        first = await fake.wait_for_message(
            table.no_threads, lambda m: m.embed_image() is not None, after=challenge.message
        )
        assert "</dvonn place:" in first.content and "명령어로 드본 말을 놓으세요" in first.content
        keep(board_image(first), "languages-korean-server.png")
        own = await fake.run_command(table.alice, table.no_threads, "dvonn board")
        assert own.message is not None and "하양" in own.message.embeds[0]["title"]


async def test_commands_carry_their_texts_in_every_language(
    international: Table, bot_runner: BotRunner
) -> None:
    fake = international.fake
    async with bot_runner.run():
        commands = fake.commands(international.guild)
    (group,) = [c for c in commands if c.name == "dvonn"]
    described = 0

    def walk(node: Mapping[str, Any]) -> None:
        """The command, subcommand or option ``node``, then its choices and options."""
        nonlocal described
        assert not node.get("name_localizations"), node["name"]  # names stay English
        localized = node.get("description_localizations") or {}
        assert set(localized) == set(LANGUAGES), node["name"]
        for language, text in localized.items():
            assert 1 <= len(text) <= 100 and text != node["description"]
            assert text == said(Text(node["description"]), language)
        described += 1
        for choice in node.get("choices") or []:
            names = choice.get("name_localizations") or {}
            if choice["name"] in AUTONYMS or CLOCK_TIME.fullmatch(choice["name"]):
                assert not names  # each language by its own name, an hour, for everyone
                continue
            assert set(names) == set(LANGUAGES), choice
            assert all(1 <= len(name) <= 100 for name in names.values())
        for option in node.get("options") or []:
            walk(option)

    for command in commands:  # /dvonn, and /puzzle beside it
        walk(command.definition)
    assert described > 30
    assert group.definition["description_localizations"]["ru"] == "Играть в DVONN"


async def test_the_help_reaches_every_language_whole_within_discords_limits(
    table: Table, bot_runner: BotRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/dvonn help`` in each of the five languages: every embed and message within what the
    fake (as Discord) takes, the cells' picture on the first, nothing lost or reordered; and,
    were a language's help longer than a message holds (the limit lowered here), in several
    messages, in order."""
    fake, alice = table.fake, table.alice
    async with bot_runner.run() as bot:
        descriptions = command_descriptions(bot.dvonn)
        assert bot.application_id is not None
        install = user_install_url(bot.application_id)

        async def helped(locale: str) -> list[RecordedMessage]:
            alice.locale = locale
            reader = Reader(CATALOGUES, locale, bot.mentions)
            whole = "\n\n".join(help_paragraphs(reader, descriptions, install))
            reply = await fake.run_command(alice, table.games, "dvonn help")

            def shown() -> str:
                texts = [e["description"] for m in reply.messages for e in m.embeds]
                return "\n\n".join(texts)

            await fake.wait_until(lambda: shown() == whole, what=f"the help in {locale}")
            assert all(m.ephemeral for m in reply.messages)
            assert reply.messages[0].embed_image() is not None
            assert "</dvonn place:" in whole  # tappable, as long as Discord will show it
            return reply.messages

        for locale in ("en-US", *LANGUAGES):
            await helped(locale)  # the fake refuses what Discord would: past a limit, it fails

        # The feature's module as the bot loaded it (discord.py loads a module afresh).
        feature = sys.modules[type(bot.get_cog("Help")).__module__]
        monkeypatch.setattr(feature, "EMBEDS_TOTAL", 2000, raising=False)
        for locale in ("en-US", *LANGUAGES):
            messages = await helped(locale)
            assert len(messages) >= 2, locale
            assert all(sum(len(e["description"]) for e in m.embeds) <= 2000 for m in messages)
            assert [m.embed_image() is not None for m in messages] == [True] + [False] * (
                len(messages) - 1
            )


# --- the board's header in Cyrillic and Hangul ---------------------------------------------------


MISSING = "\U000ffffd"  # a code point no font maps: it draws the font's missing-glyph box


def _drawn(chain: tuple[str, ...], text: str) -> bytes:
    image = Image.new("L", (600, 60))
    F.draw_text(ImageDraw.Draw(image), 5, 45, text, chain=chain, size=32, fill=(255,))
    return image.tobytes()


@pytest.mark.parametrize("name", [ALENA, MINJUN, "Łukasz Żółć", "Zoë Lefèvre"])
def test_names_are_drawn_with_real_glyphs(name: str) -> None:
    for chain in (DEFAULT_FONTS.regular, DEFAULT_FONTS.bold):
        assert all(any(F.covers(font, char) for font in chain) for char in name if char != " ")
        assert _drawn(chain, name) != _drawn(chain, MISSING * len(name))
    # What the fallback is for: DejaVu alone draws Hangul as its missing-glyph boxes.
    assert _drawn((F.DEJAVU_SANS_BOLD,), MINJUN) == _drawn((F.DEJAVU_SANS_BOLD,), MISSING * 3)


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_every_header_word_has_a_glyph(language: str) -> None:
    labels = image_labels(CATALOGUES, language)
    words = [getattr(labels, field) for field in labels.__dataclass_fields__]
    for chain in (DEFAULT_FONTS.regular, DEFAULT_FONTS.bold):
        for word in words:
            missing = [c for c in word if c.strip() and not any(F.covers(f, c) for f in chain)]
            assert not missing, (language, word, missing)
