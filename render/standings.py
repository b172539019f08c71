"""A tournament's standings as a table image: :func:`standings_image` draws it,
:func:`standings_png` encodes it.

The caller passes every word already translated (a :class:`StandingsTable` of texts); this
module only lays them out. The table is designed for a phone first: Discord shows an image about
390 px wide there, so at the default 800 px every digit of the body is drawn 23 px tall (11 px
on the phone). Columns take the width their texts need, their headers' too while the names keep
enough room (else the headers get smaller, then cut); the names get the rest, drawn smaller
when long, then cut short with an ellipsis. When even the shortest names would not fit, the
image grows wider rather than overlap (and Discord scales it down): a round robin's crosstable
fits the default width for up to 10 players with their points and marks.

Long tables grow in height, a row each (about 50 px at 800): 40 players make an image about
2,300 px tall. Discord's preview in the chat shrinks a tall image to its box, and a tap opens
it at the screen's width, where it reads as designed. The renderer never splits a table into
two columns (half as wide each, unreadable on a phone) and never drops rows: a caller that
wants fewer shows the top of the table and says so in a footer line.

Marks are never told by colour alone: a winner has a star, the promoted an arrow up, the
relegated an arrow down (each with a band of its colour at the row's edge), a withdrawn player
a cross and muted text. A legend under the table names them in the caller's words.
Names are drawn as on the board, emoji, flags and every script players write included
(:mod:`render.fonts`).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from render import fonts as F
from render.board import encode_png
from render.fonts import Fonts
from render.sprites import Sprite, _Supersampled
from render.theme import DEFAULT_THEME, Theme, resolve_theme, rgba

DEFAULT_STANDINGS_WIDTH: Final = 800
"""Twice a phone's 390 px, so the image is sharp there and still fits a desktop's ~800."""
MIN_STANDINGS_WIDTH: Final = 300

# Proportions, as fractions of the image width.
MARGIN: Final = 0.03
TITLE_SIZE: Final = 0.05
TITLE_MIN_SIZE: Final = 0.04
TITLE_LINE: Final = 0.07
SUBTITLE_SIZE: Final = 0.034
SUBTITLE_LINE: Final = 0.05
HEADER_SIZE: Final = 0.036
"""The columns' headers: words, muted, a little smaller than the body."""
HEADER_MIN_SIZE: Final = 0.03
HEADER_LINE: Final = 0.06
BODY_SIZE: Final = 0.04
"""Names, ranks and cells: DejaVu's digits are 0.73 of this tall, 11.4 px at 390 px."""
ROW_HEIGHT: Final = 0.062
PAD: Final = 0.014
"""Either side of a column's text."""
TIGHT_PAD: Final = 0.005
"""Either side of a crosstable's result."""
BAND: Final = 0.012
"""The coloured band at the left edge of a marked row."""
MARKER_COLUMN: Final = 0.056
MARKER_RADIUS: Final = 0.016
RULE: Final = 0.003
"""The line under the headers."""
OUTLINE: Final = 0.005
"""The outline of a highlighted row."""
OUTLINE_RADIUS: Final = 0.01
NAME_MIN: Final = 0.16
"""The least room the names get before the image grows wider."""
NAME_WANT: Final = 0.4
"""The room (or less, if the names need less) the names keep before headers are shrunk."""
NAME_MIN_SIZE: Final = 0.034
"""A long name is drawn smaller, down to this, before it is cut."""
FOOTER_SIZE: Final = 0.037
FOOTER_LINE: Final = 0.054
FOOTER_GAP: Final = 0.02
"""Between the last row and the legend or footer."""
SLACK: Final = 0.01
"""Pixels a text may overflow its span: spans are sums of fractions, and a text exactly as
wide as its column must not be cut for a rounding error."""
LEGEND_GAP: Final = 0.04
NO_BREAK_SPACES: Final = "\u00a0\u202f"
"""Between two entries of the legend on one line."""


class Mark(enum.Enum):
    """What a row's band and marker say about its player."""

    WINNER = "winner"
    """Won the tournament (or the division): a star."""
    PROMOTED = "promoted"
    """Goes up a division: an arrow up."""
    RELEGATED = "relegated"
    """Goes down a division: an arrow down."""
    WITHDRAWN = "withdrawn"
    """Left the tournament: a cross, and the row's text muted."""


