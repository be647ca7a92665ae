"""A game night on a mid-range phone (issue 27): the taps each action takes, the board drawn after load, and a tap
to the next paint, on chromium with its CPU throttled 4x and 50 other viewers on the live feed.

    .venv/bin/python bench/bench_phone.py [--loads 20] [--throttle 4] [--viewers 50] [--actions 0]

Two runs in one process, each on a fresh table service (no camera) on loopback playing the same seeded game of
Data Heist from the new-game form (Nano alone, the auto-player deciding, tests/browser/phone_support.py tapping):
the baseline (no throttling, no other viewer), then the phone (chromium's CPU slowed `--throttle` times through
CDP's Emulation.setCPUThrottlingRate, `--viewers` WebSocket viewers connected to /ws, bench_websockets.py's own
viewers' process). In each: `--loads` fresh loads of the page, each timed from navigation to the page's
`board-drawn` mark; then the game, every tap timed from its pointerdown to the frame after its click's handlers
(a requestAnimationFrame, then a message posted past the paint: the Event Timing API's interaction, measured by
hand so taps under its 16 ms floor count too). Targets: a step within a move action is one tap, a whole action's
median at most 3 taps; board drawn p99 at most 1.5 s and tap to next paint p99 at most 200 ms on the phone.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from checkout import ROOT  # the checkout, first on the import path (bench/checkout.py)
from playwright.sync_api import Browser, BrowserContext

from bench.stats import percentile
from controller.autoplay.player import AutoPlayer
from controller.rules import Step
from tests.browser.chromium import chromium, wait_until
from tests.browser.phone_support import Phone, Taps, touch_context
from tests.browser.tools_support import running_table

SEED = 1  # the form's game (the table's own first game takes SEED - 1): Nano wins it in 98 actions
BOARD_TARGET_MS = 1500
PAINT_TARGET_MS = 200
# each tap: from its pointerdown to the frame after its click's handlers ran (rAF, then a message past the paint)
TAP_TO_PAINT = """
window.__paints = [];
let down = null;
addEventListener('pointerdown', (e) => { down = e.timeStamp; }, true);
addEventListener('click', (e) => {
  const start = down === null ? e.timeStamp : down;
  down = null;
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    const what = e.target.closest('button, a, [data-unit], [data-target]');
    const name = what ? (what.id || what.dataset.tag || what.dataset.unit || what.dataset.space || what.tagName) : '?';
    channel.port1.onmessage = () => window.__paints.push([performance.now() - start, name]);
    channel.port2.postMessage(0);
  });
}, true);
"""

# where a load's time goes before the board is drawn: the page's HTML and modules parsed, the floor fetched
LOAD_PARTS = """[performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
                 (performance.getEntriesByType('resource').find((r) => r.name.endsWith('/api/floor')) || {}).responseEnd
                 || 0]"""


@dataclass
class Run:
    """One run's figures: the loads' board drawn (ms), each tap's paint (ms), each action's taps."""

    name: str
    drawn: list[float] = field(default_factory=list)
    parts: list[tuple[float, float]] = field(default_factory=list)  # each load: DOMContentLoaded, /api/floor in
    paints: list[float] = field(default_factory=list)
    slowest: list[tuple[float, str]] = field(default_factory=list)  # the slowest taps' paints and what was tapped
    actions: list[Taps] = field(default_factory=list)
    steps_in_move: list[int] = field(default_factory=list)  # taps of a step by the bot the move has picked
    switches_in_move: list[int] = field(default_factory=list)  # taps of a step by another bot than the last one


def throttled(browser: Browser, rate: float) -> tuple[BrowserContext, object]:
    """A phone's context and page, its CPU slowed `rate` times (1: as fast as this machine)."""
    context = touch_context(browser)
    page = context.new_page()
    if rate != 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return context, page


@contextmanager
def viewers(url: str, count: int) -> Iterator[None]:
    """`count` WebSocket viewers on the live feed, in their own process (bench_websockets.py's), until the end."""
    if count == 0:
        yield
        return
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "bench_websockets.py"), "--viewers", str(count),
                             "--as-viewers", url.replace("http", "ws") + "/ws"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdin is not None
    try:
        if proc.stdout.readline().strip() != "ready":
            raise SystemExit("the viewers did not connect")
        yield
    finally:
        proc.stdin.close()
        proc.stdout.read()
        proc.wait(15)


