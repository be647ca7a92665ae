"""Memory of the booth in a long run: the demo playing game after game at a fast pace, with MQTT on.

    .venv/bin/python bench/bench_booth_memory.py [--games 200] [--pace 0.05] [--camera quick|table] [--every 1]
    .venv/bin/python bench/bench_booth_memory.py --trace [--games 40]

Targets (issue 37, a day at the booth; a Pi 4 with 1 GB runs the table beside its OS): no growth of resident
memory over the last 100 of 200 games (the last half of a shorter run), steady at most 250 MB, peak at most
300 MB.

The figures: the `demo` command (controller/cli/run.py's run_demo, with `--pace P --games N --leds virtual
--mqtt`) in its own process, as people run it at a booth (the service, the camera filming the rendered table,
the vision pipeline, the reconciler, the auto-player's hands, the virtual LEDs, the game log, the web app),
beside a real mosquitto on loopback that a subscriber reads, and two watchers of the live feed (GET /ws): one
for the whole run, one that joins again as each game ends (a phone coming and going). Its VmRSS is sampled every
`--every` seconds with the games done (the players' count on /health). A game's figure is the median of the
samples taken while it was played; the bench prints it every 10 games, then the medians of the first and last
100 games (of the first and last half of a shorter run), the ratio of the last half's median to the quarter's
before it (the baseline in the same process; 1.00x is no growth), the slope of a least-squares line through
the last half's games (MB per 100 games) and the peak (VmHWM).

`--camera`: how the demo's camera confirms a move. `table` is a table's reading (VisionConfig(): a chip seen on
5 frames over 0.3 s on its new space, searched 0.15 s after the picture settles): a step takes about 0.55 s, a
game about a minute, so 200 games take hours. `quick` (the default) confirms on 2 frames with no time and no
settling (FilterSettings(confirm_frames=2, confirm_seconds=0), ChangeSettings(settle_seconds=0)): a step takes
about 0.2 s, a game about 20 s on a quiet machine. Every part still runs as at a booth: the same 1920 x 1080
frames rendered on each move and read by the same pipeline, change detection, filter and reconciler, the same
games (the seed, the heuristic player); only fewer frames pass per move (about 3 in place of 8), and the filter
keeps a chip's pending move for fewer frames.

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
from dataclasses import replace
from pathlib import Path

from checkout import ROOT  # the checkout, first on the import path (bench/checkout.py)
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from tests.support.net import free_port
from vision.config import VisionConfig

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


def quick_reading() -> VisionConfig:
    """The camera's reading `--camera quick` gives the demo: a move confirmed on 2 frames, without waiting."""
    table = VisionConfig()
    return replace(table, filter=replace(table.filter, confirm_frames=2, confirm_seconds=0.0),
                   change=replace(table.change, settle_seconds=0.0))


def booth(camera: str, demo_args: list[str]) -> int:
    """The child process: the `demo` command as the command line runs it, its camera reading as `camera` says."""
    from controller.cli import build_parser
    from controller.cli.run import run_demo

    return run_demo(build_parser().parse_args(["demo", *demo_args]), None if camera == "table" else quick_reading())


class Watcher:
    """A phone watching the live feed (GET /ws): reads every message; `again()` leaves and joins anew."""

    def __init__(self, port: int) -> None:
        self.url = f"ws://127.0.0.1:{port}/ws"
        self.messages = 0
        self.joins = 0
        self._socket: ClientConnection | None = None
        self._stop = False
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        while not self._stop:
            try:
                with connect(self.url, open_timeout=5) as socket_:
                    self._socket = socket_
                    self.joins += 1
                    for _ in socket_:
                        self.messages += 1
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                time.sleep(1)

    def again(self) -> None:
        socket_ = self._socket
        if socket_ is not None:
            socket_.close()

    def close(self) -> None:
        self._stop = True
        self.again()


def slope_per_100(games: list[int], rss: list[float]) -> float:
    """MB per 100 games of the least-squares line through the games' memory."""
    return statistics.linear_regression(games, rss).slope * 100 if len(games) > 1 else 0.0


stopped = threading.Event()  # SIGTERM: the run ends here, with the figures of the games played


