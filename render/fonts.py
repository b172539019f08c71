"""Fonts for the board image: bundled font files, per-cluster fallback chains and text layout.

Player names and the header's words are arbitrary Unicode (Latin, Cyrillic, Hangul, Chinese and
Japanese characters, Arabic, emoji, ...), and no single font covers everything, so each text
style is a *chain* of font files. Text is cut into grapheme clusters (a letter with its accents,
a flag, an emoji with its skin tone or a family joined by zero-width joiners), and each cluster
is drawn with the first font in the chain that has glyphs for all of it:

- DejaVu Sans (Latin with Polish and French letters, Greek, Cyrillic): the image's look;
- a subset of Noto Sans CJK KR (``LICENSE-NotoSansCJK.txt`` says how it was made): Hangul, kana
  and the CJK Unified Ideographs;
- Noto Sans Arabic, which Arabic letters prefer to DejaVu's (whose Arabic has gaps: one font
  per word keeps the letters joined);
- Noto Color Emoji, which emoji prefer to DejaVu's few black-and-white faces, as Discord shows
  them in colour. Its glyphs are bitmaps drawn at one size, :data:`EMOJI_BITMAP_SIZE`, then
  scaled to the text's.

Where Pillow has complex text layout (libraqm, with FriBiDi: the Docker image installs it),
flags, emoji sequences, Arabic joining and right-to-left words come out as Discord shows them.
Without it every cluster still gets a glyph from a font that has it (no missing-glyph box), but
a flag or a joined emoji shows as its parts and Arabic letters do not join. A caller may add more
fonts with :meth:`Fonts.with_fallback`.

Pillow's built-in bitmap font is never used: it has no Cyrillic and cannot be scaled.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final, Literal

from PIL import Image, ImageDraw, ImageFont, features

FONT_DIR: Final = Path(__file__).resolve().parent / "fonts"
DEJAVU_SANS: Final = str(FONT_DIR / "DejaVuSans.ttf")
DEJAVU_SANS_BOLD: Final = str(FONT_DIR / "DejaVuSans-Bold.ttf")
# After DejaVu, whose Latin and Cyrillic are the image's look. The regular weight's subset keeps
# Hangul, kana and the 20,992 basic CJK ideographs (6 MB instead of 16); the bold one only Hangul
# (1.2 MB): bold kana and ideographs come from the regular weight.
NOTO_SANS_CJK: Final = str(FONT_DIR / "NotoSansCJKkr-Regular-subset.otf")
NOTO_SANS_KR_BOLD: Final = str(FONT_DIR / "NotoSansKR-Bold-subset.otf")
NOTO_SANS_ARABIC: Final = str(FONT_DIR / "NotoSansArabic-Regular.ttf")
NOTO_SANS_ARABIC_BOLD: Final = str(FONT_DIR / "NotoSansArabic-Bold.ttf")
NOTO_COLOR_EMOJI: Final = str(FONT_DIR / "NotoColorEmoji.ttf")

EMOJI_BITMAP_SIZE: Final = 109
"""The one size Noto Color Emoji's bitmaps (CBDT) load at; drawn there, then scaled."""

COMPLEX_LAYOUT: Final = features.check_feature("raqm")
"""Whether Pillow shapes text with libraqm (HarfBuzz and FriBiDi) here: flags, emoji sequences,
Arabic joining and right-to-left words need it."""

# A code point no font maps (the last one of plane 15, private use): what it draws is the
# font's "missing glyph" box, which is how we tell whether a font covers a character.
_SURELY_MISSING: Final = "\U000ffffd"
_PROBE_SIZE: Final = 24
ELLIPSIS: Final = "…"

Align = Literal["left", "centre", "right"]
Direction = Literal["ltr", "rtl"]


@dataclass(frozen=True, slots=True)
class Fonts:
    """Font files to draw with: ``regular`` and ``bold`` fallback chains (paths, first wins).

    >>> Fonts().with_fallback("/usr/share/fonts/NotoSansThai-Regular.ttf").regular[-1]
    '/usr/share/fonts/NotoSansThai-Regular.ttf'
    """

    regular: tuple[str, ...] = (DEJAVU_SANS, NOTO_SANS_CJK, NOTO_SANS_ARABIC, NOTO_COLOR_EMOJI)
    bold: tuple[str, ...] = (
        DEJAVU_SANS_BOLD,
        NOTO_SANS_KR_BOLD,
        NOTO_SANS_CJK,
        NOTO_SANS_ARABIC_BOLD,
        NOTO_COLOR_EMOJI,
    )

    def with_fallback(self, *paths: str | Path) -> Fonts:
        """These fonts, then ``paths`` for characters they lack (in both chains)."""
        extra = tuple(str(path) for path in paths)
        return Fonts(self.regular + extra, self.bold + extra)


