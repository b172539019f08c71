"""The fitted placement model: its features, its fitting, and the header the engine compiles."""

from __future__ import annotations

import ctypes
import dataclasses
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ai import native
from ai.native.build import FLAGS
from rules import Position, legal_moves, play
from rules.position import PLACEMENT_PLIES
from tools.engine.fitting import Regression
from tools.engine.placement_fit import STAGES, Sample, main, play_placement, rows

HEADER = Path(native.__file__).with_name("placement_model.h")


pytestmark = pytest.mark.usefixtures("compiled")


def committed_weights() -> list[list[int]]:
    return header_weights(HEADER)


def header_weights(path: Path) -> list[list[int]]:
    text = path.read_text(encoding="utf-8")
    body = text[text.index("placement_weights") :]
    stages = re.findall(r"\{([^{}]*)\}", body)
    return [[int(n) for n in re.findall(r"-?\d+", stage)] for stage in stages]


def random_placement(seed: int, plies: int) -> Position:
    rng = random.Random(seed)
    pos = Position()
    for _ in range(plies):
        pos = play(pos, rng.choice(legal_moves(pos)))
    return pos


def test_the_committed_model_has_a_weight_for_every_kind_of_piece_in_every_stage() -> None:
    weights = committed_weights()
    assert len(weights) == STAGES
    assert all(len(stage) == native.PIECE_KINDS for stage in weights)
    assert any(any(stage) for stage in weights), "the committed model was never fitted"


def test_the_engine_values_a_placement_by_the_committed_weights_of_its_pieces() -> None:
    weights = committed_weights()
    model = dataclasses.replace(native.DEFAULT_WEIGHTS, placement_model=1)
    for seed in range(40):
        pos = random_placement(seed, random.Random(seed).randrange(4, PLACEMENT_PLIES))
        stage, counts = native.piece_kinds(pos)
        expected = sum(w * c for w, c in zip(weights[stage], counts, strict=True))
        white = pos.ply % 2 == 0
        assert native.native_evaluate(pos, model) == ((expected if white else -expected), False)


def test_a_piece_kind_tells_distance_edge_and_neighbours() -> None:
    # DVONN pieces on C3, E3 and G3; Black's piece A1 (ply 3) is on the edge, distance 2 from C3.
    pos = Position()
    for cell in ("C3", "E3", "G3", "A1"):
        pos = play(pos, next(m for m in legal_moves(pos) if str(m) == cell))
    stage, counts = native.piece_kinds(pos)
    assert stage == 0
    # (distance 2 - 1) * 2 + edge 1 = 3, times 16; no neighbour of either colour.
    assert counts == [-1 if kind == 3 * 16 else 0 for kind in range(native.PIECE_KINDS)]
    # White's B2 beside it, next to the DVONN piece on C3 and off the edge.
    pos = play(pos, next(m for m in legal_moves(pos) if str(m) == "B2"))
    _, counts = native.piece_kinds(pos)
    black_a1 = 3 * 16 + 0 * 4 + 1  # distance 2, edge; no own neighbour, one of the other
    white_b2 = 0 * 16 + 0 * 4 + 1  # distance 1, inner; likewise
    assert counts == [
        1 if kind == white_b2 else -1 if kind == black_a1 else 0
        for kind in range(native.PIECE_KINDS)
    ]


def test_ridge_regression_recovers_a_linear_rule() -> None:
    rng = random.Random(3)
    truth = [rng.randint(-50, 50) for _ in range(native.PIECE_KINDS)]
    stage = Regression.of_size(native.PIECE_KINDS)
    for _ in range(3000):
        counts = [rng.choice((0, 0, 0, 1, -1, 2)) for _ in range(native.PIECE_KINDS)]
        stage.add(counts, sum(w * c for w, c in zip(truth, counts, strict=True)) + 7.0)
    solved = stage.solve(ridge=0.0)
    assert [round(w) for w in solved[:-1]] == truth
    assert round(solved[-1]) == 7


def test_samples_round_trip_and_yield_a_row_per_placed_piece() -> None:
    sample = play_placement(5, label_nodes=2_000)
    assert len(sample.placements) == PLACEMENT_PLIES
    assert Sample.from_json(sample.to_json()) == sample
    stages = [stage for stage, _ in rows(sample)]
    assert len(stages) == PLACEMENT_PLIES - 4
    assert stages == sorted(stages)
    assert set(stages) == set(range(STAGES))


def test_the_tool_writes_a_header_the_engine_compiles_and_values_by(tmp_path: Path) -> None:
    data = tmp_path / "placements.jsonl"
    main(["generate", "--games", "6", "--label-nodes", "2000", "--out", str(data)])
    assert len(data.read_text().splitlines()) == 6
    out = tmp_path / "placement_model.h"
    main(["fit", str(data), "--scale", "100", "--out", str(out)])
    weights = header_weights(out)
    assert len(weights) == STAGES and any(any(stage) for stage in weights)
    # The engine built with this header values a placement by exactly these weights.
    shutil.copy(native.SOURCE, tmp_path / native.SOURCE.name)
    library = tmp_path / "engine.so"
    compiler = shutil.which("cc")
    assert compiler
    subprocess.run(
        [compiler, *FLAGS, "-o", str(library), str(tmp_path / native.SOURCE.name)], check=True
    )
    lib = ctypes.CDLL(str(library))
    model = dataclasses.astuple(dataclasses.replace(native.DEFAULT_WEIGHTS, placement_model=1))
    exact = ctypes.c_int(0)
    for seed in range(10):
        pos = random_placement(seed, 20 + seed)
        stage, counts = native.piece_kinds(pos)
        expected = sum(w * c for w, c in zip(weights[stage], counts, strict=True))
        value = lib.dvonn_evaluate(
            native.encode(pos), pos.ply, (ctypes.c_int * len(model))(*model), ctypes.byref(exact)
        )
        assert value == (expected if pos.ply % 2 == 0 else -expected)
