"""Whole-table bench: the CPU the table service takes per second of play, and a Pi-sized run.

    .venv/bin/python bench/bench_table_cpu.py [--moves 60] [--still 1.0] [--pi-moves 60] [--no-pi | --pi-only]

Targets (the vision budget issue): vision over the demo's play at most 0.25x full detection on the same frames,
at most 0.05x with nothing moving; the whole service at 30 fps, 1080p: at most 0.10 of a core with nothing
moving, at most 0.35 with a chip moving; in the Pi-sized run (one core, a quarter of it) every move confirmed
and frame -> LED p99 at most 250 ms.

The service is compose.build's, with its real parts: the session (SQLite), the camera component and the
reconciler, the LEDs on the firmware in simavr (when installed), the web server with 20 viewers on its WebSocket
(another process, as phones are), the MQTT bridge to a mosquitto on loopback (another process). The camera
films pre-rendered pictures of the demo's play: the auto-player decides, and each bot's step is a hand over the
chip, the hand over its new space with the chip there, then the settled table, until the camera confirms the
step; then the table stands still `--still` seconds (players thinking); the corporation's turn is the session
applying the players' "next" and the guards standing where the engine put them, until the camera has seen them.
Every frame carries fresh sensor noise (3 noise fields of 2 grey levels, cycled), as a fixed camera sees a still
table. Pictures are rendered in pauses the figures leave out (the renderer is not the table's cost) and kept in
a folder, so later runs read the same pictures.

CPU is the process's (every thread: camera, vision, web, MQTT, session, LEDs) over the seconds of each kind of
play; vision alone is the camera thread's CPU in `VisionPipeline.process`. The same play runs twice in this
process: searching only where the picture changed (the table's way), then full detection on every frame.
The Pi-sized run is this bench in a child process pinned to one core and held to a quarter of it, by a cgroup's
`cpu.max` when /sys/fs/cgroup allows it, else by this bench's own throttle (SIGSTOP/SIGCONT: 5 ms of every 20).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np
from checkout import ROOT  # the checkout, first on the import path (bench/checkout.py)

from bench.bench_service import BenchLeds, free_port
from bench.stats import percentile
from controller.autoplay.player import AutoPlayer
from controller.cli.compose import build
from controller.leds import strip_layout
from controller.leds.serial_driver import SerialDriver, SerialLeds
from controller.rules import Step
from controller.service.demo import simulated_board
from controller.service.demo.booth import DEMO_POSE, DEMO_SIZE, DemoTable, VirtualStrip
from controller.service.frame.config import ServiceConfig
from vision.config import ChangeSettings, VisionConfig
from vision.pipeline import FrameResult, VisionPipeline
from vision.roster import chips_for_state
from vision.sources.base import Frame, FrameSource
from vision.status import Status
from vision.synth import Conditions, Hand, Scene

FPS = 30.0
CLEAN = Conditions(light_gradient=0.15, vignette=0.1, blur_px=1.0, noise_sigma=0.0)  # the demo's light, no noise
NOISE_SIGMA = 2.0
HAND_HOLD = 3          # frames each hand picture is shown (a hand's move takes 4 x 3 frames, 0.4 s)
VIEWERS = 20
KINDS = ("still", "moving", "corporation")


class Pictures:
    """Rendered pictures of the table, kept as files by what they show (scene and hands)."""

    def __init__(self, folder: Path, table: DemoTable) -> None:
        self.folder, self.table = folder, table
        g = np.random.default_rng(7)
        self.noise = [g.normal(0.0, NOISE_SIGMA, (DEMO_SIZE[1], DEMO_SIZE[0])).astype(np.float32) for _ in range(3)]

    def picture(self, scene: Scene, hands: tuple[Hand, ...] = ()) -> np.ndarray:
        path = self.folder / (hashlib.sha1(repr((scene, hands)).encode()).hexdigest() + ".npy")
        if path.exists():
            return np.load(path)
        assert self.table.renderer is not None
        grey = self.table.renderer.render(scene, DEMO_POSE, DEMO_SIZE, CLEAN, hands, np.random.default_rng(0)).grey
        np.save(path, grey)
        return grey

    def filmed(self, picture: np.ndarray, frames: int, start: int = 0) -> list[np.ndarray]:
        """`frames` frames of one picture as the camera films it: fresh noise each frame."""
        return [np.clip(picture + self.noise[(start + k) % 3], 0, 255).astype(np.uint8) for k in range(frames)]

    def hand_over(self, space: str, dx: float = 0.0) -> Hand:
        renderer = self.table.renderer
        assert renderer is not None
        floor = renderer.floor
        centre = renderer.camera(DEMO_POSE, DEMO_SIZE).project(
            [renderer.layout.space_centre(*floor.coords[floor.index[space]])])[0]
        return Hand((centre[0] + dx) / DEMO_SIZE[0], centre[1] / DEMO_SIZE[1], 70.0, 90.0)


class PlayedCamera(FrameSource):
    """A live camera at 30 fps filming what the bench shows: a run of frames once, then a settled loop."""

    name = "played camera"

    def __init__(self) -> None:
        super().__init__()
        self._once: list[np.ndarray] = []
        self._loop: list[np.ndarray] = []
        self._next, self._index = 0.0, 0
        self._lock = threading.Lock()
        self.shown_at: dict[float, int] = {}  # frame timestamp -> the show it belongs to
        self.show_number = 0

    def show(self, once: list[np.ndarray], loop: list[np.ndarray]) -> None:
        with self._lock:
            self._once, self._loop = list(once), list(loop)
            self.show_number += 1

    def _open(self) -> Status:
        self._next = time.monotonic()
        return Status("ok", "ok", "played camera running")

    def _read(self, timeout: float) -> Frame | Status:
        delay = self._next - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        self._next = max(self._next + 1 / FPS, time.monotonic() - 1 / FPS)
        with self._lock:
            if self._once:
                grey = self._once.pop(0)
            elif self._loop:
                grey = self._loop[self._index % len(self._loop)]
            else:
                return Status("warning", "no_table", "nothing shown yet")
            show = self.show_number
        self._index += 1
        now = time.monotonic()
        self.shown_at[now] = show
        return Frame(grey, now, self._index)

    def _close(self) -> None:
        pass


class TimedPipeline(VisionPipeline):
    """The vision pipeline, adding up the CPU its thread spends in `process`."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.cpu, self.processed = 0.0, 0

    def process(self, grey: np.ndarray, timestamp: float) -> FrameResult:
        t = time.thread_time()
        result = super().process(grey, timestamp)
        self.cpu += time.thread_time() - t
        self.processed += 1
        return result


