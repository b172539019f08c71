"""The packages' layering, checked on the source: rules imports nothing of ours, render and ai
import rules only, the game service and storage know nothing of Discord, nothing imports bot."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

OURS = {"rules", "render", "ai", "bot", "tests"}
ALLOWED = {
    "rules": set(),
    "render": {"rules"},
    "ai": {"rules"},
    "bot": {"rules", "render", "ai"},
}


def imports_of(path: Path) -> set[str]:
    """Top-level package names imported by one file (absolute imports only)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_a_package_imports_only_the_layers_below_it(package: str) -> None:
    for path in sorted((REPO_ROOT / package).rglob("*.py")):
        ours = (imports_of(path) & OURS) - {package}
        assert ours <= ALLOWED[package], f"{path.relative_to(REPO_ROOT)} imports {sorted(ours)}"


@pytest.mark.parametrize("folder", ["bot/games", "bot/storage"])
def test_the_game_service_knows_nothing_of_discord(folder: str) -> None:
    for path in sorted((REPO_ROOT / folder).rglob("*.py")):
        assert "discord" not in imports_of(path), path.relative_to(REPO_ROOT)


def test_the_rules_use_the_standard_library_only() -> None:
    import sys

    for path in sorted((REPO_ROOT / "rules").rglob("*.py")):
        foreign = {m for m in imports_of(path) if m not in sys.stdlib_module_names} - {"rules"}
        assert not foreign, f"{path.relative_to(REPO_ROOT)} imports {sorted(foreign)}"
