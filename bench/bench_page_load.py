"""The dashboard's first load on a phone-sized viewport, on loopback (issue 21: at most 1 s), in Debian's chromium.

A table service (a real `TableService` with a game, its web server on 127.0.0.1) serves the page; each load is a
fresh browser context (nothing cached), timed from navigation start to the load event and to the board first
drawn with its units (the page marks `board-drawn` once the live feed's snapshot and /api/floor are drawn). The
baseline is the same load of one static file as large as all the page's assets together, from the same server,
so the ratio is what the page's scripts, its requests and its drawing cost over the bytes alone.

    .venv/bin/python bench/bench_page_load.py [--loads 30]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import threading
from pathlib import Path

import checkout  # noqa: F401  # the checkout first on the import path (bench/checkout.py)
from fastapi.responses import HTMLResponse
from playwright.sync_api import Browser, sync_playwright
from stats import percentile

from controller.cli.compose import build
from controller.service.frame.config import ServiceConfig
from controller.service.table import TableService
from tests.browser.chromium import wait_until
from tests.support.net import free_port

PHONE = {"width": 412, "height": 900}
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
TARGET_S = 1.0


def start_table(folder: Path, port: int) -> tuple[TableService, threading.Thread]:
    config = ServiceConfig(database={"path": folder / "games.sqlite3"},  # type: ignore[arg-type]
                           web={"host": "127.0.0.1", "port": port}, camera={"source": "none"})
    service = build(config, seed=3)
    ready = threading.Event()
    thread = threading.Thread(target=lambda: asyncio.run(service.run(ready.set)), daemon=True)
    thread.start()
    if not ready.wait(30):
        raise SystemExit("the table service did not start within 30 s")
    return service, thread


def one_load(browser: Browser, url: str, board: bool) -> tuple[float, float | None, int]:
    """Seconds to the load event, to the board drawn (None for the baseline), and the bytes of the responses."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    sizes: list[int] = []
    page.on("response", lambda r: sizes.append(len(r.body())) if r.ok and "/api/" not in r.url else None)
    page.goto(url, wait_until="load")
    if board:
        wait_until(page, "performance.getEntriesByName('board-drawn').length > 0", timeout=10_000)
    loaded = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd") / 1000
    drawn = page.evaluate("performance.getEntriesByName('board-drawn')[0].startTime") / 1000 if board else None
    context.close()
    return loaded, drawn, sum(sizes)


def line(label: str, seconds: list[float]) -> str:
    return (f"{label}: median {statistics.median(seconds) * 1000:.0f} ms, "
            f"p99 {percentile(seconds, 0.99) * 1000:.0f} ms over {len(seconds)} loads")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=30, help="loads of each page to time")
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("Debian's chromium is not installed: apt-get install chromium")
    with tempfile.TemporaryDirectory(prefix="bench-page-") as tmp:
        port = free_port()
        service, thread = start_table(Path(tmp), port)
        web = next(c for c in service.components if c.name == "web")
        base = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=FLAGS)
                one_load(browser, f"{base}/", True)  # warm the server (and the floor's compile cache)
                loads = [one_load(browser, f"{base}/", True) for _ in range(args.loads)]
                asset_bytes = loads[0][2]
                filler = "<!doctype html><title>baseline</title><!--" + "x" * max(0, asset_bytes - 60) + "-->"
                web.app.add_api_route("/bench-baseline", lambda: HTMLResponse(filler),  # type: ignore[attr-defined]
                                      include_in_schema=False)
                one_load(browser, f"{base}/bench-baseline", False)
                baseline = [one_load(browser, f"{base}/bench-baseline", False)[0] for _ in range(args.loads)]
                browser.close()
        finally:
            service.stop()
            thread.join(15)
            service.session.close()
    loaded = [x[0] for x in loads]
    drawn = [x[1] for x in loads if x[1] is not None]
    print(f"the page's assets: {asset_bytes} bytes (HTML, scripts, styles; the JSON it reads not counted), "
          f"phone viewport {PHONE['width']}x{PHONE['height']}, loopback, a fresh browser context per load")
    print(line("navigation -> load event", loaded))
    print(line("navigation -> first board drawn (snapshot + floor)", drawn)
          + f"  (target <= {TARGET_S * 1000:.0f} ms: {'met' if percentile(drawn, 0.99) <= TARGET_S else 'MISSED'})")
    print(line(f"baseline: one static file of {asset_bytes} bytes, navigation -> load event", baseline))
    print(f"ratio: load event median {statistics.median(loaded) / statistics.median(baseline):.2f}x, "
          f"board drawn median {statistics.median(drawn) / statistics.median(baseline):.2f}x the baseline's load")


if __name__ == "__main__":
    main()
