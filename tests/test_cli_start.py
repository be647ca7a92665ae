"""The light commands start without OpenCV, the web stack, numpy or the hardware libraries (issue 31: `validate`
took 1.0-1.4 s, 0.85 s of it importing what it never used). Each command runs in a fresh interpreter, as from a
shell, and reports the heavy modules it loaded; the time itself is bench/bench_cli_start.py's figure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("cv2", "fastapi", "uvicorn", "starlette", "numpy", "paho", "serial", "gpiozero")
PROBE = f"""import sys
from controller.cli import main
try:
    code = main(sys.argv[1:])
finally:  # --help ends in SystemExit
    print("LOADED", sorted(m for m in sys.modules if m.split(".")[0] in {HEAVY!r}), file=sys.stderr)
sys.exit(code)
"""


def loaded(*argv: str) -> list[str]:
    """The heavy modules a command loaded, once it has run (its stdout aside)."""
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stderr.splitlines() if line.startswith("LOADED "))
    return json.loads(line.removeprefix("LOADED ").replace("'", '"'))


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    """A new game's state, and the same game at the corporation's turn (tests/test_cli.py's way)."""
    folder = tmp_path_factory.mktemp("start")
    assert main(["new-game", "--out", str(folder / "state.json")]) == 0
    data = json.loads((folder / "state.json").read_text())
    data["turn"]["step"] = "corporation"
    data["turn"]["active"] = data["turn"]["order"].index(data["turn"]["marker"])
    (folder / "corp.json").write_text(json.dumps(data))
    return {"{state}": str(folder / "state.json"), "{corp}": str(folder / "corp.json")}


@pytest.mark.parametrize("argv", [
    ["schema", "state"],
    ["validate", "controller/content/floors/meridian-lobby.floor"],
    ["validate", "{state}"],
    ["actions", "{state}"],
    ["act", "{state}", '{"action": "begin_actions"}'],
    ["corp-turn", "{corp}", "--seed", "1"],
    ["--help"],
], ids=" ".join)
def test_a_light_command_loads_no_camera_web_or_hardware_library(argv, files):
    assert loaded(*[files.get(a, a) for a in argv]) == []


def test_the_probe_sees_a_heavy_module_when_a_command_loads_one():
    """The check above can fail: a camera command loads OpenCV (markers imports it to draw the stickers)."""
    assert "cv2" in loaded("markers", "--out", "/dev/null")
