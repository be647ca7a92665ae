"""What every browser test shares: Debian's chromium under Playwright (it cannot download its own browsers here),
the flags that keep it from reaching the network, loopback ports, a page opened with its script errors kept, a wait
for a condition in a page that keeps its Content-Security-Policy, and the folder screenshots go to."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.support.net import free_port

# free_port: the one in tests/support, for every browser test
__all__ = ["ARTIFACTS", "DRAWN_MS", "chromium", "free_port", "keep_errors", "page_at", "wait_until"]

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


def keep_errors(page: Page, errors: list[str]) -> None:
    """Gather into `errors` what a player would never see but a test must: the page's uncaught script errors, and
    what its Content-Security-Policy refused (an inline style, an eval), which chromium only logs."""
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "Content Security Policy" in m.text
            else None)


def page_at(browser: Browser, url: str, *, board: bool = True, **context: Any) -> Page:
    """`url` in a browser context of its own (`context`: viewport, has_touch, is_mobile), and on the dashboard
    (`board`) once its board shows the units. The page's errors (`keep_errors`) gather in `page.errors`, which a
    test asserts empty at its end."""
    page = browser.new_context(**context).new_page()
    errors: list[str] = []
    keep_errors(page, errors)
    page.goto(url)
    if board:
        expect(page.locator("#board .unit")).not_to_have_count(0, timeout=DRAWN_MS)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def wait_until(page: Page, expression: str, arg: Any = None, *, timeout: float = DRAWN_MS) -> Any:
    """Wait until `expression` (or the function it is, given `arg`) is truthy in the page, and return it. Playwright's
    own wait_for_function polls with the page's eval, which every page's policy refuses (no 'unsafe-eval') after
    its first try; page.evaluate is the browser's DevTools evaluating, which the policy lets through."""
    deadline = time.monotonic() + timeout / 1000
    while not (value := page.evaluate(expression, arg)):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout / 1000:.0f} s: {expression}")
        page.wait_for_timeout(50)
    return value