def mosquitto(folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    conf = folder / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\nset_tcp_nodelay true\npersistence false\n")
    proc = subprocess.Popen(["/usr/sbin/mosquitto", "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(0.3)
    return proc, port


def viewers(port: int) -> subprocess.Popen[str]:
    """The phones: VIEWERS WebSocket connections in another process (bench_websockets' viewers)."""
    deadline = time.monotonic() + 15
    while True:
        proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "bench_websockets.py"), "--viewers",
                                 str(VIEWERS), "--as-viewers", f"ws://127.0.0.1:{port}/ws"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        if proc.stdout.readline().strip() == "ready":
            return proc
        proc.wait(5)
        if time.monotonic() > deadline:
            raise RuntimeError("the viewers could not connect to the web server")
        time.sleep(0.5)


def play(change: bool, moves: int, still_s: float, seed: int, pictures_folder: Path) -> dict[str, object]:
    """One play of the demo's game with the service's real parts; the figures of its seconds by kind."""
    folder = Path(tempfile.mkdtemp(prefix="bench-table-cpu-"))
    broker, mqtt_port = mosquitto(folder)
    board = simulated_board.SimulatedBoard() if simulated_board.available() is None else None
    config = ServiceConfig(web={"host": "127.0.0.1", "port": free_port()},  # type: ignore[arg-type]
                           database={"path": f"{folder}/g.sqlite3"}, camera={"source": "none"},  # type: ignore[arg-type]
                           game={"agents": ("nano", "casing")},  # type: ignore[arg-type]
                           mqtt={"host": "127.0.0.1", "port": mqtt_port})  # type: ignore[arg-type]
    if board is not None:
        port, layout = board.port, strip_layout.default()
        leds = BenchLeds(lambda: SerialLeds(layout, SerialDriver(port, baud=simulated_board.BAUD,
                                                                 expect_leds=layout.led_count).start()), what=port)
    else:
        leds = BenchLeds(VirtualStrip, what="the virtual strip")
    camera = PlayedCamera()
    service = build(config, leds=leds, seed=seed, source=lambda: camera)
    assert service._camera is not None
    vision = VisionConfig() if change else replace(VisionConfig(), change=ChangeSettings(enabled=False))
    pipelines: list[TimedPipeline] = []

    def make(floor):  # type: ignore[no-untyped-def]
        pipelines.append(TimedPipeline(floor, vision))
        return pipelines[-1]
    service._camera.make_pipeline = make
    session = service._session
    confirmed: list[tuple[int, float]] = []

    def note(result: FrameResult) -> None:  # after the reconciler's listener
        if not confirmed or session.number != confirmed[-1][0]:
            confirmed.append((session.number, result.observation.timestamp))
    service._camera.on_frame(note)
    thread = threading.Thread(target=lambda: asyncio.run(service.run()))
    thread.start()
    cpu: dict[str, float] = defaultdict(float)
    wall: dict[str, float] = defaultdict(float)
    vision_cpu: dict[str, float] = defaultdict(float)
    frames: dict[str, int] = defaultdict(int)
    led_latency: list[float] = []
    to_render: list[float] = []  # the confirming frame to the LED component's render of the new scene
    unconfirmed = confirmed_moves = unacknowledged = 0

    def vision_now() -> tuple[float, int]:
        return sum(p.cpu for p in pipelines), sum(p.processed for p in pipelines)

    class Measure:
        def __init__(self, kind: str) -> None:
            self.kind = kind

        def __enter__(self) -> None:
            self.t, self.c, (self.v, self.n) = time.monotonic(), time.process_time(), vision_now()

        def __exit__(self, *exc: object) -> None:
            v, n = vision_now()
            wall[self.kind] += time.monotonic() - self.t
            cpu[self.kind] += time.process_time() - self.c
            vision_cpu[self.kind] += v - self.v
            frames[self.kind] += n - self.n

    watchers: subprocess.Popen[str] | None = None
    try:
        table = DemoTable()
        pictures = Pictures(pictures_folder, table)
        table.lay_out(session.record)
        camera.show([], pictures.filmed(pictures.picture(table.scene), 3))
        watchers = viewers(config.web.port)
        while service._camera.frames < 45:
            time.sleep(0.05)
        with Measure("still"):
            time.sleep(still_s * 3)
        player = AutoPlayer()
        while confirmed_moves + unconfirmed < moves and session.state.outcome is None:
            state = session.state
            action = player.choose(state)
            before_scene = table.scene
            if isinstance(action, Step) and table.move_chip(action.bot, action.to):
                chip = chips_for_state(state, table.config)[action.bot]
                old = next(p.space for p in before_scene.placements if p.unit == chip)
                hand = [pictures.picture(before_scene, (pictures.hand_over(old, dx),)) for dx in (0.0, 30.0)]
                hand += [pictures.picture(table.scene, (pictures.hand_over(action.to, dx),)) for dx in (30.0, 0.0)]
                once = [f for k, p in enumerate(hand) for f in pictures.filmed(p, HAND_HOLD, k)]
                settled = pictures.filmed(pictures.picture(table.scene), 3)
                number = session.number
                with Measure("moving"):
                    camera.show(once, settled)
                    deadline = time.monotonic() + 8
                    while session.number == number and time.monotonic() < deadline:
                        time.sleep(0.005)
                if session.number == number:
                    unconfirmed += 1
                    session.apply(action)
                else:
                    confirmed_moves += 1
                    frame_t = next((t for n, t in confirmed if n > number), None)
                    with Measure("still"):
                        time.sleep(still_s)
                    render = next(((t, sent) for t, sent in leds.renders if frame_t is not None and t >= frame_t),
                                  None)
                    if render is not None and frame_t is not None:
                        # the board's ack of that frame (BenchLeds waits 1 s for it), else the render that found
                        # nothing new to send; an ack later than the wait belongs to another frame
                        ack = next((t for t in leds.acks if render[0] <= t <= render[0] + 1.0), None)
                        if render[1] and ack is None:
                            unacknowledged += 1
                        else:
                            led_latency.append((ack if render[1] else render[0]) - frame_t)
                            to_render.append(render[0] - frame_t)
            else:
                with Measure("corporation"):
                    session.apply(action)
                    time.sleep(0.3)
                table.lay_out(session.record)
                if table.scene != before_scene:
                    settled = pictures.filmed(pictures.picture(table.scene), 3)
                    with Measure("corporation"):
                        camera.show([], settled)
                        time.sleep(0.7)
            table.lay_out(session.record)
        link = list(leds.output.driver.stats.latencies) if isinstance(leds.output, SerialLeds) else []
        link = [statistics.median(link), percentile(link, 0.99), len(link)] if link else []  # one line of JSON
        rss = int(next(line.split()[1] for line in Path("/proc/self/status").read_text().splitlines()
                       if line.startswith("VmRSS:"))) / 1024
    finally:
        if watchers is not None and watchers.stdin is not None:
            watchers.stdin.close()
            try:
                watchers.wait(30)
            except subprocess.TimeoutExpired:  # its figures are not this bench's: a slow goodbye is not waited for
                watchers.kill()
                watchers.wait()
        service.stop()
        thread.join(15)
        session.close()
        if board is not None:
            board.close()
        broker.terminate()
        broker.wait(5)
    health = service._camera.status()
    return {"cpu": dict(cpu), "wall": dict(wall), "vision_cpu": dict(vision_cpu), "frames": dict(frames),
            "led_latency": led_latency, "to_render": to_render, "link": link, "unacknowledged": unacknowledged,
            "confirmed": confirmed_moves, "unconfirmed": unconfirmed,
            "searched": health.get("searched"), "skipped": health["skipped"], "rss_mb": rss,
            "leds": "the firmware in simavr" if board is not None else "the virtual strip"}


def per_second(run: dict, kind: str) -> float:
    return run["cpu"].get(kind, 0.0) / run["wall"][kind] if run["wall"].get(kind) else float("nan")


def reads(run: dict, kind: str) -> float:
    """Frames read through vision a second in that kind of play."""
    return run["frames"].get(kind, 0) / run["wall"][kind] if run["wall"].get(kind) else 0.0


def vision_ms(run: dict, kind: str | None = None) -> float:
    kinds = [kind] if kind else list(run["frames"])
    n = sum(run["frames"].get(k, 0) for k in kinds)
    return 1000 * sum(run["vision_cpu"].get(k, 0.0) for k in kinds) / n if n else float("nan")


def report(change: dict, full: dict) -> None:
    print(f"demo play at {FPS:.0f} fps, {DEMO_SIZE[0]}x{DEMO_SIZE[1]}, LEDs on {change['leds']}, {VIEWERS} WebSocket "
          "viewers, MQTT to mosquitto on loopback")
    print(f"moves confirmed by the camera: {change['confirmed']} (not confirmed: {change['unconfirmed']}); full "
          f"detection: {full['confirmed']} ({full['unconfirmed']})")
    print("whole service, process CPU seconds per second of play (cores):")
    for kind in KINDS:
        a, b = per_second(change, kind), per_second(full, kind)
        target = {"still": " (target <= 0.10)", "moving": " (target <= 0.35)"}.get(kind, "")
        print(f"  {kind:12s} changed-only {a:.3f} reading {reads(change, kind):.1f} fps  full detection {b:.3f} "
              f"reading {reads(full, kind):.1f} fps  ratio {a / b:.2f}x  ({change['wall'].get(kind, 0):.0f} s of "
              f"play){target}")
    print("  (the camera delivers 30 fps; a run reading fewer was short of CPU on this machine, and skipped frames)")
    print("vision alone, CPU ms per frame read:")
    for kind in (*KINDS, None):
        a, b = vision_ms(change, kind), vision_ms(full, kind)
        target = {"still": " (target <= 0.05x)", None: " (target <= 0.25x)"}.get(kind, "")
        print(f"  {kind or 'whole play':12s} changed-only {a:.2f} ms  full detection {b:.2f} ms  ratio "
              f"{a / b:.3f}x  ({change['frames'].get(kind, sum(change['frames'].values()))} frames){target}")
    print(f"frames searched (changed-only run): {change['searched']}; skipped: {change['skipped']} (full run "
          f"skipped {full['skipped']})")
    lat = change["led_latency"]
    if lat:
        print(f"confirm -> LEDs: median {statistics.median(lat) * 1000:.1f} ms, p99 {percentile(lat, 0.99) * 1000:.1f}"
              f" ms ({len(lat)} moves; {change['unacknowledged']} LED frames not acknowledged within 1 s)")
    print(f"resident memory of this bench's process after the play: {change['rss_mb']:.0f} MB")


def throttle(pid: int, share: float, period: float = 0.02) -> threading.Event:
    """Hold process `pid` to `share` of a core: SIGCONT for share x period, SIGSTOP for the rest."""
    done = threading.Event()

    def run() -> None:
        while not done.is_set():
            try:
                os.kill(pid, signal.SIGCONT)
                time.sleep(share * period)
                os.kill(pid, signal.SIGSTOP)
                time.sleep((1 - share) * period)
            except ProcessLookupError:
                return
        try:
            os.kill(pid, signal.SIGCONT)
        except ProcessLookupError:
            pass
    threading.Thread(target=run, daemon=True).start()
    return done


def cgroup_cpu_max() -> Path | None:
    """A cgroup v2 folder this user may make with cpu.max, or None."""
    base = Path("/sys/fs/cgroup")
    if not (base / "cgroup.controllers").exists() or not os.access(base, os.W_OK):
        return None
    return base


def pi_sized(moves: int, still_s: float, seed: int, pictures_folder: Path) -> None:
    child = subprocess.Popen([sys.executable, __file__, "--as-pi", "--moves", str(moves), "--still", str(still_s),
                              "--seed", str(seed), "--pictures", str(pictures_folder)], stdout=subprocess.PIPE,
                             text=True)
    os.sched_setaffinity(child.pid, {sorted(os.sched_getaffinity(0))[0]})
    base = cgroup_cpu_max()
    if base is not None:
        group = base / f"bench-table-cpu-{child.pid}"
        group.mkdir()
        (group / "cpu.max").write_text("25000 100000")
        (group / "cgroup.procs").write_text(str(child.pid))
        how, done = "a cgroup's cpu.max (25000 of 100000 us)", None
    else:
        how, done = "this bench's own throttle (SIGSTOP/SIGCONT, 5 ms of every 20: /sys/fs/cgroup is cgroup v1 " \
                    "and read-only here)", throttle(child.pid, 0.25)
    out, _ = child.communicate()
    if done is not None:
        done.set()
    run = json.loads(out.strip().splitlines()[-1])
    lat = run["led_latency"]
    print(f"\nPi-sized run: pinned to one core, held to a quarter of it by {how}")
    print(f"  moves confirmed by the camera: {run['confirmed']} of {run['confirmed'] + run['unconfirmed']}")
    if lat:
        print(f"  frame -> LED (confirming frame to the board's ack): median {statistics.median(lat) * 1000:.1f} ms, "
              f"p99 {percentile(lat, 0.99) * 1000:.1f} ms (target <= 250 ms; {run['unacknowledged']} LED frames not "
              "acknowledged within 1 s)")
        render = run["to_render"]
        print(f"    of which the confirming frame to the LED component's render: median "
              f"{statistics.median(render) * 1000:.1f} ms, p99 {percentile(render, 0.99) * 1000:.1f} ms; the render "
              f"to the board's ack: the rest")
    if run["link"]:
        median, p99, count = run["link"]
        print(f"  the LED link alone, every frame the serial driver was given to the board's ack ({count} frames, "
              f"animations included): median {median * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
    print(f"  frames searched: {run['searched']}; frames the camera delivered that were skipped: {run['skipped']}")
    for kind in KINDS:
        seconds, read = run["wall"].get(kind, 0.0), run["frames"].get(kind, 0)
        print(f"  {kind:12s} CPU {per_second(run, kind):.3f} of a core per second of play; vision "
              f"{vision_ms(run, kind):.2f} ms per frame read ({read} frames read in {seconds:.0f} s: "
              f"{read / seconds if seconds else 0.0:.1f} frames a second)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60, help="bot steps the camera must confirm, per play")
    parser.add_argument("--pi-moves", type=int, default=60, help="bot steps in the Pi-sized run")
    parser.add_argument("--still", type=float, default=1.0, help="seconds the table stands still after each step")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--pictures", default=None, help="folder keeping the rendered pictures between runs")
    parser.add_argument("--no-pi", action="store_true", help="leave out the Pi-sized run")
    parser.add_argument("--pi-only", action="store_true", help="only the Pi-sized run")
    parser.add_argument("--as-pi", action="store_true", help=argparse.SUPPRESS)  # the Pi-sized run's own process
    args = parser.parse_args()
    import cv2
    cv2.setNumThreads(1)  # a Pi's vision runs on one thread here too
    folder = Path(args.pictures or tempfile.mkdtemp(prefix="bench-table-pictures-"))
    folder.mkdir(parents=True, exist_ok=True)
    if args.as_pi:
        print(json.dumps(play(True, args.moves, args.still, args.seed, folder)))
        return
    if not args.pi_only:
        change = play(True, args.moves, args.still, args.seed, folder)
        full = play(False, args.moves, args.still, args.seed, folder)
        report(change, full)
    if not args.no_pi:
        pi_sized(args.pi_moves, args.still, args.seed, folder)


if __name__ == "__main__":
    main()
