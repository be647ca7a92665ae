"""Body-limit bench: what a huge request body costs the table service's memory.

    .venv/bin/python bench/bench_body_limit.py [--mb 50] [--runs 5]

Target (issue 28): a 50 MB body costs the service under 1 MB of peak memory (before the limits it cost +151 MB,
four at once +396 MB). The service is `burncycle-table run` in its own process, served by uvicorn on loopback,
as a table runs it. For each request the bench resets the process's peak resident size (/proc/PID/clear_refs),
sends the request, waits for the answer, and reads the peak (VmHWM) against the resident size just before
(VmRSS): the growth is what that request cost at its worst moment.

Requests, each repeated --runs times to POST /api/floors/check (no PIN needed, so anyone on the Wi-Fi can):
- baseline: a small floor the route takes (the same process, the same route, an ordinary request);
- a --mb body that says its size (Content-Length): refused before any of it is read;
- a --mb body sent chunked (no size given): refused once the bytes read pass the route's limit;
- four such chunked bodies at once.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

import checkout  # noqa: F401  # the checkout first on the import path (bench/checkout.py)

from bench.stats import percentile
from bench.table_service import start_service

CHUNK = 64 * 1024
CLOSET = 'name: Closet\nlevel: 1\n\ngrid:\n+-+-+\n|E T|\n+-+-+\n\nareas:\n  A1 room "Closet"\n'
FLOOR = json.dumps({"name": "closet", "text": CLOSET}).encode()


def memory_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise RuntimeError(f"/proc/{pid}/status has no {field}")


def answer_of(sock: socket.socket) -> bytes:
    sock.settimeout(30)
    answer = b""
    try:
        while data := sock.recv(65536):
            answer += data
            if b"\r\n\r\n" in answer and b"connection: close" not in answer.lower():
                break
    except (TimeoutError, ConnectionResetError):
        pass
    return answer


def post(port: int, body_bytes: int | None, *, chunked: bool) -> bytes:
    """POST /api/floors/check: the small floor when `body_bytes` is None, else that many bytes of padding."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        head = b"POST /api/floors/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        if body_bytes is None:
            sock.sendall(head + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(FLOOR) + FLOOR)
            return answer_of(sock)
        sock.sendall(head + (b"Transfer-Encoding: chunked\r\n\r\n" if chunked
                             else b"Content-Length: %d\r\n\r\n" % body_bytes))
        piece = b" " * CHUNK
        frame = b"%x\r\n%s\r\n" % (CHUNK, piece) if chunked else piece
        try:
            for _ in range(body_bytes // CHUNK):
                sock.sendall(frame)
            if chunked:
                sock.sendall(b"0\r\n\r\n")
        except OSError:  # the service answered and closed: the rest of the body was never read
            pass
        return answer_of(sock)


def growth(pid: int, send: list[threading.Thread]) -> int:
    """Peak resident growth (KB) of `pid` while the requests in `send` run."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # peak resident size := resident size now
    before = memory_kb(pid, "VmRSS")
    for thread in send:
        thread.start()
    for thread in send:
        thread.join()
    return memory_kb(pid, "VmHWM") - before


def measure(pid: int, runs: int, requests: int, send: Callable[[], bytes]) -> tuple[list[int], list[bytes]]:
    """Peak growth of each run of `requests` sends at once, and every answer."""
    grown: list[int] = []
    answers: list[bytes] = []
    for _ in range(runs):
        threads = [threading.Thread(target=lambda: answers.append(send())) for _ in range(requests)]
        grown.append(growth(pid, threads))
    return grown, answers


def line(label: str, grown: list[int], answers: list[bytes], base: float) -> None:
    status = sorted({a.split(b"\r\n", 1)[0].decode(errors="replace") for a in answers})
    med, p99 = statistics.median(grown), percentile([float(g) for g in grown], 0.99)
    print(f"{label}: peak growth median {med:.0f} KB, p99 {p99:.0f} KB ({'; '.join(status)}); "
          f"ratio to baseline median {med / max(base, 4):.1f}x (a page is 4 KB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=int, default=50, help="the size of the huge body, in MB (default 50)")
    parser.add_argument("--runs", type=int, default=5, help="repetitions of each request (default 5)")
    args = parser.parse_args()
    size = args.mb * 1024 * 1024
    with tempfile.TemporaryDirectory(prefix="bench-body-limit-") as folder:
        process, port = start_service(Path(folder))
        try:
            pid = process.pid
            for _ in range(3):  # warm the route up: its first request imports and compiles what later ones reuse
                post(port, None, chunked=False)
            print(f"table service pid {pid}: VmRSS {memory_kb(pid, 'VmRSS') / 1024:.1f} MB at rest")
            base, base_answers = measure(pid, args.runs, 1, lambda: post(port, None, chunked=False))
            base_med = statistics.median(base)
            line("baseline (a small floor checked)", base, base_answers, base_med)
            for label, requests, chunked in ((f"{args.mb} MB with Content-Length", 1, False),
                                            (f"{args.mb} MB chunked", 1, True),
                                            (f"4 x {args.mb} MB chunked at once", 4, True)):
                grown, answers = measure(pid, args.runs, requests, lambda c=chunked: post(port, size, chunked=c))
                line(label, grown, answers, base_med)
        finally:
            process.terminate()
            process.wait(10)
    print(f"target: a {args.mb} MB body costs under 1 MB of peak memory (os: {os.uname().sysname})")


if __name__ == "__main__":
    main()
