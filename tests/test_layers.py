"""The packages' layering, checked on the source.

Between packages: rules imports nothing of ours, render and ai import rules only, nothing
imports bot, and nothing of the bot imports tools (the benchmarks, the engine's lab, the
gallery), which is not installed with it either. Inside bot (the rooms of docs/architecture.md):
storage knows nothing of the rest, the game service only storage, i18n nothing of the bot; the
shared rooms (interactions, posting) import no feature and not the composition root; no feature
imports another; nothing imports a feature (the root loads them by name); the game service is a
core, one package per feature and a composition root (service.py): the core (its outbox,
leases, endings, ratings, clocks…) imports none of its features, which register what they do at
a game's end and in the housekeeping pass instead, and no feature imports another (only the
root composes them); and no module imports back into a cycle.
"""

from __future__ import annotations

import ast
import fnmatch
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

OURS = {"rules", "render", "ai", "bot", "tools", "tests"}
ALLOWED = {
    "rules": set(),
    "render": {"rules"},
    "ai": {"rules"},
    "bot": {"rules", "render", "ai"},
}


@dataclass(frozen=True)
class Import:
    module: str
    """The module imported, as written (``bot.games.core.errors``)."""
    typing_only: bool
    """Inside ``if TYPE_CHECKING:``: for the type checker only, never run."""


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_in(path: Path) -> Iterator[Import]:
    """Every absolute import of one file, told apart by whether it runs."""

    def walk(node: ast.AST, typing_only: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for statement in child.body:
                    yield from walk_one(statement, True)
                for statement in child.orelse:
                    yield from walk_one(statement, typing_only)
            else:
                yield from walk_one(child, typing_only)

    def walk_one(node: ast.AST, typing_only: bool) -> Iterator[Import]:
        if isinstance(node, ast.Import):
            yield from (Import(alias.name, typing_only) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield Import(node.module, typing_only)
            # ``from bot.exts import lobby`` imports the module bot.exts.lobby
            yield from (Import(f"{node.module}.{alias.name}", typing_only) for alias in node.names)
        else:
            yield from walk(node, typing_only)

    yield from walk(ast.parse(path.read_text(encoding="utf-8")), False)


def imports_of(path: Path) -> set[str]:
    """Top-level package names imported by one file (absolute imports only)."""
    return {i.module.split(".")[0] for i in imports_in(path)}


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def bot_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((REPO_ROOT / "bot").rglob("*.py"))}


def bot_imports(*, typing_too: bool) -> dict[str, set[str]]:
    """For each module of bot, the modules of bot it imports (that exist as modules)."""
    modules = bot_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {
            i.module
            for i in imports_in(path)
            if i.module in modules and i.module != name and (typing_too or not i.typing_only)
        }
    return graph


def room(module: str) -> str:
    """The room a module of bot lives in: ``bot.exts.play`` for ``bot.exts.play.commands``,
    ``bot.games`` for ``bot.games.service``, ``bot.app`` for itself."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "exts":
        return ".".join(parts[:3])
    return ".".join(parts[:2])


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_a_package_imports_only_the_layers_below_it(package: str) -> None:
    for path in sorted((REPO_ROOT / package).rglob("*.py")):
        ours = (imports_of(path) & OURS) - {package}
        assert ours <= ALLOWED[package], f"{path.relative_to(REPO_ROOT)} imports {sorted(ours)}"


def test_tools_import_only_the_bot_s_packages() -> None:
    for path in sorted((REPO_ROOT / "tools").rglob("*.py")):
        ours = (imports_of(path) & OURS) - {"tools"}
        assert ours <= {"rules", "render", "ai", "bot"}, (
            f"{path.relative_to(REPO_ROOT)} imports {sorted(ours)}"
        )


def test_the_game_service_draws_nothing_and_runs_no_engine() -> None:
    """Its benchmarks gone to tools/, the service reads the shipped puzzles and nothing more of
    render and ai: the drawing and the engine's processes are the Discord layer's."""
    for path in sorted((REPO_ROOT / "bot" / "games").rglob("*.py")):
        used = {i.module for i in imports_in(path) if i.module.split(".")[0] in {"render", "ai"}}
        assert used <= {"ai.puzzles", "ai.puzzles.Puzzle"}, (
            f"{path.relative_to(REPO_ROOT)} imports {sorted(used)}"
        )


def test_tools_are_neither_installed_nor_copied_into_the_image() -> None:
    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    installed = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    assert installed and not any(fnmatch.fnmatch("tools", p) for p in installed), installed
    ignored = (REPO_ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert "tools" in ignored
    assert "tools" in pyproject["tool"]["mypy"]["files"]  # still type-checked


@pytest.mark.parametrize("folder", ["bot/games", "bot/storage"])
def test_the_game_service_knows_nothing_of_discord(folder: str) -> None:
    for path in sorted((REPO_ROOT / folder).rglob("*.py")):
        assert "discord" not in imports_of(path), path.relative_to(REPO_ROOT)


def test_the_rules_use_the_standard_library_only() -> None:
    for path in sorted((REPO_ROOT / "rules").rglob("*.py")):
        foreign = {m for m in imports_of(path) if m not in sys.stdlib_module_names} - {"rules"}
        assert not foreign, f"{path.relative_to(REPO_ROOT)} imports {sorted(foreign)}"


# Inside bot: which rooms each room may import (itself always), type-checking imports included.
BOT_ROOMS = {
    "bot.storage": set(),
    "bot.games": {"bot.storage"},
    "bot.i18n": set(),
    "bot.config": {"bot.i18n"},
    "bot.endpoints": set(),
    "bot.pacing": set(),
    "bot.monitoring": set(),
    "bot.incidents": set(),
    "bot.single": set(),
    "bot.posting": {"bot.games", "bot.i18n", "bot.monitoring"},
    "bot.interactions": {"bot.games", "bot.i18n", "bot.posting"},
}
"""The Discord layer (posting, interactions, features, the root) reaches data only through the
game service: it never imports storage, not even its values (bot.games.core.models names
those)."""
FEATURE_MAY_IMPORT = {*BOT_ROOMS, "bot.app"} - {"bot.storage"}
EXCEPTIONS = {
    # The catalogue tool extracts the service's error templates as messages too.
    ("bot.i18n.tools", "bot.games.core.errors"),
    ("bot.i18n.tools", "bot.games.service"),
    # The operator's commands `python -m bot backup`, `migrate`, `copy-database` and `forget`
    # work on the database itself.
    ("bot.__main__", "bot.storage"),
    ("bot.__main__", "bot.storage.backup"),
    ("bot.__main__", "bot.storage.copy"),
    ("bot.__main__", "bot.storage.errors"),
}


def test_each_room_of_bot_imports_only_what_it_may() -> None:
    for module, imported in bot_imports(typing_too=True).items():
        home = room(module)
        for target in imported:
            there = room(target)
            if there == home or (module, target) in EXCEPTIONS:
                continue
            if home.startswith("bot.exts."):
                allowed = FEATURE_MAY_IMPORT
            elif home in BOT_ROOMS:
                allowed = BOT_ROOMS[home]
            else:  # the composition root and the entry point: everything but features, storage
                allowed = {*BOT_ROOMS, "bot.app"} - {"bot.storage"}
            assert there in allowed, f"{module} imports {target} ({home} may not use {there})"


def test_no_feature_imports_another_and_nothing_imports_a_feature() -> None:
    for module, imported in bot_imports(typing_too=True).items():
        for target in imported:
            if room(target).startswith("bot.exts.") and room(target) != room(module):
                pytest.fail(f"{module} imports the feature {target}")


GAME_SERVICE = "bot.games"
GAME_SERVICE_CORE = "bot.games.core"
"""The game service's core: what every game goes through, or every feature uses."""
GAME_SERVICE_ROOT = {"bot.games", "bot.games.service"}
"""The game service's composition root (and its package's docstring): it may import all."""


def game_room(module: str) -> str:
    """The room of the game service a module of it lives in: ``bot.games.tournaments`` for
    ``bot.games.tournaments.rounds``, ``bot.games.core`` for ``bot.games.core.clocks``, and the
    composition root (``bot.games.service``, ``bot.games``) for itself."""
    return ".".join(module.split(".")[:3])


def game_features() -> set[str]:
    """The game service's features: its packages but the core."""
    return {
        f"{GAME_SERVICE}.{p.name}"
        for p in (REPO_ROOT / "bot" / "games").iterdir()
        if (p / "__init__.py").is_file() and p.name != "core"
    }


def test_the_game_service_is_a_core_features_and_a_composition_root() -> None:
    """Every module of bot/games is in the core, in a feature's package or the root itself; the
    features are named as bot/exts/ names the Discord layer's."""
    features = game_features()
    for module in bot_modules():
        if module == GAME_SERVICE or module.startswith(f"{GAME_SERVICE}."):
            home = game_room(module)
            assert home in {GAME_SERVICE_CORE, *features} or module in GAME_SERVICE_ROOT, module
    exts = {p.name for p in (REPO_ROOT / "bot" / "exts").iterdir() if p.is_dir()}
    assert features and {f.rsplit(".", 1)[1] for f in features} <= exts, sorted(features)


def test_the_game_service_s_core_imports_no_feature() -> None:
    """Neither directly nor through another module (a package's ``__init__`` aside, imported
    with its modules): a feature registers its part in a game's end and its periodic jobs
    where the service is composed, and the core calls them without knowing them."""
    graph = bot_imports(typing_too=True)
    features = game_features()
    core = [m for m in graph if game_room(m) == GAME_SERVICE_CORE]
    assert len(core) > 5, core
    for start in core:
        seen, todo = {start}, [start]
        while todo:
            module = todo.pop()
            for target in graph[module]:
                if module.startswith(f"{target}.") or target in seen:
                    continue
                assert game_room(target) not in features and target not in GAME_SERVICE_ROOT, (
                    f"{start} imports {target} (via {module})"
                )
                seen.add(target)
                todo.append(target)


def test_no_feature_of_the_game_service_imports_another() -> None:
    """A feature imports the core (and the storage, the rules, the shipped puzzles), never
    another feature nor the composition root: what two features share goes to the core, and
    what one needs of another the root hands it (as the plans' way of playing a move is
    handed to the play)."""
    features = game_features()
    for module, imported in bot_imports(typing_too=True).items():
        home = game_room(module)
        if home not in features:
            continue
        for target in imported:
            there = game_room(target)
            if target.startswith(f"{GAME_SERVICE}.") or target == GAME_SERVICE:
                assert there in {home, GAME_SERVICE_CORE}, f"{module} imports {target}"


def test_features_name_the_composition_root_for_types_only() -> None:
    running = bot_imports(typing_too=False)
    importers = {m for m, imported in running.items() if "bot.app" in imported}
    assert importers == {"bot.__main__"}


def test_no_module_of_bot_imports_back_into_a_cycle() -> None:
    graph = bot_imports(typing_too=True)
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            # A package's __init__ is imported with its modules: not a cycle by itself.
            if module.startswith(f"{target}."):
                continue
            if state.get(target) == 1:
                cycle = [*path[path.index(target) :], target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
