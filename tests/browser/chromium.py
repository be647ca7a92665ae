"""What every browser test shares: Debian's chromium under Playwright (it cannot download its own browsers here),
the flags that keep it from reaching the network, loopback ports, a page opened with its script errors kept, and
the folder screenshots go to."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.support.net import free_port

# free_port: the one in tests/support, for every browser test
__all__ = ["ARTIFACTS", "DRAWN_MS", "chromium", "free_port", "page_at"]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DRAWN_MS = 30_000  # how long a page may take to draw: a shared 2-core machine, a camera rendering the table


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's chromium, launched by Playwright, closed when the block ends."""
    path = shutil.which("chromium")
    assert path, "Debian's chromium is not installed (the test command installs it)"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def page_at(browser: Browser, url: str, *, board: bool = True, **context: Any) -> Page:
    """`url` in a browser context of its own (`context`: viewport, has_touch, is_mobile), and on the dashboard
    (`board`) once its board shows the units. The page's uncaught script errors gather in `page.errors`, which a
    test asserts empty at its end."""
    page = browser.new_context(**context).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    if board:
        expect(page.locator("#board .unit")).not_to_have_count(0, timeout=DRAWN_MS)
    page.errors = errors  # type: ignore[attr-defined]
    return page
