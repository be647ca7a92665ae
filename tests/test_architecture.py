"""The import directions of the design notes, checked on the sources: a wrong arrow fails here.

Dependencies point one way: rules <- (autoplay, vision) <- the service <- web; the command line wires the process.
The rules engine is pure (stdlib and msgspec only, no I/O, clock, threads or hardware) so that a game replays
exactly; vision sees only the board's geometry and the state's types; nothing imports the command line
(controller/cli/) but the command line; web is imported only by the command line (the service imports nothing of
it); and no two modules import each other.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names)
# Standard-library modules that would give the engine I/O, a clock, threads or a second source of randomness.
IMPURE = {"os", "io", "pathlib", "socket", "subprocess", "threading", "asyncio", "time", "datetime", "shutil",
          "tempfile", "sqlite3", "logging", "random", "secrets", "multiprocessing", "signal", "select"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports (at any depth of the file), with its line; relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    mine = _module_name(path) if path.is_relative_to(ROOT) else path.stem
    package = mine if path.name == "__init__.py" else mine.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    type_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and _is_type_checking(block.test)
                 for n in ast.walk(block)}
    for node in ast.walk(tree):
        if id(node) in type_only:  # `if TYPE_CHECKING:` imports exist for the type checker, not at run time
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.append((node.lineno, base))
            # `from package import module` imports the module too
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names
                      if (ROOT / (base.replace(".", "/") + f"/{alias.name}.py")).exists()
                      or (ROOT / (base.replace(".", "/") + f"/{alias.name}/__init__.py")).exists()]
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _sources(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def _wrong(paths: list[Path], allowed: Callable[[Path, str], bool]) -> list[str]:
    return [f"{path.name}:{line} imports {name}"
            for path in paths for line, name in _imports(path) if not allowed(path, name)]


def _top(name: str) -> str:
    return name.split(".")[0]


def rules_may_import(path: Path, name: str) -> bool:
    if name == "controller.rules" or name.startswith("controller.rules."):
        return True
    if name == "random" and path.name == "dice.py":  # the one door randomness comes through
        return True
    return _top(name) == "msgspec" or (_top(name) in STDLIB and _top(name) not in IMPURE)


def vision_may_import(path: Path, name: str) -> bool:
    if _top(name) not in {"controller", "web"}:
        return True
    return name.startswith("controller.rules.board") or name in {"controller.rules.state", "controller.rules.errors"}


def test_the_rules_engine_imports_the_standard_library_and_msgspec_only_and_nothing_impure():
    assert _wrong(_sources("controller/rules"), rules_may_import) == []


def test_vision_sees_only_the_board_geometry_and_the_state_types_of_the_rules():
    assert _wrong(_sources("vision"), vision_may_import) == []


def is_cli(name: str) -> bool:
    """The command line: controller/cli/, the entry point and a module per command group."""
    return name == "controller.cli" or name.startswith("controller.cli.")


def test_only_the_command_line_imports_the_command_line_and_only_it_imports_web():
    """The service knows none of its faces: the command line composes the web app over it (cli/compose.py)."""

    problems = []
    for folder in ("controller", "vision", "web"):
        for path in _sources(folder):
            mine = _module_name(path)
            mine_is_cli = is_cli(mine)
            for line, name in _imports(path):
                if is_cli(name) and not mine_is_cli:
                    problems.append(f"{path.relative_to(ROOT)}:{line} imports the command line ({name})")
                if _top(name) == "web" and not mine_is_cli and _top(mine) != "web":
                    problems.append(f"{path.relative_to(ROOT)}:{line} imports web ({name})")
    assert problems == []


def test_web_uses_the_service_never_the_engine_internals():
    def allowed(path: Path, name: str) -> bool:
        return not (name.startswith("controller.rules.") or name.startswith("controller.autoplay."))

    assert _wrong(_sources("web"), allowed) == []


def test_no_two_modules_import_each_other():
    graph: dict[str, set[str]] = {}
    for folder in ("controller", "vision", "web"):
        for path in _sources(folder):
            graph[_module_name(path)] = {name for _, name in _imports(path)}
    pairs = sorted({tuple(sorted((a, b))) for a, names in graph.items() for b in names
                    if b != a and b in graph and a in graph[b]
                    and not a.startswith(b + ".") and not b.startswith(a + ".")})
    assert pairs == []


@pytest.mark.parametrize(("check", "source"), [
    (rules_may_import, "import os\n"),
    (rules_may_import, "def roll():\n    import random\n"),
    (rules_may_import, "from controller.leds import render\n"),
    (vision_may_import, "from controller.rules.corporation import turn\n"),
    (vision_may_import, "from controller import cli\n"),
])
def test_a_wrong_arrow_is_caught(tmp_path, check, source):
    """The checker itself: an engine module that opens files or rolls its own dice, or vision reaching into the
    corporation's turn, is reported (so the checks above cannot pass by finding nothing)."""
    path = tmp_path / "probe.py"
    path.write_text(source)
    assert _wrong([path], check) != []