def figures(args: argparse.Namespace) -> None:
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("BURNCYCLE_")}, "PYTHONPATH": str(ROOT)}
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        broker = Broker(Path(folder))
        demo = subprocess.Popen([sys.executable, __file__, "--booth", args.camera, "--host", "127.0.0.1", "--port",
                                 str(port), "--pace", str(args.pace), "--seed", "3", "--games", str(args.games),
                                 "--leds", "virtual", "--mqtt", f"127.0.0.1:{broker.port}",
                                 "--db", f"{folder}/booth.sqlite3"],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        began = time.monotonic()
        during: dict[int, list[float]] = {}  # game (from 1) -> VmRSS samples while it was played
        peak = 0.0
        done = 0
        watchers: list[Watcher] = []
        try:
            while demo.poll() is None and not stopped.is_set():
                try:
                    rss, peak = memory_mb(demo.pid)
                except (FileNotFoundError, KeyError):
                    break
                now = games_done(port)
                if now is not None and not watchers:
                    watchers = [Watcher(port), Watcher(port)]  # the steady one, and one that comes and goes
                if now is not None and now != done:
                    watchers[1].again()
                    for game in range(done + 1, now + 1):
                        print(f"  game {game}: {statistics.median(during.get(game, [rss])):.0f} MB while played, "
                              f"done at {(time.monotonic() - began) / 60:.1f} min (peak so far {peak:.0f} MB)",
                              flush=True)
                    done = now
                during.setdefault(done + 1, []).append(rss)
                time.sleep(args.every)
        finally:
            if demo.poll() is None:
                demo.terminate()
                demo.wait(30)
            for watcher in watchers:
                watcher.close()
            broker.close()
    minutes = (time.monotonic() - began) / 60
    per_game = {game: statistics.median(samples) for game, samples in during.items() if game <= done}
    print(f"{done} games played (camera {args.camera}, pace {args.pace} s, MQTT on) in {minutes:.1f} min: "
          f"{broker.messages} messages read from the table's topics, {sum(w.messages for w in watchers)} from the "
          f"live feed over {sum(w.joins for w in watchers)} joins")
    summary(per_game, peak)


def summary(per_game: dict[int, float], peak: float) -> None:
    """The run's figures from each game's memory (MB) and the peak."""
    if len(per_game) < 4:
        print("too few games for figures")
        return
    half = min(100, len(per_game) // 2)
    first = [per_game[g] for g in sorted(per_game)[:half]]
    last_games = sorted(per_game)[-half:]
    last = [per_game[g] for g in last_games]
    before = [per_game[g] for g in sorted(per_game)[-half - half // 2:-half]]
    print(f"resident memory, median over the first {half} games: {statistics.median(first):.0f} MB "
          f"(games 1 to {half}); over the last {half}: {statistics.median(last):.0f} MB (games {last_games[0]} to "
          f"{last_games[-1]}; target <= 250 MB)")
    print(f"baseline, the {len(before)} games before the last {half}: {statistics.median(before):.0f} MB; ratio "
          f"{statistics.median(last) / statistics.median(before):.3f}x (target 1.00x)")
    print(f"slope over the last {half} games: {slope_per_100(last_games, last):+.1f} MB per 100 games "
          f"(least squares; target 0); lowest {min(last):.0f} MB, highest {max(last):.0f} MB")
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
    if sys.argv[1:2] == ["--booth"]:  # the child: the demo itself
        sys.exit(booth(sys.argv[2], sys.argv[3:]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games to play (200: the issue's run)")
    parser.add_argument("--pace", type=float, default=0.05, help="the demo's pause between actions, seconds")
    parser.add_argument("--every", type=float, default=1.0, help="seconds between samples of memory")
    parser.add_argument("--camera", choices=("quick", "table"), default="quick",
                        help="how the demo's camera confirms a move: quick (2 frames) or as a table (5, 0.3 s)")
    parser.add_argument("--trace", action="store_true", help="tracemalloc across games, in this process")
    parser.add_argument("--top", type=int, default=8, help="with --trace: the largest growths to show")
    parser.add_argument("--since", type=int, default=2, help="with --trace: the game whose end growth counts from")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())  # the demo and the broker are stopped, figures printed
    trace(args) if args.trace else figures(args)


if __name__ == "__main__":
    main()
