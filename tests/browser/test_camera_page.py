"""The camera page in Debian's chromium over the demo's synthetic camera: the picture is behind the PIN, then
shown with its overlay; the calibration flow finds all eight markers, shows the grid over the picture and
confirms it, and the table has saved it. Screenshots in test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from controller.service.demo.booth import DemoCamera, DemoTable
from tests.browser.chromium import chromium, wait_until
from tests.browser.tools_support import PHONE, running_table, shot, unlock

pytestmark = pytest.mark.slow  # a browser: Debian's chromium against a served table


def test_the_camera_page_walks_through_calibration(tmp_path: Path) -> None:
    table = DemoTable()
    with running_table(tmp_path, source=lambda: DemoCamera(table, fps=15),
                       prepare=lambda s: table.lay_out(s.record)) as (url, service), chromium() as browser:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{url}/camera")
        page.locator("#unlock-slot button").click()
        unlock(page)
        expect(page.locator("#picture")).to_have_attribute("src", re.compile(r"^blob:"))
        expect(page.locator("#health")).to_contain_text("8 of 8 markers")
        page.locator("#find").click()
        expect(page.locator("#find-status")).to_contain_text("8 of 8 markers found.")
        expect(page.locator("#markers li.found")).to_have_count(8)
        expect(page.locator("#overlay")).to_have_attribute("src", re.compile(r"^blob:"))
        wait_until(page, "document.getElementById('overlay').naturalWidth > 0")
        expect(page.locator("#confirm")).to_be_enabled()
        page.locator("#confirm").click()
        expect(page.locator("#confirmed")).to_contain_text("Saved: the grid of Meridian Tower, Lobby is confirmed")
        expect(page.locator("#health")).to_contain_text("grid confirmed for Meridian Tower, Lobby")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(page, "camera-calibrated-phone")
        assert (tmp_path / "registration.json").exists()
        assert service._camera is not None and service._camera.saved is not None


def test_the_floor_editor_draws_over_the_cameras_picture_of_the_mat(tmp_path: Path) -> None:
    """A shipped floor read into the editor (it checks valid again, written back from the drawing), over the
    demo camera's picture straightened by its markers."""
    table = DemoTable()
    with running_table(tmp_path, source=lambda: DemoCamera(table, fps=15),
                       prepare=lambda s: table.lay_out(s.record)) as (url, _), chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{url}/floors/edit")
        page.locator(".pin-dialog").wait_for(state="detached")  # nothing asked until the picture is wanted
        page.locator("#backdrop-note button").click()
        unlock(page)
        page.locator("#start").select_option("meridian-lobby")
        expect(page.locator("#check")).to_have_text(re.compile(r"my-floor\.floor: valid floor 'Meridian Tower, Lobby', "
                                                               r"level 1: \d+ spaces"))
        expect(page.locator("#backdrop-note")).to_contain_text("Under the grid: the camera's picture of the mat")
        expect(page.locator("#grid image")).to_have_count(1)
        shot(page, "floor-editor-over-the-camera-laptop")


def test_after_a_new_game_on_another_floor_the_camera_page_asks_for_the_mat_not_the_lens(tmp_path: Path) -> None:
    """The game moved to the annex while the lobby's mat still lies on the table: the markers no longer fit the
    board the table expects, which no calibration of the lens would fix; the page says to change the mat."""
    table = DemoTable()
    with running_table(tmp_path, source=lambda: DemoCamera(table, fps=15),
                       prepare=lambda s: table.lay_out(s.record)) as (url, service), chromium() as browser:
        page = browser.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
        page.goto(f"{url}/camera")
        page.locator("#unlock-slot button").click()
        unlock(page)
        expect(page.locator("#health")).to_contain_text("8 of 8 markers")
        service.start_game(floor="meridian-annex", mission="tower-run", agents=["nano"], difficulty="standard",
                           level=None, captain=None)  # nobody has changed the mat yet
        expect(page.locator("#health")).to_contain_text(
            "do not fit Meridian Tower, Annex, the floor the game is on: if the game has just changed floors, put "
            "Meridian Tower, Annex's mat on the table", timeout=30_000)
        expect(page.locator("#health")).not_to_contain_text("lens")
        shot(page, "camera-old-mat-phone")


def test_the_camera_page_looks_again_when_the_table_says_so_not_on_a_timer(tmp_path: Path) -> None:
    """A still table: after its first look the page asks nothing for seconds (it asked once a second before); a
    hand moves a chip, the camera reads it, and the page looks again by itself."""
    table = DemoTable()
    with running_table(tmp_path, source=lambda: DemoCamera(table, fps=15),
                       prepare=lambda s: table.lay_out(s.record)) as (url, service), chromium() as browser:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{url}/camera")
        page.locator("#unlock-slot button").click()
        unlock(page)
        expect(page.locator("#health")).to_contain_text("8 of 8 markers", timeout=30_000)
        page.wait_for_timeout(2000)  # the camera has settled on what it reads
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        page.wait_for_timeout(3000)
        assert [u for u in asked if "/api/camera/status" in u] == []
        state = service.state
        bot = next(b for b in state.bots if b.kind == "agent" and b.space)
        assert table.move_chip(bot.id, "A1")  # a hand puts a chip where the game does not have it
        wait_until(page, "(n) => performance.getEntriesByType('resource')"
                         ".filter((r) => r.name.includes('/api/camera/status')).length > n",
                   page.evaluate("performance.getEntriesByType('resource')"
                                 ".filter((r) => r.name.includes('/api/camera/status')).length"), timeout=30_000)
        expect(page.locator("#health")).to_contain_text("chips read")
        shot(page, "camera-pushed-phone")