@dataclass(frozen=True, slots=True)
class Column:
    """A column of the table after the names: its header and how its cells are aligned."""

    header: str
    """The header's text, translated ("Pts", "Очки", "승점"); shrunk, then cut, if it is wider
    than its cells."""
    align: F.Align = "right"
    """Numbers right (so that units line up), results of a crosstable centred, words left."""
    emphasis: bool = False
    """Drawn in bold: the column the table is ordered by (the points)."""


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One player's line."""

    rank: str
    """As it should read: ``"1"``, ``"2="`` for a shared place, ``""`` for the same as above."""
    name: str
    """The player's display name, any Unicode: put on one line and cut to fit."""
    cells: Sequence[str]
    """One text per column, in the columns' order: ``"4½"``, ``"6"``, ``"12.75"``."""
    mark: Mark | None = None
    highlight: bool = False
    """Outlined and the name in bold: e.g. the two players of the game that just ended."""


@dataclass(frozen=True, slots=True)
class StandingsTable:
    """Everything a standings image shows, every text already translated.

    >>> table = StandingsTable(
    ...     "Spring League · Division 2",
    ...     "After round 3 of 9",
    ...     columns=(Column("Pts", emphasis=True), Column("SB")),
    ...     rows=(
    ...         StandingsRow("1", "Alice", ("3", "4.50"), Mark.PROMOTED),
    ...         StandingsRow("2", "Борис", ("2", "2.00")),
    ...         StandingsRow("3", "김민준", ("0", "0.00"), Mark.RELEGATED),
    ...     ),
    ...     legend={Mark.PROMOTED: "up to Division 1", Mark.RELEGATED: "down to Division 3"},
    ... )
    >>> standings_image(table).width
    800
    """

    title: str
    """The tournament's name (and division), in bold."""
    subtitle: str = ""
    """Muted, under the title: the round, the tournament's format, what just happened."""
    columns: Sequence[Column] = ()
    rows: Sequence[StandingsRow] = ()
    """In the order they are drawn: first place first."""
    footer: Sequence[str] = ()
    """Muted lines under the table (wrapped at spaces): tie-break names, a bye, the winner."""
    legend: Mapping[Mark, str] = field(default_factory=dict)
    """What each mark means, in words ("promoted to Division 1"): drawn under the table with
    its marker, in :class:`Mark`'s order, for the marks some row has (so a caller may pass
    every mark's words every time). A mark without an entry is not explained."""
    rank_header: str = "#"
    name_header: str = ""
    """The names' header ("Player", "Игрок"); often best left empty."""
    crosstable: bool = False
    """The first ``len(rows)`` columns are the results against each player in the rows' order
    (a round robin's crosstable): they are drawn tight and the cells where a player meets
    themselves are filled."""


@dataclass(frozen=True, slots=True)
class StandingsLayout:
    """Where everything goes, worked out before drawing."""

    size: int
    """The width asked for, which every proportion is a fraction of."""
    width: int
    """The image's width: ``size``, or more when the columns need it."""
    height: int
    left: float
    right: float
    header_top: float
    rows_top: float
    row_height: float
    rank: tuple[float, float]
    marker: float | None
    """The markers' centre line, or ``None`` when no row has a mark."""
    name: tuple[float, float]
    cells: tuple[tuple[float, float], ...]
    """Each column's span, its padding included (a crosstable's filled cells fill it)."""
    pads: tuple[float, ...]
    header_size: int
    """The headers' font size: smaller when the names need the room (a header that still
    does not fit its column is cut)."""
    footer_top: float
    legend: tuple[tuple[tuple[Mark, str, float], ...], ...]
    """Lines of the legend: each entry's mark, text and left end."""
    footer: tuple[str, ...]


def _px(value: float) -> int:
    return max(1, round(value))


@dataclass(frozen=True, slots=True)
class _Sizes:
    """The font sizes of an image ``size`` pixels wide."""

    title: int
    title_min: int
    subtitle: int
    header: int
    header_min: int
    body: int
    name_min: int
    footer: int

    @staticmethod
    def of(size: int) -> _Sizes:
        return _Sizes(
            *(
                _px(share * size)
                for share in (
                    TITLE_SIZE,
                    TITLE_MIN_SIZE,
                    SUBTITLE_SIZE,
                    HEADER_SIZE,
                    HEADER_MIN_SIZE,
                    BODY_SIZE,
                    NAME_MIN_SIZE,
                    FOOTER_SIZE,
                )
            )
        )


