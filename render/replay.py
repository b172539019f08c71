"""A whole game as an animated GIF: one frame per action, for the bot's replay command.

GIF rather than APNG because Discord animates GIF attachments everywhere. All frames share
one palette (taken from a few typical frames), so colours do not flicker from frame to frame,
and Pillow stores each frame as just the rectangle that changed, which keeps a long game
well under Discord's 8 MB upload limit.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Final

from PIL import Image

import rules
from render.board import board_image
from render.fonts import DEFAULT_FONTS, Fonts
from render.geometry import MIN_WIDTH, Orientation
from render.labels import ENGLISH, Labels
from render.theme import DEFAULT_THEME, Theme
from rules import Move, Position

REPLAY_WIDTH: Final = 640
"""Smaller than a single board: a replay is watched in the preview, and must stay small."""
MAX_BYTES: Final = 8 * 1024 * 1024
"""Discord's upload limit for a bot in a server without boosts."""
PLACEMENT_MS: Final = 300
MOVE_MS: Final = 1000
LAST_FRAME_MS: Final = 5000
"""The final position stays up long enough to read the result before the loop restarts."""
GIF_COLOURS: Final = 255
PALETTE_FRAMES: Final = 4
SHRINK: Final = 0.8
"""If a replay comes out too big, it is drawn again this much narrower."""


class ReplayTooLargeError(ValueError):
    """Even the smallest replay of this game is bigger than the byte limit asked for."""


def replay_gif(
    moves: Sequence[Move],
    *,
    start: Position | None = None,
    players: tuple[str, str] | None = None,
    labels: Labels | Mapping[str, str] = ENGLISH,
    theme: Theme | Mapping[str, str] = DEFAULT_THEME,
    size: int = REPLAY_WIDTH,
    orientation: Orientation = Orientation.ROW1_TOP,
    fonts: Fonts = DEFAULT_FONTS,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """An animated GIF of ``moves`` played from ``start`` (the empty board by default).

    Frame ``i`` shows the position after ``moves[i]``, with that move marked and the stacks it
    removed crossed out, so there is exactly one frame per action. It loops forever; the last
    frame is held for :data:`LAST_FRAME_MS`. If the file would exceed ``max_bytes`` the board
    is drawn smaller until it fits.

    Raises :class:`rules.IllegalMoveError` if a move is illegal, :class:`ValueError` if
    ``moves`` is empty, and :class:`ReplayTooLargeError` if no size fits ``max_bytes``.
    """
    if not moves:
        raise ValueError("a replay needs at least one move")
    width = size
    while True:
        gif = _encode(
            moves,
            start=start if start is not None else rules.new_game(),
            players=players,
            labels=labels,
            theme=theme,
            size=width,
            orientation=orientation,
            fonts=fonts,
        )
        if len(gif) <= max_bytes:
            return gif
        width = int(width * SHRINK)
        if width < MIN_WIDTH:
            raise ReplayTooLargeError(
                f"a replay of {len(moves)} moves does not fit in {max_bytes} bytes"
            )


def _encode(
    moves: Sequence[Move],
    *,
    start: Position,
    players: tuple[str, str] | None,
    labels: Labels | Mapping[str, str],
    theme: Theme | Mapping[str, str],
    size: int,
    orientation: Orientation,
    fonts: Fonts,
) -> bytes:
    frames: list[Image.Image] = []
    durations: list[int] = []
    pos = start
    for move in moves:
        result = rules.apply(pos, move)
        pos = result.after
        frames.append(
            board_image(
                pos,
                last_move=move,
                removed=result.removed,
                players=players,
                labels=labels,
                theme=theme,
                size=size,
                orientation=orientation,
                fonts=fonts,
            )
        )
        durations.append(PLACEMENT_MS if isinstance(move, rules.Place) else MOVE_MS)
    durations[-1] = LAST_FRAME_MS
    palette = _shared_palette(frames)
    indexed = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    out = io.BytesIO()
    indexed[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=indexed[1:],
        duration=durations,
        loop=0,
        disposal=1,  # keep each frame: the next one only paints what changed
    )
    return out.getvalue()


def _shared_palette(frames: Sequence[Image.Image]) -> Image.Image:
    """One palette for every frame, from a few frames spread over the game, side by side."""
    count = len(frames)
    picks = [
        frames[min(count - 1, count * k // PALETTE_FRAMES)] for k in range(1, PALETTE_FRAMES + 1)
    ]
    sheet = Image.new("RGB", (picks[0].width, picks[0].height * len(picks)))
    for index, frame in enumerate(picks):
        sheet.paste(frame, (0, frame.height * index))
    return sheet.quantize(GIF_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
