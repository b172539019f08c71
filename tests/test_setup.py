"""What a server owner sets up from: the README's configuration table and .env.example agree."""

from __future__ import annotations

import re

from tests.conftest import REPO_ROOT

NAME = re.compile(r"`([A-Z][A-Z0-9_]+)`")


def readme_variables() -> set[str]:
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in NAME.findall(row.split("|")[1])}


def example_variables() -> set[str]:
    text = (REPO_ROOT / ".env.example").read_text(encoding="utf-8")
    return set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", text, re.MULTILINE))


def test_env_example_names_every_variable_of_the_readme_and_no_other() -> None:
    assert len(readme_variables()) >= 10
    assert example_variables() == readme_variables()
