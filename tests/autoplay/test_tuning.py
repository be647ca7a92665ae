"""The auto-player's tuning constants live in one documented place, controller/autoplay/tuning.py."""

from __future__ import annotations

import ast
from pathlib import Path

import controller.autoplay

AUTOPLAY = Path(controller.autoplay.__file__).parent
# sentinels, rule tasks, the missions, the players by name: not measured
NOT_TUNED = {"FAR", "CORE_TASKS", "STRATEGIES", "PLAYERS", "UNSEEN_PILES", "FEATURES", "Z95"}


def constants(tree: ast.Module) -> list[tuple[str, int]]:
    """The public upper-case names assigned at the top level of a module, with their statement's index."""
    found = []
    for k, node in enumerate(tree.body):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, ast.AnnAssign) else []
        found += [(t.id, k) for t in targets if isinstance(t, ast.Name) and t.id.isupper() and not t.id.startswith("_")]
    return found


def test_every_tuning_constant_says_what_was_measured():
    tree = ast.parse((AUTOPLAY / "tuning.py").read_text(encoding="utf-8"))
    undocumented = [name for name, k in constants(tree)
                    if k + 1 >= len(tree.body) or not (isinstance(tree.body[k + 1], ast.Expr)
                                                      and isinstance(tree.body[k + 1].value, ast.Constant)
                                                      and isinstance(tree.body[k + 1].value.value, str))]
    assert constants(tree) and undocumented == []


def test_no_other_auto_player_module_keeps_a_tuning_constant():
    elsewhere = {str(p.relative_to(AUTOPLAY)): sorted(name for name, _ in constants(ast.parse(p.read_text("utf-8")))
                                                      if name not in NOT_TUNED)
                 for p in AUTOPLAY.rglob("*.py") if p.name != "tuning.py"}
    assert {name: found for name, found in elsewhere.items() if found} == {}
