"""Fixtures the engine's tests share."""

from __future__ import annotations

import shutil

import pytest

from ai import native
from ai.native.build import build


@pytest.fixture(scope="module")
def compiled() -> None:
    """Build the library if it is not (make builds it); skip only where no compiler exists.
    A module that needs it says ``pytestmark = pytest.mark.usefixtures("compiled")``."""
    if not native.available():
        if not shutil.which("cc"):
            pytest.skip("no C compiler: the levels search in Python here")
        assert build(), "the compiled search did not build"
        native._library.cache_clear()
        assert native.available()
