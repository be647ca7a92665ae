"""PIN-guessing bench: how many PINs a guesser gets checked per second, from one address and from many.

    .venv/bin/python bench/bench_pin_guessing.py [--seconds 10] [--addresses 1 20 200]

Target (issue 28): the limit of the whole table slows every guesser, however many addresses it has (before it,
20 addresses x 5 wrong PINs = 100 guesses were checked in 0.5 s). The service is `burncycle-table run` in its own
process, served by uvicorn on loopback; the guesser is this process, sending wrong PINs to POST /api/session as
fast as the answers come, round robin over its addresses: each a loopback address of its own (127.0.0.N, which
Linux routes to the service like any other), so the service sees that many devices. A guess counts as "checked" when
the service answered 401 wrong_pin (it compared it with the PIN); a 429 is counted as refused unchecked (the one
wrong PIN that starts a wait is compared too, and answered 429: the figure is low by one per wait). Each run
starts a fresh service, so no run inherits another's waits. The baseline is one address, in the same process.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import tempfile
import time
from pathlib import Path

import checkout  # noqa: F401  # the checkout first on the import path (bench/checkout.py)

from bench.stats import percentile
from bench.table_service import start_service
from web.auth import LONGEST_WAIT_S

WRONG = json.dumps({"pin": "000000"}).encode()


def guess(port: int, address: str) -> tuple[int, float]:
    """One wrong PIN from `address`: the status and the seconds the answer took."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(address, 0))
    try:
        connection.request("POST", "/api/session", WRONG, {"Content-Type": "application/json"})
        status = connection.getresponse().status
    finally:
        connection.close()
    return status, time.perf_counter() - started


def run(addresses: int, seconds: float) -> tuple[float, int, int, list[float]]:
    """Guess for `seconds` from `addresses` addresses against a fresh service: checked guesses a second, checked,
    refused, and each answer's time."""
    sources = [f"127.0.{k // 250}.{k % 250 + 2}" for k in range(addresses)]
    with tempfile.TemporaryDirectory(prefix="bench-pin-") as folder:
        process, port = start_service(Path(folder), pin="482913")
        try:
            checked = refused = 0
            times: list[float] = []
            end = time.monotonic() + seconds
            k = 0
            while time.monotonic() < end:
                status, took = guess(port, sources[k % addresses])
                k += 1
                times.append(took)
                checked += status == 401
                refused += status == 429
        finally:
            process.terminate()
            process.wait(10)
    return checked / seconds, checked, refused, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each guesser guesses (default 10)")
    parser.add_argument("--addresses", type=int, nargs="+", default=[20, 200],
                        help="the guessers' numbers of addresses (default 20 200); the baseline is 1")
    args = parser.parse_args()
    base_rate, *_ = result = run(1, args.seconds)
    for addresses, (rate, checked, refused, times) in [(1, result)] + [(n, run(n, args.seconds))
                                                                        for n in args.addresses]:
        print(f"{addresses} address{'es' if addresses > 1 else ''}: {rate:.2f} guesses checked a second "
              f"({checked} checked, {refused} refused unchecked in {args.seconds:.0f} s); answer median "
              f"{statistics.median(times) * 1000:.1f} ms, p99 {percentile(times, 0.99) * 1000:.1f} ms; "
              f"ratio to one address {rate / base_rate:.2f}x")
    print(f"the waits double up to {LONGEST_WAIT_S:.0f} s: from then on the table checks one guess per wait, so "
          f"the 10**6 six-digit PINs take {10**6 * LONGEST_WAIT_S / 86400 / 365:.0f} years, however many "
          f"addresses guess")


if __name__ == "__main__":
    main()
