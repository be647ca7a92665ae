"""`burncycle-table run` with no web.pin makes a PIN and prints it beside the address; that PIN logs in."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

from tests.support.net import free_port
from tests.support.run_process import cli, stop, wait_ready, write_config


def test_run_prints_the_pin_it_made_and_that_pin_opens_a_session(tmp_path: Path) -> None:
    port = free_port()
    (tmp_path / "log").mkdir()
    proc = cli("run", "--config", str(write_config(tmp_path, port)), cwd=tmp_path)
    try:
        wait_ready(proc, port)
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(2)]
        assert f"ready at http://127.0.0.1:{port}/" in lines[0]
        found = re.search(r"the table's PIN is (\d{6}) \(the PIN changes the game\)", lines[1])
        assert found, lines
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/session", method="POST",
                                         data=json.dumps({"pin": found.group(1)}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as reply:
            assert json.loads(reply.read()) == {"player": True}
            assert "burncycle_session=" in reply.headers["Set-Cookie"]
    finally:
        code, err = stop(proc)
    assert code == 0, err
