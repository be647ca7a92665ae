"""Live-feed bench: 50 WebSocket viewers on the real app under uvicorn, and what they cost the vision loop.

    .venv/bin/python bench/bench_websockets.py [--viewers 50] [--rate 5] [--phase 8] [--rounds 2]

Targets (the dashboard issue): with 50 browsers' WebSockets connected, every state change reaches all of them
in at most 50 ms p99, and the vision loop slows by at most 5% against the same loop with no viewers, in one run.

The service is the demo's, built by compose.build: the rendered table filmed by the demo camera, unpaced (so
its frames a second are the vision loop's throughput, not a camera's frame rate), the real VisionPipeline and
the reconciler, the web server on loopback. The table is laid out once and filmed as it stands (re-rendering
it on every change would make the frame rate the renderer's, not the vision loop's); the bench plays the
auto-player's actions through the session at `--rate` changes a second (the reconciler sees the game leave the
chips behind, so the table view changes too), in phases of `--phase` seconds: without viewers, then with them,
`--rounds` times; the slowdown is the median of the rounds' ratios, each pair a few seconds apart.
The viewers are another process (as phones are other devices): `--viewers` connections of the `websockets`
library, each noting when each change message arrived; latency is from just before `session.apply` to the
arrival at each viewer (both on the machine's one monotonic clock), so it includes the change's durable write.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

import checkout  # noqa: F401  # the checkout first on the import path (bench/checkout.py)

from bench.stats import percentile
from tests.support.net import free_port

if TYPE_CHECKING:
    from controller.rules import AnyAction
    from controller.service.demo.booth import DemoTable
    from controller.service.table import TableService

CHANGE = b'{"type":"change","number":'
SNAPSHOT = b'{"type":"snapshot","number":'


async def _viewers(url: str, count: int) -> None:
    """The viewers' process: `count` connections; prints "ready" once each has its snapshot, then, when stdin
    closes, every (number, arrival) per viewer as JSON: of the change messages (`arrivals`) and of the snapshots
    (`caught_up`: a viewer that fell behind gets one snapshot in place of the changes it missed)."""
    from websockets.asyncio.client import connect

    arrivals: list[list[tuple[int, float]]] = [[] for _ in range(count)]
    caught_up: list[list[tuple[int, float]]] = [[] for _ in range(count)]
    snapshots = [0] * count
    ready = asyncio.Event()
    done = asyncio.Event()
    connected = 0

    async def viewer(k: int) -> None:
        nonlocal connected
        async with connect(url, max_size=None, proxy=None) as ws:  # offers deflate, as browsers do
            while True:
                text = await ws.recv(decode=False)  # the bytes as sent: a viewer here reads only the number
                now = time.monotonic()
                if text.startswith(CHANGE):
                    arrivals[k].append((int(text[len(CHANGE):text.index(b",", len(CHANGE))]), now))
                elif text.startswith(SNAPSHOT):
                    caught_up[k].append((int(text[len(SNAPSHOT):text.index(b",", len(SNAPSHOT))]), now))
                    snapshots[k] += 1
                    if snapshots[k] == 1:
                        connected += 1
                        if connected == count:
                            ready.set()

    tasks = [asyncio.create_task(viewer(k)) for k in range(count)]
    await ready.wait()
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    loop.add_reader(sys.stdin.fileno(), lambda: done.set() if not sys.stdin.readline() else None)
    await done.wait()
    for task in tasks:
        task.cancel()
    print(json.dumps({"arrivals": arrivals, "snapshots": snapshots, "caught_up": caught_up}), flush=True)


def figure(label: str, seconds: list[float]) -> None:
    ms = [x * 1000 for x in seconds]
    print(f"{label}: median {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")


def _service(folder: str, seed: int, fps: float) -> tuple[TableService, DemoTable, int]:
    from controller.cli.compose import build
    from controller.service.demo.booth import DemoCamera, DemoTable
    from controller.service.frame.config import DatabaseConfig, GameConfig, ServiceConfig, WebConfig

    port = free_port()
    config = ServiceConfig(web=WebConfig(host="127.0.0.1", port=port),
                           database=DatabaseConfig(path=Path(folder) / "g.sqlite3"),
                           game=GameConfig(agents=("nano", "casing")))
    table = DemoTable()
    service = build(config, seed=seed, source=lambda: DemoCamera(table, fps=fps or 10_000))
    return service, table, port


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--rate", type=float, default=5.0, help="state changes a second")
    parser.add_argument("--phase", type=float, default=4.0, help="seconds of each phase")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--camera-fps", type=float, default=0.0,
                        help="pace the camera like a real one (the service's default is 30); 0: unpaced")
    parser.add_argument("--as-viewers", default=None, help=argparse.SUPPRESS)  # the viewers' own process
    args = parser.parse_args()
    if args.as_viewers:
        asyncio.run(_viewers(args.as_viewers, args.viewers))
        return

    from controller.autoplay.player import AutoPlayer

    folder = tempfile.mkdtemp(prefix="bench-websockets-")
    service, table, port = _service(folder, args.seed, args.camera_fps)
    session, camera = service._session, service._camera
    assert camera is not None
    running = threading.Thread(target=lambda: asyncio.run(service.run()))
    running.start()
    while not session.has_game():
        time.sleep(0.05)
    table.lay_out(session.record)
    while camera.frames < 30:  # started, and the camera films the laid-out table
        time.sleep(0.05)
    player = AutoPlayer()
    applied: dict[int, tuple[float, float]] = {}  # change number -> (apply called, apply returned)
    late: list[float] = []  # how late the bench's own sleeps woke: the machine's scheduling, for comparison

    def play(seconds: float) -> float:
        """Changes at the rate for `seconds`; the vision loop's frames a second meanwhile."""
        frames, start = camera.frames, time.monotonic()
        next_at = start
        while time.monotonic() - start < seconds:
            time.sleep(max(0.0, next_at - time.monotonic()))
            late.append(max(0.0, time.monotonic() - next_at))
            next_at += 1.0 / args.rate
            if session.state.outcome is not None:
                service.new_game()
            else:
                action = cast("AnyAction", player.choose(session.state))  # (the player names the base class)
                t0 = time.monotonic()
                change = session.apply(action)
                applied[change.number] = (t0, time.monotonic())
        return (camera.frames - frames) / (time.monotonic() - start)

    alone: list[float] = []
    watched: list[float] = []
    latencies: list[float] = []  # apply called -> arrival
    feed: list[float] = []  # apply returned (the change durable and numbered) -> arrival
    writes: list[float] = []  # the apply itself (the engine and the durable write)
    missed = 0
    fell_behind = 0
    try:
        play(2.0)  # warm up: the first renders and the pipeline's first frames
        for _ in range(args.rounds):
            alone.append(play(args.phase))
            viewers = subprocess.Popen([sys.executable, __file__, "--viewers", str(args.viewers),
                                        "--as-viewers", f"ws://127.0.0.1:{port}/ws"],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert viewers.stdout is not None and viewers.stdin is not None
            assert viewers.stdout.readline().strip() == "ready", "the viewers did not connect"
            numbers_before = set(applied)
            watched.append(play(args.phase))
            time.sleep(0.5)  # the last change reaches everyone
            viewers.stdin.close()
            result = json.loads(viewers.stdout.readline())
            viewers.wait(10)
            mine = {n: t for n, t in applied.items() if n not in numbers_before}
            for arrivals in result["arrivals"]:
                got = dict(arrivals)
                missed += sum(1 for n in mine if n not in got)
                latencies += [got[n] - t0 for n, (t0, _) in mine.items() if n in got]
                feed += [got[n] - t1 for n, (_, t1) in mine.items() if n in got]
            writes += [t1 - t0 for t0, t1 in mine.values()]
            fell_behind += sum(s - 1 for s in result["snapshots"])
    finally:
        service.stop()
        running.join(15)
        session.close()

    print(f"{args.viewers} viewers, {args.rate:g} changes a second, {args.rounds} rounds of {args.phase:g} s "
          f"(state ~{len(service.state_bytes()) / 1024:.0f} KB a message); {len(latencies)} deliveries, {missed} "
          f"missed, {fell_behind} catch-up snapshots")
    figure("apply called -> at every viewer (target p99 <= 50 ms)", latencies)
    figure("apply returned (durable) -> at every viewer: the feed alone", feed)
    figure("baseline: the apply alone (the engine and the durable write)", writes)
    figure("baseline: this process waking from a sleep, how late (the machine's load)", late)
    rounds = ", ".join(f"{a:.1f} -> {w:.1f}" for a, w in zip(alone, watched))
    slowdown = 100 * (1 - statistics.median(w / a for a, w in zip(alone, watched)))
    pace = f"paced at {args.camera_fps:g}" if args.camera_fps else "unpaced"
    print(f"vision loop ({pace}), frames/s with no viewers -> with {args.viewers}, each round: {rounds}; "
          f"median slowdown {slowdown:.1f}% (target <= 5%)")

if __name__ == "__main__":
    main()
