"""The evaluation graph of a game review: who was ahead, by how much, move by move.

:func:`evaluation_graph_png` draws White's lead after every action (the engine's estimate of the
final margin, in pieces) as an area on the board's wood: White's lead in the white pieces'
colour above the middle line, Black's in the black pieces' colour below it, so the picture says
who was better at a glance and in any colour vision. A dashed line marks where the placement
ends and the movement begins; numbered red discs mark the mistakes the review names (their
rims in the colour of the side that made them), so the message beside the image can refer to
them. Proportions are fractions of the image width and the fonts are as large as the board's:
Discord shows images about 390 px wide on a phone, and the graph must read there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageChops, ImageDraw

from render import fonts as F
from render import sprites
from render.board import encode_png
from render.fonts import Fonts
from render.labels import ENGLISH, Labels, resolve_labels
from render.theme import DEFAULT_THEME, Theme, resolve_theme, rgba
from rules import PLACEMENT_PLIES, Colour

DEFAULT_GRAPH_WIDTH: Final = 800
MIN_GRAPH_WIDTH: Final = 240
SUPERSAMPLE: Final = 3
"""The plot is drawn this many times too big, then scaled down: a smooth curve."""
LIMITS: Final = (4.0, 10.0, 20.0)
"""The y axis reaches the first of these (pieces) that holds most of the curve; a curve beyond
the last is drawn flat at the edge."""
LIMIT_SHARE: Final = 0.9
"""The share of the curve's points that must fit within the chosen limit."""

# Proportions, as fractions of the image width.
HEIGHT: Final = 0.62
MARGIN: Final = 0.025
NAME_SIZE: Final = 0.036
HEADER_HEIGHT: Final = 0.075
DISC_RADIUS: Final = 0.022
CAPTION_SIZE: Final = 0.031
CAPTION_HEIGHT: Final = 0.05
AXIS_SIZE: Final = 0.032
AXIS_ROOM: Final = 0.075
"""Left of the plot, for the y axis's numbers."""
TICKS_HEIGHT: Final = 0.045
PHASE_SIZE: Final = 0.032
PHASE_HEIGHT: Final = 0.045
PLOT_RADIUS: Final = 0.018
PLOT_PAD: Final = 0.018
"""Between the plot's edge and the highest or lowest point the curve can reach."""
CURVE_WIDTH: Final = 0.004
GRID_WIDTH: Final = 0.0025
DASH: Final = 0.012
MARK_RADIUS: Final = 0.026
MARK_RIM: Final = 0.006
MARK_SIZE: Final = 0.033
MARK_LANE: Final = 0.075
"""Above the plot, the lane where the marks' numbered discs go."""
MARK_GAP: Final = 0.008
"""At least this much between two discs in the lane."""
MARK_DOT: Final = 0.0075
"""A mark's dot on the curve."""
MARK_LINE: Final = 0.003
"""The line from a disc down to its dot."""
AXIS_DISC: Final = 0.015


@dataclass(frozen=True, slots=True)
class GraphMark:
    """A numbered mark on the curve: a mistake, drawn where the curve is after it."""

    ply: int
    """The curve's point it goes on: after this many actions (a mistake at index ``p`` of the
    record goes on ``p + 1``)."""
    number: int
    colour: Colour
    """The side that made it: the colour of the mark's rim."""


def choose_limit(curve: Sequence[float]) -> float:
    """The y axis's reach in pieces: the smallest of :data:`LIMITS` that holds
    :data:`LIMIT_SHARE` of the points (a decided game's last moves may go beyond it)."""
    if not curve:
        return LIMITS[0]
    sizes = sorted(abs(value) for value in curve)
    typical = sizes[min(len(sizes) - 1, math.ceil(LIMIT_SHARE * len(sizes)) - 1)]
    return next((limit for limit in LIMITS if typical <= limit), LIMITS[-1])


