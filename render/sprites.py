"""Small antialiased images, drawn once and pasted many times: pieces, height numbers, outlines.

Pillow draws shapes without antialiasing, so each sprite is drawn :data:`SUPERSAMPLE` times
too big and scaled down. Doing that per sprite and caching the result (instead of drawing the
whole board supersampled every time) is what keeps a board render within a few milliseconds.
A sprite knows its anchor: the point that goes on a cell's centre (an arrow's: its tail).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw, ImageFilter

from render import fonts as F
from render.fonts import Fonts
from render.geometry import CORNER_RADIUS, SQRT3, Point, hex_polygon
from render.theme import Theme, rgba

SUPERSAMPLE: Final = 4

# Proportions of a piece, as fractions of its radius.
RIM_WIDTH: Final = 0.07
LAYER_STEP: Final = 0.075
"""How far each piece under the top one shows below it, so taller stacks look taller."""
MAX_VISIBLE_LAYERS: Final = 4
LAYER_SHADE_DARK: Final = 0.78
LAYER_SHADE_LIGHT: Final = 1.5
"""The slivers of lower pieces are a shade darker than a white or red face, lighter than a
black one, so that each shows against the next."""
DVONN_RING_OUTER: Final = 0.84
DVONN_RING_INNER: Final = 0.60
"""The DVONN ring on a white or black stack: wide enough to see at a glance, leaving the middle
free for the height number."""
DVONN_RING_EDGE: Final = 0.06
LONE_DVONN_CORE: Final = 0.36
"""A lone DVONN piece shows a dark core: a shape cue besides its red."""
SHADOW_OFFSET: Final = 0.10
SHADOW_BLUR: Final = 0.08
HEIGHT_SIZE_ONE_DIGIT: Final = 1.0
HEIGHT_SIZE_TWO_DIGITS: Final = 0.80
"""Font size of the height number, by number of digits; smaller if it does not fit in a DVONN
ring."""
HEIGHT_STROKE: Final = 0.06
"""An edge in the piece's colour around the number, so it reads where the arrow crosses it."""
MIN_HEIGHT_SIZE: Final = 8

# Last move and removal marks, as fractions of the hex width.
OUTLINE_WIDTH: Final = 0.08
THIN_OUTLINE: Final = 0.6
"""The source of a jump gets a thinner outline than its destination."""
OUTLINE_EDGE: Final = 0.03
"""The light edge outside an outline, over the grid line: in lightness alone the outline's
colour is near the board plate's, and it would pass for a thick grid line without it."""
ARROW_SHAFT: Final = 0.11
ARROW_HEAD_LENGTH: Final = 0.34
ARROW_HEAD_WIDTH: Final = 0.40
ARROW_TAIL_DOT: Final = 0.13
HALO: Final = 0.025
"""The arrow's light edge."""
CROSS_ARM: Final = 0.62
"""Half the length of a removal cross's arms, as a fraction of the piece radius."""
CROSS_WIDTH: Final = 0.20
CROSS_HALO: Final = 0.10
"""A light edge either side of the cross, so it shows on a faded black stack too."""
GHOST_OPACITY: Final = 0.38


@dataclass(frozen=True, slots=True)
class Sprite:
    """An RGBA image and where its anchor point is inside it."""

    image: Image.Image
    anchor: Point

    def paste_on(self, canvas: Image.Image, at: Point) -> None:
        """Alpha-blend this sprite onto ``canvas`` with its anchor at ``at``."""
        x = round(at[0] - self.anchor[0])
        y = round(at[1] - self.anchor[1])
        canvas.paste(self.image, (x, y), self.image)


class _Supersampled:
    """A transparent canvas drawn at SUPERSAMPLE scale in the caller's (1x) coordinates."""

    def __init__(self, width: int, height: int) -> None:
        self.size = (width, height)
        self.image = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)

    @staticmethod
    def scale(points: list[Point]) -> list[Point]:
        return [(x * SUPERSAMPLE, y * SUPERSAMPLE) for x, y in points]

    def circle(self, centre: Point, radius: float, fill: tuple[int, ...]) -> None:
        x, y = centre
        box = [(x - radius) * SUPERSAMPLE, (y - radius) * SUPERSAMPLE]
        box += [(x + radius) * SUPERSAMPLE, (y + radius) * SUPERSAMPLE]
        self.draw.ellipse(box, fill=fill)

    def polygon(self, points: list[Point], fill: tuple[int, ...]) -> None:
        self.draw.polygon(self.scale(points), fill=fill)

    def line(self, points: list[Point], fill: tuple[int, ...], width: float) -> None:
        self.draw.line(self.scale(points), fill=fill, width=round(width * SUPERSAMPLE))

    def result(self) -> Image.Image:
        return self.image.resize(self.size, Image.Resampling.LANCZOS)


