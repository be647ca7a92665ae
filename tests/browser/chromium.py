"""What every browser test shares: Debian's chromium under Playwright (it cannot download its own browsers here),
the flags that keep it from reaching the network, loopback ports and the folder screenshots go to."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

from tests.support.net import free_port

__all__ = ["ARTIFACTS", "chromium", "free_port"]  # free_port: the one in tests/support, for every browser test

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


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
