"""Checks on the sources that keep them clean: no `assert` for the engine's invariants, and ruff's rule set.

`python -O` strips assert statements, so an invariant the rules engine or the auto-player checks with one is
not checked at all on an optimised install: there it must raise a project error (StateError, RulesError)
with a message, or the code must be shaped so that the check is not needed.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = [ROOT / "controller" / "rules", ROOT / "controller" / "autoplay"]


def _asserts(package: Path) -> list[str]:
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Assert):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_engine_and_the_auto_player_check_invariants_with_errors_not_asserts() -> None:
    found = [line for package in ENGINE for line in _asserts(package)]
    assert not found, (f"{len(found)} assert statements, which python -O strips; raise StateError or RulesError "
                       f"instead:\n" + "\n".join(found))


def test_ruff_finds_nothing_in_the_sources() -> None:
    """ruff with the small rule set of pyproject's [tool.ruff.lint] (pyflakes, pycodestyle's errors, sorted
    imports, bugbear, modern syntax) over every package, the tests and the benches."""
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise",
                          "controller", "vision", "web", "tests", "bench"],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    findings = [line for line in run.stdout.splitlines() if line.count(":") >= 3]
    assert run.returncode == 0, (f"ruff found {len(findings)} problems (ruff check --fix sorts imports):\n"
                                 + "\n".join(findings or [run.stdout, run.stderr]))