def _validate(table: StandingsTable) -> None:
    for index, row in enumerate(table.rows):
        if len(row.cells) != len(table.columns):
            raise ValueError(
                f"row {index + 1} ({row.name!r}) has {len(row.cells)} cells "
                f"for {len(table.columns)} columns"
            )
    if table.crosstable and len(table.columns) < len(table.rows):
        raise ValueError(
            f"a crosstable of {len(table.rows)} players needs a column for each, "
            f"not {len(table.columns)}"
        )


def _column_width(chain: tuple[str, ...], size: int, texts: Sequence[str]) -> float:
    return max((F.text_width(chain, size, _line(text)) for text in texts), default=0.0)


def _line(text: str) -> str:
    """``text`` on one line, as :func:`render.fonts.clean` makes it, but keeping no-break
    spaces (French puts one before "!" and ":"), so that a line never breaks at one."""
    return F.clean(text, keep=NO_BREAK_SPACES)


def _wrap(chain: tuple[str, ...], size: int, text: str, room: float) -> list[str]:
    """``text`` in lines no wider than ``room``, broken at spaces (never at a no-break space);
    a word too long for a line of its own is cut with an ellipsis."""
    lines: list[str] = []
    line = ""
    for word in filter(None, _line(text).split(" ")):
        joined = f"{line} {word}" if line else word
        if F.text_width(chain, size, joined) <= room:
            line = joined
            continue
        if line:
            lines.append(line)
        line = F.fit(chain, size, word, room)
    if line:
        lines.append(line)
    return lines


def _legend_lines(
    table: StandingsTable, fonts: Fonts, size: int, room: float
) -> tuple[tuple[tuple[Mark, str, float], ...], ...]:
    """The legend's entries flowed into lines: a marker, then its words."""
    text_size = _Sizes.of(size).footer
    marker = MARKER_COLUMN * size
    gap = LEGEND_GAP * size
    lines: list[list[tuple[Mark, str, float]]] = []
    x = 0.0
    shown = {row.mark for row in table.rows}
    for mark in Mark:
        words = _line(table.legend.get(mark, ""))
        if not words or mark not in shown:
            continue
        text = F.fit(fonts.regular, text_size, words, room - marker)
        width = marker + F.text_width(fonts.regular, text_size, text)
        if not lines or x + gap + width > room:
            lines.append([])
            x = 0.0
        elif lines[-1]:
            x += gap
        lines[-1].append((mark, text, x))
        x += width
    return tuple(tuple(line) for line in lines)


