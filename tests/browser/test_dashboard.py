"""The dashboard end to end: Debian's chromium driven by Playwright against a table service on loopback.

The table is the demo's, in this process: the synthetic camera films the rendered table (`DemoTable`), the
vision pipeline and the reconciler read it as at a real table, and the web server serves the page, but nobody
plays by themselves: the test is the people at the table. Their hands follow the game (every chip laid out
where the game has it after each change) unless a test holds them back, to leave the guards where they stood
before a corporation turn until the test moves them, as players would. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import msgspec
import pytest
from playwright.sync_api import Browser, Page, expect

from controller.autoplay.player import AutoPlayer
from controller.rules import DIRECTION_WORDS, GameSetup, Step, new_game
from tests.browser.chromium import ARTIFACTS, page_at, wait_until
from tests.browser.dashboard_table import PIN, SLOW, Table
from tests.support.net import wait_for
from tests.support.session_support import played_until

pytestmark = pytest.mark.slow  # a browser: Debian's chromium against a served table

PHONE = {"width": 412, "height": 900}
LAPTOP = {"width": 1280, "height": 800}


def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"dashboard-{name}.png"), full_page=True)


def _unlock(page: Page) -> None:
    page.fill("#pin-input", PIN)
    page.click("#pin-form button")
    expect(page.locator("#steps")).to_be_visible()
    expect(page.locator("#actions .action")).not_to_have_count(0)


def _board_units(page: Page, table: Table) -> dict[str, str]:
    """Each unit's space as the board draws it, once the board has drawn the table's latest change."""
    wait_until(page, f"Number(document.getElementById('board').dataset.number) >= {table.service.number}",
               timeout=SLOW)
    return page.evaluate("Object.fromEntries([...document.querySelectorAll('#board .unit')]"
                         ".map(u => [u.dataset.unit, u.dataset.space]))")


def _state_units(table: Table) -> dict[str, str]:
    state = table.state
    units = {b.id: b.space for b in state.bots if b.space and not b.escaped}
    units.update({u.id: u.space for u in state.security})
    return units


def _box(page: Page, selector: str) -> dict[str, float]:
    """Where an element of the board is on the screen (read again if the board was redrawn as it was read)."""
    for _ in range(50):
        box = page.locator(selector).bounding_box()
        if box is not None:
            return box  # type: ignore[return-value]
        page.wait_for_timeout(50)
    raise AssertionError(f"{selector} is not on the board")


def _fits(page: Page, viewport: dict[str, int]) -> None:
    if viewport["width"] < 500:  # a phone: nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_page_shows_the_game_as_the_state_has_it(table: Table, browser: Browser, viewport: dict[str, int]) -> None:
    page = page_at(browser, table.url, viewport=viewport)
    expect(page.locator("#title")).to_have_text("Operation Data Heist on Meridian Tower, Lobby")
    expect(page.locator("#summary")).to_contain_text("threat 0")
    assert _board_units(page, table) == _state_units(table)  # every unit on its square
    assert page.locator("#board rect.space").count() == 320
    assert page.locator("#board .door.locked").count() == len(page.evaluate(
        "fetch('/api/floor').then(r => r.json()).then(f => f.doors.filter(d => d.locked).map(d => d.id))"))
    assert page.locator("#board [data-terminal]").count() == 7 and page.locator("#board [data-cache]").count() == 6
    assert page.locator("#board .sight").count() > 0  # the guards' awareness ranges
    guard = table.state.security[0]
    assert page.locator(f'#board .unit[data-unit="{guard.id}"]').get_attribute("data-facing") == guard.facing
    # its facing named in the rules' word (GET /api/options), not the letter nor a word list of the page's own
    expect(page.locator(f'#board .unit[data-unit="{guard.id}"] title')).to_contain_text(
        f"facing {DIRECTION_WORDS[guard.facing]}")
    expect(page.locator("#threat-track .cell")).to_have_count(27)
    expect(page.locator("#threat-track .now")).to_have_text("0")
    expect(page.locator("#burncycle .slot")).to_have_count(5)
    expect(page.locator("#bots .bot")).to_have_count(len(table.state.bots))
    expect(page.locator("#network .node")).to_have_count(len(table.state.network.mat.nodes))
    expect(page.locator("#objectives")).to_contain_text(table.state.mission.win[0].text)
    strip = page.evaluate("fetch('/api/leds').then(r => r.json())")
    expect(page.locator("#leds .led")).to_have_count(len(strip["threat"]) + len(strip["slots"]) + 1)  # as lit
    expect(page.locator("#health")).to_contain_text("camera")
    expect(page.locator("#log")).to_contain_text("A new game: Operation Data Heist")  # words, not a change's kind
    assert "new_game" not in page.locator("#log").inner_text()
    expect(page.locator("#address")).to_have_text(table.url)
    expect(page.locator("#qr")).to_be_visible()
    game = table.service.game_id
    expect(page.locator("#replay-link")).to_have_attribute("href", f"/games/{game}/replay")  # the tool pages linked
    for link in ("/camera", "/floors/edit", f"/games/{game}/replay"):
        assert page.request.get(table.url.rstrip("/") + link).ok, link
    _fits(page, viewport)
    _shot(page, "phone" if viewport is PHONE else "laptop")
    for _ in range(4):  # the board larger, panned within its frame: the page stays as wide as the screen
        page.click("#zoom-in")
    assert page.locator("#board").bounding_box()["width"] > page.locator("#board-wrap").bounding_box()["width"] * 1.5
    _fits(page, viewport)
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_board_draws_what_play_changed(table: Table, browser: Browser) -> None:
    start = new_game(table.service._content, GameSetup(floor="meridian-lobby", mission="data-heist", players=2,
                                                      agents=["nano", "casing"], seed=3))
    start.floor.unlocked_doors.append("B2/B3")
    start.floor.destroyed_walls.append("J1/K1")
    start.floor.caches.remove("E1")
    del start.floor.terminals["I5"]
    nano, casing, module = start.bot("nano"), start.bot("casing"), start.bot("module")
    nano.hidden = True
    casing.awareness = casing.space  # its awareness chip on its own space: detected
    module.awareness = "F4"  # an awareness chip left behind
    start.security[1].stunned = True
    table.service.play_from(start)
    page = page_at(browser, table.url, viewport=PHONE)
    assert _board_units(page, table) == _state_units(table)
    expect(page.locator('#board .door[data-edge="B2/B3"]')).to_have_class("door unlocked")
    expect(page.locator('#board .wall[data-edge="J1/K1"]')).to_have_class("wall destroyed")
    expect(page.locator('#board [data-cache="E1"]')).to_have_class("cache taken")
    expect(page.locator('#board [data-terminal="I5"]')).to_have_class("feature terminal accessed")
    expect(page.locator('#board .unit[data-unit="nano"]')).to_have_attribute("data-hidden", "true")
    expect(page.locator('#board .unit[data-unit="casing"]')).to_have_attribute("data-detected", "true")
    expect(page.locator('#board .unit[data-unit="module"]')).to_have_attribute("data-detected", "false")
    expect(page.locator('#board [data-awareness="module"]')).to_have_attribute("data-space", "F4")
    expect(page.locator("#bots [data-bot=casing]")).to_contain_text("detected")
    expect(page.locator("#bots [data-bot=nano]")).to_contain_text("hidden")
    seen = {s for spaces in page.evaluate("fetch('/api/floor').then(r => r.json()).then(f => f.sight)").values()
            for s in spaces}
    assert {page.locator("#board .sight").nth(k).get_attribute("data-seen")
            for k in range(page.locator("#board .sight").count())} == seen
    _shot(page, "changed-floor")


def test_the_pin_is_needed_to_act_and_an_action_from_its_button_changes_the_game(table: Table,
                                                                                  browser: Browser) -> None:
    page = page_at(browser, table.url, viewport=PHONE)
    expect(page.locator("#pin")).to_be_visible()
    expect(page.locator("#who")).to_have_text("watching")
    expect(page.locator("#actions .action")).to_have_count(0)
    refused = page.evaluate("fetch('/api/next', {method: 'POST'}).then(r => r.status)")
    assert refused == 401
    page.fill("#pin-input", "0000")
    page.click("#pin-form button")
    expect(page.locator("#pin .pin-problem")).to_contain_text("Wrong PIN: 4 tries left")
    _unlock(page)
    expect(page.locator("#who")).to_have_text("unlocked: this phone plays")
    _shot(page, "unlocked")
    number = table.service.number
    assert table.state.turn.step == "route"
    page.click('#actions .action[data-tag="begin_actions"]')
    expect(page.locator("#summary")).to_contain_text("actions along the burncycle")
    assert table.state.turn.step == "actions" and table.service.number > number
    expect(page.locator("#log")).not_to_contain_text("begin actions")  # phrased, not the action's tag
    # an action with choices: the move's dice are asked for before it is posted
    move = page.locator('#actions .action[data-tag="move"]').first
    move.click()
    expect(page.locator("#choices")).to_be_visible()
    page.locator('#choices input[name="dice-basic"]').fill("2")
    page.click("#choices-go")
    expect(page.locator("#actions .action[data-tag='step']").first).to_be_visible()
    assert table.state.turn.pending is not None
    page.click("#undo")
    expect(page.locator("#actions .action[data-tag='move']").first).to_be_visible()
    assert table.state.turn.pending is None
    # dice rolled at the table: the page asks for them, each face a picture to tap
    page.select_option("#dice-mode", "physical")
    expect(page.locator("#log")).to_contain_text("Dice from now on: physical")
    page.locator('#actions .action[data-tag="move"]').first.click()
    page.locator('#choices input[name="dice-basic"]').fill("2")
    page.click("#choices-go")
    expect(page.locator("#dice")).to_be_visible()
    expect(page.locator('#dice button[data-die="basic die"]')).to_have_count(3)  # 1, 2 and blank
    expect(page.locator("#dice .face-picture").first).to_be_visible()
    page.click('#dice button[data-face="2"]')
    page.click('#dice button[data-face="blank"]')
    expect(page.locator("#dice .typed .face-picture")).to_have_count(2)
    _shot(page, "dice")
    page.click("#dice-send")
    expect(page.locator("#dice")).to_be_hidden()
    expect(page.locator("#actions .action[data-tag='step']").first).to_be_visible()
    assert table.state.turn.pending is not None and table.state.turn.pending.ap == 2  # 2 and a blank
    _fits(page, PHONE)
    assert page.errors == []  # type: ignore[attr-defined]


def _until(condition: Callable[[], bool], what: str) -> None:
    """Wait for the camera (it confirms a chip over several frames, slower on a loaded machine)."""
    deadline = time.monotonic() + SLOW / 1000
    while not condition():
        assert time.monotonic() < deadline, f"not within {SLOW / 1000:.0f} s: {what}"
        time.sleep(0.1)


def _unseen(table: Table) -> set[str]:
    """Units whose chip the camera does not see at all (a chip it cannot read is no instruction it can tick)."""
    return {m.unit for m in table.service.table_view().misplaced if m.seen.space is None}


def test_a_corporation_turn_is_ticked_off_as_the_camera_sees_the_guards_moved(table: Table, browser: Browser) -> None:
    table.play_until_the_corporation()
    page = page_at(browser, table.url, viewport=PHONE)
    _unlock(page)
    table.hands_follow = False  # the players read the instructions before they move the guards
    before = {u.id: u.space for u in table.state.security}
    _until(lambda: not _unseen(table), "the camera reads every chip at the demo's resolution")
    expect(page.locator("#corp")).to_be_visible()
    with page.expect_response("**/api/corporation-turn") as answered:
        page.click("#corp")
    assert answered.value.ok
    moved = [u.id for u in table.state.security if before.get(u.id) not in (None, u.space)]
    assert moved, "the corporation's turn moved no guard: the test needs one"
    for unit in moved:
        expect(page.locator(f'#instructions li[data-unit="{unit}"]')).to_have_attribute("data-done", "false",
                                                                                       timeout=SLOW)
        expect(page.locator(f'#board .todo[data-todo="{unit}"]')).to_have_count(1)  # the move drawn as an arrow
        moved_to = table.state.unit(unit).space
        expect(page.locator(f'#instructions li[data-unit="{unit}"] [data-space="{moved_to}"]')).to_have_count(1)
    # no question is not agreement while the players have moves to make
    expect(page.locator("#questions")).not_to_contain_text("the camera and the game agree")
    expect(page.locator("#questions")).to_contain_text("instructions to carry out first")
    assert _board_units(page, table) == _state_units(table)  # the board shows the game, not the table
    _shot(page, "corporation-instructions")
    table.hands_follow = True
    table.lay_out()  # the players move the guards as told
    for unit in moved:
        expect(page.locator(f'#instructions li[data-unit="{unit}"]')).to_have_attribute("data-done", "true",
                                                                                       timeout=SLOW)
        expect(page.locator(f'#board .todo[data-todo="{unit}"]')).to_have_count(0)
    expect(page.locator("#questions")).to_contain_text("None: the camera and the game agree", timeout=SLOW)
    _shot(page, "corporation-ticked")
    _fits(page, PHONE)


def test_dragging_a_unit_corrects_the_game(table: Table, browser: Browser) -> None:
    page = page_at(browser, table.url, viewport=PHONE)
    _unlock(page)
    bot = next(b for b in table.state.bots if b.id == "casing")
    target = "J4"
    assert target not in _state_units(table).values()
    page.locator("#board").scroll_into_view_if_needed()  # unlocking scrolled the phone's page down to the PIN
    source = _box(page, f'#board .unit[data-unit="{bot.id}"]')
    cell = _box(page, f'#board rect.space[data-space="{target}"]')
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(cell["x"] + cell["width"] / 2, cell["y"] + cell["height"] / 2, steps=8)
    with page.expect_response("**/api/corrections") as answered:
        page.mouse.up()
    assert answered.value.ok, answered.value.text()
    expect(page.locator(f'#board .unit[data-unit="{bot.id}"]')).to_have_attribute("data-space", target)
    assert table.state.bot(bot.id).space == target
    # a tap on a guard offers its facing: turned south, the board shows it
    guard = table.state.security[0]
    page.locator(f'#board .unit[data-unit="{guard.id}"]').click()
    expect(page.locator(f'#board .unit[data-unit="{guard.id}"]')).to_have_class(re.compile("selected"))
    page.click('#turn-unit button[data-facing="S"]')
    expect(page.locator(f'#board .unit[data-unit="{guard.id}"]')).to_have_attribute("data-facing", "S")
    assert table.state.unit(guard.id).facing == "S"
    _shot(page, "corrected")


def test_a_new_game_from_the_form(table: Table, browser: Browser) -> None:
    page = page_at(browser, table.url, viewport=PHONE)
    expect(page.locator("#new-game-panel")).to_be_hidden()  # only a player starts a game
    _unlock(page)
    expect(page.locator("#new-mission option")).not_to_have_count(0)
    page.select_option("#new-mission", "tower-run")
    page.select_option("#new-floor", "meridian-annex")
    page.uncheck('#new-game input[value="casing"]')
    page.click("#new-game button[type=submit]")
    page.click("#confirm-yes")  # the game in progress is replaced: asked first
    expect(page.locator("#title")).to_have_text("Operation Tower Run on Meridian Tower, Annex", timeout=SLOW)
    assert [b.id for b in table.state.bots if b.kind == "agent"] == ["nano"]
    assert _board_units(page, table) == _state_units(table)
    _fits(page, PHONE)


def test_the_page_says_when_the_table_is_gone_and_comes_back_by_itself(table: Table, browser: Browser) -> None:
    page = page_at(browser, table.url, viewport=PHONE)
    expect(page.locator("#offline")).to_be_hidden()
    number = table.service.number
    table.stop()
    expect(page.locator("#offline")).to_be_visible(timeout=10_000)
    _shot(page, "offline")
    table.start()  # the same game log: the table restarts where it was
    table.service.apply(AutoPlayer().choose(table.state))  # and the game went on meanwhile
    expect(page.locator("#offline")).to_be_hidden(timeout=SLOW)
    expect(page.locator("#title")).to_contain_text("Operation Data Heist")
    assert table.service.number > number
    assert _board_units(page, table) == _state_units(table)
    _fits(page, PHONE)


def test_a_question_of_which_way_a_bot_went_is_answered_from_its_button(table: Table, browser: Browser) -> None:
    """The command module lifted from F3 and put down on E4 in the middle of a move: two cheapest ways that differ
    (one crosses a guard's sight, tests/service/test_reconciler.py); the page asks, a player's tap answers."""
    _, state = played_until(lambda s: s.turn.pending is not None)
    table.service.play_from(state)  # the hands lay the new game out
    camera = table.service._camera
    assert camera is not None
    laid_out = camera.frames
    page = page_at(browser, table.url, viewport=PHONE)
    # the camera has filmed the new game's table long enough to confirm it (the filter's 5 frames, 0.3 s)
    _until(lambda: camera.frames > laid_out + 15 and not _unseen(table), "the camera reads the new game's chips")
    question = page.locator('#questions li[data-question^="route"]')
    expect(question.locator("button")).to_have_count(0)
    table.hands_follow = False
    assert table.scene.move_chip("module", "E4")  # lifted and put down two spaces away
    expect(question).to_have_count(1, timeout=SLOW)
    expect(question.locator(".answers")).to_be_hidden()  # a watcher sees the question, not the answers
    _unlock(page)
    buttons = question.locator("button")
    expect(buttons).to_have_count(2)
    quiet = next(k for k in range(2) if buttons.nth(k).inner_text().startswith("F3 > E3"))
    _shot(page, "question")
    with page.expect_response("**/api/questions/**") as answered:
        buttons.nth(quiet).click()
    assert answered.value.ok, answered.value.text()
    expect(page.locator('#questions li[data-question^="route"]')).to_have_count(0, timeout=SLOW)
    steps = [(e.action.bot, e.action.to) for e in table.service._session.record.entries[-2:]
             if isinstance(e.action, Step)]
    assert steps == [("module", "E3"), ("module", "E4")]
    expect(page.locator('#board .unit[data-unit="module"]')).to_have_attribute("data-space", "E4")
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, LAPTOP], ids=["phone", "laptop"])
def test_the_page_is_pushed_what_changes_and_asks_for_nothing_on_a_timer(table: Table, browser: Browser,
                                                                       viewport: dict[str, int]) -> None:
    """The LEDs' colours and the floor come over the live feed: over seconds of play the page asks neither
    /api/leds nor /api/floor, and at rest it asks nothing at all, yet the board and the LEDs follow the game."""
    phone = viewport["width"] < 500
    page = page_at(browser, table.url, viewport=viewport, has_touch=phone, is_mobile=phone)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url.removeprefix(table.url.rstrip("/"))))
    page.wait_for_timeout(3000)  # a table at rest: nothing is asked
    assert asked == []

    player = AutoPlayer()
    before = msgspec.json.encode(table.service.leds_at_rest())
    for _ in range(12):
        table.service.apply(player.choose(table.state))
    table.lay_out()
    assert _board_units(page, table) == _state_units(table)  # the board drawn up to the last change
    # play relit the LEDs (the service's loop shows each change after `apply` returns: waited for, not raced)
    wait_for(lambda: msgspec.json.encode(table.service.leds_at_rest()) != before, SLOW / 1000, "the LEDs relit")
    assert table.service.leds_at_rest().status is not None

    def page_shows_the_leds() -> bool:
        """The page's LEDs are the table's, as the table has them now (the loop may still be showing the last
        of the twelve changes: both sides are read again until they agree)."""
        frame = table.service.leds_at_rest()
        colours = [*frame.threat, *frame.slots, frame.status or ""]  # (the burncycle's tracker moved on)
        wanted = [f"rgb({int(c[1:3], 16)}, {int(c[3:5], 16)}, {int(c[5:7], 16)})" for c in colours]
        shown = page.evaluate("() => [...document.querySelectorAll('#leds .led')].map((d) => d.style.background)")
        return bool(shown == wanted)
    wait_for(page_shows_the_leds, SLOW / 1000, "the page's LEDs to be the table's")
    assert not [url for url in asked if url.startswith(("/api/leds", "/api/floor"))], asked
    page.locator("#leds").scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"dashboard-pushed-{'phone' if phone else 'laptop'}.png"))
    assert page.errors == []  # type: ignore[attr-defined]
