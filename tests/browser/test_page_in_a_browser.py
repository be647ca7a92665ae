"""The table's page in a real browser: Debian's chromium driven by Playwright against a demo table on loopback.

A phone-sized viewport and a laptop's: the page shows the game (title, threat track, instructions, health),
follows it live as the demo plays, says plainly when the table stops answering, and comes back by itself when
the table does. Screenshots go to test-artifacts/ for a person to look at.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(port: int, db: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "demo", "--host", "127.0.0.1", "--port", str(port),
                             "--pace", "0.3", "--seed", "3", "--leds", "virtual", "--db", str(db)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=1) as r:
                if json.load(r).get("game"):
                    return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError(f"the demo did not start: {proc.stderr.read().decode() if proc.stderr else ''}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    port = _free_port()
    db = tmp_path / "demo.sqlite3"
    proc = _start(port, db)
    yield port, db
    _stop(proc)


@pytest.fixture
def browser():
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is not installed (the test command installs it)"
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("viewport", [{"width": 412, "height": 900}, {"width": 1280, "height": 800}],
                         ids=["phone", "laptop"])
def test_the_page_shows_the_game_and_follows_it_live(table, browser, viewport):
    port, _ = table
    page = browser.new_page(viewport=viewport)
    page.goto(f"http://127.0.0.1:{port}/")
    expect(page.locator("#title")).to_have_text("Operation Data Heist on Meridian Tower, Lobby")
    expect(page.locator("#summary")).to_contain_text("threat")
    expect(page.locator("#threat .led")).to_have_count(27)  # the threat track as the LEDs show it
    expect(page.locator("#health li")).not_to_have_count(0)
    expect(page.locator("#health")).to_contain_text("camera")
    first = int(page.locator("#summary").inner_text().rsplit("change ", 1)[1])
    expect(page.locator("#summary")).not_to_contain_text(f"change {first}", timeout=15_000)  # the game goes on
    expect(page.locator("#log li")).not_to_have_count(0)
    expect(page.locator("#log")).to_contain_text("A new game: Operation Data Heist")  # words, not a change's kind
    assert "new_game" not in page.locator("#log").inner_text()
    if viewport["width"] < 500:  # a phone: nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    _shot(page, f"page-{'phone' if viewport['width'] < 500 else 'laptop'}")


def test_the_page_says_when_the_table_is_gone_and_comes_back_by_itself(tmp_path, browser):
    port, db = _free_port(), tmp_path / "demo.sqlite3"
    proc = _start(port, db)
    page = browser.new_page(viewport={"width": 412, "height": 900})
    page.goto(f"http://127.0.0.1:{port}/")
    expect(page.locator("#title")).to_contain_text("Operation Data Heist")
    expect(page.locator("#offline")).to_be_hidden()
    _stop(proc)
    expect(page.locator("#offline")).to_be_visible(timeout=10_000)
    _shot(page, "page-offline")
    proc = _start(port, db)  # the same game log: the table restarts where it was
    try:
        expect(page.locator("#offline")).to_be_hidden(timeout=30_000)
        expect(page.locator("#title")).to_contain_text("Operation Data Heist")
    finally:
        _stop(proc)