DEFAULT_FONTS: Final = Fonts()

# Fonts that clusters of a kind try before the chain's order: emoji in colour rather than
# DejaVu's black-and-white faces, Arabic words in one font so that their letters join.
_PREFERRED: Final[dict[str, frozenset[str]]] = {
    "emoji": frozenset({NOTO_COLOR_EMOJI}),
    "arabic": frozenset({NOTO_SANS_ARABIC, NOTO_SANS_ARABIC_BOLD}),
}


def _is_bitmap(path: str) -> bool:
    return path == NOTO_COLOR_EMOJI


@lru_cache(maxsize=256)
def font(path: str, size: int, *, shaped: bool = False) -> ImageFont.FreeTypeFont:
    """The font file ``path`` at ``size`` pixels, loaded once.

    ``shaped``: laid out with libraqm where Pillow has it (:data:`COMPLEX_LAYOUT`), for what
    needs shaping; else with Pillow's basic layout, quicker and enough for Latin, Cyrillic,
    Hangul and CJK characters one by one. A colour bitmap font loads at
    :data:`EMOJI_BITMAP_SIZE` whatever ``size`` says.
    """
    if _is_bitmap(path) and size != EMOJI_BITMAP_SIZE:
        return font(path, EMOJI_BITMAP_SIZE, shaped=shaped)  # one face, whatever the size
    raqm = shaped and COMPLEX_LAYOUT
    engine = ImageFont.Layout.RAQM if raqm else ImageFont.Layout.BASIC
    return ImageFont.truetype(path, max(1, size), layout_engine=engine)


@lru_cache(maxsize=65536)
def covers(path: str, char: str) -> bool:
    """Whether the font file ``path`` has a glyph for ``char`` (not its missing-glyph box)."""
    probe = font(path, _PROBE_SIZE)
    mask = probe.getmask(char)
    missing = probe.getmask(_SURELY_MISSING)
    return mask.size != missing.size or bytes(mask) != bytes(missing)


# Grapheme clusters (Unicode's UAX #29, simplified to what names hold).
_ZWJ: Final = "\u200d"
_ZWNJ: Final = "\u200c"
_TEXT_STYLE: Final = "\ufe0e"
_EMOJI_STYLE: Final = "\ufe0f"
_KEYCAP: Final = "\u20e3"


def _is_regional_indicator(char: str) -> bool:
    return "\U0001f1e6" <= char <= "\U0001f1ff"


def _is_skin_tone(char: str) -> bool:
    return "\U0001f3fb" <= char <= "\U0001f3ff"


def _is_tag(char: str) -> bool:
    return "\U000e0020" <= char <= "\U000e007f"


def _is_variation_selector(char: str) -> bool:
    return "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef"


def _extends(char: str) -> bool:
    """Whether ``char`` belongs to the cluster before it (accents, selectors, skin tones, ...)."""
    return (
        unicodedata.category(char) in ("Mn", "Me", "Mc")
        or char == _ZWNJ
        or _is_skin_tone(char)
        or _is_tag(char)
    )


def _jamo(char: str) -> str:
    """Hangul's cluster classes: leading, vowel, trailing jamo, syllables LV and LVT; or ''."""
    code = ord(char)
    if 0x1100 <= code <= 0x115F or 0xA960 <= code <= 0xA97C:
        return "L"
    if 0x1160 <= code <= 0x11A7 or 0xD7B0 <= code <= 0xD7C6:
        return "V"
    if 0x11A8 <= code <= 0x11FF or 0xD7CB <= code <= 0xD7FB:
        return "T"
    if 0xAC00 <= code <= 0xD7A3:
        return "LV" if (code - 0xAC00) % 28 == 0 else "LVT"
    return ""


_JAMO_JOINS: Final = {
    ("L", "L"), ("L", "V"), ("L", "LV"), ("L", "LVT"),
    ("LV", "V"), ("LV", "T"), ("V", "V"), ("V", "T"), ("LVT", "T"), ("T", "T"),
}  # fmt: skip


