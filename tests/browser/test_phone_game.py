"""A whole game of Data Heist played from a phone (issue 27): a 390x844 touch page on the real app, served by a
real table service (no camera) on loopback, that only taps. New game from the form, every agent's turn, the
corporation's turns, to the result; once with the table's virtual dice, once with dice rolled at the table and
tapped in on the page. The auto-player decides (reading the game in-process, as the person with the phone
reads the table); the page does everything. Each action's taps are counted; screenshots of the moments a
person looks at go to test-artifacts/phone-game-*.png."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from controller.autoplay.player import AutoPlayer
from controller.rules import CorporationTurn, Step
from controller.service.table import TableService
from tests.browser.phone_support import WAIT, Phone, Taps, taps_by_kind
from tests.browser.tools_support import running_table
from tests.browser.touch_support import centre, pinch, unpainted

SEED = 1  # the form's game: Nano alone on the lobby, won in 7 rounds and 98 actions with the table's dice
MOST_ACTIONS = 400  # a game the auto-player does not end by then is a failure, not a wait


def play_a_game(browser: Browser, url: str, service: TableService, dice: str) -> Phone:
    """The game night: unlock, a new game from the form, the dice mode, then every action to the result."""
    phone = Phone.open(browser, url, service, seed=SEED)
    phone.moments = dice
    phone.unlock()
    phone.moment("unlocked")
    phone.new_game(mission="data-heist", agents=["nano"])
    if dice == "physical":
        phone.pick("#dice-mode", "physical")
        assert phone._until(lambda: service.session.dice_mode == "physical"), "the dice mode did not change"
    else:  # a pinch and Reset zoom first, as the player whose result screen showed the board half black (issue 37)
        phone.page.locator("#board-wrap").scroll_into_view_if_needed()
        pinch(phone.page.context.new_cdp_session(phone.page), centre(phone.page, "#board-wrap"), 60, 240)
        phone.page.wait_for_timeout(1000)
        phone.tap("#zoom-reset")
        expect(phone.page.locator("#zoom-reset")).to_be_disabled(timeout=WAIT)
    player = AutoPlayer()
    for _ in range(MOST_ACTIONS):
        phone.settle()
        state = service.session.state
        if state.outcome is not None:
            break
        action = player.choose(state)
        if isinstance(action, Step) and state.turn.pending is not None:
            _look_at(phone, "#board-panel", "step")  # the board and the steps it offers
        phone.act(action)
        if isinstance(action, CorporationTurn):
            _look_at(phone, "#play", "corporation")  # what the corporation did, and the next turn's actions
    else:
        raise AssertionError(f"no result within {MOST_ACTIONS} actions")
    expect(phone.page.locator("#summary")).to_contain_text(state.outcome.result, timeout=WAIT)
    _look_at(phone, "body", "result")
    phone.page.locator("#board-wrap").scroll_into_view_if_needed()
    assert unpainted(phone.page, f"phone-game-result-board-{dice}") == []
    return phone


def _look_at(phone: Phone, selector: str, moment: str) -> None:
    """The player scrolls to what they look at (the first time): a screenshot of the phone's screen."""
    if f"{phone.moments}-{moment}" not in phone.taken:
        phone.page.locator(selector).evaluate("(e) => e.scrollIntoView({block: 'start'})")
        phone.moment(moment)


def _report(record: list[Taps]) -> str:
    return "; ".join(f"{kind} median {statistics.median(t)} worst {max(t)} ×{len(t)}"
                     for kind, t in sorted(taps_by_kind(record).items()))


@pytest.mark.slow
@pytest.mark.parametrize("dice", ["virtual", "physical"])
def test_a_whole_game_of_data_heist_from_a_phone(tmp_path: Path, browser: Browser, dice: str) -> None:
    # the table starts a game of its own (seed SEED - 1) when it starts; the form's is the next seed
    with running_table(tmp_path, seed=SEED - 1, game={"agents": ("nano",), "mission": "data-heist"}) as (url, service):
        phone = play_a_game(browser, url, service, dice)
        assert service.session.state.outcome is not None
        record = phone.record
        print(f"\n{dice} dice: {len(record)} actions; taps: {_report(record)}")
        assert all(t.taps >= 1 for t in record), "every action took at least one tap on the page"
        assert all(t.faces == 0 for t in record) if dice == "virtual" else any(t.faces for t in record)
        assert phone.errors == []
        phone.page.context.close()
