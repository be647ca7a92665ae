"""LED link figures at every offered baud rate: updates per second of the real firmware (in simavr)
against the wire + show + latch limit, for the default strip and for the longest strip the board
allows, with the Python device model at the same rate as the baseline run in the same process.

    .venv/bin/python bench/bench_led_link.py                # 250k, 500k, 1M; 38 and 280 LEDs
    .venv/bin/python bench/bench_led_link.py --seconds 5 --bauds 1000000

The limit of one update (controller/leds/serial_driver.update_s) is the SHOW on the wire, the strip
written (171 cycles a byte at 16 MHz) and latched (300 us), and the ACK back; the host is
stop-and-wait, so nothing overlaps and 1/limit is the ceiling. Updates/s are measured with a new
frame always waiting, latency (submit to ACK: median and p99) with single frames to an idle link
(bench_leds.run). The longest strip comes from firmware/src/board.h (LED_COUNT_MAX).
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_leds import row, run
from checkout import ROOT  # the checkout, first on the import path (bench/checkout.py)

from controller.leds.device_model import DeviceModel
from controller.leds.serial_driver import SerialDriver, update_s

FIRMWARE = ROOT / "firmware"
OFFERED_BAUDS = (250_000, 500_000, 1_000_000)


def longest_strip() -> int:
    match = re.search(r"^#define LED_COUNT_MAX (\d+)u?$", (FIRMWARE / "src" / "board.h").read_text(), re.M)
    if not match:
        raise SystemExit("firmware/src/board.h defines no LED_COUNT_MAX")
    return int(match.group(1))


def sim_row(build: Path, leds: int, baud: int, seconds: float) -> tuple[str, float]:
    """Runs the firmware built for `leds` and `baud` in simavr; its row and its updates/s."""
    subprocess.run(["make", "-s", "-C", str(FIRMWARE), f"BUILD={build}", f"LED_COUNT={leds}", f"BAUD={baud}UL", "all"],
                   check=True)
    events, port = build / "events.jsonl", str(build / "tty")
    proc = subprocess.Popen(
        [str(FIRMWARE / "build" / "bc-sim"), "--elf", str(build / "burncycle-leds.elf"), "--events", str(events),
         "--link", port, "--baud", str(baud), "--boot-ms", "300"],
        stdout=subprocess.DEVNULL,
    )
    try:
        while not Path(port).exists():
            time.sleep(0.01)
        with SerialDriver(port, baud=baud, expect_leds=leds) as driver:
            rate, latencies = run(driver, leds, seconds)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
    summary = [json.loads(s) for s in events.read_text().splitlines() if '"exit"' in s][-1]
    note = (f"   ({summary['overruns']} overruns, {summary['timing_faults']} timing faults, "
            f"max {summary['max_lag_ms']} ms behind real time)")
    return row("simavr", rate, latencies, update_s(leds, baud)) + note, rate


def model_row(leds: int, baud: int, seconds: float) -> tuple[str, float]:
    model = DeviceModel(leds, baud=baud)
    with SerialDriver(open_port=lambda: model, baud=baud, expect_leds=leds) as driver:
        rate, latencies = run(driver, leds, seconds)
    return row("model", rate, latencies, update_s(leds, baud)), rate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bauds", type=int, nargs="+", default=list(OFFERED_BAUDS))
    parser.add_argument("--seconds", type=float, default=3.0, help="per target and phase (default 3)")
    args = parser.parse_args()
    for baud in args.bauds:
        if baud not in OFFERED_BAUDS:
            raise SystemExit(f"--bauds: {baud} is not offered by the firmware (250000, 500000 or 1000000)")

    subprocess.run(["make", "-s", "-C", str(FIRMWARE), "sim"], check=True)
    strips = (38, longest_strip())
    print(f"LED link at every offered baud rate: strips of {strips[0]} and {strips[1]} LEDs (the longest the "
          f"board allows), {args.seconds:g} s per target and phase\n")
    summary: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for baud in args.bauds:
            for leds in strips:
                limit = update_s(leds, baud)
                print(f"{baud} Bd, {leds} LEDs: limit {limit * 1e3:.2f} ms per update = {1 / limit:.1f} updates/s")
                print(f"{'target':<10} {'updates/s':>9} {'limit/s':>9} {'of limit':>11} {'lat. med':>9} {'lat. p99':>9} {'limit ms':>9}")
                build = Path(tmp) / f"b{baud}_{leds}"
                build.mkdir()
                line, firmware_rate = sim_row(build, leds, baud, args.seconds)
                print(line)
                line, model_rate = model_row(leds, baud, args.seconds)
                print(line)
                summary.append(f"{baud:>9} {leds:>5} {firmware_rate:>10.1f} {1 / limit:>9.1f} {100 * firmware_rate * limit:>8.1f} %"
                               f" {firmware_rate / model_rate:>9.2f}")
                print()
    print(f"{'baud':>9} {'LEDs':>5} {'firmware/s':>10} {'limit/s':>9} {'of limit':>10} {'vs model':>9}")
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