@lru_cache(maxsize=4096)
def clusters(text: str) -> tuple[str, ...]:
    """``text`` cut into grapheme clusters: what a reader sees as one character.

    >>> clusters("Zoë 🇫🇷👍🏽")
    ('Z', 'o', 'ë', ' ', '🇫🇷', '👍🏽')
    """
    out: list[str] = []
    for char in text:
        if out:
            last = out[-1]
            joins = (
                _extends(char)
                or char == _ZWJ
                or last[-1] == _ZWJ
                or (_jamo(last[-1]), _jamo(char)) in _JAMO_JOINS
                or (
                    _is_regional_indicator(char)
                    and _is_regional_indicator(last[-1])
                    and sum(map(_is_regional_indicator, last)) % 2 == 1
                )
            )
            if joins:
                out[-1] = last + char
                continue
        out.append(char)
    return tuple(out)


# Emoji that show as emoji without U+FE0F (Emoji_Presentation=Yes) below U+1F000.
_EMOJI_PRESENTATION_BMP: Final = frozenset(
    "⌚⌛⏩⏪⏫⏬⏰⏳◽◾☔☕♈♉♊♋♌♍♎♏♐♑♒♓♿⚓⚡⚪⚫⚽⚾⛄⛅⛎⛔⛪⛲⛳⛵⛺⛽✅✊✋✨❌❎❓❔❕❗➕➖➗➰➿⬛⬜⭐⭕"
)
_ARABIC_BLOCKS: Final = (
    (0x0600, 0x06FF), (0x0750, 0x077F), (0x0870, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF),
)  # fmt: skip


def _kind(cluster: str) -> str:
    """``"emoji"``, ``"arabic"`` or ``""``: which fonts the cluster tries first."""
    base = cluster[0]
    if _TEXT_STYLE in cluster:
        return ""
    if (
        _EMOJI_STYLE in cluster
        or _KEYCAP in cluster
        or _ZWJ in cluster
        or any(_is_skin_tone(c) or _is_regional_indicator(c) for c in cluster)
        or base in _EMOJI_PRESENTATION_BMP
        or "\U0001f000" <= base <= "\U0001faff"
    ):
        return "emoji"
    if any(low <= ord(base) <= high for low, high in _ARABIC_BLOCKS):
        return "arabic"
    return ""


def _needed(cluster: str) -> str:
    """The cluster's characters a font must map itself (not the joiners and selectors)."""
    return "".join(c for c in cluster if c not in (_ZWJ, _ZWNJ) and not _is_variation_selector(c))


@lru_cache(maxsize=65536)
def font_for(chain: tuple[str, ...], cluster: str) -> str:
    """The font of ``chain`` that draws ``cluster``: the first that has glyphs for all of it.

    Emoji try the colour emoji font first and Arabic letters the Arabic font. A cluster no font
    covers whole goes to the first font that has its first character, else to the chain's first.
    """
    preferred = _PREFERRED.get(_kind(cluster), frozenset())
    order = [path for path in chain if path in preferred] + list(chain)
    needed = _needed(cluster) or cluster
    for path in order:
        if all(covers(path, char) for char in needed):
            return path
    return next((path for path in order if covers(path, needed[0])), chain[0])


