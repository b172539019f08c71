"""The network's benchmark runs, tiny, on both backends (so it cannot rot): every part measured,
each seek raced for taken by exactly one of its two takers, the championship's two seasons
written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.networkbench import _parser, run


async def test_a_tiny_network_is_built_and_measured(
    database_target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = _parser().parse_args(["--servers", "10", "--players", "100", "--samples", "5"])
    target = database_target if "://" in database_target else Path(database_target)
    await run(target, args)
    printed = capsys.readouterr().out
    assert "network: 10 servers, 100 members, 5 blocks, 3 open seeks" in printed
    assert "each by exactly one" in printed
    assert "championship: 100 entrants in 10 divisions, 450 games written; next season 10" in (
        printed
    )
    runs = {
        line[:34].strip(): int(line[34:40])
        for line in printed.splitlines()
        if line[:34].strip() and line[34:40].strip().isdigit()
    }
    assert runs["list the seeks one may take"] == 5
    assert runs["accept a seek"] == 1
    assert runs["accept a seek, two at once"] == 4  # two races, both takers timed
    assert runs["season start (whole season)"] == runs["season end (whole season)"] == 1
    # Ten divisions: the plan's transaction makes them all, as a small league's always did.
    assert runs["season start: the plan"] == runs["season end: the plan"] == 1
    assert "season start: each later batch" not in runs
    assert "season start: 1 write transactions, the longest" in printed
