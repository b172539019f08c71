"""Render a gallery of sample positions to a folder, to look at the images as players will.

Usage: ``python -m render.gallery out/ [--size 800] [--no-replay]``; also writes
``review-graph.png``, a game review's evaluation graph, and ``replay.gif``, an animated replay
of a whole random game.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from render.geometry import DEFAULT_WIDTH
from render.replay import replay_gif
from render.samples import REPLAY_GAME_SEED, game_moves, graph_sample, samples


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
    graph = graph_sample()
    png = graph.png(size=args.size)
    path = folder / f"{graph.name}.png"
    path.write_bytes(png)
    print(f"{path}  {len(png) / 1024:.0f} KB")
    if args.replay:
        gif = replay_gif(game_moves(REPLAY_GAME_SEED), players=("Alice", "Борис"))
        path = folder / "replay.gif"
        path.write_bytes(gif)
        print(f"{path}  {len(gif) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