def test_the_command_line_is_its_package_and_nothing_named_like_it():
    """The rule above names the command line by its package, so a module that merely starts with "cli" is not it."""
    assert is_cli("controller.cli") and is_cli("controller.cli.play") and is_cli("controller.cli.arg_types")
    assert not is_cli("controller.client") and not is_cli("controller.service.cli_like")


def _helpers_copied(paths: list[Path]) -> list[str]:
    """Where a file puts a folder on the import path itself, or defines its own `free_port`."""
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "insert" \
                    and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "path":
                found.append(f"{path.name}:{node.lineno} inserts into sys.path")
            elif isinstance(node, ast.FunctionDef) and node.name == "free_port":
                found.append(f"{path.name}:{node.lineno} defines free_port")
    return found


def test_the_benches_share_their_path_and_their_free_port():
    """A bench puts the checkout on the import path by `import checkout` (bench/checkout.py, the one insert), and
    takes `free_port` from tests/support/net.py: one copy of each, not one a bench."""
    benches = [path for path in _sources("bench") if path.name != "checkout.py"]
    assert _helpers_copied(benches) == []
    assert _helpers_copied([ROOT / "bench" / "checkout.py"]) == ["checkout.py:10 inserts into sys.path"]


FACADE = "controller.service.table"
VIEWS = "controller.service.views"
CONFIG = "controller.service.frame.config"


