"""The ai package depends on the rules and the standard library only."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import ai

ALLOWED = {"ai", "rules"} | set(sys.stdlib_module_names)


def test_ai_imports_only_rules_and_the_standard_library() -> None:
    package = Path(ai.__file__).parent
    found: dict[str, str] = {}
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found[name.split(".")[0]] = path.name
    assert {"rules", "asyncio"} <= found.keys()  # the scan sees imports at all
    assert {top: where for top, where in found.items() if top not in ALLOWED} == {}
