"""The gallery and the render benchmark run, and neither needs the bot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import REPO_ROOT
from tools import gallery
from tools.bench import render as bench
from tools.gallery.samples import samples


@pytest.mark.slow
def test_the_gallery_writes_every_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gallery.main([str(tmp_path / "out"), "--no-replay"])
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == sorted([*(f"{s.name}.png" for s in samples()), "review-graph.png"])
    for name in written:
        assert Image.open(tmp_path / "out" / name).format == "PNG"
    assert "KB" in capsys.readouterr().out


def test_the_benchmark_prints_time_and_size(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--runs", "1", "--size", "400"])
    out = capsys.readouterr().out
    assert "median" in out and "largest PNG" in out


def test_render_and_its_tools_import_neither_the_bot_nor_discord() -> None:
    code = (
        "import sys, render, render.replay, tools.gallery, tools.bench.render;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'bot', 'discord'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
