"""What the tool pages' browser tests share: a real table service (compose.build, its web server on a loopback
port, a fresh game log) run in a thread, Debian's chromium through Playwright, and screenshots for a person."""

from __future__ import annotations

import asyncio
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from controller.cli.compose import build
from controller.service.devices.led_output import LedOutput
from controller.service.frame.config import ServiceConfig
from controller.service.table import TableService
from tests.browser.chromium import ARTIFACTS, free_port
from vision.sources.base import FrameSource

PIN = "246810"
PHONE = {"width": 412, "height": 900}


@contextmanager
def running_table(tmp_path: Path, *, source: Callable[[], FrameSource] | None = None,
                  prepare: Callable[[TableService], None] | None = None, seed: int = 5,
                  game: dict[str, Any] | None = None,
                  leds: LedOutput | None = None) -> Iterator[tuple[str, TableService]]:
    """A table service serving on 127.0.0.1 until the block ends; `prepare` runs before it starts. `seed` seeds
    its games and virtual dice, `game` is table.toml's [game] (the new-game form's defaults), `leds` its LEDs
    (the demo's virtual strip; none by default)."""
    port = free_port()
    config = ServiceConfig(database={"path": tmp_path / "games.sqlite3"},  # type: ignore[arg-type]
                           web={"host": "127.0.0.1", "port": port, "pin": PIN},  # type: ignore[arg-type]
                           camera={"source": "none"}, game=game or {})  # type: ignore[arg-type]
    service = build(config, seed=seed, source=source, leds=leds)
    if prepare is not None:
        prepare(service)
    thread = threading.Thread(target=lambda: asyncio.run(service.run()), daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/status", timeout=1):
                break
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError("the table service did not start serving within 30 s") from None
            time.sleep(0.05)
    try:
        yield url, service
    finally:
        service.stop()
        thread.join(15)


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def unlock(page: Page) -> None:
    """Type the table's PIN into the tool pages' PIN dialog, which a change that needs it opens."""
    dialog = page.locator(".pin-dialog")
    dialog.wait_for()
    dialog.locator("input[name=pin]").fill(PIN)
    dialog.locator("button[type=submit]").click()
    dialog.wait_for(state="detached")