def standings_layout(
    table: StandingsTable, *, size: int = DEFAULT_STANDINGS_WIDTH, fonts: Fonts = F.DEFAULT_FONTS
) -> StandingsLayout:
    """The layout of ``table`` drawn ``size`` pixels wide: the columns take the width their
    texts need (their headers too, while the names keep :data:`NAME_MIN` of it), the names
    the rest; the image is wider than ``size`` only when the names would get less."""
    sizes = _Sizes.of(size)
    body, header_size = sizes.body, sizes.header
    pad, tight = PAD * size, TIGHT_PAD * size
    margin = MARGIN * size
    band = BAND * size
    marked = any(row.mark is not None for row in table.rows)
    marker = MARKER_COLUMN * size if marked else 0.0
    rank = max(
        _column_width(fonts.regular, body, [row.rank for row in table.rows]),
        F.text_width(fonts.regular, header_size, _line(table.rank_header)),
    )

    results = len(table.rows) if table.crosstable else 0
    contents: list[float] = []
    headers: list[float] = []
    small_headers: list[float] = []
    pads: list[float] = []
    for index, column in enumerate(table.columns):
        chain = fonts.bold if column.emphasis else fonts.regular
        texts = [row.cells[index] for row in table.rows]
        contents.append(_column_width(chain, body, texts))
        header = _line(column.header)
        headers.append(F.text_width(fonts.regular, header_size, header))
        small_headers.append(F.text_width(fonts.regular, sizes.header_min, header))
        pads.append(tight if index < results else pad)
    if results:
        # A crosstable's results all as wide as the widest, and wide enough for their
        # numbers as headers (at the headers' smallest size, reaching into the padding).
        numbers = max(
            F.text_width(fonts.regular, sizes.header_min, _line(column.header))
            for column in table.columns[:results]
        )
        widest = max(*contents[:results], numbers - tight)
        contents[:results] = [widest] * results
        headers[:results] = small_headers[:results] = [0.0] * results
    fixed = 2 * margin + band + pad + rank + pad + marker + pad
    # The names come first: a header widens its column only while the names keep the room
    # they need (up to NAME_WANT); then only at the headers' smallest size while the names keep
    # NAME_MIN; otherwise headers are cut to their cells' width.
    names = _column_width(fonts.regular, body, [F.player_name(row.name) for row in table.rows])
    choices = (
        (headers, min(names, NAME_WANT * size), sizes.header),
        (small_headers, NAME_MIN * size, sizes.header_min),
        ([body / 2] * len(contents), -math.inf, sizes.header_min),
    )

    def widths_with(header_widths: Sequence[float]) -> list[float]:
        return [max(c, h) + 2 * p for c, h, p in zip(contents, header_widths, pads, strict=True)]

    header_widths, _, header_size = next(
        choice for choice in choices if size - fixed - sum(widths_with(choice[0])) >= choice[1]
    )
    widths = widths_with(header_widths)
    name_room = max(NAME_MIN * size, size - fixed - sum(widths))
    width = math.ceil(fixed + name_room + sum(widths))

    left, right = margin, width - margin
    x = left + band + pad
    rank_span = (x, x + rank)
    x += rank + pad
    marker_centre = x + marker / 2 if marked else None
    x += marker
    name_span = (x, x + name_room)
    x += name_room + pad
    cells = []
    for column_width in widths:
        cells.append((x, x + column_width))
        x += column_width

    top = margin + TITLE_LINE * size
    if table.subtitle:
        top += SUBTITLE_LINE * size
    header_top = top
    rows_top = header_top + HEADER_LINE * size
    row_height = ROW_HEIGHT * size
    footer_top = rows_top + len(table.rows) * row_height + FOOTER_GAP * size
    room = right - left
    legend = _legend_lines(table, fonts, size, room)
    footer = tuple(
        line for text in table.footer for line in _wrap(fonts.regular, sizes.footer, text, room)
    )
    height = footer_top + (len(legend) + len(footer)) * FOOTER_LINE * size + margin
    return StandingsLayout(
        size=size,
        width=width,
        height=math.ceil(height),
        left=left,
        right=right,
        header_top=header_top,
        rows_top=rows_top,
        row_height=row_height,
        rank=rank_span,
        marker=marker_centre,
        name=name_span,
        cells=tuple(cells),
        pads=tuple(pads),
        header_size=header_size,
        footer_top=footer_top,
        legend=legend,
        footer=footer,
    )


@lru_cache(maxsize=64)
def marker(mark: Mark, colour: str, radius: float) -> Sprite:
    """A mark's shape, centred: a star, an arrow up or down, a cross. ``radius`` is the
    circle it fills."""
    side = math.ceil(2 * radius) + 4
    cx = cy = side / 2
    canvas = _Supersampled(side, side)
    fill = rgba(colour)
    r = radius
    if mark is Mark.WINNER:
        points = []
        for k in range(10):
            angle = math.pi / 2 + k * math.pi / 5
            reach = r if k % 2 == 0 else r * 0.45
            points.append((cx + reach * math.cos(angle), cy - reach * math.sin(angle)))
        canvas.polygon(points, fill)
    elif mark in (Mark.PROMOTED, Mark.RELEGATED):
        up = -1 if mark is Mark.PROMOTED else 1
        # A broad head over a short shaft: an arrow, not a triangle, so that it reads as a
        # direction at a glance; the head's tip points the way.
        head = [(cx, cy + up * r), (cx - r, cy + up * r * 0.05), (cx + r, cy + up * r * 0.05)]
        canvas.polygon(head, fill)
        shaft = r * 0.42
        canvas.polygon(
            [
                (cx - shaft, cy + up * r * 0.1),
                (cx + shaft, cy + up * r * 0.1),
                (cx + shaft, cy - up * r),
                (cx - shaft, cy - up * r),
            ],
            fill,
        )
    else:
        arm = r * 0.78
        width = r * 0.36
        canvas.line([(cx - arm, cy - arm), (cx + arm, cy + arm)], fill, width)
        canvas.line([(cx - arm, cy + arm), (cx + arm, cy - arm)], fill, width)
    return Sprite(canvas.result(), (cx, cy))


def _mark_colour(theme: Theme, mark: Mark) -> str:
    return {
        Mark.WINNER: theme.winner,
        Mark.PROMOTED: theme.promoted,
        Mark.RELEGATED: theme.relegated,
        Mark.WITHDRAWN: theme.muted_text,
    }[mark]