def _shade(colour: tuple[int, ...], factor: float) -> tuple[int, int, int, int]:
    """``colour`` darkened (factor < 1) or lightened towards white (factor > 1)."""
    r, g, b, a = colour
    if factor <= 1:
        return round(r * factor), round(g * factor), round(b * factor), a
    t = factor - 1
    return round(r + (255 - r) * t), round(g + (255 - g) * t), round(b + (255 - b) * t), a


def _face_colours(theme: Theme, top: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if top == "W":
        return rgba(theme.white_piece), rgba(theme.white_rim)
    if top == "B":
        return rgba(theme.black_piece), rgba(theme.black_rim)
    return rgba(theme.dvonn_piece), rgba(theme.dvonn_rim)


def _piece_canvas(radius: float) -> tuple[int, Point]:
    """A square canvas big enough for a piece, its layers and its shadow; and its centre."""
    margin = radius * (LAYER_STEP * MAX_VISIBLE_LAYERS + SHADOW_OFFSET + SHADOW_BLUR * 2) + 2
    side = math.ceil(2 * (radius + margin))
    return side, (side / 2, side / 2)


@lru_cache(maxsize=512)
def piece(theme: Theme, radius: float, top: str, height: int, dvonn: bool) -> Sprite:
    """A stack seen from slightly above: its top piece's colour, the layers under it, a shadow.

    ``top`` is the top piece's letter (``"W"``, ``"B"``, ``"D"``); ``dvonn`` whether the stack
    holds a DVONN piece (a lone DVONN piece is ``top="D"``).
    """
    side, (cx, cy) = _piece_canvas(radius)
    face, rim = _face_colours(theme, top)
    layers = min(height, MAX_VISIBLE_LAYERS)
    step = LAYER_STEP * radius
    depth = (layers - 1) * step

    shadow = _Supersampled(side, side)
    shadow.circle((cx, cy + depth + SHADOW_OFFSET * radius), radius, rgba(theme.shadow))
    blurred = shadow.result().filter(ImageFilter.GaussianBlur(SHADOW_BLUR * radius))

    canvas = _Supersampled(side, side)
    # The pieces under the top one, bottom first, each showing as a sliver below the next.
    for layer in range(layers - 1, 0, -1):
        centre = (cx, cy + layer * step)
        canvas.circle(centre, radius, rim)
        layer_face = _shade(face, LAYER_SHADE_DARK if top != "B" else LAYER_SHADE_LIGHT)
        canvas.circle(centre, radius * (1 - RIM_WIDTH), layer_face)
    canvas.circle((cx, cy), radius, rim)
    canvas.circle((cx, cy), radius * (1 - RIM_WIDTH), face)
    if top == "D":
        canvas.circle((cx, cy), radius * LONE_DVONN_CORE, rim)
    elif dvonn:
        # Light edges either side of the red band: on a black stack, red alone is nearly
        # as dark as the piece for red-blind eyes, but the edges still draw the ring.
        edge = DVONN_RING_EDGE * radius
        canvas.circle((cx, cy), radius * DVONN_RING_OUTER + edge, rgba(theme.dvonn_ring_edge))
        canvas.circle((cx, cy), radius * DVONN_RING_OUTER, rgba(theme.dvonn_ring))
        canvas.circle((cx, cy), radius * DVONN_RING_INNER, rgba(theme.dvonn_ring_edge))
        canvas.circle((cx, cy), radius * DVONN_RING_INNER - edge, face)
    image = Image.alpha_composite(blurred, canvas.result())
    return Sprite(image, (cx, cy))


@lru_cache(maxsize=512)
def ghost(theme: Theme, radius: float, top: str, height: int, dvonn: bool) -> Sprite:
    """A removed stack: its piece faded, crossed out."""
    solid = piece(theme, radius, top, height, dvonn)
    image = solid.image.copy()
    alpha = image.getchannel("A").point(lambda a: round(a * GHOST_OPACITY))
    image.putalpha(alpha)
    side = image.width
    cx, cy = solid.anchor
    arm = CROSS_ARM * radius
    cross = _Supersampled(side, side)
    for width, colour in (
        ((CROSS_WIDTH + 2 * CROSS_HALO) * radius, rgba(theme.removed_halo)),
        (CROSS_WIDTH * radius, rgba(theme.removed)),
    ):
        cross.line([(cx - arm, cy - arm), (cx + arm, cy + arm)], colour, width)
        cross.line([(cx - arm, cy + arm), (cx + arm, cy - arm)], colour, width)
    return Sprite(Image.alpha_composite(image, cross.result()), (cx, cy))


@lru_cache(maxsize=512)
def height_label(theme: Theme, fonts: Fonts, radius: float, top: str, height: int) -> Sprite:
    """The number printed on a stack of ``height`` >= 2, centred on its ink, not its line box."""
    text = str(height)
    share = HEIGHT_SIZE_ONE_DIGIT if len(text) == 1 else HEIGHT_SIZE_TWO_DIGITS
    size = max(MIN_HEIGHT_SIZE, round(radius * share))
    colour = rgba(theme.white_height if top == "W" else theme.black_height)
    halo = _face_colours(theme, top)[0]
    stroke = max(1, round(radius * HEIGHT_STROKE))
    room = 2 * (DVONN_RING_INNER - DVONN_RING_EDGE) * radius  # inside a DVONN ring
    while True:
        face = F.font(fonts.bold[0], size)
        left, top_edge, right, bottom = face.getbbox(text, anchor="ls", stroke_width=stroke)
        if right - left <= room or size <= MIN_HEIGHT_SIZE:
            break
        size -= 1
    width, tall = math.ceil(right - left) + 2, math.ceil(bottom - top_edge) + 2
    image = Image.new("RGBA", (width, tall), (0, 0, 0, 0))
    ImageDraw.Draw(image).text(
        (1 - left, 1 - top_edge),
        text,
        font=face,
        fill=colour,
        anchor="ls",
        stroke_width=stroke,
        stroke_fill=halo,
    )
    return Sprite(image, (width / 2, tall / 2))


@lru_cache(maxsize=64)
def cell_outline(colour: str, edge: str, hex_width: float, *, thin: bool = False) -> Sprite:
    """A thick outline just inside a cell's edge, with a light ``edge`` outside it (over the
    grid line): marks the last move's cells, in colour and in lightness alone."""
    radius = CORNER_RADIUS * hex_width
    side = math.ceil(2 * radius) + 4
    centre = (side / 2, side / 2)
    rim = OUTLINE_EDGE * hex_width
    width = OUTLINE_WIDTH * hex_width * (THIN_OUTLINE if thin else 1.0)
    canvas = _Supersampled(side, side)
    canvas.polygon(hex_polygon(*centre, radius - 0.5), rgba(edge))
    canvas.polygon(hex_polygon(*centre, radius - 0.5 - rim * 2 / SQRT3), rgba(colour))
    canvas.polygon(hex_polygon(*centre, radius - 0.5 - (rim + width) * 2 / SQRT3), (0, 0, 0, 0))
    return Sprite(canvas.result(), centre)


def arrow(theme: Theme, hex_width: float, start: Point, end: Point) -> Sprite:
    """An arrow from ``start`` (a dot) to ``end`` (the tip), with a light halo.

    Anchored at ``start``. Not cached: it depends on the two cells, and is one small drawing.
    """
    halo = HALO * hex_width
    pad = ARROW_HEAD_WIDTH * hex_width + halo + 2
    left, top = min(start[0], end[0]) - pad, min(start[1], end[1]) - pad
    width = math.ceil(abs(end[0] - start[0]) + 2 * pad)
    height = math.ceil(abs(end[1] - start[1]) + 2 * pad)
    sx, sy = start[0] - left, start[1] - top
    ex, ey = end[0] - left, end[1] - top
    length = math.hypot(ex - sx, ey - sy)
    ux, uy = (ex - sx) / length, (ey - sy) / length
    head = ARROW_HEAD_LENGTH * hex_width
    bx, by = ex - ux * head, ey - uy * head  # where the head meets the shaft
    half = ARROW_HEAD_WIDTH * hex_width / 2
    head_points = [(ex, ey), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)]
    canvas = _Supersampled(width, height)
    for grow, colour in ((halo, rgba(theme.last_move_halo)), (0.0, rgba(theme.last_move))):
        shaft = ARROW_SHAFT * hex_width + 2 * grow
        # The shaft runs a pixel into the head, so no seam shows where they meet.
        canvas.line([(sx, sy), (bx + ux, by + uy)], colour, shaft)
        canvas.circle((sx, sy), ARROW_TAIL_DOT * hex_width + grow, colour)
        canvas.polygon(_grown(head_points, grow), colour)
    return Sprite(canvas.result(), (sx, sy))


