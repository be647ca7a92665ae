"""End to end: `demo --once` as a real process plays a whole game to its end. Rendered frames go through the
real vision pipeline and the reconciler into the engine (the players' steps are seen by the camera, as
/health's players component counts), and the LEDs go to the real firmware in simavr (the frames its strip
latched, decoded by the harness, are counted at exit). Every step is confirmed by the camera: none is left
to the demo's fallback through the session."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from controller.service.demo import simulated_board

pytestmark = pytest.mark.slow  # the demo as a real process playing a whole game

ROOT = Path(__file__).resolve().parents[2]


def test_demo_plays_a_whole_game_through_the_camera_to_the_leds(tmp_path: Path) -> None:
    assert simulated_board.available() is None, simulated_board.available()  # the test command installs simavr
    env = {**{k: v for k, v in os.environ.items() if not k.upper().startswith("BURNCYCLE_")}, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "demo", "--once", "--port", "0", "--host",
                             "127.0.0.1", "--pace", "0", "--seed", "3", "--leds", "simulated"],
                            cwd=tmp_path, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout or []))
    reader.start()
    players: dict = {}
    port = None
    deadline = time.monotonic() + 150
    while proc.poll() is None and time.monotonic() < deadline:
        if port is None:
            found = re.search(r"ready at http://127\.0\.0\.1:(\d+)/", "".join(lines))
            port = int(found.group(1)) if found else None
        if port is not None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as reply:
                    players = json.loads(reply.read())["components"].get("players", players)
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass  # the demo ended between two looks
        time.sleep(0.5)
    if proc.poll() is None:
        proc.kill()
    _, err = proc.communicate(timeout=30)
    reader.join(10)
    out = "".join(lines)
    assert proc.returncode == 0, out + err
    assert re.search(r"^game 1: victory", out, re.M), out
    assert players.get("steps_seen", 0) > 0, players  # the camera saw the players' steps, on /health
    summary = re.search(r"steps seen by the camera: (\d+), not confirmed: (\d+), LED frames latched by the board: "
                        r"(\d+)", out)
    assert summary, out
    seen, unconfirmed, latched = map(int, summary.groups())
    assert seen >= players["steps_seen"] and seen > 20
    assert unconfirmed == 0, f"{unconfirmed} of {seen + unconfirmed} steps not seen by the camera"
    assert latched > 0
    assert "Traceback" not in err
