"""Memory of the booth in a long run: the demo playing game after game at a fast pace, with MQTT on.

    .venv/bin/python bench/bench_booth_memory.py [--games 200] [--pace 0.05] [--every 2]
    .venv/bin/python bench/bench_booth_memory.py --trace [--games 40]

Targets (issue 37, a day at the booth; a Pi 4 with 1 GB runs the table beside its OS): no growth of resident
memory over the last half of the games, steady at most 250 MB, peak at most 300 MB.

The figures: `demo --pace P --games N --mqtt` in its own process, as people run it at a booth (the service, the
camera filming the rendered table, the vision pipeline, the auto-player's hands, the virtual LEDs), beside a
real mosquitto on loopback that a subscriber reads. Its VmRSS is sampled every `--every` seconds and read as
each game ends (the players' count on /health); the bench prints it after 20, 100 and 200 games (or the fifths
of a shorter run), the median of the last half against the median of the first half's end (the ratio is the
growth), and the peak (VmHWM). A game lasts about a minute (the camera confirms every step), so 200 games
take hours: `--games` chooses.

`--trace`: the booth's service in this process without its camera (a game takes seconds), under tracemalloc:
after each game the Python memory, then what grew since the end of the second game by where it was allocated:
the way to find what grows (a bounded cache shows its ceiling; anything else is a leak).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
import urllib.request
from pathlib import Path

from checkout import ROOT  # the checkout, first on the import path (bench/checkout.py)

from tests.support.net import free_port

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def memory_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process, in MB."""
    fields = {line.split(":")[0]: line.split()[1] for line in Path(f"/proc/{pid}/status").read_text().splitlines()
              if line.startswith("Vm")}
    return int(fields["VmRSS"]) / 1024, int(fields["VmHWM"]) / 1024


class Broker:
    """A mosquitto on a free loopback port, and a subscriber reading the table's event stream (so the bridge
    publishes to a real reader, as at a booth with Home Assistant or the hall)."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        config = folder / "mosquitto.conf"
        config.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\nset_tcp_nodelay true\n")
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        self.messages = 0
        self._reader = subprocess.Popen(["mosquitto_sub", "-p", str(self.port), "-t", "burncycle/table1/#"],
                                        stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self._reader.stdout is not None
        for _ in self._reader.stdout:
            self.messages += 1

    def close(self) -> None:
        self._reader.terminate()
        self.process.terminate()
        self.process.wait(10)


def games_done(port: int) -> int | None:
    """Games the demo's players finished, from the table's /health (None while it does not answer)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as reply:
            return int(json.loads(reply.read())["components"]["players"]["games"])
    except (OSError, KeyError, ValueError):
        return None


def checkpoints(games: int) -> list[int]:
    """The games after which memory is printed: 20, 100 and 200 of a 200-game run, else the fifths."""
    if games >= 200:
        return [20, 100, 200]
    return sorted({max(1, round(games * k / 5)) for k in range(1, 6)})


