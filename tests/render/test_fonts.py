"""Bundled fonts and per-character fallback chains."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from render import DEFAULT_FONTS, Fonts
from render import fonts as F


def test_the_fonts_and_their_licence_are_bundled() -> None:
    for path in DEFAULT_FONTS.regular + DEFAULT_FONTS.bold:
        assert Path(path).is_file() and Path(path).parent == F.FONT_DIR
    assert (F.FONT_DIR / "LICENSE-DejaVu.txt").is_file()
    for licence in ("NotoSansCJK", "NotoSansArabic", "NotoColorEmoji"):
        assert (F.FONT_DIR / f"LICENSE-{licence}.txt").is_file()


def test_the_default_chains_draw_hangul_with_noto_sans_cjk() -> None:
    for chain in (DEFAULT_FONTS.regular, DEFAULT_FONTS.bold):
        assert F.runs(chain, "Ёж 김민준") == [(chain[0], "Ёж "), (chain[1], "김민준")]
    # Every Hangul syllable and jamo is in the subsets, not only common ones.
    for char in "가힣ᄀᇿㄱㆎ똠뷁":
        assert F.covers(F.NOTO_SANS_CJK, char) and F.covers(F.NOTO_SANS_KR_BOLD, char), char
    # So are kana and every ideograph of the basic block (the regular weight draws them bold too).
    for char in "あんアン一丁龥王明さくら":
        assert F.covers(F.NOTO_SANS_CJK, char), char


def test_the_cjk_fonts_stay_small() -> None:
    assert Path(F.NOTO_SANS_CJK).stat().st_size < 7_000_000
    assert Path(F.NOTO_SANS_KR_BOLD).stat().st_size < 1_500_000


def test_dejavu_covers_latin_and_cyrillic_but_not_hangul() -> None:
    for char in "AzéłŁçЖжЁё0123456789·…":
        assert F.covers(F.DEJAVU_SANS_BOLD, char), char
    assert not F.covers(F.DEJAVU_SANS_BOLD, "가")


def test_each_character_goes_to_the_first_font_that_has_it() -> None:
    chain = (F.DEJAVU_SANS_BOLD, F.DEJAVU_SANS)
    assert F.runs(chain, "Zoë Ёж") == [(F.DEJAVU_SANS_BOLD, "Zoë Ёж")]
    # Nothing covers Hangul here: it falls back to the first font (its missing-glyph box).
    assert F.runs(chain, "김") == [(F.DEJAVU_SANS_BOLD, "김")]


def test_a_fallback_font_is_appended_to_both_chains() -> None:
    fonts = Fonts().with_fallback("/fonts/Extra.otf")
    assert fonts.regular == (*DEFAULT_FONTS.regular, "/fonts/Extra.otf")
    assert fonts.bold == (*DEFAULT_FONTS.bold, "/fonts/Extra.otf")


def test_long_text_is_cut_with_an_ellipsis_to_fit() -> None:
    chain = DEFAULT_FONTS.bold
    cut = F.fit(chain, 20, "Marie-Hélène Dubois-Lefèvre", 120)
    assert cut.endswith("…") and F.text_width(chain, 20, cut) <= 120
    assert F.fit(chain, 20, "Zoë", 120) == "Zoë"


def test_the_cut_is_the_longest_that_fits_and_found_in_a_few_measurements(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chain = DEFAULT_FONTS.regular
    measured = []
    width = F.text_width

    def counted(chain: Sequence[str], size: int, text: str) -> float:
        measured.append(text)
        return width(chain, size, text)

    monkeypatch.setattr(F, "text_width", counted)
    name = "Ann Lee, " * 2_000
    cut = F.fit(chain, 16, name, 200)
    assert cut.endswith("…") and width(chain, 16, cut) <= 200
    assert width(chain, 16, name[: len(cut)] + "…") > 200  # one character more would not fit
    assert len(measured) < 30


def test_names_are_put_on_one_line() -> None:
    assert F.clean("  Ann\nLee\t ") == "Ann Lee"
    assert F.player_name("x" * 10_000 + "\n") == "x" * F.MAX_NAME_LENGTH


# --- names of every script players write, emoji included -----------------------------------------

# Each name as the clusters a reader sees: the test's own segmentation, not the renderer's.
NAMES: dict[str, tuple[str, ...]] = {
    "latin": tuple("Łukasz Żółć-Lefèvre"),
    "cyrillic": tuple("Алёна Ёжикова"),
    "hangul": tuple("김민준"),
    "cjk": tuple("王小明 さくら"),
    "arabic": tuple("محمد علي"),
    "ending in an emoji": (*"Paul ", "🔥"),
    "flag": ("🇫🇷", *" Marie"),
    "zwj family": ("👨\u200d👩\u200d👧", *" famille"),
    "skin tone": ("👍🏽", *" ok"),
    "mixed": (
        *"Ёж ",
        "😀",
        *" 김 ",
        "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",
    ),
    "keycap and heart": ("1\ufe0f\u20e3", " ", "❤\ufe0f"),
    "arabic and emoji": (*"محمد ", "🔥", *" علي"),
}
EMOJI = {"🔥", "🇫🇷", "👨\u200d👩\u200d👧", "👍🏽", "😀", "1\ufe0f\u20e3", "❤\ufe0f"}
EMOJI.add(NAMES["mixed"][-1])  # England's flag: a black flag and tags
CHAINS = {"regular": DEFAULT_FONTS.regular, "bold": DEFAULT_FONTS.bold}


def _missing_glyph(path: str, size: int) -> bytes:
    face = F.font(path, size)
    return bytes(face.getmask(F._SURELY_MISSING))


@pytest.mark.parametrize("chain", CHAINS.values(), ids=CHAINS.keys())
@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_no_cluster_of_a_name_is_drawn_as_a_missing_glyph_box(
    name: tuple[str, ...], chain: tuple[str, ...]
) -> None:
    text = "".join(name)
    runs = F.runs(chain, text)
    assert "".join(part for _, part in runs) == text
    # Walk the runs cluster by cluster: each is drawn by its run's font, and alone in that
    # font it is not the font's missing-glyph box.
    queue = list(name)
    for path, part in runs:
        rest = part
        while rest:
            cluster = queue.pop(0)
            assert rest.startswith(cluster), (rest, cluster)
            rest = rest[len(cluster) :]
            if cluster == " ":
                continue
            face = F.font(path, 32, shaped=True)
            assert bytes(face.getmask(cluster)) != _missing_glyph(path, 32), (cluster, path)
            if cluster in EMOJI:
                assert path == F.NOTO_COLOR_EMOJI, cluster  # in colour, as Discord shows them
    assert not queue


@pytest.mark.skipif(not F.COMPLEX_LAYOUT, reason="needs libraqm to join emoji sequences")
@pytest.mark.parametrize("emoji", sorted(EMOJI))
def test_a_flag_or_an_emoji_sequence_is_drawn_as_one_emoji(emoji: str) -> None:
    face = F.font(F.NOTO_COLOR_EMOJI, 32, shaped=True)
    one = face.getlength("😀")
    assert face.getlength(emoji) == one  # one glyph, not a letter box per regional indicator
    assert F.text_width(DEFAULT_FONTS.regular, 32, emoji) == pytest.approx(one * 32 / 109)


def _ink(chain: tuple[str, ...], text: str, *, size: int = 32, x: int = 20) -> Image.Image:
    image = Image.new("RGB", (900, 80), (0, 0, 0))
    F.draw_text(ImageDraw.Draw(image), x, 56, text, chain=chain, size=size, fill=(255, 255, 255))
    return image


@pytest.mark.parametrize("chain", CHAINS.values(), ids=CHAINS.keys())
@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_a_name_is_drawn_within_its_measured_width(
    name: tuple[str, ...], chain: tuple[str, ...]
) -> None:
    text = "".join(name)
    width = F.text_width(chain, 32, text)
    box = _ink(chain, text).getbbox()
    assert box is not None
    # The ink starts at the pen and ends within the advance (a glyph may reach a pixel or two
    # past its advance: antialiasing, an italic-like overhang).
    assert box[0] >= 20 - 2 and box[2] <= 20 + width + 3, (box, width)
    assert box[2] >= 20 + width - 0.25 * 32  # and fills it, up to the last glyph's side bearing


@pytest.mark.parametrize("chain", CHAINS.values(), ids=CHAINS.keys())
@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_a_name_cut_to_fit_keeps_whole_clusters(
    name: tuple[str, ...], chain: tuple[str, ...]
) -> None:
    text = "".join(name)
    for room in (40, 70, 110, 160):
        cut = F.fit(chain, 32, text, room)
        assert F.text_width(chain, 32, cut) <= room
        if cut != text:
            kept = cut.removesuffix("…")
            # A start of the name's clusters, perhaps without trailing spaces.
            starts = {"".join(name[:n]).rstrip() for n in range(len(name) + 1)}
            assert kept in starts, (cut, room)


def test_emoji_are_drawn_in_their_own_colours() -> None:
    image = _ink(DEFAULT_FONTS.regular, "Paul 😀🇫🇷")
    colours = [colour for _, colour in image.getcolors(1 << 16) or [] if isinstance(colour, tuple)]
    # White text on black draws greys only; the emoji add yellow, blue and red.
    assert any(max(c) - min(c) > 120 for c in colours)


@pytest.mark.skipif(not F.COMPLEX_LAYOUT, reason="needs libraqm for right-to-left shaping")
def test_right_to_left_words_read_from_the_right() -> None:
    pieces = F.pieces(DEFAULT_FONTS.regular, "محمد 🔥 علي")
    # Drawn left to right: the last word first, the emoji between, the first word last.
    assert [piece.text for piece in pieces] == ["علي", " ", "🔥", " ", "محمد"]
    assert {piece.direction for piece in pieces} == {"rtl"}
    # A left-to-right name keeps its order around an Arabic word.
    latin = F.pieces(DEFAULT_FONTS.regular, "Ali محمد 😀")
    assert [piece.text for piece in latin] == ["Ali ", "محمد", " ", "😀"]
    # Digits after Arabic letters go with them, to their left (a browser's "2024 محمد").
    year = F.pieces(DEFAULT_FONTS.regular, "محمد 2024")
    assert [(piece.text, piece.direction) for piece in year] == [(" 2024", "rtl"), ("محمد", "rtl")]
    assert [p.text for p in F.pieces(DEFAULT_FONTS.regular, "Ali 2024")] == ["Ali 2024"]


def test_without_libraqm_every_cluster_still_has_a_glyph(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pillow without libraqm (no FriBiDi on the machine): sequences show as their parts and
    # Arabic letters unjoined, but nothing is drawn as a missing-glyph box.
    caches = (F.font, F.pieces, F._bitmap_piece, F._length)
    for cache in caches:
        cache.cache_clear()
    monkeypatch.setattr(F, "COMPLEX_LAYOUT", False)
    try:
        for name in NAMES.values():
            text = "".join(name)
            for chain in CHAINS.values():
                for piece in F.pieces(chain, text):
                    face = F.font(piece.path, 32, shaped=True)
                    assert face.layout_engine == ImageFont.Layout.BASIC
                    for char in F._drawn(piece):
                        if char != " ":
                            assert bytes(face.getmask(char)) != _missing_glyph(piece.path, 32)
                assert _ink(chain, text).getbbox() is not None
    finally:
        for cache in caches:
            cache.cache_clear()


def test_only_what_needs_shaping_is_shaped() -> None:
    # Latin, Cyrillic, Hangul and CJK characters one by one take the quicker basic layout, and
    # draw as before; accents, Arabic, right-to-left words and emoji are shaped.
    raqm = ImageFont.Layout.RAQM if F.COMPLEX_LAYOUT else ImageFont.Layout.BASIC
    chain = DEFAULT_FONTS.regular
    engines = [
        (piece.text, F._face(piece, 20).layout_engine)
        for piece in F.pieces(chain, "Zoë Ёж 김 王 e\u0301 🔥 محمد")
    ]
    basic = ImageFont.Layout.BASIC
    assert engines == [
        ("Zoë Ёж ", basic),
        ("김", basic),
        (" ", basic),
        ("王", basic),
        (" e\u0301 ", raqm),
        ("🔥", raqm),
        (" ", basic),
        ("محمد", raqm),
    ]


def test_an_emoji_drawn_on_a_transparent_layer_keeps_its_own_opacity() -> None:
    # Laid over nothing, the emoji's pixels are as opaque as its bitmap's, not their square.
    layer = Image.new("RGBA", (120, 60), (0, 0, 0, 0))
    F.draw_text(
        ImageDraw.Draw(layer), 10, 45, "🔥", chain=DEFAULT_FONTS.regular, size=40, fill=(0,)
    )
    piece = F.pieces(DEFAULT_FONTS.regular, "🔥")[0]
    emoji, _, _ = F._bitmap_piece(piece, 40)
    drawn_alpha = layer.getchannel("A").histogram()
    own_alpha = emoji.getchannel("A").histogram()
    assert drawn_alpha[255] == own_alpha[255] > 0
    assert sum(drawn_alpha[1:]) == sum(own_alpha[1:])
