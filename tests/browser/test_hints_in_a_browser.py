"""Hints on the phone (issue 35, parts 5 and 6): a 390x844 touch page, unlocked with the table's PIN, taps "What
would the table do?" during a chip's decision, watches the progress, sees three actions with their chances and
bands, numbered on the board; taps "Why?" and reads a sentence for each; taps "Show threat" and sees the board
shaded. The same at laptop size; screenshots of both go to test-artifacts/hints-*.png; axe-core finds nothing
serious with the hint and the threat shown. And the booth explains itself: the demo's search player's reason for
its last action under the summary (part 7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from controller.autoplay.player import AutoPlayer
from controller.autoplay.players import PlayerSettings
from controller.rules import Terminal, legal_actions
from controller.service.demo.booth import DemoPlayers, DemoTable
from controller.service.table import TableService
from tests.browser.chromium import ARTIFACTS, keep_errors
from tests.browser.phone_support import LAPTOP, WAIT, Phone
from tests.browser.test_accessibility import serious
from tests.browser.tools_support import PIN, running_table

GAME = {"agents": ("nano", "casing"), "mission": "data-heist"}


def at_a_chips_decision(service: TableService) -> None:
    """The heuristic plays until a chip's action is to be chosen among several kinds, and the hints are sized
    for a test (fewer rollouts than the table's budget: the same search)."""
    service.new_game()
    player = AutoPlayer()
    session = service.session
    for _ in range(400):
        state = session.state
        turn = state.turn
        kinds = {type(la.action) for la in legal_actions(state)}
        if turn.step == "actions" and turn.pending is None and len(kinds) >= 3 and Terminal not in kinds:
            break
        session.apply(player.choose(state))
    else:
        raise AssertionError("no chip's decision in the game")
    service.hint_desk.iterations = 90
    service.hint_desk.seconds = 20.0


def shot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"hints-{name}.png"
    page.screenshot(path=str(path))
    return path


def hints_shown(page: Page, tap: bool, thought: bool) -> None:
    """Ask, see the three actions and their marks; ask why; show the threat. `tap`: by touch, else by click;
    `thought`: the table thinks (the first asking), so the progress bar shows on the way."""
    press = (lambda sel: page.locator(sel).tap()) if tap else (lambda sel: page.locator(sel).click())
    page.evaluate("""() => { window.progressSeen = [];  // what the progress bar showed while the table thought
        const bar = document.getElementById('hint-progress');
        new MutationObserver(() => { if (!bar.hidden) window.progressSeen.push(Number(bar.value)); })
          .observe(bar, { attributes: true }); }""")
    page.locator("#hint-ask").scroll_into_view_if_needed()
    press("#hint-ask")
    items = page.locator("#hint-list li")
    expect(items).to_have_count(3, timeout=WAIT)
    if thought:
        assert max(page.evaluate("window.progressSeen") or [0]) > 0, "no progress was shown while the table thought"
    expect(page.locator("#hint-progress")).to_be_hidden()
    for k in range(3):
        expect(items.nth(k)).to_contain_text(f"{k + 1}. ")
        expect(items.nth(k)).to_contain_text("% to win (")
        expect(items.nth(k).locator(".band-range")).to_be_visible()
    marks = page.locator("#board .hint-mark")
    expect(marks).to_have_count(3)  # each action numbered on the board, where it goes or where its bot stands
    assert [marks.nth(k).get_attribute("data-hint") for k in range(3)] == ["1", "2", "3"]
    expect(page.locator(".hint-why")).to_have_count(0)
    press("#hint-why")
    expect(page.locator(".hint-why")).to_have_count(3)
    assert all("%" in text for text in page.locator(".hint-why").all_inner_texts())
    press("#threat-toggle")
    expect(page.locator("#board .threat-seen").first).to_be_attached(timeout=WAIT)
    expect(page.locator("#threat-toggle")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#hint-note")).to_contain_text("sampled turns")


@pytest.mark.slow
def test_a_hint_and_the_threat_on_a_phone_by_touch_and_on_a_laptop(tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, game=GAME, prepare=at_a_chips_decision) as (url, service):
        phone = Phone.open(browser, url, service)
        phone.unlock()
        hints_shown(phone.page, tap=True, thought=True)
        phone.page.locator("#play").evaluate("(e) => e.scrollIntoView({block: 'start'})")
        shot(phone.page, "phone-why")
        phone.page.locator("#board-panel").evaluate("(e) => e.scrollIntoView({block: 'start'})")
        shot(phone.page, "phone-board")
        assert serious(phone.page) == []
        assert service.hint_desk.asked == 2  # one hint, one threat

        laptop = browser.new_context(viewport=LAPTOP).new_page()
        errors: list[str] = []
        keep_errors(laptop, errors)
        laptop.goto(url)
        laptop.locator("#pin-input").fill(PIN)
        laptop.locator("#pin-form button[type=submit]").click()
        expect(laptop.locator("#steps")).to_be_visible(timeout=WAIT)
        hints_shown(laptop, tap=False, thought=False)  # the same position: the kept answer
        shot(laptop, "laptop")
        assert serious(laptop) == []
        assert service.hint_desk.asked == 2, "the same taps on the same position were answered from the kept answers"
        assert phone.errors == [] and errors == []


@pytest.mark.slow
def test_the_booth_says_why_on_the_dashboard(tmp_path: Path, browser: Browser) -> None:
    """The demo's players with the search at a tiny budget: a watcher's page shows the reason for the last chip's
    action under the summary, in the game's words, and follows it as the game goes on."""
    def booth(service: TableService) -> None:
        service.new_game()
        service.add(DemoPlayers(service, DemoTable(), step_timeout_s=0, pace_s=0.3, player="search",
                                settings=PlayerSettings(iterations=6)))

    with running_table(tmp_path, game=GAME, prepare=booth) as (url, _service):
        page = browser.new_context(viewport=LAPTOP).new_page()
        errors: list[str] = []
        keep_errors(page, errors)
        page.goto(url)
        why = page.locator("#booth-why")
        expect(why).to_contain_text("% of futures won", timeout=WAIT)
        first = why.inner_text()
        assert first.startswith("Why: ")
        expect(why).not_to_have_text(first, timeout=WAIT)  # the next reason, pushed as the booth plays on
        shot(page, "booth-why")
        assert serious(page) == []
        assert errors == []
