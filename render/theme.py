"""Colours: a :class:`Theme` names every colour the renderer uses; callers override any of them.

The image draws its own background, so one theme reads the same in Discord's dark and light
modes. Colour-blind players are served by shape and lightness, never by hue alone: white and
black pieces differ in lightness, DVONN pieces also carry a ring, the last move is a thick
outline plus an arrow, removed stacks are crossed out. The only hue pairing that matters
(last-move blue against DVONN red) is one that every common colour-vision deficiency keeps
apart.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from PIL import ImageColor

RGBA = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Theme:
    """Every colour of the board image, as CSS colour strings (``"#rrggbb"``, ``"#rrggbbaa"``).

    Override some with :meth:`with_colours` or by passing a mapping as ``theme=``.
    """

    background: str = "#1d2127"
    """Behind everything: the image's own background."""
    board: str = "#333a44"
    """The board plate, which shows between the cells as grid lines."""
    cell: str = "#dcc9a0"
    """An empty cell."""
    cell_name: str = "#7a6646"
    """The name printed in each empty cell: quiet, but 3.4:1 against the cell, so that it reads
    on a phone (a board image is shown about 390 px wide there)."""
    coordinates: str = "#d9cfb9"
    """The letters and row numbers around the edge."""
    white_piece: str = "#f7f4ec"
    white_rim: str = "#8d8576"
    white_height: str = "#1b1d21"
    """The height number on a white stack."""
    black_piece: str = "#24272d"
    black_rim: str = "#0b0c0e"
    black_height: str = "#ffffff"
    """The height number on a black stack."""
    dvonn_piece: str = "#e23b2e"
    dvonn_rim: str = "#7d1710"
    dvonn_ring: str = "#e23b2e"
    """The ring that marks a white or black stack holding a DVONN piece."""
    dvonn_ring_edge: str = "#f7f4ec"
    """Thin edges either side of the DVONN ring, so that it shows on black stacks in any
    colour vision."""
    shadow: str = "#00000066"
    last_move: str = "#1e88ff"
    """Outline of the last move's cells and its arrow."""
    last_move_halo: str = "#ffffffcc"
    """A thin light edge around the arrow, so it shows on black stacks too, and outside the
    outlines, so that they show against the board plate in lightness alone."""
    removed: str = "#262a30"
    """The cross over a stack removed by the last move."""
    removed_halo: str = "#f7f4ecd0"
    text: str = "#eceae6"
    muted_text: str = "#a2a9b3"
    panel: str = "#272c34"
    """A player's card in the header."""
    panel_active: str = "#1e88ff"
    """The outline of the card of the player to move (or the winner)."""
    winner: str = "#f2c744"
    """A standings table's winner: the band at the row's edge and its star."""
    promoted: str = "#3fb950"
    """A standings table's promoted players: the band and an arrow up."""
    relegated: str = "#ff6b6b"
    """A standings table's relegated players: the band and an arrow down. Told from promoted
    by the arrow's direction, not by the hue alone."""

    def with_colours(self, **colours: str) -> Theme:
        """This theme with some colours replaced; raises :class:`ValueError` on a bad colour."""
        return resolve_theme(self, colours)


DEFAULT_THEME: Final = Theme()
"""Dark surroundings: at home in Discord's dark mode, a calm dark card in its light mode."""
LIGHT_THEME: Final = Theme(
    background="#eef0f3",
    # The letters and row numbers reach into the plate's notches: near-black on a mid grey
    # plate keeps them 3:1 there too (and the plate 3:1 against the cells, as grid lines).
    board="#667080",
    coordinates="#1d2127",
    text="#1d2127",
    muted_text="#5f6873",
    panel="#ffffff",
    panel_active="#1a73e8",
    last_move="#1a73e8",
    winner="#8a5a00",
    promoted="#116329",
    relegated="#b3261e",
)
"""Light surroundings, for players who prefer them; the cells and pieces are the same."""
_FIELDS: Final = frozenset(f.name for f in dataclasses.fields(Theme))


def resolve_theme(base: Theme, overrides: Mapping[str, str] | None = None) -> Theme:
    """``base`` with ``overrides`` applied, every colour checked.

    Raises :class:`ValueError` naming an unknown colour key or a value that is not a colour.
    """
    overrides = dict(overrides or {})
    unknown = sorted(set(overrides) - _FIELDS)
    if unknown:
        raise ValueError(f"unknown theme colours {unknown}; known: {sorted(_FIELDS)}")
    theme = dataclasses.replace(base, **overrides)
    for name in _FIELDS:
        rgba(getattr(theme, name))
    return theme


@lru_cache(maxsize=512)
def rgba(colour: str) -> RGBA:
    """A CSS colour string as an (r, g, b, a) tuple; raises :class:`ValueError` if it is not one."""
    value = ImageColor.getrgb(colour)
    if len(value) == 3:
        return (*value, 255)
    return value


def rgb(colour: str) -> tuple[int, int, int]:
    """A colour without its alpha."""
    return rgba(colour)[:3]
