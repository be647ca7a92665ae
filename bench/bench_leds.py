"""LED link benchmark: bytes per update, protocol overhead, updates/s and submit-to-ACK latency,
side by side with the wire-and-latch limit that the baud rate and the LED count allow.

    .venv/bin/python bench/bench_leds.py                 # the real firmware in simavr, and the model
    .venv/bin/python bench/bench_leds.py --target sim --seconds 10
    .venv/bin/python bench/bench_leds.py --port /dev/ttyUSB0   # a real board

The limit of one update is: the SHOW frame on the wire, the strip written (24 bits of 1.25 us per
LED) and latched (300 us), and the ACK back. The host is stop-and-wait, so nothing overlaps.
Updates/s are measured with a new frame always waiting; latency (submit to ACK) with single frames
sent to an idle link, so it is one update plus the host's and the port's own delays.
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

from checkout import ROOT  # the checkout, first on the import path (bench/checkout.py)

from controller.leds import protocol as p
from controller.leds.device_model import DeviceModel
from controller.leds.serial_driver import SerialDriver, update_s

FIRMWARE = ROOT / "firmware"
# A simulator that falls behind real time on a busy machine makes the driver time out and resend;
# the benchmark waits that out rather than stop.
ACK_WAIT_S = 10


def run(driver: SerialDriver, leds: int, seconds: float) -> tuple[float, list[float]]:
    """Updates/s with a new frame always waiting (the link never idles), then submit-to-ACK
    latencies of single frames sent to an idle link."""
    if driver.wait_link(10).value != "up":
        raise SystemExit(f"link did not come up: {driver.error}")
    frame = [0]

    def next_frame() -> bytes:
        frame[0] += 1
        return bytes([frame[0] >> 8 & 255, frame[0] & 255, 0x5A]) * leds

    acked = driver.stats.frames_acked
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        driver.submit(next_frame())
        time.sleep(0.0005)
    if not driver.wait_shown(ACK_WAIT_S):
        raise SystemExit(f"the last frame was not acknowledged within {ACK_WAIT_S} s")
    rate = (driver.stats.frames_acked - acked) / (time.monotonic() - start)

    driver.stats.latencies.clear()
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        driver.submit(next_frame())
        if not driver.wait_shown(ACK_WAIT_S):
            raise SystemExit(f"a frame was not acknowledged within {ACK_WAIT_S} s")
        time.sleep(0.002)
    return rate, sorted(driver.stats.latencies)


def row(name: str, rate: float, latencies: list[float], limit_s: float) -> str:
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
        return line + (f"   (simavr: {summary['frames']} frames, {summary['overruns']} overruns, "
                       f"{summary['timing_faults']} timing faults, max {summary['max_lag_ms']} ms behind real time)")


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
    print(f"{'target':<10} {'updates/s':>9} {'limit/s':>9} {'of limit':>11} {'lat. med':>9} {'lat. p99':>9} {'limit ms':>9}")

    def measure(name: str, driver: SerialDriver) -> str:
        with driver:
            rate, latencies = run(driver, leds, args.seconds)
        return row(name, rate, latencies, limit_s)

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
