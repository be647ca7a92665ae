"""The simavr harness seen from pytest: the service's simulated board (controller/service/demo/simulated_board.py),
plus reading what it decoded, resetting it, hanging it, and the firmware's own settings and variants."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from controller.service.demo.simulated_board import BAUD, BUILD, ELF, FIRMWARE, LED_COUNT, SimulatedBoard

__all__ = ["BAUD", "BUILD", "FIRMWARE", "LED_COUNT", "Sim", "board_setting", "build_variant", "is_fallback"]


class Sim(SimulatedBoard):
    """One run of bc-sim (the service's SimulatedBoard in a test's folder, the firmware built by the session's
    fixture), with what only the tests read: its decoded events, reset and hang, its exit summary."""

    def __init__(self, tmp: Path, boot_ms: int = 300, reset_on_open: bool = True, elf: Path = ELF,
                 baud: int = BAUD) -> None:
        super().__init__(tmp, elf=elf, baud=baud, boot_ms=boot_ms, reset_on_open=reset_on_open, build=False)

    def events(self, kind: str | None = None) -> list[dict]:
        if not self.events_path.exists():
            return []
        lines = self.events_path.read_text().splitlines()
        events = [json.loads(line) for line in lines if line.endswith("}")]
        return [e for e in events if kind is None or e["ev"] == kind]

    def frames(self) -> list[bytes]:
        """Every frame latched on the strip so far, as the bytes on the data pin."""
        return [bytes.fromhex(e["hex"]) for e in self.events("frame")]

    def wait_for(self, check: Callable[[], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if check():
                return True
            time.sleep(0.02)
        return check()

    def reset(self) -> None:
        """Presses the reset button (the chip restarts through its bootloader)."""
        self.proc.send_signal(signal.SIGUSR1)

    def hang(self) -> None:
        """Hangs the firmware, as a runaway bug would: only the watchdog can bring it back."""
        self.proc.send_signal(signal.SIGUSR2)

    def stop(self) -> dict:
        self.close()
        exits = self.events("exit")
        assert exits, "bc-sim ended without its summary"
        return exits[-1]

    def assert_clean(self) -> None:
        """The run broke no rule of the real chip: no lost UART byte, no WS2812 timing fault."""
        bad = [e for e in self.events() if e["ev"] in ("overrun", "timing", "crash", "rx_in_show")]
        assert not bad, bad[:5]


def board_setting(name: str) -> int:
    """A number #defined in firmware/src/board.h (the firmware's own limits, not a copy)."""
    match = re.search(rf"^#define {name} (\d+)u?$", (FIRMWARE / "src" / "board.h").read_text(), re.M)
    assert match, f"board.h defines no {name}"
    return int(match.group(1))


def build_variant(folder: Path, **settings: object) -> Path:
    """Builds the firmware with other Makefile settings (LED_COUNT=280, BAUD=1000000UL) into folder."""
    result = subprocess.run(
        ["make", "-s", "-C", str(FIRMWARE), f"BUILD={folder}", "all", *(f"{k}={v}" for k, v in settings.items())],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return folder / "burncycle-leds.elf"


def is_fallback(frame: bytes) -> bool:
    """The firmware's own 'host is silent' pattern: every LED (a, a//2, 0) with a <= 31.

    A fallback show that the host's first byte cut short is shorter, but follows the same pattern.
    """
    if not frame or frame[0] > 31:
        return False
    pattern = (frame[0], frame[0] // 2, 0)
    return all(value == pattern[i % 3] for i, value in enumerate(frame))
