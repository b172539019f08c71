"""Replay every reference game computed by three independent DVONN engines (shared/oracle).

At every position the board, the sorted legal actions, the removed cells and, at the end, the
score and winner must match exactly: if we disagree with the oracle, we are wrong.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rules
from tests.conftest import SHARED

ORACLE_FILES = ("edge_games.jsonl", "random_games_sample.jsonl")


def _games() -> Iterator[Any]:
    for name in ORACLE_FILES:
        path = Path(SHARED, "oracle", name)
        if not path.exists():
            continue
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                game = json.loads(line)
                yield pytest.param(game, id=game["id"])


def test_oracle_files_are_present(shared_dir: Path) -> None:
    games = sum(1 for name in ORACLE_FILES for _ in (shared_dir / "oracle" / name).open())
    assert games == 48


@pytest.mark.parametrize("game", list(_games()))
def test_replay_oracle_game(game: dict[str, Any]) -> None:
    pos = rules.new_game()
    for expected in game["positions"]:
        ply = expected["ply"]
        assert pos.ply == ply
        assert pos.phase.value == expected["phase"], f"ply {ply}"
        assert pos.turn.value == expected["to_move"], f"ply {ply}"
        board = {cell: "".join(pieces) for cell, pieces in expected["board"].items()}
        assert pos.board() == board, f"ply {ply}"
        assert sorted(map(str, rules.legal_moves(pos))) == expected["legal"], f"ply {ply}"
        result = rules.apply(pos, rules.parse_move(expected["action"]))
        removed = sorted(rules.cell_name(cell) for cell in result.removed)
        assert removed == expected.get("removed", []), f"ply {ply}"
        pos = result.after
    final = {cell: "".join(pieces) for cell, pieces in game["final_board"].items()}
    assert pos.board() == final
    assert rules.is_over(pos) == game["game_over"]
    assert rules.legal_moves(pos) == ()
    assert rules.score(pos) == (game["score"]["W"], game["score"]["B"])
    outcome = rules.outcome(pos)
    assert outcome is not None
    winner = outcome.winner.value if outcome.winner else "draw"
    assert winner == game["winner"]
