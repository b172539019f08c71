"""Board images for DVONN, drawn with Pillow: a position as PNG bytes, a game as an animated GIF,
and a game review's evaluation graph.

>>> import rules, render
>>> png = render.board_png(rules.new_game(), players=("Alice", "Борис"))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True

Imports only :mod:`rules` and Pillow; it knows nothing of Discord. The words it shows come
from a :class:`Labels` object the caller can translate; the colours from a :class:`Theme`.

Rendering is CPU work: call it off the event loop (``asyncio.to_thread``). It may run in
several threads at once: the caches only hold images and fonts that are never changed, and
Pillow holds the GIL while FreeType draws (FreeType faces are not thread-safe by themselves,
so a free-threaded Python needs a Pillow that locks them: python-pillow/Pillow#9498).
"""

from render.board import board_image, board_png, encode_png
from render.fonts import DEFAULT_FONTS, Fonts
from render.geometry import DEFAULT_WIDTH, Layout, Orientation, layout
from render.graph import GraphMark, evaluation_graph, evaluation_graph_png
from render.labels import ENGLISH, Labels, Status
from render.replay import ReplayTooLargeError, replay_gif
from render.theme import DEFAULT_THEME, LIGHT_THEME, Theme

__all__ = [
    "DEFAULT_FONTS",
    "DEFAULT_THEME",
    "DEFAULT_WIDTH",
    "ENGLISH",
    "LIGHT_THEME",
    "Fonts",
    "GraphMark",
    "Labels",
    "Layout",
    "Orientation",
    "ReplayTooLargeError",
    "Status",
    "Theme",
    "board_image",
    "board_png",
    "encode_png",
    "evaluation_graph",
    "evaluation_graph_png",
    "layout",
    "replay_gif",
]