def _grown(points: list[Point], by: float) -> list[Point]:
    """A triangle pushed outwards from its centroid by about ``by`` pixels (for the halo)."""
    if by == 0:
        return points
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    out = []
    for x, y in points:
        d = math.hypot(x - mx, y - my)
        k = (d + 2 * by) / d  # a triangle's corners move twice as far as its sides
        out.append((mx + (x - mx) * k, my + (y - my) * k))
    return out


@lru_cache(maxsize=16)
def disc(colour: str, radius: float) -> Sprite:
    """A filled circle: a plate to show a piece on, away from the board."""
    side = math.ceil(2 * radius) + 4
    centre = (side / 2, side / 2)
    canvas = _Supersampled(side, side)
    canvas.circle(centre, radius, rgba(colour))
    return Sprite(canvas.result(), centre)


@lru_cache(maxsize=16)
def ring(colour: str, radius: float, width: float) -> Sprite:
    """A circle's outline just outside ``radius``: sets a disc off from its background."""
    outer = radius + width
    side = math.ceil(2 * outer) + 4
    centre = (side / 2, side / 2)
    canvas = _Supersampled(side, side)
    canvas.circle(centre, outer, rgba(colour))
    canvas.circle(centre, radius, (0, 0, 0, 0))
    return Sprite(canvas.result(), centre)