def _names_from_the_service(path: Path) -> list[tuple[int, str, str | None]]:
    """Every (line, module, name) a file takes from controller.service at run time: `import M` gives (M, None),
    `from M import n` gives (M, n) for each name; `if TYPE_CHECKING:` blocks left out, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    mine = _module_name(path) if path.is_relative_to(ROOT) else path.stem
    package = mine if path.name == "__init__.py" else mine.rpartition(".")[0]
    type_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and _is_type_checking(block.test)
                 for n in ast.walk(block)}
    found: list[tuple[int, str, str | None]] = []
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found += [(node.lineno, base, alias.name) for alias in node.names]
    return [(line, module, name) for line, module, name in found
            if module == "controller.service" or module.startswith("controller.service.")]


def web_may_take_from_the_service(module: str, name: str | None) -> bool:
    """The web reaches the table only through its facade, TableService (controller/service/table.py: its verbs,
    and what that module defines beside it). Beyond it the web may name the service's error classes (to answer
    each with its HTTP status), the typed views the facade answers with (controller/service/views.py: to declare
    them in the schema) and table.toml's config types, never a part (the session, the store, the camera, the
    floors, the supervisor) nor a function of one."""
    if module == FACADE:
        return True
    if name is None or _is_module(f"{module}.{name}"):
        return False  # a module of the service, imported whole
    value = getattr(importlib.import_module(module), name, None)
    if isinstance(value, type) and issubclass(value, BaseException):
        return True
    if module == VIEWS and isinstance(value, type) and issubclass(value, msgspec.Struct):
        return True
    return module == CONFIG and isinstance(value, type)


def _is_module(dotted: str) -> bool:
    package = importlib.util.find_spec(dotted.rpartition(".")[0])
    return (package is not None and package.submodule_search_locations is not None
            and importlib.util.find_spec(dotted) is not None)


def _wrong_ways_in(paths: list[Path]) -> list[str]:
    return [f"{path.name}:{line} takes {name or 'the module'} from {module}"
            for path in paths for line, module, name in _names_from_the_service(path)
            if not web_may_take_from_the_service(module, name)]


def test_the_web_reaches_the_service_only_through_its_facade():
    assert _wrong_ways_in(_sources("web")) == []


@pytest.mark.parametrize("source", [
    "from controller.service.game.session import GameSession\n",
    "from controller.service.game.floors import MOST_CHARS, FloorLibraryError\n",
    "from controller.service.frame.address import phone_address\n",
    "import controller.service.game.store\n",
    "from controller.service.game import session\n",
    "from controller.service import table\n",
    "from controller.service.camera.component import CameraComponent\n",
    "from controller.service.frame.config import load_config\n",
    "def handler():\n    from controller.service.frame.supervisor import Supervisor\n",
    "from controller.service.views import floor_view\n",
])
def test_a_way_around_the_facade_is_caught(tmp_path, source):
    """The checker itself: a part of the service, one of its functions or constants, or a module of it imported
    whole (even the facade's module, by `from controller.service import table`: the rule names what it takes)."""
    path = tmp_path / "probe.py"
    path.write_text(source)
    assert _wrong_ways_in([path]) != []


@pytest.mark.parametrize("source", [
    "from controller.service.table import TableService, RequestError\n",
    "from controller.service.camera.calibration import NoCamera\n",
    "from controller.service.game.store import StoreError\n",
    "from controller.service.camera.component import CameraError, NoPicture\n",
    "from controller.service.frame.config import ServiceConfig\n",
    "from controller.service.views import TableView, Changed\n",
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from controller.service.game.session import Change\n",
])
def test_the_facade_its_errors_and_config_types_pass(tmp_path, source):
    path = tmp_path / "probe.py"
    path.write_text(source)
    assert _wrong_ways_in([path]) == []
PARTS = {"session", "camera", "reconciler", "floors", "leds", "replays", "supervisor", "buttons", "doors",
         "game_log", "dice_buttons"}  # what the facade's parts were once called, in the open


def _private_parts() -> set[str]:
    """The facade's parts, as a service built for a table has them: every one private."""
    from controller.service.table import TableService
    return {name for name in _init_assigns(TableService) if name.startswith("_")}


def _init_assigns(cls: type) -> set[str]:
    tree = ast.parse(Path(sys.modules[cls.__module__].__file__ or "").read_text(encoding="utf-8"))
    init = next(n for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and c.name == cls.__name__
                for n in c.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    return {t.attr for node in ast.walk(init) if isinstance(node, ast.Assign | ast.AnnAssign)
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
            for t in (t.elts if isinstance(t, ast.Tuple) else [t])
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}


def _parts_reached(paths: list[Path]) -> list[str]:
    """Every `something.session` (or another of the facade's parts, by its old name or its private one) a file
    reads: a part reached through the facade's attributes is as much a way around it as a part imported."""
    private = _private_parts()
    return sorted(f"{path.name}:{node.lineno} reads .{node.attr}" for path in paths
                  for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                  if isinstance(node, ast.Attribute) and (node.attr in PARTS and _names_the_service(node.value)
                                                          or node.attr in private and not _is_self(node.value)))


def _names_the_service(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "service") or (
        isinstance(node, ast.Attribute) and node.attr == "service")


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def test_the_facade_keeps_its_parts_private():
    """Every part the facade holds is an underscore attribute: the door is its verbs (`ready` is a flag)."""
    from controller.service.table import TableService
    assert {name for name in _init_assigns(TableService) if not name.startswith("_")} == {"ready"}
    assert {"_session", "_camera", "_reconciler", "_supervisor", "_doors"} <= _private_parts()


def test_nothing_outside_the_service_reads_a_part_of_it():
    """The web, the command line, the hall and MQTT (the service's one face inside it) reach the table through
    the facade's verbs; the service's own modules (the start-up, the demo) may hold its parts. Tests and benches
    open the box on purpose."""
    faces = ["web", "controller/cli", "controller/hall", "controller/service/mqtt"]
    assert _parts_reached([path for face in faces for path in _sources(face)]) == []


def test_a_part_read_through_the_facade_is_caught(tmp_path):
    path = tmp_path / "probe.py"
    path.write_text("def status(service):\n    return service.session.status()\n\n\n"
                    "def camera(service):\n    return service._camera\n")
    assert _parts_reached([path]) == ["probe.py:2 reads .session", "probe.py:6 reads ._camera"]


WRITER = {"controller.service.game.session", "controller.service.game.store"}  # the writer and its game log


def _opens_the_game_log(path: Path) -> list[str]:
    """Where a file reaches the game log itself: SQLite, the store's `GameStore` (by import or by name), or a
    session's store (`session.store`, the way the health and the floors' folder once read it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = [f"{path.name}:{line} imports {name}" for line, name in _imports(path) if _top(name) == "sqlite3"]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [f"{path.name}:{node.lineno} imports GameStore" for a in node.names if a.name == "GameStore"]
        elif isinstance(node, ast.Name) and node.id == "GameStore" or (
                isinstance(node, ast.Attribute) and node.attr == "GameStore"):
            found.append(f"{path.name}:{node.lineno} uses GameStore")
        elif isinstance(node, ast.Attribute) and node.attr in ("store", "_store"):
            found.append(f"{path.name}:{node.lineno} reaches a session's {node.attr}")
    return found


def test_nothing_but_the_sessions_writer_opens_the_game_log() -> None:
    """The game log has one owner, the session's writer thread (docs/service.md, "One writer"): every other
    part (the web, MQTT, the buttons, the reconciler, the command line's `games`) goes through the session, so
    no read sees a write's transaction before it is committed and no change skips the writer's order."""
    problems = [problem for folder in ("controller", "vision", "web") for path in _sources(folder)
                if _module_name(path) not in WRITER for problem in _opens_the_game_log(path)]
    assert problems == []


@pytest.mark.parametrize("source", [
    "import sqlite3\n",
    "from controller.service.game.store import GameStore\n",
    "from controller.service.game import store\nlog = store.GameStore('games.sqlite3')\n",
    "def where(service):\n    return service._session.store.path\n",
])
def test_a_second_opener_of_the_game_log_is_caught(tmp_path: Path, source: str) -> None:
    path = tmp_path / "probe.py"
    path.write_text(source)
    assert _opens_the_game_log(path) != []


def test_a_persons_input_error_is_raised_by_the_command_line_and_the_file_library_only():
    """`UserError` (controller/errors.py) comes from the command line's edge and controller/library.py; the service
    turns the library's into its part's own error, so the web never answers `user_error` for a part."""
    raisers = set()
    for folder in ("controller", "vision", "web"):
        for path in _sources(folder):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                        and isinstance(node.exc.func, ast.Name) and node.exc.func.id == "UserError"):
                    raisers.add(_module_name(path))
    assert raisers and {m for m in raisers if not is_cli(m) and m != "controller.library"} == set()


def test_one_error_mapping_no_api_error_and_no_status_in_the_layers_below_the_web():
    """Every refusal is an error of the one tree and says only its code; web/errors.py alone gives statuses (a
    class attribute `status = 409` below the web, or an `ApiError` with a number written by hand, would be a
    second mapping)."""
    found = []
    for path in _sources("controller") + _sources("vision") + _sources("web"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Name | ast.Attribute) and (getattr(node, "id", None) == "ApiError"
                                                             or getattr(node, "attr", None) == "ApiError"):
                found.append(f"{path.name}:{node.lineno} ApiError")
            if isinstance(node, ast.ClassDef) and not path.is_relative_to(ROOT / "web"):
                for item in node.body:
                    target = item.target if isinstance(item, ast.AnnAssign) else (
                        item.targets[0] if isinstance(item, ast.Assign) else None)
                    if isinstance(target, ast.Name) and target.id == "status" and isinstance(
                            getattr(item, "value", None), ast.Constant) and isinstance(item.value.value, int):
                        found.append(f"{path.name}:{item.lineno} {node.name}.status")
    assert found == []
