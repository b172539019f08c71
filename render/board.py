"""The board image: :func:`board_image` draws a position, :func:`board_png` encodes it.

Drawing order, back to front: the cached base (background, header cards and discs, board,
cells, edge labels), removed stacks, pieces (top row first), the last move's outlines and
arrow, height numbers (over the arrow, so they stay legible), then the header's words.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

import rules
from render import fonts as F
from render import sprites
from render.fonts import Fonts
from render.geometry import (
    CELL_GAP,
    DEFAULT_WIDTH,
    HEADER_HEIGHT,
    SQRT3,
    Card,
    Layout,
    Orientation,
    hex_polygon,
    layout,
)
from render.labels import ENGLISH, Labels, Status, compute_status, resolve_labels
from render.theme import DEFAULT_THEME, Theme, resolve_theme, rgba
from rules import Cell, Colour, Jump, Move, Place, Position, Stack

BASE_SUPERSAMPLE: Final = 3
"""The cached base is drawn this many times too big once, then scaled down: smooth hexes."""
# Level 3 encodes a board in under half the time of level 6 for about 15% more bytes (43 KB):
# under load the bot's renders queue, and bytes are not what is short.
PNG_COMPRESS_LEVEL: Final = 3
PNG_COLOURS: Final = 256

# Header proportions, in hex widths.
CARD_RADIUS: Final = 0.16
CARD_OUTLINE: Final = 0.055
DISC_RADIUS: Final = 0.27
DISC_RING: Final = 0.035
DISC_PLATE: Final = 0.07
"""How far the plate behind a header disc shows around it (of a cell's width)."""
DISC_INSET: Final = 0.52
"""From a card's outer edge to its colour disc's centre."""
NAME_INSET: Final = 0.95
SCORE_INSET: Final = 0.24
NAME_SIZE: Final = 0.36
NAME_MIN_SIZE: Final = 0.27
NAME_GAP: Final = 0.1
"""At least this much between a name and the score."""
NAME_RAISE: Final = 0.04
"""A name's baseline above the card's middle, when its colour's name goes under it."""
CAPTION_SIZE: Final = 0.25
CAPTION_DROP: Final = 0.38
"""From a name's baseline down to its caption's."""
SCORE_SIZE: Final = 0.62
HEADLINE_SIZE: Final = 0.36
HEADLINE_MIN_SIZE: Final = 0.26
DETAILS_SIZE: Final = 0.30
STATUS_MARGIN: Final = 0.3
STATUS_DISC: Final = 0.16
"""The disc before the status line: the colour of the side to move (or the winner)."""
STATUS_DISC_GAP: Final = 0.14
EDGE_LABEL_SIZE: Final = 0.42
CELL_NAME_SIZE: Final = 0.23
ARROW_GAP: Final = 0.03
"""Between the arrow's tip and the destination piece's rim."""
PLATE_GROWTH: Final = 0.16
"""How far the board plate reaches beyond the outer cells, in hex widths."""


def _px(value: float) -> int:
    return max(1, round(value))


@lru_cache(maxsize=24)
def _base(
    theme: Theme, fonts: Fonts, lay: Layout, coordinates: bool, highlighted: Colour | None
) -> Image.Image:
    """Everything that does not depend on the stacks: drawn once per look, then copied."""
    s = BASE_SUPERSAMPLE
    w = lay.hex_width
    big = Image.new("RGB", (lay.width * s, lay.height * s), rgba(theme.background))
    draw = ImageDraw.Draw(big)
    for card in lay.cards():
        active = card.side is highlighted
        draw.rounded_rectangle(
            [card.left * s, card.top * s, card.right * s, card.bottom * s],
            radius=CARD_RADIUS * w * s,
            fill=rgba(theme.panel),
            outline=rgba(theme.panel_active) if active else None,
            width=round(CARD_OUTLINE * w * s) if active else 0,
        )
    plate = lay.corner_radius + PLATE_GROWTH * w * 2 / SQRT3
    cell = lay.corner_radius - CELL_GAP * w / SQRT3
    for c in rules.CELLS:
        x, y = lay.cell_center(c)
        draw.polygon([(px * s, py * s) for px, py in hex_polygon(x, y, plate)], rgba(theme.board))
    for c in rules.CELLS:
        x, y = lay.cell_center(c)
        draw.polygon([(px * s, py * s) for px, py in hex_polygon(x, y, cell)], rgba(theme.cell))
    image = big.resize((lay.width, lay.height), Image.Resampling.LANCZOS)

    # Text goes on at full size, where FreeType's hinting keeps it crisp.
    draw = ImageDraw.Draw(image)
    if coordinates:
        size = _px(EDGE_LABEL_SIZE * w)
        lift = F.cap_height(fonts.bold, size) / 2
        for label in lay.edge_labels():
            x, y = label.centre
            F.draw_text(
                draw,
                x,
                y + lift,
                label.text,
                chain=fonts.bold,
                size=size,
                fill=rgba(theme.coordinates),
                align="centre",
            )
        size = _px(CELL_NAME_SIZE * w)
        lift = F.cap_height(fonts.regular, size) / 2
        for c in rules.CELLS:
            x, y = lay.cell_center(c)
            F.draw_text(
                draw,
                x,
                y + lift,
                rules.CELL_NAMES[c],
                chain=fonts.regular,
                size=size,
                fill=rgba(theme.cell_name),
                align="centre",
            )
    for card in lay.cards():
        top = "W" if card.side is Colour.WHITE else "B"
        centre = (card.outer + card.inward * DISC_INSET * w, card.middle)
        # On a plate of the board's own colour, as on the board: a black disc straight on the
        # dark card read as an empty ring at phone size.
        sprites.disc(theme.cell, (DISC_RADIUS + DISC_PLATE) * w).paste_on(image, centre)
        sprites.piece(theme, DISC_RADIUS * w, top, 1, False).paste_on(image, centre)
    return image


def _draw_card(
    image: Image.Image,
    card: Card,
    *,
    lay: Layout,
    theme: Theme,
    fonts: Fonts,
    name: str,
    caption: str | None,
    score: int,
) -> None:
    """A player's name (and under it ``caption``, their colour's name) and score on their card.

    The colour disc is part of the cached base. White's card reads from the left edge and
    Black's mirrors it, so the two scores face each other in the middle like a scoreboard.
    """
    draw = ImageDraw.Draw(image)
    w = lay.hex_width
    near_side: F.Align = "left" if card.side is Colour.WHITE else "right"
    far_side: F.Align = "right" if card.side is Colour.WHITE else "left"
    score_size = _px(SCORE_SIZE * w)
    score_x = card.inner - card.inward * SCORE_INSET * w
    score_baseline = card.middle + F.cap_height(fonts.bold, score_size) / 2
    F.draw_text(
        draw,
        score_x,
        score_baseline,
        str(score),
        chain=fonts.bold,
        size=score_size,
        fill=rgba(theme.text),
        align=far_side,
    )
    name_x = card.outer + card.inward * NAME_INSET * w
    # Room up to a two-digit score, so a name does not shift when the score changes.
    room = abs(score_x - name_x) - F.text_width(fonts.bold, score_size, "00") - NAME_GAP * w
    name, size = F.shrink_to_fit(
        fonts.bold, _px(NAME_SIZE * w), name, room, smallest=_px(NAME_MIN_SIZE * w)
    )
    if caption is None:
        baseline = card.middle + F.cap_height(fonts.bold, size) / 2
    else:
        baseline = card.middle - NAME_RAISE * w
        caption_size = _px(CAPTION_SIZE * w)
        F.draw_text(
            draw,
            name_x,
            baseline + CAPTION_DROP * w,
            F.fit(fonts.regular, caption_size, caption, room),
            chain=fonts.regular,
            size=caption_size,
            fill=rgba(theme.muted_text),
            align=near_side,
        )
    F.draw_text(
        draw,
        name_x,
        baseline,
        name,
        chain=fonts.bold,
        size=size,
        fill=rgba(theme.text),
        align=near_side,
    )


def _draw_status(
    image: Image.Image,
    *,
    lay: Layout,
    theme: Theme,
    fonts: Fonts,
    labels: Labels,
    state: Status,
) -> None:
    """One centred line: the highlighted side's disc, the headline in bold, the details muted.

    It spans the image's width, so translations have room; if it is still too long the
    details are shortened first, then the headline's font.
    """
    draw = ImageDraw.Draw(image)
    w = lay.hex_width
    room = lay.width - 2 * STATUS_MARGIN * w
    disc_room = 2 * (STATUS_DISC + DISC_RING) * w + STATUS_DISC_GAP * w
    if state.highlighted is not None:
        room -= disc_room
    headline, size = F.shrink_to_fit(
        fonts.bold,
        _px(HEADLINE_SIZE * w),
        state.headline,
        room,
        smallest=_px(HEADLINE_MIN_SIZE * w),
    )
    head_width = F.text_width(fonts.bold, size, headline)
    details_size = _px(DETAILS_SIZE * w)
    details = ""
    if state.details:
        tail = room - head_width - F.text_width(fonts.regular, details_size, labels.separator)
        details = _whole_parts(fonts.regular, details_size, state.details, labels.separator, tail)
    if details:
        details = labels.separator + details
    total = head_width + F.text_width(fonts.regular, details_size, details)
    if state.highlighted is not None:
        total += disc_room
    x = (lay.width - total) / 2
    middle = lay.status_middle
    baseline = middle + F.cap_height(fonts.bold, size) / 2
    if state.highlighted is not None:
        radius = STATUS_DISC * w
        centre = (x + radius + DISC_RING * w, middle)
        sprites.disc(theme.cell, radius + DISC_RING * w).paste_on(image, centre)
        top = "W" if state.highlighted is Colour.WHITE else "B"
        sprites.piece(theme, radius, top, 1, False).paste_on(image, centre)
        x += disc_room
    F.draw_text(draw, x, baseline, headline, chain=fonts.bold, size=size, fill=rgba(theme.text))
    F.draw_text(
        draw,
        x + head_width,
        baseline,
        details,
        chain=fonts.regular,
        size=details_size,
        fill=rgba(theme.muted_text),
    )


def _whole_parts(chain: tuple[str, ...], size: int, text: str, separator: str, room: float) -> str:
    """As many of ``text``'s parts (between separators) as fit in ``room``, whole: a phase or a
    move number cut in the middle ("Ruc…") tells the reader nothing."""
    parts = text.split(separator)
    while parts and F.text_width(chain, size, separator.join(parts)) > room:
        parts.pop()
    return separator.join(parts)


def _top(stack: Stack) -> str:
    return stack[-1]


def board_image(
    position: Position,
    *,
    last_move: Move | None = None,
    removed: Mapping[Cell, Stack] | None = None,
    players: tuple[str, str] | None = None,
    labels: Labels | Mapping[str, str] = ENGLISH,
    theme: Theme | Mapping[str, str] = DEFAULT_THEME,
    size: int = DEFAULT_WIDTH,
    orientation: Orientation = Orientation.ROW1_TOP,
    coordinates: bool = True,
    fonts: Fonts = F.DEFAULT_FONTS,
    status: Status | None = None,
    header: bool = True,
) -> Image.Image:
    """Draw ``position`` as an RGB image; see :func:`board_png` for the options."""
    theme = theme if isinstance(theme, Theme) else resolve_theme(DEFAULT_THEME, theme)
    labels = labels if isinstance(labels, Labels) else resolve_labels(ENGLISH, labels)
    lay = layout(size, orientation)
    radius = lay.piece_radius
    names = (labels.white, labels.black)
    if players is not None:
        names = (
            F.player_name(players[0]) or labels.white,
            F.player_name(players[1]) or labels.black,
        )
    state = status or compute_status(position, labels, names, last_move=last_move)

    image = _base(theme, fonts, lay, coordinates, state.highlighted).copy()
    for cell, stack in sorted((removed or {}).items()):
        if stack:
            ghost = sprites.ghost(theme, radius, _top(stack), len(stack), "D" in stack)
            ghost.paste_on(image, lay.cell_center(cell))
    stacks = position.stacks
    for cell in _paint_order(orientation):
        stack = stacks[cell]
        if stack:
            body = sprites.piece(theme, radius, _top(stack), len(stack), "D" in stack)
            body.paste_on(image, lay.cell_center(cell))
    _draw_last_move(image, lay, theme, last_move)
    for cell, stack in enumerate(stacks):
        if len(stack) >= 2:
            label = sprites.height_label(theme, fonts, radius, _top(stack), len(stack))
            label.paste_on(image, lay.cell_center(cell))
    scores = rules.score(position)
    for index, card in enumerate(lay.cards()):
        _draw_card(
            image,
            card,
            lay=lay,
            theme=theme,
            fonts=fonts,
            name=names[index],
            caption=labels.colour(card.side) if players is not None else None,
            score=scores[index],
        )
    _draw_status(image, lay=lay, theme=theme, fonts=fonts, labels=labels, state=state)
    if not header:  # the board alone: a picture of the cells, not of a game
        return image.crop((0, round(HEADER_HEIGHT * lay.hex_width), image.width, image.height))
    return image


def _draw_last_move(image: Image.Image, lay: Layout, theme: Theme, move: Move | None) -> None:
    """Outline the cells of the last move; for a jump, an arrow that stops at the piece's rim.

    Drawn over the pieces (the outlines sit outside them, but over their shadows), and under
    the height numbers, which must stay legible where the arrow crosses a stack.
    """
    w = lay.hex_width
    colours = (theme.last_move, theme.last_move_halo)
    if isinstance(move, Place):
        sprites.cell_outline(*colours, w).paste_on(image, lay.cell_center(move.cell))
    elif isinstance(move, Jump):
        start, end = lay.cell_center(move.source), lay.cell_center(move.target)
        dx, dy = end[0] - start[0], end[1] - start[1]
        length = math.hypot(dx, dy)
        # A one-cell move's arrow is little more than its head, lost at phone size: then the
        # cell it left gets the full outline too.
        short = length < 1.5 * w
        sprites.cell_outline(*colours, w, thin=not short).paste_on(image, start)
        sprites.cell_outline(*colours, w).paste_on(image, end)
        stop = lay.piece_radius + ARROW_GAP * w
        tip = (end[0] - dx / length * stop, end[1] - dy / length * stop)
        sprites.arrow(theme, w, start, tip).paste_on(image, start)


@lru_cache(maxsize=2)
def _paint_order(orientation: Orientation) -> tuple[Cell, ...]:
    """Cells from the top of the image down: the layers showing under a stack are overlapped
    by the pieces in the row below it, which are nearer the viewer."""
    order = sorted(rules.CELLS, key=lambda c: rules.HEXES[c].row)
    if orientation is Orientation.ROW5_TOP:
        order.reverse()
    return tuple(order)


def board_png(
    position: Position,
    *,
    last_move: Move | None = None,
    removed: Mapping[Cell, Stack] | None = None,
    players: tuple[str, str] | None = None,
    labels: Labels | Mapping[str, str] = ENGLISH,
    theme: Theme | Mapping[str, str] = DEFAULT_THEME,
    size: int = DEFAULT_WIDTH,
    orientation: Orientation = Orientation.ROW1_TOP,
    coordinates: bool = True,
    fonts: Fonts = F.DEFAULT_FONTS,
    status: Status | None = None,
    header: bool = True,
) -> bytes:
    """The board as PNG bytes, ready to attach to a message. Pure: same input, same bytes.

    - ``last_move``: the action that led to ``position``, outlined (a placement) or drawn as an
      arrow from source to destination (a jump); after a pass the header says who passed.
    - ``removed``: the stacks that action cut off, by cell (``MoveResult.removed``), drawn faded
      and crossed out. Typically ``board_png(r.after, last_move=r.move, removed=r.removed)``.
    - ``players``: White's and Black's display names (any Unicode); default the colour names.
    - ``labels``: the header's words (:class:`Labels`, or a mapping of overrides of English).
    - ``theme``: the colours (:class:`Theme`, or a mapping of overrides of the default theme).
    - ``size``: the image width in pixels (the height follows); ``orientation``: row 1 on top
      (as ``NOTATION.md``) or row 5; ``coordinates``: letters, row numbers and cell names.
    - ``fonts``: the fallback chains of font files (add a Hangul font for Korean names).
    - ``status``: replaces the status line worked out from the position, e.g. after a
      resignation ``Status("Alice wins", "Борис resigned", Colour.WHITE)``.
    - ``header``: the players' cards and the status line above the board; without them the
      image is the board alone (a picture naming the cells, say).

    Raises :class:`ValueError` for an unknown theme colour or label, or a too small ``size``.
    """
    image = board_image(
        position,
        last_move=last_move,
        removed=removed,
        players=players,
        labels=labels,
        theme=theme,
        size=size,
        orientation=orientation,
        coordinates=coordinates,
        fonts=fonts,
        status=status,
        header=header,
    )
    return encode_png(image)


def encode_png(image: Image.Image) -> bytes:
    """``image`` as an 8-bit palette PNG.

    The board has few colours besides antialiasing, so 256 colours look the same as full RGB
    (no dithering: it would speckle flat areas) while the file is a third of the size and
    encodes in half the time.
    """
    palette = image.quantize(
        PNG_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    out = io.BytesIO()
    palette.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()