def runs(chain: Sequence[str], text: str) -> list[tuple[str, str]]:
    """Split ``text`` into ``(font path, substring)`` runs, each cluster in its font.

    Characters no font covers go to the first font (which draws its missing-glyph box).
    """
    out: list[tuple[str, str]] = []
    chain = tuple(chain)
    for cluster in clusters(text):
        path = font_for(chain, cluster)
        if out and out[-1][0] == path:
            out[-1] = (path, out[-1][1] + cluster)
        else:
            out.append((path, cluster))
    return out


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of text in one font and one direction, in the order it is drawn (left to right)."""

    path: str
    text: str
    direction: Direction


def _strength(cluster: str) -> str:
    """``"L"``, ``"R"``, ``"N"`` (a digit) or ``""`` (neutral: spaces, punctuation, emoji)."""
    bidi = unicodedata.bidirectional(cluster[0])
    if bidi in ("R", "AL"):
        return "R"
    return "L" if bidi == "L" else "N" if bidi in ("EN", "AN") else ""


def _right_to_left(parts: Sequence[str]) -> list[bool]:
    """Which clusters of a left-to-right line belong to right-to-left stretches.

    Unicode's bidirectional algorithm, for text without explicit embeddings: digits after
    right-to-left letters go with them (W2, W7), and a neutral between two right-to-left
    clusters is right to left (N1), any other left to right (N2).
    """
    resolved: list[str] = []
    last_strong = "L"
    for strength in map(_strength, parts):
        if strength in ("L", "R"):
            last_strong = strength
        resolved.append(last_strong if strength == "N" else strength)
    after: list[str] = []
    following = "L"  # the line's end: its own direction, left to right
    for strength in reversed(resolved):
        following = strength or following
        after.append(following)
    after.reverse()
    rtl: list[bool] = []
    preceding = "L"
    for index, strength in enumerate(resolved):
        rtl.append(strength == "R" or (not strength and preceding == after[index] == "R"))
        preceding = strength or preceding
    return rtl


@lru_cache(maxsize=4096)
def pieces(chain: tuple[str, ...], text: str) -> tuple[Piece, ...]:
    """``text`` laid out left to right in pieces of one font and one direction.

    The line is left-to-right, as Discord's own. A stretch of right-to-left words (Arabic, with
    the spaces, digits and emoji between them) is drawn right to left: its pieces in reverse
    order, each shaped right to left (:func:`_right_to_left` says which).
    """
    parts = clusters(text)
    rtl = _right_to_left(parts)
    out: list[Piece] = []
    index = 0
    while index < len(parts):
        end = index
        while end < len(parts) and rtl[end] == rtl[index]:
            end += 1
        direction: Direction = "rtl" if rtl[index] else "ltr"
        stretch = [
            Piece(path, part, direction) for path, part in runs(chain, "".join(parts[index:end]))
        ]
        if direction == "rtl":
            stretch.reverse()
            if not COMPLEX_LAYOUT:
                # No shaping to reorder the letters: each piece's clusters are reversed here.
                stretch = [
                    Piece(p.path, "".join(reversed(clusters(p.text))), p.direction) for p in stretch
                ]
        out.extend(stretch)
        index = end
    return tuple(out)


def _scale(path: str, size: int) -> float:
    """How much a run in ``path`` drawn at ``font(path, size)`` is scaled to be ``size`` pixels."""
    return size / EMOJI_BITMAP_SIZE if _is_bitmap(path) else 1.0


def _needs_shaping(piece: Piece) -> bool:
    """Whether the piece needs libraqm: right to left, emoji, Arabic, or clusters of several
    characters (accents, sequences). Other pieces take the quicker basic layout."""
    return (
        piece.direction == "rtl"
        or _is_bitmap(piece.path)
        or any(len(cluster) > 1 or _kind(cluster) for cluster in clusters(piece.text))
    )


def _face(piece: Piece, size: int) -> ImageFont.FreeTypeFont:
    return font(piece.path, size, shaped=_needs_shaping(piece))


def _drawn(piece: Piece) -> str:
    """The piece's text as handed to Pillow. Without libraqm to join them, emoji sequences are
    drawn as their parts, without the joiners, selectors and tags that would draw as boxes."""
    if COMPLEX_LAYOUT:
        return piece.text
    return "".join(
        c
        for c in piece.text
        if c not in (_ZWJ, _ZWNJ) and not _is_tag(c) and not _is_variation_selector(c)
    )


@lru_cache(maxsize=8192)
def _length(piece: Piece, size: int) -> float:
    """The piece's advance width at ``size`` pixels (shaping is dearer than a lookup)."""
    face = _face(piece, size)
    direction = piece.direction if face.layout_engine == ImageFont.Layout.RAQM else None
    return face.getlength(_drawn(piece), direction=direction) * _scale(piece.path, size)


MAX_NAME_LENGTH: Final = 64
"""Characters of a player's name kept for an image (Discord's own names are at most 32)."""


# Format characters that are part of a cluster, kept by :func:`clean`: the joiners of emoji
# sequences and the tags of subdivision flags (England's, Scotland's, Wales's).
_KEPT_FORMATS: Final = frozenset({_ZWJ, _ZWNJ, *map(chr, range(0xE0020, 0xE0080))})


def clean(text: str, *, keep: str = "") -> str:
    """``text`` on one line: control characters (new lines, tabs, ...) become spaces.

    Other invisible format characters (bidirectional marks and overrides, ...) become spaces
    too, but the joiners and tags inside emoji sequences are kept, and so are the characters
    of ``keep``.
    """
    return "".join(
        char if char.isprintable() or char in _KEPT_FORMATS or char in keep else " "
        for char in text
    ).strip()


