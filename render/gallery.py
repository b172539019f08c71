"""Render a gallery of sample positions to a folder, to look at the images as players will.

Usage: ``python -m render.gallery out/ [--size 800] [--no-replay]``; also writes
``replay.gif``, an animated replay of a whole random game.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from render.geometry import DEFAULT_WIDTH
from render.replay import replay_gif
from render.samples import game_moves, samples

REPLAY_SEED = 7


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("folder", type=Path, help="where to write the PNG files")
    parser.add_argument("--size", type=int, default=DEFAULT_WIDTH, help="image width in pixels")
    parser.add_argument(
        "--no-replay", dest="replay", action="store_false", help="skip the animated replay"
    )
    args = parser.parse_args(argv)
    folder: Path = args.folder
    folder.mkdir(parents=True, exist_ok=True)
    for sample in samples():
        png = sample.png(size=args.size)
        path = folder / f"{sample.name}.png"
        path.write_bytes(png)
        print(f"{path}  {len(png) / 1024:.0f} KB")
    if args.replay:
        gif = replay_gif(game_moves(REPLAY_SEED), players=("Alice", "Борис"))
        path = folder / "replay.gif"
        path.write_bytes(gif)
        print(f"{path}  {len(gif) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
