"""The floor editor in Debian's chromium: a small floor drawn by clicking (its size, features, a wall line with
a door, the areas named), checked live with `validate`'s words, saved after the PIN is typed, and the floor
saved on the table compiles to what was drawn. Screenshots in test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from controller.rules import FEATURE_WORDS, SPACE_FEATURES, compile_floor
from tests.browser.chromium import chromium
from tests.browser.tools_support import PHONE, running_table, shot, unlock

pytestmark = pytest.mark.slow  # a browser: Debian's chromium against a served table


def test_a_floor_drawn_by_clicking_is_saved_and_compiles(tmp_path: Path) -> None:
    with running_table(tmp_path) as (url, service), chromium() as browser:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{url}/floors/edit")
        # the active tool is shown pressed from the start (aria-pressed="true", not an empty attribute)
        expect(page.locator("[data-tool='edge:wall']")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("[data-tool='space:E']")).to_have_attribute("aria-pressed", "false")
        # its space tools are the floor format's features, named as the table names them (GET /api/options)
        tools = page.locator("#space-tools button")
        assert tools.evaluate_all("bs => bs.map(b => b.dataset.tool)") == [
            "space:.", "space:#", *(f"space:{ch}" for ch, feature in SPACE_FEATURES.items() if feature)]
        expect(page.locator("[data-tool='space:H']")).to_have_attribute("title", FEATURE_WORDS["hiding"])
        expect(page.locator("#areas-title")).to_be_visible()
        page.locator("#cols").fill("3")
        page.locator("#cols").dispatch_event("change")
        page.locator("#rows").fill("2")
        page.locator("#rows").dispatch_event("change")
        expect(page.locator("[data-space]")).to_have_count(6)
        for tool, space in (("E", "0:0"), ("T", "0:1"), ("H", "0:2"), ("#", "1:2")):
            page.locator(f"[data-tool='space:{tool}']").click()
            page.locator(f"[data-space='{space}']").click()
        page.locator("[data-tool='edge:wall']").click()
        page.locator("[data-edge='s:0:0']").click()
        page.locator("[data-tool='edge:door']").click()
        page.locator("[data-edge='s:0:1']").click()
        expect(page.locator("#areas li")).to_have_count(2)  # the door and the wall part the rows
        page.locator("#areas li").nth(0).locator("input").fill("Closet")
        page.locator("#areas li").nth(1).locator("select").first.select_option("hallway")
        page.locator("#areas li").nth(1).locator("input").fill("Corridor")
        page.locator("#title").fill("Drawn closet")
        expect(page.locator("#check")).to_have_text(
            "my-floor.floor: valid floor 'Drawn closet', level 1: 5 spaces, 2 areas, 1 door")
        shot(page, "floor-editor-phone")
        page.locator("#name").fill("drawn-closet")
        page.locator("#save").click()
        unlock(page)
        expect(page.locator("#saved")).to_contain_text("Saved as drawn-closet", timeout=10_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(page, "floor-editor-saved-phone")
        floor = compile_floor(service._floors.text("drawn-closet"), "drawn-closet.floor")
    assert floor.name == "Drawn closet" and (floor.rows, floor.cols) == (2, 3) and len(floor.ids) == 5
    assert [floor.feature[floor.index[s]] for s in ("A1", "B1", "C1")] == ["entrance", "terminal", "hiding"]
    assert floor.doors == ("B1/B2",)
    assert sorted((a.kind, a.name) for a in floor.areas) == [("hallway", "Corridor"), ("room", "Closet")]


def test_a_mistake_is_shown_where_it_is(tmp_path: Path) -> None:
    """A post 1 drawn in a room: the table's message is shown and the space it names is marked."""
    with running_table(tmp_path) as (url, _), chromium() as browser:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{url}/floors/edit")
        page.locator("[data-tool='space:1']").click()
        page.locator("[data-space='1:2']").click()
        expect(page.locator("#check")).to_contain_text("C2", timeout=10_000)
        expect(page.locator("#check")).to_have_class("status problem")
        expect(page.locator("[data-space='1:2']")).to_have_class("space marked")
        shot(page, "floor-editor-mistake-phone")


def test_a_shipped_floor_opens_in_the_editor_through_the_tables_parser(tmp_path: Path) -> None:
    """Starting from a shipped floor: the editor asks the table to read it (POST /api/floors/parse, the rules'
    parser) and draws that; written back out, it is the same floor."""
    with running_table(tmp_path) as (url, service), chromium() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        page.goto(f"{url}/floors/edit")
        expect(page.locator("#start option[value='meridian-lobby']")).to_have_count(1)
        page.locator("#start").select_option("meridian-lobby")
        expect(page.locator("#title")).to_have_value("Meridian Tower, Lobby")
        lobby = compile_floor(service._floors.text("meridian-lobby"))
        expect(page.locator("[data-space]")).to_have_count(lobby.rows * lobby.cols)
        expect(page.locator("#check")).to_contain_text("valid floor 'Meridian Tower, Lobby'")
        assert any(u.endswith("/api/floors/parse") for u in asked)
        shot(page, "floor-editor-lobby-phone")
