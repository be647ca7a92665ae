"""One error tree, one table of statuses: every error class the project defines derives from `BurncycleError` and
says its `code`; the web's one table (web/errors.py) gives each code its HTTP status, and the app answers each
error with exactly that status and code. The statuses the HTTP API documents (docs/http-api.md's table of codes)
are the table's."""

from __future__ import annotations

import importlib
import pkgutil
import re
from http import HTTPStatus
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from controller.errors import UserError
from controller.rules.errors import BurncycleError
from web.errors import STATUSES

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("controller", "vision", "web")


def _every_module() -> None:
    """Import every module of the project, so each error class is defined before the tree is walked."""
    for package in PACKAGES:
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, f"{package}."):
            if not info.name.endswith("__main__"):
                importlib.import_module(info.name)


def _tree(root: type[BurncycleError]) -> list[type[BurncycleError]]:
    found = [root]
    for sub in root.__subclasses__():
        found += [kind for kind in _tree(sub) if kind not in found]
    return found


_every_module()
TREE = _tree(BurncycleError)


def _documented() -> dict[str, int]:
    """docs/http-api.md's table of codes: each code with its status."""
    text = (ROOT / "docs" / "http-api.md").read_text()
    table = text.split("\n## Errors\n", 1)[1].split("\n#", 1)[0]  # the section, up to the next heading
    statuses: dict[str, int] = {}
    for codes, status in re.findall(r"^\| (`[^|]+`) \| (\d{3}) \|", table, re.MULTILINE):
        for code in re.findall(r"`([a-z_]+)`", codes):
            statuses[code] = int(status)
    return statuses


def test_the_tree_is_found_whole() -> None:
    names = {kind.__name__ for kind in TREE}
    assert {"RulesError", "UserError", "SessionError", "NoGame", "StoreError", "NoSuchGame", "ReplayError",
            "CommandError", "RequestError", "ReconcilerError", "DoorError", "ConfigError", "FloorLibraryError",
            "CameraError", "NoPicture", "LayoutError"} <= names
    assert len(TREE) >= 30


@pytest.mark.parametrize("kind", TREE, ids=lambda kind: kind.__name__)
def test_every_error_has_a_code_and_the_web_a_status_for_it(kind: type[BurncycleError]) -> None:
    assert re.fullmatch(r"[a-z][a-z_]*", kind.code), kind.code
    assert kind.code in STATUSES, f"web/errors.py gives {kind.__name__}'s code {kind.code!r} no status"
    assert 400 <= STATUSES[kind.code] < 600 and HTTPStatus(STATUSES[kind.code])
    assert "status" not in vars(kind), f"{kind.__name__} says an HTTP status: only web/errors.py does"


def test_documented_codes_have_their_documented_status() -> None:
    documented = _documented()
    assert {"no_game", "not_found", "refused", "illegal_action", "store_error", "bad_request"} <= set(documented)
    assert {code: STATUSES.get(code) for code in documented} == documented


def test_the_service_s_errors_are_not_the_command_line_s() -> None:
    """`UserError` is the command line's edge: only the command line (and the files it reads) derive from it."""
    for kind in TREE:
        if issubclass(kind, UserError) and kind is not UserError:
            assert kind.__module__.startswith("controller.cli"), kind


def _raised(kind: type[BurncycleError]) -> BurncycleError:
    """An instance of `kind` with a plain message, whatever its own constructor takes."""
    error = kind.__new__(kind)
    Exception.__init__(error, f"a {kind.__name__} raised by the test")
    return error


@pytest.fixture
def raising_app(app: FastAPI) -> FastAPI:
    by_name = {kind.__name__: kind for kind in TREE}

    @app.get("/test/raise/{name}")
    def raise_it(name: str) -> None:
        raise _raised(by_name[name])

    return app


@pytest.mark.parametrize("kind", TREE, ids=lambda kind: kind.__name__)
def test_the_app_answers_each_error_with_its_status_and_code(raising_app: FastAPI, kind: type[BurncycleError]) -> None:
    reply = TestClient(raising_app).get(f"/test/raise/{kind.__name__}")
    assert reply.status_code == STATUSES[kind.code]
    assert reply.json() == {"error": kind.code, "message": f"a {kind.__name__} raised by the test"}
