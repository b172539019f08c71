"""Fonts for the board image: bundled TrueType files and per-character fallback chains.

Player names and the header's words are arbitrary Unicode (Latin, Cyrillic, Hangul, ...), and
no single font covers everything, so each text style is a *chain* of font files: every character
is drawn with the first font in the chain that has a glyph for it. The bundled DejaVu Sans covers
Latin (Polish and French letters included), Greek and Cyrillic; the bundled subset of Noto Sans
CJK KR (``LICENSE-NotoSansKR.txt`` says how it was made) follows it in the default chains for
Hangul, so Korean names and labels never show as boxes. A caller may add more fonts with
:meth:`Fonts.with_fallback`.

Pillow's built-in bitmap font is never used: it has no Cyrillic and cannot be scaled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final, Literal

from PIL import ImageDraw, ImageFont

FONT_DIR: Final = Path(__file__).resolve().parent / "fonts"
DEJAVU_SANS: Final = str(FONT_DIR / "DejaVuSans.ttf")
DEJAVU_SANS_BOLD: Final = str(FONT_DIR / "DejaVuSans-Bold.ttf")
# Hangul only: after DejaVu, whose Latin and Cyrillic are the image's look. A subset (all Hangul
# syllables and jamo, Latin, punctuation) keeps the two files near 1.2 MB each instead of 16.
NOTO_SANS_KR: Final = str(FONT_DIR / "NotoSansKR-Regular-subset.otf")
NOTO_SANS_KR_BOLD: Final = str(FONT_DIR / "NotoSansKR-Bold-subset.otf")

# A code point no font maps (the last one of plane 15, private use): what it draws is the
# font's "missing glyph" box, which is how we tell whether a font covers a character.
_SURELY_MISSING: Final = "\U000ffffd"
_PROBE_SIZE: Final = 24
ELLIPSIS: Final = "…"

Align = Literal["left", "centre", "right"]


@dataclass(frozen=True, slots=True)
class Fonts:
    """Font files to draw with: ``regular`` and ``bold`` fallback chains (paths, first wins).

    >>> Fonts().with_fallback("/usr/share/fonts/NotoSansKR-Regular.otf").regular[-1]
    '/usr/share/fonts/NotoSansKR-Regular.otf'
    """

    regular: tuple[str, ...] = (DEJAVU_SANS, NOTO_SANS_KR)
    bold: tuple[str, ...] = (DEJAVU_SANS_BOLD, NOTO_SANS_KR_BOLD)

    def with_fallback(self, *paths: str | Path) -> Fonts:
        """These fonts, then ``paths`` for characters they lack (in both chains)."""
        extra = tuple(str(path) for path in paths)
        return Fonts(self.regular + extra, self.bold + extra)


DEFAULT_FONTS: Final = Fonts()


@lru_cache(maxsize=256)
def font(path: str, size: int) -> ImageFont.FreeTypeFont:
    """The font file ``path`` at ``size`` pixels, loaded once.

    The BASIC layout engine (no HarfBuzz/Raqm) draws the same pixels on every machine, whether or
    not libraqm is installed; Latin, Cyrillic and Hangul need no complex shaping.
    """
    return ImageFont.truetype(path, max(1, size), layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=4096)
def covers(path: str, char: str) -> bool:
    """Whether the font file ``path`` has a glyph for ``char`` (not its missing-glyph box)."""
    probe = font(path, _PROBE_SIZE)
    mask = probe.getmask(char)
    missing = probe.getmask(_SURELY_MISSING)
    return mask.size != missing.size or bytes(mask) != bytes(missing)


def runs(chain: Sequence[str], text: str) -> list[tuple[str, str]]:
    """Split ``text`` into ``(font path, substring)`` runs, each char in its first covering font.

    Characters no font covers go to the first font (which draws its missing-glyph box).
    """
    out: list[tuple[str, str]] = []
    for char in text:
        path = next((p for p in chain if covers(p, char)), chain[0])
        if out and out[-1][0] == path:
            out[-1] = (path, out[-1][1] + char)
        else:
            out.append((path, char))
    return out


MAX_NAME_LENGTH: Final = 64
"""Characters of a player's name kept for an image (Discord's own names are at most 32)."""


def clean(text: str) -> str:
    """``text`` on one line: control characters (new lines, tabs, ...) become spaces."""
    return "".join(" " if not char.isprintable() else char for char in text).strip()


def player_name(text: str) -> str:
    """A player's name as images show it: on one line, at most :data:`MAX_NAME_LENGTH` long."""
    return clean(text[: 4 * MAX_NAME_LENGTH])[:MAX_NAME_LENGTH]


def text_width(chain: Sequence[str], size: int, text: str) -> float:
    """The advance width of ``text`` drawn in ``chain`` at ``size`` pixels."""
    return sum(font(path, size).getlength(part) for path, part in runs(chain, text))


def cap_height(chain: Sequence[str], size: int) -> float:
    """The height of a capital letter in the chain's first font: to centre text vertically."""
    top, bottom = font(chain[0], size).getbbox("H", anchor="ls")[1::2]
    return bottom - top


def fit(chain: Sequence[str], size: int, text: str, max_width: float) -> str:
    """``text``, cut short with an ellipsis if it is wider than ``max_width``."""
    if text_width(chain, size, text) <= max_width:
        return text
    # The longest start of the text that fits with the ellipsis, found by halving: a name
    # thousands of characters long takes a dozen measurements, not thousands.
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(chain, size, text[:middle] + ELLIPSIS) <= max_width:
            low = middle
        else:
            high = middle - 1
    text = text[:low]
    return text.rstrip() + ELLIPSIS if text else ""


def shrink_to_fit(
    chain: Sequence[str], size: int, text: str, max_width: float, *, smallest: int
) -> tuple[str, int]:
    """A font size from ``size`` down to ``smallest`` at which ``text`` fits, then ellipsised."""
    while size > smallest and text_width(chain, size, text) > max_width:
        size -= 1
    return fit(chain, size, text, max_width), size


def draw_text(
    draw: ImageDraw.ImageDraw,
    x: float,
    baseline: float,
    text: str,
    *,
    chain: Sequence[str],
    size: int,
    fill: tuple[int, ...],
    align: Align = "left",
) -> None:
    """Draw ``text`` on one baseline, run by run through the fallback ``chain``.

    ``align`` says whether ``x`` is the left end, the centre or the right end of the text.
    """
    parts = runs(chain, text)
    if align != "left":
        width = sum(font(path, size).getlength(part) for path, part in parts)
        x -= width if align == "right" else width / 2
    for path, part in parts:
        face = font(path, size)
        draw.text((x, baseline), part, font=face, fill=fill, anchor="ls")
        x += face.getlength(part)
