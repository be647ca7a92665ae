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

from controller.rules import BurncycleError

FIRMWARE = Path(__file__).resolve().parents[3] / "firmware"
BUILD = FIRMWARE / "build"
ELF = BUILD / "burncycle-leds.elf"
SIM = BUILD / "bc-sim"
LED_COUNT = 38  # the built-in layout's LEDs
BAUD = 500_000


class BoardError(BurncycleError):
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
    """One simulated LED board: `port` is its pty, `frames_latched()` how many frames its strip latched (decoded
    by the harness into `events_path`). The demo and bench take the defaults (build, then run the built-in
    layout's firmware in a temporary folder); the firmware tests pass their own `folder` (kept: its events and
    log are what they read), a variant `elf` or `baud`, and the harness's boot and reset options."""

    def __init__(self, folder: Path | None = None, *, elf: Path = ELF, baud: int = BAUD, boot_ms: int = 300,
                 reset_on_open: bool = True, build: bool = True) -> None:
        why = available()
        if why is not None:
            raise BoardError(f"no simulated LED board: {why}")
        if build:
            built = subprocess.run(["make", "-s", "-C", str(FIRMWARE), "all", "sim", f"LED_COUNT={LED_COUNT}"],
                                   capture_output=True, text=True)
            if built.returncode != 0:
                raise BoardError(f"building the firmware for the simulated board failed: "
                                 f"{built.stderr.strip()[-300:]}")
        self._temporary = folder is None
        self.folder = Path(tempfile.mkdtemp(prefix="burncycle-board-")) if folder is None else folder
        self.port = str(self.folder / "ttyLED")
        self.baud = baud
        self.events_path = self.folder / "events.jsonl"
        self.log_path = self.folder / "bc-sim.log"
        args = [str(SIM), "--elf", str(elf), "--events", str(self.events_path), "--link", self.port,
                "--baud", str(baud), "--boot-ms", str(boot_ms)]
        if not reset_on_open:
            args.append("--no-reset-on-open")
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while not os.path.exists(self.port):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise BoardError(f"the simulated LED board did not start (see its log, {self.log_path})")
            time.sleep(0.01)

    def frames_latched(self) -> int:
        if not self.events_path.exists():
            return 0
        return sum(1 for line in self.events_path.read_text().splitlines() if '"ev": "frame"' in line)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        if self._temporary:
            shutil.rmtree(self.folder, ignore_errors=True)
