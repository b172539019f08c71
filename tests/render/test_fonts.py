"""Bundled fonts and per-character fallback chains."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from render import DEFAULT_FONTS, Fonts
from render import fonts as F


def test_the_fonts_and_their_licence_are_bundled() -> None:
    for path in DEFAULT_FONTS.regular + DEFAULT_FONTS.bold:
        assert Path(path).is_file() and Path(path).parent == F.FONT_DIR
    assert (F.FONT_DIR / "LICENSE-DejaVu.txt").is_file()
    assert (F.FONT_DIR / "LICENSE-NotoSansKR.txt").is_file()


def test_the_default_chains_draw_hangul_with_noto_sans_kr() -> None:
    for chain in (DEFAULT_FONTS.regular, DEFAULT_FONTS.bold):
        assert F.runs(chain, "Ёж 김민준") == [(chain[0], "Ёж "), (chain[1], "김민준")]
    # Every Hangul syllable and jamo is in the subset, not only common ones.
    for char in "가힣ᄀᇿㄱㆎ똠뷁":
        assert F.covers(F.NOTO_SANS_KR, char) and F.covers(F.NOTO_SANS_KR_BOLD, char), char


def test_the_hangul_fonts_stay_small() -> None:
    for path in (F.NOTO_SANS_KR, F.NOTO_SANS_KR_BOLD):
        assert Path(path).stat().st_size < 1_500_000


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
    assert fonts.regular == (F.DEJAVU_SANS, F.NOTO_SANS_KR, "/fonts/Extra.otf")
    assert fonts.bold == (F.DEJAVU_SANS_BOLD, F.NOTO_SANS_KR_BOLD, "/fonts/Extra.otf")


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