def evaluation_graph(
    curve: Sequence[float],
    *,
    marks: Sequence[GraphMark] = (),
    players: tuple[str, str] | None = None,
    caption: str | None = None,
    labels: Labels | Mapping[str, str] = ENGLISH,
    theme: Theme | Mapping[str, str] = DEFAULT_THEME,
    size: int = DEFAULT_GRAPH_WIDTH,
    fonts: Fonts = F.DEFAULT_FONTS,
    limit: float | None = None,
    placement_plies: int = PLACEMENT_PLIES,
) -> Image.Image:
    """Draw the graph as an RGB image; see :func:`evaluation_graph_png` for the options."""
    theme = theme if isinstance(theme, Theme) else resolve_theme(DEFAULT_THEME, theme)
    labels = labels if isinstance(labels, Labels) else resolve_labels(ENGLISH, labels)
    if size < MIN_GRAPH_WIDTH:
        raise ValueError(f"a graph needs at least {MIN_GRAPH_WIDTH} pixels, not {size}")
    if len(curve) < 2:
        raise ValueError("a graph needs at least two points: the start and one action")
    for mark in marks:
        if not 0 <= mark.ply < len(curve):
            raise ValueError(f"mark {mark.number} at {mark.ply} is off the curve")
    limit = limit if limit is not None else choose_limit(curve)
    if limit <= 0:
        raise ValueError(f"the y axis's limit must be positive, not {limit}")
    names = (labels.white, labels.black)
    if players is not None:
        names = (
            F.player_name(players[0]) or labels.white,
            F.player_name(players[1]) or labels.black,
        )

    plot = graph_layout(size, len(curve) - 1, limit, caption=bool(caption), marks=bool(marks))
    image = Image.new("RGB", (plot.width, plot.height), rgba(theme.background))
    draw = ImageDraw.Draw(image)
    _draw_header(image, theme=theme, fonts=fonts, names=names, size=size, caption=caption)
    _draw_plot(image, plot, curve, theme=theme, size=size, placement_plies=placement_plies)
    _draw_axes(draw, plot, theme=theme, fonts=fonts, size=size)
    _draw_axis_discs(image, plot, theme=theme, size=size)
    _draw_ticks(draw, plot, theme=theme, fonts=fonts, size=size)
    _draw_phases(
        draw, plot, theme=theme, fonts=fonts, labels=labels, size=size, split=placement_plies
    )
    _draw_marks(image, plot, curve, marks, theme=theme, fonts=fonts, size=size)
    return image


def evaluation_graph_png(
    curve: Sequence[float],
    *,
    marks: Sequence[GraphMark] = (),
    players: tuple[str, str] | None = None,
    caption: str | None = None,
    labels: Labels | Mapping[str, str] = ENGLISH,
    theme: Theme | Mapping[str, str] = DEFAULT_THEME,
    size: int = DEFAULT_GRAPH_WIDTH,
    fonts: Fonts = F.DEFAULT_FONTS,
    limit: float | None = None,
    placement_plies: int = PLACEMENT_PLIES,
) -> bytes:
    """The evaluation graph as PNG bytes. Pure: same input, same bytes.

    - ``curve``: White's lead in pieces after each action, index = actions played (``curve[0]``
      is the start); negative values are Black's lead. At least two points.
    - ``marks``: numbered marks on the curve (the review's mistakes).
    - ``players``: White's and Black's names, shown over the graph with their colours' discs;
      default the colour names of ``labels``.
    - ``caption``: a line under the names saying what the graph shows (translated by the
      caller), e.g. "Lead in pieces (the engine's estimate)"; none by default.
    - ``labels``: the words (``white``, ``black``, ``placement``, ``movement``), as the board's.
    - ``theme``: the board's colours; ``fonts``: the board's font chains.
    - ``size``: the image width in pixels (the height follows: :data:`HEIGHT` of it).
    - ``limit``: the y axis's reach in pieces; default :func:`choose_limit`.
    - ``placement_plies``: where the dashed line between the two phases goes (off the curve:
      no line).

    Raises :class:`ValueError` for fewer than two points, a mark off the curve, a too small
    ``size``, or an unknown theme colour or label.
    """
    return encode_png(
        evaluation_graph(
            curve,
            marks=marks,
            players=players,
            caption=caption,
            labels=labels,
            theme=theme,
            size=size,
            fonts=fonts,
            limit=limit,
            placement_plies=placement_plies,
        )
    )


