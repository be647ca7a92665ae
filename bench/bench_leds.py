"""LED link benchmark: bytes per update, protocol overhead, updates/s and submit-to-ACK latency,
side by side with the wire-and-latch limit that the baud rate and the LED count allow.

    .venv/bin/python bench/bench_leds.py                 # the real firmware in simavr, and the model
    .venv/bin/python bench/bench_leds.py --target sim --seconds 10
    .venv/bin/python bench/bench_leds.py --port /dev/ttyUSB0   # a real board

The limit of one update is: the SHOW frame on the wire, the strip written (24 bits of 1.25 us per
LED) and latched (300 us), and the ACK back. The host is stop-and-wait, so nothing overlaps.
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.leds import protocol as p  # noqa: E402
from controller.leds.model import DeviceModel  # noqa: E402
from controller.leds.serial_driver import SerialDriver, update_s  # noqa: E402

FIRMWARE = ROOT / "firmware"


def run(driver: SerialDriver, leds: int, seconds: float) -> tuple[int, float, list[float]]:
    """Saturates the link for `seconds`: a new frame as soon as the previous one is acknowledged."""
    if driver.wait_link(10).value != "up":
        raise SystemExit(f"link did not come up: {driver.error}")
    driver.stats.latencies.clear()
    start = time.monotonic()
    n = 0
    while time.monotonic() - start < seconds:
        driver.submit(bytes([n >> 8 & 255, n & 255, 0x5A]) * leds)
        if not driver.wait_shown(2):
            raise SystemExit("a frame was not acknowledged within 2 s")
        n += 1
    return n, time.monotonic() - start, list(driver.stats.latencies)


def row(name: str, n: int, elapsed: float, latencies: list[float], limit_s: float) -> str:
    rate = n / elapsed
    latencies.sort()
    median = statistics.median(latencies) * 1e3
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1e3
    return (f"{name:<10} {rate:>9.1f} {1 / limit_s:>9.1f} {100 * rate * limit_s:>9.1f} %"
            f" {median:>9.2f} {p99:>9.2f} {limit_s * 1e3:>9.2f}")


def with_sim(leds: int, baud: int, body: Callable[[str], str]) -> str:
    subprocess.run(["make", "-s", "-C", str(FIRMWARE), "all", "sim", f"LED_COUNT={leds}"], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        events, port = Path(tmp) / "events.jsonl", str(Path(tmp) / "tty")
        proc = subprocess.Popen(
            [str(FIRMWARE / "build" / "bc-sim"), "--elf", str(FIRMWARE / "build" / "burncycle-leds.elf"),
             "--events", str(events), "--link", port, "--baud", str(baud), "--boot-ms", "300"],
            stdout=subprocess.DEVNULL,
        )
        try:
            while not Path(port).exists():
                time.sleep(0.01)
            line = body(port)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(10)
        summary = [json.loads(s) for s in events.read_text().splitlines() if '"exit"' in s][-1]
        return line + f"   (simavr: {summary['frames']} frames, {summary['overruns']} overruns, {summary['timing_faults']} timing faults)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=["sim", "model", "both"], default="both")
    parser.add_argument("--port", help="benchmark a real board on this serial port instead")
    parser.add_argument("--leds", type=int, default=38)
    parser.add_argument("--baud", type=int, default=500_000)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()

    leds, baud = args.leds, args.baud
    out_bytes, pixel_bytes = p.frame_bytes(leds), 3 * leds
    limit_s = update_s(leds, baud)
    print(f"LED link benchmark: {leds} LEDs, {baud} Bd, {args.seconds:g} s per target")
    print(f"bytes on the wire per full update: {out_bytes} host->board (pixels {pixel_bytes} + overhead "
          f"{out_bytes - pixel_bytes} = {100 * (out_bytes - pixel_bytes) / pixel_bytes:.1f} %), "
          f"{p.ACK_BYTES} board->host")
    print(f"wire-and-latch limit: {limit_s * 1e3:.2f} ms per update = {1 / limit_s:.1f} updates/s\n")
    print(f"{'target':<10} {'updates/s':>9} {'limit/s':>9} {'of limit':>11} {'med ms':>9} {'p99 ms':>9} {'limit ms':>9}")

    def measure(name: str, driver: SerialDriver) -> str:
        with driver:
            n, elapsed, latencies = run(driver, leds, args.seconds)
        return row(name, n, elapsed, latencies, limit_s)

    if args.port:
        print(measure("board", SerialDriver(args.port, baud=baud, expect_leds=leds)))
        return 0
    if args.target in ("sim", "both"):
        print(with_sim(leds, baud, lambda port: measure("simavr", SerialDriver(port, baud=baud, expect_leds=leds))))
    if args.target in ("model", "both"):
        model = DeviceModel(leds, baud=baud)
        print(measure("model", SerialDriver(open_port=lambda: model, baud=baud, expect_leds=leds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
