"""`demo --mqtt HOST:PORT`: the demo's table publishes its game to a real mosquitto, retained, and a bad
broker address is one line and exit code 2."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli_run import refused
from tests.support.mqtt_broker import Broker, Listener

ROOT = Path(__file__).resolve().parents[2]
TABLE = "burncycle/table1"


@pytest.mark.slow  # the demo as a real process
def test_the_demo_publishes_its_game_to_the_broker_given(tmp_path: Path, broker: Broker) -> None:
    seen = Listener(broker.port, f"{TABLE}/#")
    env = {**{k: v for k, v in os.environ.items() if not k.upper().startswith("BURNCYCLE_")}, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "demo", "--mqtt", f"127.0.0.1:{broker.port}",
                             "--port", "0", "--host", "127.0.0.1", "--pace", "0", "--seed", "3", "--leds", "virtual"],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while int(seen.latest(f"{TABLE}/number") or 0) < 3:  # the players are playing: changes reach the broker
            assert proc.poll() is None and time.monotonic() < deadline, "the demo published no game"
            time.sleep(0.1)
        assert seen.latest(f"{TABLE}/availability") == "online"
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        seen.close()
    assert proc.returncode == 0 and b"Traceback" not in err, err.decode()
    late = Listener(broker.port, f"{TABLE}/#")  # after the demo: the game as it stood, retained on the broker
    deadline = time.monotonic() + 5
    # the broker hands the retained topics over one by one: wait for every one the test reads, not the first two
    while late.latest(f"{TABLE}/availability") != "offline" or any(
            late.latest(f"{TABLE}/{name}") is None for name in ("mission", "threat", "phase")):
        assert time.monotonic() < deadline, late.messages
        time.sleep(0.05)
    assert late.latest(f"{TABLE}/mission") == "Operation Data Heist"
    assert late.latest(f"{TABLE}/threat") is not None and late.latest(f"{TABLE}/phase") is not None
    assert all(retained for _, _, retained in late.messages)
    late.close()


@pytest.mark.parametrize("value, says", [
    ("localhost", "'localhost' is not HOST:PORT (e.g. localhost:1883)"),
    ("localhost:mqtt", "the port 'mqtt' is not a number"),
    ("localhost:70000", "expected a port number from 1 to 65535"),
    ("bad host!:1883", "expected a host name or an IP address"),
])
def test_a_bad_broker_address_is_one_line(capsys: pytest.CaptureFixture[str], value: str, says: str) -> None:
    line = refused(capsys, "demo", "--mqtt", value)
    assert "--mqtt" in line and says in line
