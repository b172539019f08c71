"""The documents' links lead somewhere: every relative link of README.md, docs/ and
tests/README.md names a file that exists (and a heading of it, after a ``#``), and every path of
the repository written in code (`bot/config.py`, `docs/matches/*.jsonl`, or a module's name as
`tests/bot/clock.ManualClock`) exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

DOCUMENTS = sorted(
    [REPO_ROOT / "README.md", REPO_ROOT / "tests" / "README.md", *REPO_ROOT.glob("docs/**/*.md")]
)
LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
ROOTS = ("rules/", "render/", "ai/", "bot/", "tools/", "tests/", "deploy/", "docs/", ".ci/")
"""Code that starts so is a path in the repository."""


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as ``-``."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(document: Path) -> set[str]:
    text = FENCE.sub("", document.read_text(encoding="utf-8"))
    found: set[str] = set()
    for heading in re.findall(r"^#+ (.+)$", text, re.MULTILINE):
        name, n = slug(heading), 1
        while name in found:
            name, n = f"{slug(heading)}-{n}", n + 1
        found.add(name)
    return found


def _name(document: Path) -> str:
    return str(document.relative_to(REPO_ROOT))


def test_anchors_are_made_as_github_makes_them() -> None:
    assert slug("Configuration (`.env` or the environment)") == (
        "configuration-env-or-the-environment"
    )
    assert slug("A process died: the takeover") == "a-process-died-the-takeover"
    assert slug("Within Discord's limits") == "within-discords-limits"
    assert slug("The commands' room") == "the-commands-room"


def test_there_are_documents_for_each_reader() -> None:
    names = {_name(d) for d in DOCUMENTS}
    assert {"docs/architecture.md", "docs/engine.md", "docs/benchmarks.md"} <= names
    assert any(n.startswith("docs/players/") for n in names)
    assert any(n.startswith("docs/operators/") for n in names)


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_every_relative_link_leads_to_a_file_and_heading(document: Path) -> None:
    broken: list[str] = []
    for target in LINK.findall(FENCE.sub("", document.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (document.parent / path).resolve() if path else document
        if not file.exists() or REPO_ROOT.resolve() not in (file, *file.parents):
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no such heading")
    assert broken == [], f"{_name(document)}: {broken}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_every_path_in_code_exists(document: Path) -> None:
    missing: list[str] = []
    for code in CODE.findall(FENCE.sub("", document.read_text(encoding="utf-8"))):
        if not code.startswith(ROOTS) or re.search(r"[\s<>{}]", code):
            continue
        module = re.sub(r"\.\w+$", ".py", code)  # `tests/bot/clock.ManualClock`: a module's name
        if not any(REPO_ROOT.glob(code.rstrip("/"))) and not (REPO_ROOT / module).is_file():
            missing.append(code)
    assert missing == [], f"{_name(document)} names paths that do not exist: {missing}"
