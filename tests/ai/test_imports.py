"""The ai package depends on the rules and the standard library only."""

from __future__ import annotations

import sys
from pathlib import Path

import ai
from tests.test_layers import imports_of

ALLOWED = {"ai", "rules"} | set(sys.stdlib_module_names)


def test_ai_imports_only_rules_and_the_standard_library() -> None:
    package = Path(ai.__file__).parent
    found: dict[str, str] = {}
    for path in package.glob("*.py"):
        for name in imports_of(path):
            found[name] = path.name
    assert {"rules", "asyncio"} <= found.keys()  # the scan sees imports at all
    assert {top: where for top, where in found.items() if top not in ALLOWED} == {}