@dataclass(frozen=True, slots=True)
class GraphLayout:
    """Where the graph's parts go: the image's size, the plot's rectangle and its scales
    (actions across, pieces up)."""

    width: int
    height: int
    left: float
    top: float
    right: float
    bottom: float
    pad: float
    points: int
    """The last point's index (the number of actions)."""
    limit: float
    """The lead at the top (White's) and the bottom (Black's) of the plot."""

    @property
    def middle(self) -> float:
        """The height of a level game (no lead)."""
        return (self.top + self.bottom) / 2

    @property
    def lane(self) -> float:
        """The height of the marks' discs, above the plot."""
        return self.top - MARK_LANE * self.width / 2

    def x(self, index: float) -> float:
        return self.left + (self.right - self.left) * index / self.points

    def y(self, value: float) -> float:
        """The height of White's lead ``value`` (clamped to the limit)."""
        reach = (self.bottom - self.top) / 2 - self.pad
        clamped = max(-self.limit, min(self.limit, value))
        return self.middle - reach * clamped / self.limit


def graph_layout(
    size: int, points: int, limit: float, *, caption: bool = False, marks: bool = False
) -> GraphLayout:
    """The layout of a graph ``size`` pixels wide of ``points + 1`` points (``points``
    actions), up to ``limit`` pieces of lead, with or without a caption line and marks."""
    height = round(HEIGHT * size) + (round(MARK_LANE * size) if marks else 0)
    margin = MARGIN * size
    top = margin + HEADER_HEIGHT * size + (CAPTION_HEIGHT * size if caption else 0)
    if marks:
        top += MARK_LANE * size
    return GraphLayout(
        width=size,
        height=height,
        left=margin + AXIS_ROOM * size,
        top=top,
        right=size - margin,
        bottom=height - margin - TICKS_HEIGHT * size - PHASE_HEIGHT * size,
        pad=PLOT_PAD * size,
        points=points,
        limit=limit,
    )


def _px(value: float) -> int:
    return max(1, round(value))


def _draw_header(
    image: Image.Image,
    *,
    theme: Theme,
    fonts: Fonts,
    names: tuple[str, str],
    size: int,
    caption: str | None,
) -> None:
    """White's disc and name at the left, Black's at the right; the caption centred below."""
    draw = ImageDraw.Draw(image)
    margin = MARGIN * size
    middle = margin + HEADER_HEIGHT * size / 2
    radius = DISC_RADIUS * size
    name_size = _px(NAME_SIZE * size)
    room = (image.width - 2 * margin) / 2 - 3 * radius
    baseline = middle + F.cap_height(fonts.bold, name_size) / 2
    for side, name in zip((Colour.WHITE, Colour.BLACK), names, strict=True):
        left = side is Colour.WHITE
        centre_x = margin + radius if left else image.width - margin - radius
        _paste_disc(image, theme, (centre_x, middle), radius, side)
        text = F.fit(fonts.bold, name_size, name, room)
        x = centre_x + 1.6 * radius if left else centre_x - 1.6 * radius
        F.draw_text(
            draw,
            x,
            baseline,
            text,
            chain=fonts.bold,
            size=name_size,
            fill=rgba(theme.text),
            align="left" if left else "right",
        )
    if caption:
        caption_size = _px(CAPTION_SIZE * size)
        line = margin + HEADER_HEIGHT * size + CAPTION_HEIGHT * size / 2
        F.draw_text(
            draw,
            image.width / 2,
            line + F.cap_height(fonts.regular, caption_size) / 2,
            F.fit(fonts.regular, caption_size, F.clean(caption), image.width - 2 * margin),
            chain=fonts.regular,
            size=caption_size,
            fill=rgba(theme.muted_text),
            align="centre",
        )