def one_run(browser: Browser, run: Run, rate: float, count: int, loads: int, most: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-phone-") as tmp, \
            running_table(Path(tmp), seed=SEED - 1, game={"agents": ("nano",)}) as (url, service), \
            viewers(url, count):
        for k in range(loads + 1):
            context, page = throttled(browser, rate)
            page.goto(url)  # type: ignore[attr-defined]
            wait_until(page, "performance.getEntriesByName('board-drawn').length > 0", timeout=60_000)  # type: ignore[arg-type]
            if k:  # the first load warms the server
                run.drawn.append(page.evaluate("performance.getEntriesByName('board-drawn')[0].startTime"))  # type: ignore[attr-defined]
                run.parts.append(page.evaluate(LOAD_PARTS))  # type: ignore[attr-defined]
            context.close()
        context, page = throttled(browser, rate)
        page.add_init_script(TAP_TO_PAINT)  # type: ignore[attr-defined]
        phone = Phone(page, service)  # type: ignore[arg-type]
        page.goto(url)  # type: ignore[attr-defined]
        phone.unlock()
        phone.new_game(mission="data-heist", agents=["nano"])
        player = AutoPlayer()
        stepping: str | None = None  # the bot the move under way has picked: the last to step, else the agent's
        for _ in range(most or 10_000):
            phone.settle()
            state = service.session.state
            if state.outcome is not None:
                break
            action = player.choose(state)
            in_move = state.turn.pending is not None
            if not in_move:
                stepping = None
            elif stepping is None:
                stepping = state.turn.order[state.turn.active]
            taps = phone.act(action)
            if isinstance(action, Step) and in_move:
                (run.steps_in_move if action.bot == stepping else run.switches_in_move).append(taps.taps)
                stepping = action.bot
        paints = page.evaluate("window.__paints")  # type: ignore[attr-defined]
        run.paints = [ms for ms, _ in paints]
        run.slowest = sorted(((ms, name) for ms, name in paints), reverse=True)[:5]
        run.actions = phone.record
        context.close()


def line(label: str, ms: list[float], target: float | None = None) -> str:
    p99 = percentile(ms, 0.99)
    verdict = "" if target is None else f"  (target p99 <= {target:.0f} ms: {'met' if p99 <= target else 'MISSED'})"
    return f"{label}: median {statistics.median(ms):.0f} ms, p99 {p99:.0f} ms over {len(ms)}{verdict}"


def taps_table(run: Run) -> None:
    kinds: dict[str, list[int]] = {}
    for t in run.actions:
        kinds.setdefault(t.kind, []).append(t.taps)
    print(f"taps per action, {len(run.actions)} actions ({sum(t.board for t in run.actions)} played on the board; "
          f"faces of dice rolled at the table not counted):")
    for kind, taps in sorted(kinds.items()):
        print(f"  {kind:<18} median {statistics.median(taps):>4g}  worst {max(taps):>2}  ({len(taps)} played)")
    every = [t.taps for t in run.actions]
    steps, switches = run.steps_in_move, run.switches_in_move
    print(f"  a step within a move, by the bot the move has picked: median {statistics.median(steps):g}, worst "
          f"{max(steps)} over {len(steps)} (target 1: {'met' if max(steps) == 1 else 'MISSED'})")
    if switches:
        print(f"  a step within a move by another bot (the command module in an agent's move): median "
              f"{statistics.median(switches):g}, worst {max(switches)} over {len(switches)} (a tap to pick it, "
              "then one to step, as on lichess)")
    print(f"  a whole action: median {statistics.median(every):g}, worst {max(every)} (target median <= 3: "
          f"{'met' if statistics.median(every) <= 3 else 'MISSED'}); {sum(every)} taps in all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=20, help="page loads timed in each run")
    parser.add_argument("--throttle", type=float, default=4.0, help="chromium's CPU slowdown on the phone")
    parser.add_argument("--viewers", type=int, default=50, help="other viewers on the live feed on the phone")
    parser.add_argument("--actions", type=int, default=0, help="actions played in each run (0: the whole game)")
    args = parser.parse_args()
    baseline, phone = Run("baseline"), Run("phone")
    with chromium() as browser:
        one_run(browser, baseline, 1, 0, args.loads, args.actions)
        one_run(browser, phone, args.throttle, args.viewers, args.loads, args.actions)
    taps_table(baseline)
    print(f"phone: CPU throttled {args.throttle:g}x, {args.viewers} other viewers on /ws; baseline: neither; "
          f"a 390x844 touch viewport, loopback")
    print(line("board drawn after load, phone", phone.drawn, BOARD_TARGET_MS))
    print(line("board drawn after load, baseline", baseline.drawn))
    for run in (phone, baseline):
        print(f"  {run.name}: DOMContentLoaded median {statistics.median(p[0] for p in run.parts):.0f} ms, "
              f"/api/floor in median {statistics.median(p[1] for p in run.parts):.0f} ms")
    print(line("tap -> next paint, phone", phone.paints, PAINT_TARGET_MS))
    print(line("tap -> next paint, baseline", baseline.paints))
    print("  the phone's slowest taps: " + ", ".join(f"{name} {ms:.0f} ms" for ms, name in phone.slowest))
    print(f"ratio phone / baseline: board drawn median "
          f"{statistics.median(phone.drawn) / statistics.median(baseline.drawn):.2f}x, tap -> paint median "
          f"{statistics.median(phone.paints) / statistics.median(baseline.paints):.2f}x")


if __name__ == "__main__":
    main()
