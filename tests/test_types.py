"""mypy over the rules engine and the auto-player, as configured in pyproject's [tool.mypy], reports nothing.

The engine's types are its contract with the service and the web app (docs/rules-engine.md); a type error
there is a bug that a game may only reach on some seed, so the whole check runs with the test command.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_errors_in_the_rules_and_the_auto_player(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path), "--no-error-summary"],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert run.returncode == 0 and not errors, \
        f"mypy found {len(errors)} errors:\n" + "\n".join(errors or [run.stdout, run.stderr])
