"""The animated replay: one frame per action, each showing that action, small enough to upload."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageSequence

import rules
from render import DEFAULT_THEME as THEME
from render import layout
from render.replay import (
    LAST_FRAME_MS,
    MAX_BYTES,
    MOVE_MS,
    PLACEMENT_MS,
    REPLAY_WIDTH,
    ReplayTooLargeError,
    replay_gif,
)
from tests.render.pixels import at, face, near
from tools.gallery.samples import longest_game

MOST_ACTIONS = 146
"""No game is longer: 49 placements, at most 48 jumps (each merges two stacks) and at most one
pass per jump plus one (a side passes only when the other can move)."""


@pytest.fixture(scope="module")
def long_game() -> list[rules.Move]:
    return longest_game(range(1, 20))


@pytest.fixture(scope="module")
def gif(long_game: list[rules.Move]) -> bytes:
    return replay_gif(long_game, players=("Alice", "Борис"))


@pytest.mark.slow
def test_one_frame_per_action(gif: bytes, long_game: list[rules.Move]) -> None:
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF"
    frames = sum(1 for _ in ImageSequence.Iterator(image))
    assert frames == len(long_game) > 80
    assert image.size == (REPLAY_WIDTH, layout(REPLAY_WIDTH).height)
    assert image.info.get("loop") == 0


@pytest.mark.slow
def test_placements_are_quick_moves_slower_and_the_end_lingers(
    gif: bytes, long_game: list[rules.Move]
) -> None:
    durations = [f.info["duration"] for f in ImageSequence.Iterator(Image.open(io.BytesIO(gif)))]
    expected = [PLACEMENT_MS if isinstance(m, rules.Place) else MOVE_MS for m in long_game]
    assert durations == [*expected[:-1], LAST_FRAME_MS]


@pytest.mark.slow
def test_a_long_game_fits_discords_upload_limit(gif: bytes, long_game: list[rules.Move]) -> None:
    assert len(gif) <= MAX_BYTES
    # Even the longest possible game would fit, at this game's bytes per frame.
    assert len(gif) / len(long_game) * MOST_ACTIONS <= MAX_BYTES / 2


@pytest.mark.slow
def test_each_frame_shows_the_position_after_its_action(
    gif: bytes, long_game: list[rules.Move]
) -> None:
    frames = Image.open(io.BytesIO(gif))
    lay = layout(REPLAY_WIDTH)
    positions = rules.replay(long_game)[1:]
    for index in (0, 30, 48, 60, len(long_game) - 1):
        frames.seek(index)
        frame = frames.convert("RGB")
        for c, stack in enumerate(positions[index].stacks):
            if not stack:
                expected = THEME.cell
            elif stack[-1] == "W":
                expected = THEME.white_piece
            elif stack[-1] == "B":
                expected = THEME.black_piece
            else:
                expected = THEME.dvonn_piece
            colour = at(frame, face(lay, c))
            # The arrow of the frame's move may cross a cell: only check the others.
            move = long_game[index]
            if isinstance(move, rules.Jump) and c in _between(move):
                continue
            assert near(colour, expected, tolerance=45), (index, rules.cell_name(c), colour)


def _between(move: rules.Jump) -> set[int]:
    line = next(ray for ray in rules.RAYS[move.source] if move.target in ray)
    return {move.source, *line[: line.index(move.target) + 1]}


@pytest.mark.slow
def test_a_too_large_replay_is_drawn_smaller(long_game: list[rules.Move]) -> None:
    moves = long_game[:10]
    full = replay_gif(moves)
    smaller = replay_gif(moves, max_bytes=len(full) - 1)
    assert len(smaller) < len(full)
    assert Image.open(io.BytesIO(smaller)).width < REPLAY_WIDTH
    with pytest.raises(ReplayTooLargeError):
        replay_gif(moves, max_bytes=1000)


def test_a_replay_needs_moves_and_legal_ones() -> None:
    with pytest.raises(ValueError, match="at least one"):
        replay_gif([])
    with pytest.raises(rules.IllegalMoveError):
        replay_gif([rules.parse_move("E3"), rules.parse_move("E3")])


@pytest.mark.slow
def test_the_same_game_gives_the_same_gif(long_game: list[rules.Move]) -> None:
    moves = long_game[:5]
    assert replay_gif(moves) == replay_gif(moves)
