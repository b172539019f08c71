"""The examples in docstrings (``>>>``) run, so none can go stale."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

PACKAGES = ("rules", "render", "ai", "bot", "tools")


def _modules() -> list[str]:
    paths = [p for package in PACKAGES for p in sorted((REPO_ROOT / package).rglob("*.py"))]
    paths.append(REPO_ROOT / "tests" / "bot" / "clock.py")
    return [_module_name(p) for p in paths if ">>>" in p.read_text(encoding="utf-8")]


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_some_modules_have_examples() -> None:
    assert {"rules", "render", "ai"} <= set(_modules())


@pytest.mark.parametrize("name", _modules())
def test_the_examples_in_a_modules_docstrings_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 0, f"{name} has '>>>' that doctest does not find"
    assert result.failed == 0, f"{result.failed} examples failed in {name}"
