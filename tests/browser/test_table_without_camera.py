"""The dashboard of a table with no camera (the real service and app on loopback, Debian's chromium at phone and
laptop size): the corporation's turn lists the guards' moves for the players to carry out, says nothing ticks
them off, and its Play message reads in words (no "-- security activation --"); a game over offers no
corporation turn, and Next says it starts the next game. Screenshots go to test-artifacts/nocamera-*.png."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from controller.autoplay.player import AutoPlayer
from controller.service.table import TableService
from tests.browser.chromium import ARTIFACTS
from tests.browser.phone_support import LAPTOP, PHONE, WAIT
from tests.browser.tools_support import PIN, running_table

pytestmark = pytest.mark.slow

SIZES = {"phone": {"viewport": PHONE, "has_touch": True, "is_mobile": True}, "laptop": {"viewport": LAPTOP}}


def played_until(done: Any) -> Any:
    """A table's `prepare`: a new game the auto-player plays on until `done(state)`."""
    def prepare(service: TableService) -> None:
        service.new_game()
        player = AutoPlayer()
        for _ in range(600):
            if done(service.state):
                return
            service.apply(player.choose(service.state))
        raise AssertionError("the condition never held in 600 actions")
    return prepare


def unlocked(browser: Browser, url: str, size: str) -> Page:
    page = browser.new_context(**SIZES[size]).new_page()  # type: ignore[arg-type]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url + "/")
    expect(page.locator("#board .unit")).not_to_have_count(0, timeout=WAIT)
    page.fill("#pin-input", PIN)
    page.locator("#pin-form button[type=submit]").click()
    expect(page.locator("#steps")).to_be_visible(timeout=WAIT)
    return page


def shot(page: Page, name: str, size: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"nocamera-{name}-{size}.png"), full_page=True)


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_corporations_moves_are_listed_for_the_players_without_a_camera(tmp_path: Path, browser: Browser,
                                                                           size: str) -> None:
    with running_table(tmp_path, prepare=played_until(lambda s: s.turn.step == "corporation")) as (url, service):
        page = unlocked(browser, url, size)
        before = {u.id: u.space for u in service.state.security}
        expect(page.locator("#corp")).to_be_visible()
        page.locator("#corp").click()
        expect(page.locator("#message")).to_contain_text("Security activation", timeout=WAIT)
        expect(page.locator("#message")).not_to_contain_text("--")
        moved = [u for u in service.state.security if before.get(u.id) not in (None, u.space)]
        assert moved, "the corporation's turn moved no guard: the test needs one"
        for unit in moved:
            line = page.locator(f'#instructions li[data-unit="{unit.id}"]')
            expect(line).to_contain_text(re.compile(f"move .* to {unit.space}"), timeout=WAIT)
            expect(line).to_have_attribute("data-done", "false")
        expect(page.locator("#instructions-note")).to_be_visible()
        expect(page.locator("#instructions")).not_to_contain_text("Nothing to move")
        expect(page.locator("#questions")).to_contain_text("None.")
        page.locator("#instructions").scroll_into_view_if_needed()
        shot(page, "corporation", size)
        assert page.errors == []  # type: ignore[attr-defined]


def test_a_game_over_offers_no_corporation_turn_and_next_starts_another(tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, prepare=played_until(lambda s: s.outcome is not None)) as (url, service):
        assert service.state.turn.step == "corporation"  # where the page used to offer one more
        page = unlocked(browser, url, "phone")
        expect(page.locator("#summary")).to_contain_text(service.state.outcome.result, timeout=WAIT)
        expect(page.locator("#corp")).to_be_hidden()
        expect(page.locator("#next")).to_have_text("Next game")  # the table's next button starts another
        expect(page.locator("#undo")).to_be_visible()
        expect(page.locator("#actions")).to_contain_text("The game is over")
        shot(page, "game-over", "phone")
        assert page.errors == []  # type: ignore[attr-defined]
