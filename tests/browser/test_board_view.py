"""The board as drawn on a 390x844 touch phone and a 1366x900 laptop (Debian's chromium, the real service on
loopback): every room's name lies inside its room and the board, wrapped or shortened where it must be, and in
view as the board pans; the board is painted whole, never panned past its edge, after a pinch, Reset zoom and the
game's end (issue 37). Screenshots go to test-artifacts/board-view-*.png."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from controller.autoplay.player import AutoPlayer
from tests.browser.chromium import ARTIFACTS, page_at
from tests.browser.phone_support import LAPTOP, PHONE, WAIT
from tests.browser.tools_support import PIN, running_table
from tests.browser.touch_support import centre, pinch, touch_drag, unpainted

pytestmark = pytest.mark.slow

SIZES = {"phone": {"viewport": PHONE, "has_touch": True, "is_mobile": True}, "laptop": {"viewport": LAPTOP}}
FLOORS = ["meridian-lobby", "meridian-annex", "meridian-labs"]
SOME_OF_A_ROW = 30  # CSS px of a room's row in view: room for a letter and "…" at the phone's 26 px a space

# each room's name: its box in board units, its room's box (its spaces'), its text as drawn, the board's size
NAMES = """() => {
  const svg = document.getElementById('board');
  const spaces = [...svg.querySelectorAll('rect.space')];
  const [, , w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
  return [...svg.querySelectorAll('text.area-name')].map((t) => {
    const box = t.getBBox(), mine = spaces.filter((r) => r.dataset.area === t.dataset.area);
    const xs = mine.map((r) => Number(r.getAttribute('x'))), ys = mine.map((r) => Number(r.getAttribute('y')));
    return {text: [...t.childNodes].filter((n) => n.nodeName !== 'title').map((n) => n.textContent).join(' '),
            title: t.querySelector('title') ? t.querySelector('title').textContent : null,
            box: [box.x, box.y, box.x + box.width, box.y + box.height],
            room: [Math.min(...xs), Math.min(...ys), Math.max(...xs) + 10, Math.max(...ys) + 10],
            board: [0, 0, w - 9, h - 8]};
  });
}"""

# each room's name on the screen (CSS px): its box, and the part of its row of the room the frame shows, right of
# the row numbers' strip and below the column letters' strip
NAMES_ON_SCREEN = """() => {
  const svg = document.getElementById('board'), frame = document.getElementById('board-wrap');
  const f = frame.getBoundingClientRect();
  const rows = svg.querySelector('.coordinates .rows rect').getBoundingClientRect();
  const columns = svg.querySelector('.coordinates .columns rect').getBoundingClientRect();
  const spaces = [...svg.querySelectorAll('rect.space')];
  return [...svg.querySelectorAll('text.area-name')].map((t) => {
    const box = t.getBoundingClientRect(), y = Number(t.getAttribute('y'));
    const row = spaces.filter((r) => r.dataset.area === t.dataset.area && Number(r.getAttribute('y')) <= y
                                     && y < Number(r.getAttribute('y')) + 10).map((r) => r.getBoundingClientRect());
    return {text: [...t.querySelectorAll('tspan')].map((l) => l.textContent).join(' '),
            box: [box.left, box.top, box.right, box.bottom],
            shown: [Math.max(rows.right, ...row.map((r) => r.left).slice(0, 1), Math.min(...row.map((r) => r.left))),
                    columns.bottom,
                    Math.min(f.left + frame.clientLeft + frame.clientWidth, Math.max(...row.map((r) => r.right))),
                    f.top + frame.clientTop + frame.clientHeight]};
  });
}"""


def names_in_view(page: Page) -> list[str]:
    """The names the frame cuts, of rooms whose row shows in the frame: none may be (a name is shortened to what
    its row shows)."""
    cut = []
    for name in page.evaluate(NAMES_ON_SCREEN):
        (left, top, right, bottom), (shown_left, shown_top, shown_right, shown_bottom) = name["box"], name["shown"]
        in_view = top >= shown_top and bottom <= shown_bottom
        if in_view and shown_right - shown_left >= SOME_OF_A_ROW and not (
                left >= shown_left - 1 and right <= shown_right + 1):
            cut.append(f"{name['text']!r} at {left:.0f}-{right:.0f} px, its room shown at {shown_left:.0f}-"
                       f"{shown_right:.0f} px")
    return cut


def unlocked(page: Page) -> None:
    """The table's PIN typed: this phone plays."""
    page.fill("#pin-input", PIN)
    page.locator("#pin-form button[type=submit]").click()
    expect(page.locator("#actions .action")).not_to_have_count(0, timeout=WAIT)
    page.locator("#board-wrap").scroll_into_view_if_needed()


def inside(box: list[float], frame: list[float], slack: float = 0.05) -> bool:
    return (box[0] >= frame[0] - slack and box[1] >= frame[1] - slack
            and box[2] <= frame[2] + slack and box[3] <= frame[3] + slack)


@pytest.mark.parametrize("size", list(SIZES))
def test_every_room_name_lies_inside_its_room_and_the_board(tmp_path: Path, browser: Browser, size: str) -> None:
    """Issue 37: "ption" for Reception, "afe zone", names run off the board's edge on a phone. Every name lies in
    its room's box and the board's, on every shipped floor: whole, in two lines, or shortened with its whole name
    in its title."""
    for floor in FLOORS:
        folder = tmp_path / floor
        folder.mkdir()
        with running_table(folder, prepare=lambda s, f=floor: s.start_game(  # type: ignore[misc]
                floor=f, mission="data-heist", agents=["nano"])) as (url, _):
            page = page_at(browser, url + "/", **SIZES[size])  # type: ignore[arg-type]
            names = page.evaluate(NAMES)
            with urllib.request.urlopen(f"{url}/api/floor", timeout=10) as answer:
                rooms = [a for a in json.load(answer)["areas"] if a["kind"] != "hallway"]
            assert len(names) == len(rooms)
            for name in names:
                assert inside(name["box"], name["room"]), f"{floor}: {name['text']!r} runs out of its room: {name}"
                assert inside(name["box"], name["board"]), f"{floor}: {name['text']!r} runs off the board: {name}"
                assert name["title"] in {a["name"] for a in rooms}, name
                assert name["text"] == name["title"] or "…" in name["text"], name  # whole, wrapped or shortened
            ARTIFACTS.mkdir(exist_ok=True)
            page.locator("#board-wrap").screenshot(path=str(ARTIFACTS / f"board-view-names-{floor}-{size}.png"))
            assert page.errors == []  # type: ignore[attr-defined]
            page.context.close()


def test_room_names_stay_in_view_as_the_board_pans_on_a_phone(tmp_path: Path, browser: Browser) -> None:
    """The board opens panned to the active agent and a finger pans it: a name whose room runs under the frame's
    left edge slides along its row of the room, so the frame never cuts a name its room has room for in view."""
    with running_table(tmp_path, prepare=lambda s: s.new_game()) as (url, service):
        page = page_at(browser, url + "/", **SIZES["phone"])  # type: ignore[arg-type]
        cdp = page.context.new_cdp_session(page)
        frame = page.locator("#board-wrap")
        frame.scroll_into_view_if_needed()
        for k, shift in enumerate([0, 25, 60, 95, 140]):
            page.evaluate("x => { document.getElementById('board-wrap').scrollLeft = x; }", shift)
            page.wait_for_timeout(100)
            assert names_in_view(page) == [], f"panned {shift} px"
            if k == 2:
                ARTIFACTS.mkdir(exist_ok=True)
                frame.screenshot(path=str(ARTIFACTS / "board-view-names-panned-phone.png"))
        x, y = centre(page, "#board-wrap")
        touch_drag(cdp, (x - 150, y), (x + 150, y))  # a finger pans it back to its left edge
        page.wait_for_timeout(200)
        assert page.evaluate("document.getElementById('board-wrap').scrollLeft") == 0
        assert names_in_view(page) == []
        assert page.errors == []  # type: ignore[attr-defined]


def test_the_board_is_painted_whole_after_a_pinch_a_reset_and_the_games_end(tmp_path: Path, browser: Browser) -> None:
    """Issue 37: the playing phone's board was black in its top half on the result screen, after a pinch, Reset
    zoom and the game's end. The frame's view is checked pixel by pixel after each, and after a finger pans past
    every edge: the board is painted in every part of the frame, which is never panned past the board."""
    with running_table(tmp_path, prepare=lambda s: s.new_game()) as (url, service):
        page = page_at(browser, url + "/", **SIZES["phone"])  # type: ignore[arg-type]
        unlocked(page)
        cdp = page.context.new_cdp_session(page)
        assert unpainted(page, "paint-opened-phone") == []
        pinch(cdp, centre(page, "#board-wrap"), 60, 240)
        page.wait_for_timeout(300)
        assert float(page.locator("#board").get_attribute("data-cell") or 0) > 60
        assert unpainted(page, "paint-pinched-phone") == []
        x, y = centre(page, "#board-wrap")
        for dx, dy in ((-400, 0), (0, -400), (400, 0), (0, 400)):  # a finger pans as far as it goes each way
            touch_drag(cdp, (x - dx / 4, y - dy / 4), (x + dx / 4, y + dy / 4))
            touch_drag(cdp, (x - dx / 4, y - dy / 4), (x + dx / 4, y + dy / 4))
        page.locator("#board-wrap").scroll_into_view_if_needed()
        assert unpainted(page, "paint-panned-phone") == []
        page.wait_for_timeout(1000)  # a person's next tap (chromium takes a tap right after a swipe for its end)
        page.locator("#zoom-reset").tap()
        expect(page.locator("#zoom-reset")).to_be_disabled(timeout=WAIT)
        assert unpainted(page, "paint-reset-phone") == []
        player = AutoPlayer()
        while service.session.state.outcome is None:
            service.session.apply(player.choose(service.session.state))
        expect(page.locator("#next")).to_have_text("Next game", timeout=WAIT)
        page.wait_for_timeout(500)
        page.locator("#board-wrap").scroll_into_view_if_needed()
        assert unpainted(page, "paint-result-phone") == []
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "board-view-paint-result-page-phone.png"))
        assert page.errors == []  # type: ignore[attr-defined]
