"""The auto-player is a player beside the rules: it reads the rules only through their front door."""

from __future__ import annotations

import ast
import pkgutil
from pathlib import Path

import controller.autoplay
import controller.rules

AUTOPLAY = Path(controller.autoplay.__file__).parent
RULES_PARTS = {m.name for m in pkgutil.iter_modules(controller.rules.__path__)}


def past_the_front_door(source: str) -> list[str]:
    """The imports in `source` that reach into the rules' sub-modules (`controller.rules.<part>`, or a part
    imported by name from `controller.rules`), with their line numbers."""
    wrong = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            wrong += [f"line {node.lineno}: import {a.name}" for a in node.names
                      if a.name.startswith("controller.rules.")]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module.startswith("controller.rules."):
                wrong.append(f"line {node.lineno}: from {node.module} import ...")
            elif node.module == "controller.rules":
                wrong += [f"line {node.lineno}: from controller.rules import {a.name} (a sub-module)"
                          for a in node.names if a.name in RULES_PARTS]
    return wrong


def test_the_auto_player_imports_only_the_rules_front_door():
    sources = sorted(AUTOPLAY.rglob("*.py"))
    assert sources
    wrong = {str(p.relative_to(AUTOPLAY)): past_the_front_door(p.read_text(encoding="utf-8")) for p in sources}
    assert {name: lines for name, lines in wrong.items() if lines} == {}


def test_a_reach_past_the_front_door_is_named():
    """The check itself: each way of reaching into the rules is caught, the front door is not."""
    source = ("from controller.rules import GameState\n"
              "from controller.rules.actions import Move\n"
              "import controller.rules.dice\n"
              "from controller.rules import missions\n")
    assert past_the_front_door(source) == ["line 2: from controller.rules.actions import ...",
                                           "line 3: import controller.rules.dice",
                                           "line 4: from controller.rules import missions (a sub-module)"]