def figures(args: argparse.Namespace) -> None:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("BURNCYCLE_")}, "PYTHONPATH": str(ROOT)}
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        broker = Broker(Path(folder))
        demo = subprocess.Popen([sys.executable, "-m", "controller.cli", "demo", "--host", "127.0.0.1", "--port",
                                 str(port), "--pace", str(args.pace), "--seed", "3", "--games", str(args.games),
                                 "--leds", "virtual", "--mqtt", f"127.0.0.1:{broker.port}",
                                 "--db", f"{folder}/booth.sqlite3"],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        began = time.monotonic()
        after: dict[int, float] = {}  # games done -> VmRSS when the count reached it
        samples: list[tuple[float, int, float]] = []  # (seconds, games done, VmRSS)
        peak = 0.0
        done = 0
        try:
            while demo.poll() is None:
                try:
                    rss, peak = memory_mb(demo.pid)
                except (FileNotFoundError, KeyError):
                    break
                done = games_done(port) if games_done(port) is not None else done
                samples.append((time.monotonic() - began, done, rss))
                if done not in after:
                    after[done] = rss
                    print(f"  {done} games done at {samples[-1][0]:.0f} s: {rss:.0f} MB (peak so far {peak:.0f} MB)",
                          flush=True)
                time.sleep(args.every)
        finally:
            if demo.poll() is None:
                demo.terminate()
                demo.wait(30)
            broker.close()
    played = max(after)
    print(f"{played} games played at pace {args.pace} s with MQTT on in {samples[-1][0] / 60:.1f} min, "
          f"{broker.messages} messages read from the table's topics")
    for game in checkpoints(played):
        print(f"resident memory after {game} games: {after[game]:.0f} MB")
    last = [rss for _, games, rss in samples if games >= played / 2]
    before = [rss for _, games, rss in samples if played / 4 <= games < played / 2] or last
    print(f"steady (median over the last half of the games): {statistics.median(last):.0f} MB (target <= 250 MB); "
          f"over the quarter before it: {statistics.median(before):.0f} MB; growth ratio "
          f"{statistics.median(last) / statistics.median(before):.3f}x (target 1.00x)")
    print(f"peak (VmHWM): {peak:.0f} MB (target <= 300 MB)")


def trace(args: argparse.Namespace) -> None:
    """The booth's service in this process without its camera (the players' steps go to the engine at once, so
    a game takes seconds), under tracemalloc: the Python memory after each game, what grew since the end of the
    second, and the caches that hold it with their ceilings."""
    import asyncio
    import gc

    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped, unused-ignore]  # no stubs

    from controller.service.demo.booth import DemoPlayers, DemoTable, VirtualStrip
    from controller.service.devices.led_output import LedOutput
    from controller.service.frame.config import ServiceConfig
    from controller.service.frame.startup import build
    from controller.service.game.session import RECENT

    with tempfile.TemporaryDirectory() as folder:
        config = ServiceConfig.model_validate({
            "web": {"host": "127.0.0.1", "port": free_port()}, "database": {"path": f"{folder}/booth.sqlite3"},
            "camera": {"source": "none"}, "game": {"agents": ("nano", "casing")}})
        service = build(config, pin_factory=MockFactory(), leds=LedOutput(VirtualStrip, what="the virtual strip"),
                        seed=3)
        players = DemoPlayers(service, DemoTable(), games=args.games, pace_s=0.0, step_timeout_s=0.0)
        service.add(players)
        tracemalloc.start(10)
        snapshots: dict[int, tracemalloc.Snapshot] = {}

        async def watch() -> None:
            seen = -1
            while True:
                done = len(players.results)
                if done != seen:
                    seen = done
                    gc.collect()
                    snapshots[done] = tracemalloc.take_snapshot().filter_traces(
                        [tracemalloc.Filter(False, tracemalloc.__file__)])
                    held = sum(stat.size for stat in snapshots[done].statistics("filename"))  # (not the snapshots)
                    print(f"after {done} games: {held / 2**20:.1f} MB traced, {service.number} changes in "
                          f"the log", flush=True)
                await asyncio.sleep(0.05)

        async def play() -> None:
            watching = asyncio.create_task(watch())
            await service.run()
            watching.cancel()

        asyncio.run(play())
    last = max(snapshots)
    since = min(args.since, last)
    print(f"grown from the end of game {since} to the end of game {last} (the largest, by where it was allocated):")
    for stat in sorted(snapshots[last].compare_to(snapshots[since], "traceback"), key=lambda s: s.size_diff,
                       reverse=True)[:args.top]:
        print(f"  +{stat.size_diff / 1024:.0f} KiB in {stat.count_diff:+d} blocks, from:")
        for frame in stat.traceback.format()[-6:]:
            print(f"    {frame}")
    per_change = sum(s.size for s in snapshots[last].statistics("traceback")
                     if any("store.py" in f.filename or "session.py" in f.filename for f in s.traceback))
    print(f"the session keeps the last {RECENT} changes for readers catching up; the log's changes and what "
          f"holds them take {per_change / 2**20:.1f} MB after {service.number} changes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games to play (200: the issue's run)")
    parser.add_argument("--pace", type=float, default=0.05, help="the demo's pause between actions, seconds")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between samples of memory")
    parser.add_argument("--trace", action="store_true", help="tracemalloc across games, in this process")
    parser.add_argument("--top", type=int, default=8, help="with --trace: the largest growths to show")
    parser.add_argument("--since", type=int, default=2, help="with --trace: the game whose end growth counts from")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stopped: the demo and the broker are stopped too
    trace(args) if args.trace else figures(args)


if __name__ == "__main__":
    main()
