"""Shared test fixtures: where the team's shared reference data lives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("DVONN_SHARED", REPO_ROOT.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """``../shared`` beside the checkout (or ``$DVONN_SHARED``): oracle games, rule books."""
    if not (SHARED / "oracle").is_dir():
        pytest.fail(f"the shared reference data is missing: expected {SHARED}/oracle")
    return SHARED