def _text(
    draw: ImageDraw.ImageDraw,
    span: tuple[float, float],
    middle: float,
    text: str,
    *,
    chain: tuple[str, ...],
    size: int,
    fill: str,
    align: F.Align = "left",
    smallest: int | None = None,
) -> None:
    """``text`` in the span ``(left, right)`` on the line whose middle is ``middle``: shrunk
    (down to ``smallest``), then cut with an ellipsis if it is wider than the span."""
    left, right = span
    room = right - left + SLACK
    text = _line(text)
    if smallest is not None:
        text, size = F.shrink_to_fit(chain, size, text, room, smallest=smallest)
    else:
        text = F.fit(chain, size, text, room)
    x = {"left": left, "centre": (left + right) / 2, "right": right}[align]
    baseline = middle + F.cap_height(chain, size) / 2
    F.draw_text(draw, x, baseline, text, chain=chain, size=size, fill=rgba(fill), align=align)


def standings_image(
    table: StandingsTable,
    *,
    theme: Theme | Mapping[str, str] = DEFAULT_THEME,
    size: int = DEFAULT_STANDINGS_WIDTH,
    fonts: Fonts = F.DEFAULT_FONTS,
) -> Image.Image:
    """Draw ``table`` as an RGB image ``size`` pixels wide (wider only if its columns need it)
    and as tall as its rows; see :func:`standings_png` for the options."""
    theme = theme if isinstance(theme, Theme) else resolve_theme(DEFAULT_THEME, theme)
    if size < MIN_STANDINGS_WIDTH:
        raise ValueError(
            f"a standings image needs at least {MIN_STANDINGS_WIDTH} pixels, not {size}"
        )
    _validate(table)
    sizes = _Sizes.of(size)
    lay = standings_layout(table, size=size, fonts=fonts)
    image = Image.new("RGB", (lay.width, lay.height), rgba(theme.background))
    draw = ImageDraw.Draw(image)
    span = (lay.left, lay.right)
    title_middle = MARGIN * size + TITLE_LINE * size / 2
    _text(
        draw,
        span,
        title_middle,
        table.title,
        chain=fonts.bold,
        size=sizes.title,
        fill=theme.text,
        smallest=sizes.title_min,
    )
    if table.subtitle:
        _text(
            draw,
            span,
            title_middle + (TITLE_LINE + SUBTITLE_LINE) * size / 2,
            table.subtitle,
            chain=fonts.regular,
            size=sizes.subtitle,
            fill=theme.muted_text,
        )
    _draw_headers(draw, table, lay, theme=theme, fonts=fonts)
    for index, row in enumerate(table.rows):
        _draw_row(image, table, lay, index, row, theme=theme, fonts=fonts)
    _draw_footer(image, lay, theme=theme, fonts=fonts)
    return image


def standings_png(
    table: StandingsTable,
    *,
    theme: Theme | Mapping[str, str] = DEFAULT_THEME,
    size: int = DEFAULT_STANDINGS_WIDTH,
    fonts: Fonts = F.DEFAULT_FONTS,
) -> bytes:
    """The standings as PNG bytes, ready to attach to a message. Pure: same input, same bytes.

    - ``table``: the texts (:class:`StandingsTable`), translated by the caller.
    - ``theme``: the board's colours (:class:`Theme`, or a mapping of overrides of the default
      theme); the table uses ``background``, ``panel`` (every other row), ``board`` (the rule
      under the headers, a crosstable's own cells), ``text``, ``muted_text``, ``panel_active``
      (a highlighted row's outline) and the marks' ``winner``, ``promoted``, ``relegated``.
    - ``size``: the image's width in pixels; the height follows from the rows and the footer.
    - ``fonts``: the board's font chains (DejaVu Sans, then Noto Sans CJK, Noto Sans Arabic and
      Noto Color Emoji).

    Raises :class:`ValueError` for a row whose cells do not match the columns, a crosstable
    with fewer columns than players, a too small ``size``, or an unknown theme colour.
    """
    return encode_png(standings_image(table, theme=theme, size=size, fonts=fonts))