def player_name(text: str) -> str:
    """A player's name as images show it: on one line, at most :data:`MAX_NAME_LENGTH` long.

    It is cut between clusters, never inside a flag or an emoji sequence.
    """
    kept: list[str] = []
    length = 0
    for cluster in clusters(clean(text[: 4 * MAX_NAME_LENGTH])):
        length += len(cluster)
        if length > MAX_NAME_LENGTH:
            break
        kept.append(cluster)
    return "".join(kept)


def text_width(chain: Sequence[str], size: int, text: str) -> float:
    """The advance width of ``text`` drawn in ``chain`` at ``size`` pixels."""
    return sum(_length(piece, size) for piece in pieces(tuple(chain), text))


def cap_height(chain: Sequence[str], size: int) -> float:
    """The height of a capital letter in the chain's first font: to centre text vertically."""
    top, bottom = font(chain[0], size).getbbox("H", anchor="ls")[1::2]
    return bottom - top


def fit(chain: Sequence[str], size: int, text: str, max_width: float) -> str:
    """``text``, cut short with an ellipsis if it is wider than ``max_width``.

    The cut falls between clusters: a flag or an emoji sequence is kept whole or left out.
    """
    if text_width(chain, size, text) <= max_width:
        return text
    # The longest start of the text that fits with the ellipsis, found by halving: a name
    # thousands of characters long takes a dozen measurements, not thousands.
    parts = clusters(text)
    low, high = 0, len(parts)
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(chain, size, "".join(parts[:middle]) + ELLIPSIS) <= max_width:
            low = middle
        else:
            high = middle - 1
    text = "".join(parts[:low])
    return text.rstrip() + ELLIPSIS if text else ""


def shrink_to_fit(
    chain: Sequence[str], size: int, text: str, max_width: float, *, smallest: int
) -> tuple[str, int]:
    """A font size from ``size`` down to ``smallest`` at which ``text`` fits, then ellipsised."""
    while size > smallest and text_width(chain, size, text) > max_width:
        size -= 1
    return fit(chain, size, text, max_width), size


@lru_cache(maxsize=512)
def _bitmap_piece(piece: Piece, size: int) -> tuple[Image.Image, float, float]:
    """A colour bitmap piece drawn at its font's size and scaled to ``size``: the image, and
    where its top left corner goes from the piece's origin on the baseline."""
    face = _face(piece, size)
    text = _drawn(piece)
    box = face.getbbox(text, anchor="ls")
    left, top, right, bottom = (math.floor(box[0]), math.floor(box[1]), *map(math.ceil, box[2:]))
    drawn = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(drawn).text((-left, -top), text, font=face, anchor="ls", embedded_color=True)
    scale = _scale(piece.path, size)
    width, height = max(1, round(drawn.width * scale)), max(1, round(drawn.height * scale))
    return drawn.resize((width, height), Image.Resampling.LANCZOS), left * scale, top * scale


def _composite(target: Image.Image, image: Image.Image, corner: tuple[int, int]) -> None:
    """Lay the RGBA ``image`` over ``target`` with its top left at ``corner``: blended by its
    alpha, which a transparent ``target`` (a layer drawn on before it is laid down) keeps."""
    if target.mode != "RGBA":
        target.paste(image, corner, image)
        return
    box = (*corner, corner[0] + image.width, corner[1] + image.height)
    under = target.crop(box)
    under.alpha_composite(image)
    target.paste(under, box)


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
    """Draw ``text`` on one baseline, piece by piece through the fallback ``chain``.

    ``align`` says whether ``x`` is the left end, the centre or the right end of the text.
    Emoji are drawn in their own colours, not in ``fill``.
    """
    parts = pieces(tuple(chain), text)
    if align != "left":
        width = sum(_length(piece, size) for piece in parts)
        x -= width if align == "right" else width / 2
    for piece in parts:
        if _is_bitmap(piece.path):
            image, left, top = _bitmap_piece(piece, size)
            # Pillow's ImageDraw keeps the image it draws on as ``_image``.
            _composite(draw._image, image, (round(x + left), round(baseline + top)))
        else:
            face = _face(piece, size)
            raqm = face.layout_engine == ImageFont.Layout.RAQM
            draw.text(
                (x, baseline),
                _drawn(piece),
                font=face,
                fill=fill,
                anchor="ls",
                direction=piece.direction if raqm else None,
            )
        x += _length(piece, size)
