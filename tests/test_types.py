"""mypy over every package of the project (pyproject's [tool.mypy] `files`) reports nothing: the rules engine, the
auto-player, the command line, the LEDs, the hall, the content and its library, vision, the table service and the
web app.

The engine's types are its contract with the service and the web app (docs/architecture.md); a type error there
is a bug that a game may only reach on some seed, and one in a driver or the camera's pipeline one that only a
table with that hardware meets, so the whole check runs with the test command.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"controller", "vision", "web"}


def test_mypy_is_given_every_package() -> None:
    files = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["files"])
    assert PACKAGES <= files, f"[tool.mypy] files leaves out {sorted(PACKAGES - files)}"
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    ignored = [o["module"] for o in mypy.get("overrides", []) if o.get("ignore_errors")]
    assert ignored == [], f"errors ignored in {ignored}"


def test_mypy_finds_no_errors_in_any_package(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path), "--no-error-summary"],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert run.returncode == 0 and not errors, \
        f"mypy found {len(errors)} errors:\n" + "\n".join(errors or [run.stdout, run.stderr])


STRICT = ["controller/service", "web"]  # the table's contract with its faces: every type said, nothing Any leaks


def test_the_service_and_the_web_type_check_strictly(tmp_path: Path) -> None:
    """`mypy --strict` over the service and the web (the modules they import are read, not judged: the rules
    engine and the auto-player keep the project's ordinary check above); gpiozero ships no types, so a call into
    it is untyped by nature."""
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                          "--untyped-calls-exclude=gpiozero", "--cache-dir", str(tmp_path), "--no-error-summary",
                          *STRICT], cwd=ROOT, capture_output=True, text=True, check=False)
    errors = [line for line in run.stdout.splitlines() if ": error:" in line]
    assert run.returncode == 0 and not errors, \
        f"mypy --strict found {len(errors)} errors:\n" + "\n".join(errors or [run.stdout, run.stderr])
