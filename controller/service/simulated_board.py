"""The LED board for the demo: the project's real firmware running in simavr behind a pty.

When the Debian packages gcc-avr, avr-libc and simavr are installed (the test command installs them) and
the source tree's firmware/ is at hand, the demo builds the firmware and its simulator harness once
(`make -C firmware all sim`) and drives the simulated board over the same serial link and driver a real
board uses. Otherwise the demo falls back to the virtual strip; `available()` says why.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from controller.rules import TableError

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
BUILD = FIRMWARE / "build"
LED_COUNT = 38  # the built-in layout's LEDs
BAUD = 500_000


class BoardError(TableError):
    code = "simulated_board_error"


def available() -> str | None:
    """None when the simulated board can run here, else why not (for the demo's message)."""
    if not (FIRMWARE / "Makefile").exists():
        return "the firmware's source is not installed with this copy"
    missing = [tool for tool in ("avr-gcc", "make", "cc") if shutil.which(tool) is None]
    if missing:
        return f"{', '.join(missing)} not installed (apt install gcc-avr avr-libc simavr libsimavr-dev)"
    if not Path("/usr/include/simavr").exists() and subprocess.run(
            ["pkg-config", "--exists", "simavr"], capture_output=True).returncode != 0:
        return "simavr's development files are not installed (apt install simavr libsimavr-dev)"
    return None


class SimulatedBoard:
    """One simulated LED board: `port` is its pty, `frames()` what its strip latched (decoded by the harness)."""

    def __init__(self) -> None:
        why = available()
        if why is not None:
            raise BoardError(f"no simulated LED board: {why}")
        built = subprocess.run(["make", "-s", "-C", str(FIRMWARE), "all", "sim", f"LED_COUNT={LED_COUNT}"],
                               capture_output=True, text=True)
        if built.returncode != 0:
            raise BoardError(f"building the firmware for the simulated board failed: {built.stderr.strip()[-300:]}")
        self.folder = Path(tempfile.mkdtemp(prefix="burncycle-board-"))
        self.port = str(self.folder / "ttyLED")
        self.events_path = self.folder / "events.jsonl"
        args = [str(BUILD / "bc-sim"), "--elf", str(BUILD / "burncycle-leds.elf"), "--events", str(self.events_path),
                "--link", self.port, "--baud", str(BAUD), "--boot-ms", "300"]
        self.log = open(self.folder / "bc-sim.log", "wb")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while not os.path.exists(self.port):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise BoardError("the simulated LED board did not start (see its log)")
            time.sleep(0.01)

    def frames_latched(self) -> int:
        if not self.events_path.exists():
            return 0
        return sum(1 for line in self.events_path.read_text().splitlines() if '"ev": "frame"' in line)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)
