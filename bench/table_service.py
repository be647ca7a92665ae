"""The table service as the benches measure it: `burncycle-table run` in a process of its own, served by uvicorn
on loopback as a table runs it, with a config written for the run (no camera, a fresh game log)."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.support.net import free_port

ROOT = Path(__file__).resolve().parents[1]


def start_service(folder: Path, pin: str | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """The service started with its config and game log in `folder` (and the table's PIN `pin`, else a random
    one), once /health answers: the process and its port. The caller terminates it."""
    port = free_port()
    config = folder / "table.toml"
    web_pin = f'pin = "{pin}"\n' if pin is not None else ""
    config.write_text(f'[web]\nhost = "127.0.0.1"\nport = {port}\n{web_pin}\n[database]\npath = "games.sqlite3"\n\n'
                      f'[camera]\nsource = "none"\n')
    process = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(config)], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as reply:
                if reply.status == 200:
                    return process, port
        except OSError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            raise SystemExit("the table service did not start")
        time.sleep(0.2)