def _draw_headers(
    draw: ImageDraw.ImageDraw,
    table: StandingsTable,
    lay: StandingsLayout,
    *,
    theme: Theme,
    fonts: Fonts,
) -> None:
    """The columns' headers, muted, over a rule; each cut to its column if need be."""
    middle = (lay.header_top + lay.rows_top) / 2
    spans = [lay.rank, lay.name]
    texts = [table.rank_header, table.name_header]
    aligns: list[F.Align] = ["right", "left"]
    results = len(table.rows) if table.crosstable else 0
    for index, (column, (left, right), pad) in enumerate(
        zip(table.columns, lay.cells, lay.pads, strict=True)
    ):
        reach = pad / 2 if index < results else pad  # a result's number may use half its pad
        spans.append((left + reach, right - reach))
        texts.append(column.header)
        aligns.append(column.align)
    for span, text, align in zip(spans, texts, aligns, strict=True):
        _text(
            draw,
            span,
            middle,
            text,
            chain=fonts.regular,
            size=lay.header_size,
            fill=theme.muted_text,
            align=align,
        )
    rule = _px(RULE * lay.size)
    draw.rectangle([lay.left, lay.rows_top - rule, lay.right, lay.rows_top], fill=rgba(theme.board))


def _draw_row(
    image: Image.Image,
    table: StandingsTable,
    lay: StandingsLayout,
    index: int,
    row: StandingsRow,
    *,
    theme: Theme,
    fonts: Fonts,
) -> None:
    """A player's line: its stripe, band, outline and marker, then its texts."""
    draw = ImageDraw.Draw(image)
    size = lay.size
    top = lay.rows_top + index * lay.row_height
    bottom = top + lay.row_height
    middle = (top + bottom) / 2
    if index % 2:
        draw.rectangle([lay.left, top, lay.right, bottom - 1], fill=rgba(theme.panel))
    if table.crosstable:
        left, right = lay.cells[index]
        draw.rectangle([left, top, right - 1, bottom - 1], fill=rgba(theme.board))
    if row.highlight:  # under the band, which must show whole
        draw.rounded_rectangle(
            [lay.left, top, lay.right, bottom - 1],
            radius=OUTLINE_RADIUS * size,
            outline=rgba(theme.panel_active),
            width=_px(OUTLINE * size),
        )
    if row.mark is not None and row.mark is not Mark.WITHDRAWN:
        band = BAND * size
        colour = rgba(_mark_colour(theme, row.mark))
        draw.rectangle([lay.left, top, lay.left + band - 1, bottom - 1], fill=colour)
    if row.mark is not None and lay.marker is not None:
        sprite = marker(row.mark, _mark_colour(theme, row.mark), MARKER_RADIUS * size)
        sprite.paste_on(image, (lay.marker, middle))

    sizes = _Sizes.of(size)
    body = sizes.body
    fill = theme.muted_text if row.mark is Mark.WITHDRAWN else theme.text
    _text(
        draw, lay.rank, middle, row.rank, chain=fonts.regular, size=body, fill=fill, align="right"
    )
    name_chain = fonts.bold if row.highlight else fonts.regular
    name = F.player_name(row.name)
    _text(
        draw,
        lay.name,
        middle,
        name,
        chain=name_chain,
        size=body,
        fill=fill,
        smallest=sizes.name_min,
    )
    for column, text, (left, right), pad in zip(
        table.columns, row.cells, lay.cells, lay.pads, strict=True
    ):
        _text(
            draw,
            (left + pad, right - pad),
            middle,
            text,
            chain=fonts.bold if column.emphasis else fonts.regular,
            size=body,
            fill=fill,
            align=column.align,
        )


def _draw_footer(image: Image.Image, lay: StandingsLayout, *, theme: Theme, fonts: Fonts) -> None:
    """The legend (each mark's marker and words), then the footer's lines, muted."""
    draw = ImageDraw.Draw(image)
    size = lay.size
    line = FOOTER_LINE * size
    text_size = _Sizes.of(size).footer
    marker_room = MARKER_COLUMN * size

    def say(left: float, middle: float, text: str) -> None:
        span = (left, lay.right)
        _text(draw, span, middle, text, chain=fonts.regular, size=text_size, fill=theme.muted_text)

    middle = lay.footer_top + line / 2
    for entries in lay.legend:
        for mark, text, x in entries:
            sprite = marker(mark, _mark_colour(theme, mark), MARKER_RADIUS * size)
            sprite.paste_on(image, (lay.left + x + marker_room / 2, middle))
            say(lay.left + x + marker_room, middle, text)
        middle += line
    for text in lay.footer:
        say(lay.left, middle, text)
        middle += line
