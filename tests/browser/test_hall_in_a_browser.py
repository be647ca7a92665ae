"""The hall page in a real browser: Debian's chromium through Playwright, against `burncycle-table hall` and two
real tables (`burncycle-table run`, no camera) publishing to a real mosquitto on loopback. The page lists both
tables with mission, threat and phase, shows one plainly offline once its process is stopped, and shows a
payload that looks like markup as text. A screenshot goes to test-artifacts/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.chromium import ARTIFACTS
from tests.browser.chromium import chromium as launch_chromium
from tests.support.mqtt_broker import Broker, free_port, publish

pytestmark = pytest.mark.slow  # a browser: Debian's chromium against a served table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def chromium() -> Iterator[Browser]:
    with launch_chromium() as browser:
        yield browser


def _env() -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if not k.upper().startswith("BURNCYCLE_")}, "PYTHONPATH": str(ROOT)}


def _table(tmp_path: Path, broker: Broker, table_id: str) -> subprocess.Popen[bytes]:
    env = {**_env(), "BURNCYCLE_MQTT__HOST": "127.0.0.1", "BURNCYCLE_MQTT__PORT": str(broker.port),
           "BURNCYCLE_MQTT__TABLE_ID": table_id, "BURNCYCLE_CAMERA__SOURCE": "none",
           "BURNCYCLE_WEB__HOST": "127.0.0.1", "BURNCYCLE_WEB__PORT": str(free_port()),
           "BURNCYCLE_DATABASE__PATH": str(tmp_path / f"{table_id}.sqlite3")}
    return subprocess.Popen([sys.executable, "-m", "controller.cli", "run"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _tables(port: int) -> dict[str, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1) as reply:
            return {t["id"]: t for t in json.load(reply)["tables"]}
    except OSError:
        return {}


def test_the_hall_page_lists_both_tables_and_shows_one_offline(tmp_path: Path, broker: Broker,
                                                               chromium: Browser) -> None:
    publish(broker.port, "burncycle/zz-odd/mission", "<b id=injected>bold</b>", retain=True)
    tables = [_table(tmp_path, broker, "hall-a"), _table(tmp_path, broker, "hall-b")]
    port = free_port()
    hall = subprocess.Popen([sys.executable, "-m", "controller.cli", "hall", "--broker", f"127.0.0.1:{broker.port}",
                             "--host", "127.0.0.1", "--port", str(port)], cwd=ROOT, env=_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not all(_tables(port).get(t, {}).get("online") for t in ("hall-a", "hall-b")):
            assert time.monotonic() < deadline and hall.poll() is None, _tables(port)
            time.sleep(0.2)
        page = chromium.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{port}/")
        for table_id in ("hall-a", "hall-b"):
            card = page.locator(f"article[data-table='{table_id}']")
            expect(card).to_contain_text(table_id)
            expect(card.locator(".mission")).to_have_text("Operation Data Heist")
            expect(card.locator(".status")).to_have_text("online")
            expect(card).to_contain_text("threat")
            expect(card).to_contain_text("route")  # the phase
        odd = page.locator("article[data-table='zz-odd']")
        expect(odd.locator(".mission")).to_have_text("<b id=injected>bold</b>")  # the payload shown as text
        assert page.locator("#injected").count() == 0
        expect(page.locator("#count")).to_have_text("3 tables, 2 online")

        _stop(tables.pop())  # table b stops: its last word on the broker is offline, and the page shows it
        card = page.locator("article[data-table='hall-b']")
        expect(card.locator(".status")).to_have_text("offline", timeout=15_000)
        expect(card).to_have_class("table offline")
        expect(page.locator("article[data-table='hall-a'] .status")).to_have_text("online")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "hall.png"), full_page=True)
    finally:
        for proc in [*tables, hall]:
            _stop(proc)