def _paste_disc(
    image: Image.Image, theme: Theme, centre: tuple[float, float], radius: float, side: Colour
) -> None:
    """A piece of ``side``'s colour on a plate of the board's wood, as in the board's header."""
    sprites.disc(theme.cell, radius * 1.25).paste_on(image, centre)
    top = "W" if side is Colour.WHITE else "B"
    sprites.piece(theme, radius, top, 1, False).paste_on(image, centre)


def _draw_plot(
    image: Image.Image,
    plot: GraphLayout,
    curve: Sequence[float],
    *,
    theme: Theme,
    size: int,
    placement_plies: int,
) -> None:
    """The wood plate, White's and Black's areas, the grid, the phase line and the curve:
    drawn supersampled, then scaled down into place."""
    s = SUPERSAMPLE
    border = GRID_WIDTH * size * 2
    left, top = math.floor(plot.left - border), math.floor(plot.top - border)
    right, bottom = math.ceil(plot.right + border), math.ceil(plot.bottom + border)
    big = Image.new("RGBA", ((right - left) * s, (bottom - top) * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)

    def at(x: float, y: float) -> tuple[float, float]:
        return ((x - left) * s, (y - top) * s)

    radius = PLOT_RADIUS * size * s
    box = [*at(plot.left, plot.top), *at(plot.right, plot.bottom)]
    draw.rounded_rectangle(
        box,
        radius=radius,
        fill=rgba(theme.cell),
        outline=rgba(theme.board),
        width=_px(border * s),
    )
    points = [at(plot.x(i), plot.y(v)) for i, v in enumerate(curve)]
    zero = at(plot.left, plot.middle)[1]
    area = Image.new("L", big.size, 0)
    ImageDraw.Draw(area).polygon(
        [(points[0][0], zero), *points, (points[-1][0], zero)], fill=255, outline=255
    )
    inside = Image.new("L", big.size, 0)
    ImageDraw.Draw(inside).rounded_rectangle(box, radius=radius, fill=255)
    for colour, rows in ((theme.white_piece, (0, zero)), (theme.black_piece, (zero, big.height))):
        half = Image.new("L", big.size, 0)
        ImageDraw.Draw(half).rectangle([0, rows[0], big.width, rows[1]], fill=255)
        mask = ImageChops.multiply(ImageChops.multiply(area, half), inside)
        big.paste(Image.new("RGBA", big.size, rgba(colour)), (0, 0), mask)
    grid = rgba(theme.board)
    faint = (*grid[:3], 110)
    overlay = Image.new("RGBA", big.size, (0, 0, 0, 0))
    lines = ImageDraw.Draw(overlay)
    for value in (plot.limit / 2, -plot.limit / 2):
        y = at(0, plot.y(value))[1]
        lines.line([(box[0], y), (box[2], y)], fill=faint, width=_px(GRID_WIDTH * size * s))
    lines.line([(box[0], zero), (box[2], zero)], fill=grid, width=_px(GRID_WIDTH * size * s))
    if 0 < placement_plies < plot.points:
        x = at(plot.x(placement_plies), 0)[0]
        dash = DASH * size * s
        y = box[1]
        while y < box[3]:
            lines.line(
                [(x, y), (x, min(y + dash, box[3]))], fill=grid, width=_px(GRID_WIDTH * size * s)
            )
            y += 2 * dash
    lines.line(points, fill=grid, width=_px(CURVE_WIDTH * size * s), joint="curve")
    big = Image.alpha_composite(big, Image.composite(overlay, Image.new("RGBA", big.size), inside))
    small = big.resize((right - left, bottom - top), Image.Resampling.LANCZOS)
    image.paste(small, (left, top), small)


def _draw_axes(
    draw: ImageDraw.ImageDraw, plot: GraphLayout, *, theme: Theme, fonts: Fonts, size: int
) -> None:
    """The leads the grid lines stand for, left of the plot: 0 in the middle, then each side's
    lead without a sign (whose it is, the discs at the ends and the areas' colours say)."""
    font_size = _px(AXIS_SIZE * size)
    lift = F.cap_height(fonts.bold, font_size) / 2
    x = plot.left - AXIS_DISC * size
    for value in (plot.limit, plot.limit / 2, 0.0, -plot.limit / 2, -plot.limit):
        text = _number(abs(value))
        F.draw_text(
            draw,
            x,
            plot.y(value) + lift,
            text,
            chain=fonts.bold,
            size=font_size,
            fill=rgba(theme.coordinates),
            align="right",
        )


def _draw_axis_discs(image: Image.Image, plot: GraphLayout, *, theme: Theme, size: int) -> None:
    """A white disc by the top of the axis, a black one by the bottom: whose lead is where."""
    radius = AXIS_DISC * size
    x = plot.left - AXIS_ROOM * size / 2 - AXIS_DISC * size / 2
    # Between the outer numbers and the middle one, where nothing else is.
    for side, value in ((Colour.WHITE, plot.limit * 0.75), (Colour.BLACK, -plot.limit * 0.75)):
        _paste_disc(image, theme, (x, plot.y(value)), radius, side)


def _number(value: float) -> str:
    return str(round(value)) if float(value).is_integer() else f"{value:.1f}"


def _draw_ticks(
    draw: ImageDraw.ImageDraw, plot: GraphLayout, *, theme: Theme, fonts: Fonts, size: int
) -> None:
    """Action numbers under the plot, every ten (every twenty on a long game), and the last."""
    font_size = _px(AXIS_SIZE * size)
    baseline = plot.bottom + TICKS_HEIGHT * size / 2 + F.cap_height(fonts.regular, font_size) / 2
    step = 10 if plot.points <= 120 else 20
    ticks = list(range(step, plot.points + 1, step))
    last_room = F.text_width(fonts.regular, font_size, "000") * 1.2
    if ticks and plot.x(plot.points) - plot.x(ticks[-1]) < last_room:
        ticks.pop()
    ticks.append(plot.points)
    for tick in ticks:
        text = str(tick)
        x = plot.x(tick)
        align: F.Align = "centre"
        if tick == plot.points:
            align, x = "right", plot.right
        F.draw_text(
            draw,
            x,
            baseline,
            text,
            chain=fonts.regular,
            size=font_size,
            fill=rgba(theme.muted_text),
            align=align,
        )


def _draw_phases(
    draw: ImageDraw.ImageDraw,
    plot: GraphLayout,
    *,
    theme: Theme,
    fonts: Fonts,
    labels: Labels,
    size: int,
    split: int,
) -> None:
    """The phases' names under the action numbers, each centred under its part of the curve,
    or moved inward where its part is too narrow (a game that ended early in the movement)."""
    font_size = _px(PHASE_SIZE * size)
    baseline = (
        plot.bottom
        + TICKS_HEIGHT * size
        + PHASE_HEIGHT * size / 2
        + F.cap_height(fonts.regular, font_size) / 2
    )
    parts = [(labels.placement, 0, min(split, plot.points))]
    if split < plot.points:
        parts.append((labels.movement, split, plot.points))
    gap = 0.03 * size
    share = (plot.right - plot.left - gap * (len(parts) - 1)) / len(parts)
    texts = [F.fit(fonts.regular, font_size, name, share) for name, _, _ in parts]
    widths = [F.text_width(fonts.regular, font_size, text) for text in texts]
    centres = [(plot.x(start) + plot.x(end)) / 2 for _, start, end in parts]
    centres = [
        max(plot.left + width / 2, min(plot.right - width / 2, centre))
        for centre, width in zip(centres, widths, strict=True)
    ]
    if len(parts) == 2:
        overlap = centres[0] + widths[0] / 2 + gap - (centres[1] - widths[1] / 2)
        if overlap > 0:  # push them apart, each as far as the plot's edge allows
            right = min(overlap, plot.right - widths[1] / 2 - centres[1])
            centres[1] += right
            centres[0] -= overlap - right
    for text, centre in zip(texts, centres, strict=True):
        F.draw_text(
            draw,
            centre,
            baseline,
            text,
            chain=fonts.regular,
            size=font_size,
            fill=rgba(theme.coordinates),
            align="centre",
        )


def _draw_marks(
    image: Image.Image,
    plot: GraphLayout,
    curve: Sequence[float],
    marks: Sequence[GraphMark],
    *,
    theme: Theme,
    fonts: Fonts,
    size: int,
) -> None:
    """A dot on the curve where each mark is, and its numbered disc in the lane above the plot,
    joined by a line (discs too close together are spread apart along the lane)."""
    if not marks:
        return
    ordered = sorted(marks, key=lambda m: (m.ply, m.number))
    radius = MARK_RADIUS * size
    rim = MARK_RIM * size
    lane = plot.lane
    spots = spread(
        [plot.x(m.ply) for m in ordered],
        distance=2 * (radius + rim) + MARK_GAP * size,
        low=plot.left + radius + rim,
        high=plot.right - radius - rim,
    )
    s = SUPERSAMPLE
    overlay = Image.new("RGBA", (image.width * s, image.height * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    red = rgba(theme.dvonn_piece)
    halo = rgba(theme.dvonn_ring_edge)
    dot = MARK_DOT * size * s
    for mark, x in zip(ordered, spots, strict=True):
        point = (plot.x(mark.ply) * s, plot.y(curve[mark.ply]) * s)
        start = (x * s, (lane + radius) * s)
        for colour, width in ((halo, MARK_LINE * 2.2), (red, MARK_LINE)):
            draw.line([start, point], fill=colour, width=_px(width * size * s))
        draw.ellipse(
            [
                point[0] - dot * 1.5,
                point[1] - dot * 1.5,
                point[0] + dot * 1.5,
                point[1] + dot * 1.5,
            ],
            fill=halo,
        )
        draw.ellipse([point[0] - dot, point[1] - dot, point[0] + dot, point[1] + dot], fill=red)
    small = overlay.resize(image.size, Image.Resampling.LANCZOS)
    image.paste(small, (0, 0), small)
    text_draw = ImageDraw.Draw(image)
    font_size = _px(MARK_SIZE * size)
    for mark, x in zip(ordered, spots, strict=True):
        outline = theme.white_piece if mark.colour is Colour.WHITE else theme.black_piece
        sprites.disc(theme.dvonn_ring_edge, radius + rim * 1.6).paste_on(image, (x, lane))
        sprites.disc(outline, radius + rim).paste_on(image, (x, lane))
        sprites.disc(theme.dvonn_piece, radius).paste_on(image, (x, lane))
        F.draw_text(
            text_draw,
            x,
            lane + F.cap_height(fonts.bold, font_size) / 2,
            str(mark.number),
            chain=fonts.bold,
            size=font_size,
            fill=rgba(theme.white_piece),
            align="centre",
        )


def spread(xs: Sequence[float], *, distance: float, low: float, high: float) -> list[float]:
    """``xs`` (in increasing order) moved as little as this simple pass can so that neighbours
    are at least ``distance`` apart and all lie within ``low..high`` (if they fit there)."""
    placed = [max(low, min(high, x)) for x in xs]
    for index in range(1, len(placed)):
        placed[index] = max(placed[index], placed[index - 1] + distance)
    if placed and placed[-1] > high:
        placed[-1] = high
        for index in range(len(placed) - 2, -1, -1):
            placed[index] = min(placed[index], placed[index + 1] - distance)
    return [max(low, x) for x in placed]
