"""A whole game of Data Heist played from a phone (issue 27): a 390x844 touch page on the real app, served by a
real table service (no camera) on loopback, that only taps. New game from the form, every agent's turn, the
corporation's turns, to the result; once with the table's virtual dice, once with dice rolled at the table and
tapped in on the page. The auto-player decides (reading the game in-process, as the person with the phone
reads the table); the page does everything. Each action's taps are counted; screenshots of the moments a
person looks at go to test-artifacts/phone-game-*.png."""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from controller.autoplay.player import AutoPlayer
from controller.rules import CorporationTurn, Move, Step
from controller.service.table import TableService
from tests.browser.chromium import chromium
from tests.browser.phone_support import WAIT, Phone, Taps, taps_by_kind
from tests.browser.tools_support import running_table

SEED = 1  # the form's game: Nano alone on the lobby, won in 7 rounds and 98 actions with the table's dice
MOST_ACTIONS = 400  # a game the auto-player does not end by then is a failure, not a wait


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


def play_a_game(browser: Browser, url: str, service: TableService, dice: str) -> Phone:
    """The game night: unlock, a new game from the form, the dice mode, then every action to the result."""
    phone = Phone.open(browser, url, service, seed=SEED)
    phone.unlock()
    phone.shot(f"{dice}-unlocked")
    phone.new_game(mission="data-heist", agents=["nano"])
    if dice == "physical":
        phone.pick("#dice-mode", "physical")
        assert phone._until(lambda: service.session.dice_mode == "physical"), "the dice mode did not change"
    player = AutoPlayer()
    seen: set[str] = set()
    for _ in range(MOST_ACTIONS):
        phone.settle()
        state = service.session.state
        if state.outcome is not None:
            break
        action = player.choose(state)
        moment = _moment(action, state.turn.pending is not None)
        if moment and moment not in seen:
            phone.shot(f"{dice}-{moment}")
        taps = phone.act(action)
        if moment and moment not in seen:
            seen.add(moment)
            phone.shot(f"{dice}-{moment}-done")
        if taps.faces and "dice" not in seen:
            seen.add("dice")
    else:
        raise AssertionError(f"no result within {MOST_ACTIONS} actions")
    expect(phone.page.locator("#summary")).to_contain_text(state.outcome.result, timeout=WAIT)
    phone.page.locator("#summary").scroll_into_view_if_needed()
    phone.shot(f"{dice}-result")
    return phone


def _moment(action: object, in_move: bool) -> str | None:
    """The moments a person looks at: the first move begun, a step within it, the corporation's turn."""
    if isinstance(action, Move):
        return "move"
    if isinstance(action, Step) and in_move:
        return "step"
    if isinstance(action, CorporationTurn):
        return "corporation"
    return None


def _report(record: list[Taps]) -> str:
    return "; ".join(f"{kind} median {statistics.median(t)} worst {max(t)} ×{len(t)}"
                     for kind, t in sorted(taps_by_kind(record).items()))


@pytest.mark.slow
@pytest.mark.parametrize("dice", ["virtual"])
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
