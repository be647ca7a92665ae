"""The firmware's protocol code, compiled with the host gcc, against the shared vectors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.support.firmware_sim import BUILD, FIRMWARE, board_setting


def test_host_protocol_tests_pass(firmware_build: Path) -> None:
    result = subprocess.run(["make", "-C", str(FIRMWARE), "test"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 failures" in result.stdout


def test_host_protocol_tests_catch_a_wrong_vector(firmware_build: Path, tmp_path: Path) -> None:
    subprocess.run(["make", "-C", str(FIRMWARE), "test"], capture_output=True, timeout=120, check=True)
    lines = (FIRMWARE / "protocol" / "vectors.json").read_text().splitlines()
    for i, line in enumerate(lines):
        if '"name": "ping"' in line:
            vector = json.loads(line.rstrip(","))
            vector["bytes"] = vector["bytes"][:-2] + "00"
            lines[i] = json.dumps(vector) + ","
    broken = tmp_path / "vectors.json"
    broken.write_text("\n".join(lines))
    result = subprocess.run([str(BUILD / "test_protocol"), str(broken)], capture_output=True, text=True)
    assert result.returncode == 1
    assert "encode ping" in result.stderr


def test_firmware_fits_the_chip(firmware_build: Path) -> None:
    result = subprocess.run(["make", "-s", "-C", str(FIRMWARE), "size"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    program = int(result.stdout.split("Program:")[1].split()[0])
    data = int(result.stdout.split("Data:")[1].split()[0])
    assert program < 30 * 1024  # 32 KB flash minus the 2 KB bootloader
    assert data < 1536          # 2 KB RAM, with room for the stack


def test_longest_strip_leaves_room_for_the_stack(firmware_build: Path, tmp_path: Path) -> None:
    leds = board_setting("LED_COUNT_MAX")
    result = subprocess.run(["make", "-s", "-C", str(FIRMWARE), f"BUILD={tmp_path}", f"LED_COUNT={leds}", "all", "size"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    data = int(result.stdout.split("Data:")[1].split()[0])
    assert 2048 - data >= 256, f"{data} bytes of RAM used with {leds} LEDs: too little left for the stack"


@pytest.mark.parametrize(("setting", "message"), [
    ("LED_COUNT=281", "LED_COUNT must be 1 to 280"),
    ("LED_COUNT=0", "LED_COUNT must be 1 to 280"),
    ("BAUD=2000000UL", "BAUD must be 250000, 500000 or 1000000"),
    ("BAUD=115200UL", "BAUD must be 250000, 500000 or 1000000"),
])
def test_a_setting_the_board_cannot_keep_is_refused_at_build(tmp_path: Path, setting: str, message: str) -> None:
    result = subprocess.run(["make", "-s", "-C", str(FIRMWARE), f"BUILD={tmp_path}", setting, "all"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert message in result.stderr
