"""Every page audited with axe-core (axe-playwright-python bundles it) at phone and laptop size: no serious or
critical violation, and every visible control reachable with the keyboard's Tab (issue 27).

The pages: the dashboard watching and unlocked with a game (a choice form open), the camera page, the floor
editor, a game's replay with its summary, and the hall's page (controller/hall, served by its own app)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from controller.autoplay.player import AutoPlayer
from controller.hall.view import HallView
from controller.service.demo.booth import VirtualStrip
from controller.service.devices.led_output import LedOutput
from controller.service.table import TableService
from tests.browser.chromium import ARTIFACTS, free_port
from tests.browser.phone_support import LAPTOP, PHONE, WAIT
from tests.browser.tools_support import PIN, running_table
from web.hall import create_hall_app

SIZES = {"phone": {"viewport": PHONE, "has_touch": True, "is_mobile": True}, "laptop": {"viewport": LAPTOP}}
SERIOUS = ("serious", "critical")
PLAYED = 30  # actions of the game the pages show, so the replay and the log have something to say

# every visible control a keyboard user must reach: what is focusable by nature, and what says it is
CONTROLS = """() => [...document.querySelectorAll('a[href], button, input, select, textarea, summary')]
  .filter((e) => !e.disabled && e.type !== 'hidden'
                 && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')"""


def played(service: TableService) -> None:
    service.new_game()
    player = AutoPlayer()
    for _ in range(PLAYED):
        service.session.apply(player.choose(service.session.state))


def serious(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line each: rule, impact,
    the elements (their CSS selectors) and what to do."""
    results: dict[str, Any] = Axe().run(page).response
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:6]}: {v['help']}"
            for v in results["violations"] if v["impact"] in SERIOUS]


def unreachable(page: Page) -> list[str]:
    """The visible controls Tab never reaches, going once round the page from its top."""
    count = page.evaluate(f"({CONTROLS})().map((e, k) => {{ e.__control = k; return k; }}).length")
    page.evaluate("document.activeElement && document.activeElement.blur && document.activeElement.blur()")
    reached: set[int] = set()
    for _ in range(count * 2 + 10):
        page.keyboard.press("Tab")
        k = page.evaluate("document.activeElement ? document.activeElement.__control : undefined")
        if k is not None:
            reached.add(k)
        if len(reached) == count:
            break
    return page.evaluate(
        f"""reached => ({CONTROLS})().filter((e) => e.__control !== undefined && !reached.includes(e.__control))
              .map((e) => `${{e.tagName.toLowerCase()}}${{e.id ? '#' + e.id : ''}} `
                          + `"${{(e.textContent || e.name || '').trim().slice(0, 40)}}"`)""",
        sorted(reached))


@contextmanager
def opened(browser: Browser, url: str, size: str, name: str, ready: str, first: str | None) -> Iterator[Page]:
    """One page at one size, drawn (and unlocked first when `first` says so), with a screenshot."""
    context = browser.new_context(**SIZES[size])  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(url)
    expect(page.locator(ready).first).to_be_attached(timeout=WAIT)
    if first:
        then_do(page, first)
    page.wait_for_timeout(300)  # the live feed's first changes drawn
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"a11y-{name}-{size}.png"), full_page=True)
    try:
        yield page
    finally:
        context.close()


def then_do(page: Page, what: str) -> None:
    """The dashboard unlocked with the table's PIN, and the first action with choices opened."""
    assert what == "unlock"
    page.fill("#pin-input", PIN)
    page.locator("#pin-form button[type=submit]").click()
    expect(page.locator("#actions button.action").first).to_be_visible(timeout=WAIT)
    asks = page.locator("#actions button.action:has(.needs)")
    if asks.count():
        asks.first.click()
        expect(page.locator("#choices")).to_be_visible(timeout=WAIT)


@contextmanager
def hall_page() -> Iterator[str]:
    """The hall's app on loopback, its view holding two tables as their retained topics said."""
    view = HallView("burncycle", "127.0.0.1:1883")
    view.set_connection(True, "connected to the MQTT broker at 127.0.0.1:1883")
    for table, fields in {"table-1": {"availability": "online", "mission": "Operation Data Heist", "threat": "7",
                                      "phase": "agents", "round": "3", "player": "Nano"},
                          "table-2": {"availability": "offline", "mission": "Operation Preconnaissance",
                                      "result": "victory"}}.items():
        for name, value in fields.items():
            view.take(f"burncycle/{table}/{name}", value.encode())
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_hall_app(view), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the hall did not start serving"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(15)


@pytest.fixture(scope="module")
def urls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[str, str, str | None]]]:
    """Each page's address, what shows it is drawn, and what to do first: a table with a game of PLAYED actions
    and LEDs lit on the demo's virtual strip (the page as the demo serves it, its LEDs panel drawn), and the
    hall."""
    leds = LedOutput(VirtualStrip, what="the virtual strip (the LEDs panel of the dashboard)")
    with (running_table(tmp_path_factory.mktemp("table"), prepare=played, leds=leds) as (url, service),
          hall_page() as hall):
        game = service.session.game_id
        yield {"dashboard-watching": (f"{url}/", "#board .unit", None),
               "dashboard-playing": (f"{url}/", "#board .unit", "unlock"),
               "camera": (f"{url}/camera", "main", None),
               "floor-editor": (f"{url}/floors/edit", "main", None),
               "replay": (f"{url}/games/{game}/replay", "#board .space", None),
               "hall": (hall, "article[data-table]", None)}


ALL_PAGES = ["dashboard-watching", "dashboard-playing", "camera", "floor-editor", "replay", "hall"]
# what each page must pass: axe-core finds nothing serious, and Tab reaches every visible control
CHECKS = {"axe": serious, "keyboard": unreachable}


@pytest.mark.slow
@pytest.mark.parametrize("check", list(CHECKS))
@pytest.mark.parametrize("size", ["phone", "laptop"])
@pytest.mark.parametrize("name", ALL_PAGES)
def test_every_page_passes_the_audit(urls: dict[str, tuple[str, str, str | None]], browser: Browser,
                                     name: str, size: str, check: str) -> None:
    url, ready, first = urls[name]
    with opened(browser, url, size, name, ready, first) as page:
        assert CHECKS[check](page) == []


@pytest.mark.slow
def test_the_audited_dashboard_shows_its_leds_lit(urls: dict[str, tuple[str, str, str | None]],
                                                  browser: Browser) -> None:
    """The audit looks at the LEDs panel as lit (issue 37: its strip was a div named with no role, serious)."""
    url, ready, first = urls["dashboard-watching"]
    with opened(browser, url, "phone", "dashboard-leds", ready, first) as page:
        expect(page.locator("#leds .led")).not_to_have_count(0, timeout=WAIT)
        assert serious(page) == []


@pytest.mark.slow
def test_the_audit_sees_what_it_looks_for(browser: Browser) -> None:
    """The checks can fail: a region only a mouse scrolls, and a button taken out of the Tab order."""
    page = browser.new_page()
    page.set_content('<!doctype html><html lang="en"><title>audit</title><main><button>reached</button>'
                     '<button tabindex="-1">skipped</button><ul id="log" style="height:40px;overflow:auto">'
                     '<li>one</li><li>two</li><li>three</li><li>four</li></ul></main></html>')
    assert [v.split(" ")[0] for v in serious(page)] == ["scrollable-region-focusable"]
    assert unreachable(page) == ['button "skipped"']
    page.close()
