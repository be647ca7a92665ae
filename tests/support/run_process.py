"""`burncycle-table` as a real process for the tests: started with the checkout on its path and a clean
environment, its config written by `init` as a builder would edit it, waited on until /health answers."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout


def cli(*args: str, cwd: Path) -> subprocess.Popen[str]:
    env = {**{k: v for k, v in os.environ.items() if not k.upper().startswith("BURNCYCLE_")}, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "controller.cli", *args], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def get(port: int, path: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def wait_ready(proc: subprocess.Popen[str], port: int, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        try:
            return get(port, "/health")[1]
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.05)
    raise AssertionError("the service did not answer /health")


def stop(proc: subprocess.Popen[str]) -> tuple[int, str]:
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    return proc.returncode, err


def write_config(folder: Path, port: int) -> Path:
    """`init`, then the edits a builder makes: loopback, this port, the game log here."""
    done = subprocess.run([sys.executable, "-m", "controller.cli", "init", "--out", "table.toml"], cwd=folder,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    path = folder / "table.toml"
    text = path.read_text()
    text = re.sub(r'(?m)^host = "0.0.0.0"$', 'host = "127.0.0.1"', text, count=1)
    text = re.sub(r"(?m)^port = 8080$", f"port = {port}", text, count=1)
    text = re.sub(r'(?m)^path = "games.sqlite3"$', f'path = "{folder / "log" / "games.sqlite3"}"', text, count=1)
    path.write_text(text)
    return path
