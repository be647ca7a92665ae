"""The replay page in Debian's chromium: a game of the auto-player's actions shown with its threat chart, then
stepped back and forth (buttons, slider), each step showing what the table's replay route says of it."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from controller.autoplay.player import AutoPlayer
from controller.rules import DIRECTION_WORDS
from controller.service.table import TableService
from tests.browser.chromium import chromium
from tests.browser.tools_support import PHONE, running_table, shot

pytestmark = pytest.mark.slow  # a browser: Debian's chromium against a served table

ACTIONS = 40


def played(service: TableService) -> None:
    service.new_game()
    player = AutoPlayer()
    for _ in range(ACTIONS):
        service.apply(player.choose(service.state))


def test_the_replay_page_steps_through_a_game(tmp_path: Path) -> None:
    with running_table(tmp_path, prepare=played) as (url, service), chromium() as browser:
        game = service.game_id
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{url}/games/{game}/replay")
        expect(page.locator("#where")).to_have_text(f"Action {ACTIONS} of {ACTIONS} · round "
                                                    f"{service.state.round} · threat "
                                                    f"{service.state.threat}")
        expect(page.locator("#chart polyline.threat")).to_have_count(1)
        assert len(page.locator("#chart polyline.threat").get_attribute("points").split()) == ACTIONS + 1
        expect(page.locator("#board .space")).not_to_have_count(0)
        page.locator("#prev").click()
        expect(page.locator("#where")).to_contain_text(f"Action {ACTIONS - 1} of {ACTIONS}")
        page.locator("#first").click()
        expect(page.locator("#action")).to_have_text("The game's start, before any action.")
        expect(page.locator("#prev")).to_be_disabled()
        page.locator("#next").click()
        with urllib.request.urlopen(f"{url}/api/games/{game}/replay/1") as reply:
            first = json.load(reply)["entry"]
        expect(page.locator("#events li")).to_have_text(first["events"] or ["Nothing to tell the players."])
        page.locator("#slider").fill("20")
        expect(page.locator("#where")).to_contain_text(f"Action 20 of {ACTIONS}")
        start = service._replays.step(game, 20).state
        expect(page.locator("#bots li")).to_have_count(len(start.bots))
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(page, "replay-phone")


# what a board draws, element by element: its class and the space, unit and facing it names
DRAWN = ("[...document.querySelectorAll('#board rect.space, #board .unit')].map(e => [e.getAttribute('class'), "
         "e.dataset.space, e.dataset.unit || '', e.dataset.facing || ''])")


def test_the_replay_draws_the_board_as_the_live_page_does(tmp_path: Path) -> None:
    """One drawing for both pages (web/static/floor.js): the same spaces, units, guards with their facing and
    coordinates as the live board, not letters and red squares of its own."""
    with running_table(tmp_path, prepare=played) as (url, service), chromium() as browser:
        game = service.game_id
        for name, viewport in (("phone", {"width": 390, "height": 844}), ("laptop", {"width": 1366, "height": 900})):
            page = browser.new_page(viewport=viewport)
            page.goto(f"{url}/")
            expect(page.locator("#board .unit")).not_to_have_count(0)
            live = page.evaluate(DRAWN)
            page.goto(f"{url}/games/{game}/replay")
            expect(page.locator("#where")).to_contain_text(f"Action {ACTIONS} of {ACTIONS}")
            replayed = page.evaluate(DRAWN)
            assert replayed == live
            expect(page.locator("#board text.coordinate")).to_have_count(20 + 16)
            expect(page.locator("#board .unit.security")).to_have_count(len(service.state.security))
            guard = service.state.security[0]  # its facing in the rules' word (GET /api/options)
            expect(page.locator(f'#board .unit[data-unit="{guard.id}"] title')).to_contain_text(
                f"facing {DIRECTION_WORDS[guard.facing]}")
            expect(page.locator("#security li").first).to_contain_text(f"facing {DIRECTION_WORDS[guard.facing]}")
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            frame = page.locator(".replay-frame").evaluate("f => [f.scrollHeight, f.clientHeight]")
            assert frame[0] <= frame[1]  # the whole board's height on the page: nothing hidden in its frame
            shot(page, f"replay-board-{name}")
            page.close()
