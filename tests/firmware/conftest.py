"""Fixtures for the firmware tests: a fresh build, and the real ELF running in simavr behind a pty.

The session fixture runs `make` in firmware/, so a fresh clone needs nothing but the Debian
toolchain (gcc-avr, avr-libc, simavr, libsimavr-dev; see .ci/install).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support.firmware_sim import BUILD, FIRMWARE, LED_COUNT, Sim


@pytest.fixture(scope="session")
def firmware_build() -> Path:
    """Builds the firmware, the host tests and the simulator harness once per session."""
    result = subprocess.run(
        ["make", "-C", str(FIRMWARE), "all", "sim", f"LED_COUNT={LED_COUNT}"],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return BUILD


@pytest.fixture
def make_sim(firmware_build: Path, tmp_path: Path) -> Iterator[Callable[..., Sim]]:
    sims: list[Sim] = []

    def start(**kwargs) -> Sim:
        folder = tmp_path / f"sim{len(sims)}"
        folder.mkdir()
        sim = Sim(folder, **kwargs)
        sims.append(sim)
        return sim

    yield start
    for sim in sims:
        sim.stop()


