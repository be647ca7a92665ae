"""The board as the controller, in Debian's chromium on a 390x844 touch phone and a 1366x900 laptop: a finger drags
a unit to correct the game, a tap on a bot lights its legal targets and a tap on one takes that action, the edges
name the spaces, every tap target is at least 24 CSS px at the default zoom, a pinch or the buttons zoom and the
frame pans without pushing anything off the screen for good, and a space named anywhere on the page lights on the
board. Touches are sent through the DevTools protocol (Input.dispatchTouchEvent), as a phone's screen sends them:
chromium then decides, as on a phone, whether the finger scrolls the page or reaches the page's pointer handlers.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, FloatRect, Locator, Page, expect

from controller.autoplay.player import AutoPlayer
from controller.service.table import TableService
from tests.browser.chromium import ARTIFACTS, page_at, wait_until
from tests.browser.tools_support import PIN, running_table
from tests.browser.touch_support import centre, pinch, touch_drag, touches

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
WAIT = 20_000  # ms
PICKED = re.compile(r"\bselected\b")  # a picked unit's class (among others: a detected bot's)


def in_a_move(service: TableService) -> None:
    """A new game played on by the auto-player until a bot has a move action under way (its steps are legal)."""
    service.new_game()
    player = AutoPlayer()
    for _ in range(200):
        if service.state.turn.pending is not None:
            return
        service.apply(player.choose(service.state))
    raise AssertionError("no move action within 200 actions")


def opened(browser: Browser, url: str, viewport: dict[str, int], *, touch: bool) -> Page:
    """The dashboard of the table at `url`, drawn, on a touch phone or a laptop."""
    return page_at(browser, url + "/", viewport=viewport, has_touch=touch, is_mobile=touch)


def unlocked(page: Page) -> None:
    page.fill("#pin-input", PIN)
    page.click("#pin-form button")
    expect(page.locator("#steps")).to_be_visible(timeout=WAIT)
    expect(page.locator("#actions .action")).not_to_have_count(0, timeout=WAIT)
    page.locator("#board-wrap").scroll_into_view_if_needed()


def unlocked_on_a_phone(browser: Browser, url: str) -> Page:
    page = opened(browser, url, PHONE, touch=True)
    unlocked(page)
    return page


def empty_space_near(page: Page, service: TableService, unit: str) -> str:
    """A space on screen two or three steps from the unit, where no unit stands (a correction's destination)."""
    state = service.state
    taken = {b.space for b in state.bots} | {u.space for u in state.security}
    here = next(b.space for b in state.bots if b.id == unit)
    assert here is not None
    column, row = ord(here[0]) - 65, int(here[1:])
    frame = page.locator("#board-wrap").bounding_box()
    assert frame is not None
    for dc, dr in ((2, 0), (-2, 0), (0, 2), (0, -2), (2, 2), (-2, -2), (3, 0), (-3, 0)):
        name = f"{chr(65 + column + dc)}{row + dr}"
        cell = page.locator(f'#board rect.space[data-space="{name}"]')
        if name in taken or not cell.count():
            continue
        x, y = centre(page, f'#board rect.space[data-space="{name}"]')
        if frame["x"] < x < frame["x"] + frame["width"] and frame["y"] < y < frame["y"] + frame["height"]:
            return name
    raise AssertionError(f"no empty space on screen near {unit}")


def name_a_space(page: Page, text: str, space: str) -> Locator:
    """A paragraph of its own saying `text` and naming `space`, as an instruction or an action's title does (the
    live feed redraws the page's own lists as it likes, so the test does not borrow one of them)."""
    page.evaluate("""text => document.querySelector('main').append(Object.assign(document.createElement('p'),
                     {textContent: text, id: 'named'}))""", text)
    named = page.locator("#named")
    named.evaluate("(p, space) => p.setAttribute('data-space', space)", space)
    return named


def lit_within_the_frame(page: Page, space: str) -> tuple[FloatRect, FloatRect]:
    """`space` lit on the board, across within the board's frame: the lit space's box and the frame's."""
    lit = page.locator(f'#board .lit[data-lit="{space}"]')
    expect(lit).to_have_count(1)
    box, frame = lit.bounding_box(), page.locator("#board-wrap").bounding_box()
    assert box is not None and frame is not None
    assert frame["x"] - 1 <= box["x"] and box["x"] + box["width"] <= frame["x"] + frame["width"] + 1
    return box, frame


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"board-{name}.png"))


def test_a_finger_drags_a_unit_to_correct_the_game(tmp_path: Path, browser: Browser) -> None:
    """On a touch screen the finger's pointer events reach the board (no pointercancel): the drop is a correction."""
    with running_table(tmp_path, prepare=lambda s: s.new_game()) as (url, service):
        page = unlocked_on_a_phone(browser, url)
        bot = service.state.bots[0].id
        target = empty_space_near(page, service, bot)
        cdp = page.context.new_cdp_session(page)
        with page.expect_response("**/api/corrections", timeout=WAIT) as answered:
            touch_drag(cdp, centre(page, f'#board .unit[data-unit="{bot}"]'),
                       centre(page, f'#board rect.space[data-space="{target}"]'))
        assert answered.value.ok, answered.value.text()
        expect(page.locator(f'#board .unit[data-unit="{bot}"]')).to_have_attribute("data-space", target, timeout=WAIT)
        assert service.state.bot(bot).space == target
        shot(page, "dragged-phone")
        assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_move_under_way_lights_its_bots_steps_and_a_tap_on_one_steps_there(tmp_path: Path, browser: Browser,
                                                                        viewport: dict[str, int]) -> None:
    with running_table(tmp_path, prepare=in_a_move) as (url, service):
        touch = viewport is PHONE
        page = opened(browser, url, viewport, touch=touch)
        unlocked(page)
        steps = [la for la in service.legal().actions if la["tag"] == "step"]
        # a move under way: the bot stepping (the active agent's, when it may step) is picked by itself, so each
        # step is one tap on its lit space
        turn = service.state.turn
        active = turn.order[turn.active]
        stepping = {la["bot"] for la in steps}
        bot = active if active in stepping else steps[0]["bot"]
        expect(page.locator("#board")).to_have_attribute("data-selected", bot, timeout=WAIT)
        expect(page.locator(f'#board .unit[data-unit="{bot}"]')).to_have_class(PICKED)
        mine = {la["at"]: la["index"] for la in steps if la["bot"] == bot}
        expect(page.locator("#board [data-target]")).to_have_count(len(mine), timeout=WAIT)
        lit = page.evaluate("[...document.querySelectorAll('#board [data-target]')]"
                            ".map(t => [t.dataset.space, Number(t.dataset.index)])")
        assert dict(lit) == mine  # one target per step, each the listed action
        for target in page.locator("#board [data-target]").all():  # a finger's size at the default zoom
            box = target.bounding_box()
            assert box is not None and box["width"] >= 24 and box["height"] >= 24, box
        shot(page, f"targets-{'phone' if touch else 'laptop'}")
        space = next(iter(mine))
        before = service.number
        target = page.locator(f'#board [data-target][data-space="{space}"]')
        target.tap() if touch else target.click()
        expect(page.locator(f'#board .unit[data-unit="{bot}"]')).to_have_attribute("data-space", space, timeout=WAIT)
        assert service.state.bot(bot).space == space and service.number == before + 1
        # the bot stays picked: its next steps light up from where it now stands, one tap each
        expect(page.locator(f'#board .unit[data-unit="{bot}"]')).to_have_class(PICKED)
        after = {la["at"] for la in service.legal().actions if la["tag"] == "step" and la["bot"] == bot}
        if after:
            expect(page.locator("#board [data-target]")).not_to_have_count(0, timeout=WAIT)
            lit_now = page.evaluate("[...document.querySelectorAll('#board [data-target]')].map(t => t.dataset.space)")
            assert set(lit_now) == after
        # a tap on the bot again lets it go; its targets go out
        unit = page.locator(f'#board .unit[data-unit="{bot}"]')
        unit.tap() if touch else unit.click()
        expect(page.locator("#board [data-target]")).to_have_count(0)
        assert page.errors == []  # type: ignore[attr-defined]


def in_a_move_two_bots_may_step(service: TableService) -> None:
    """A new game played on until a move action is under way in which two bots may step (the agent and the
    command module, which may spend the move's AP too)."""
    service.new_game()
    player = AutoPlayer()
    for _ in range(400):
        if service.state.turn.pending is not None and len(stepping_bots(service)) > 1:
            return
        service.apply(player.choose(service.state))
    raise AssertionError("no move in which two bots may step within 400 actions")


def stepping_bots(service: TableService) -> set[str]:
    return {la["bot"] for la in service.legal().actions if la["tag"] == "step"}


def test_a_bot_picked_during_a_move_stays_picked_after_its_step(tmp_path: Path, browser: Browser) -> None:
    """The board picks the agent's bot when a move starts; a player who picks the other bot and steps it goes on
    stepping it one tap at a time (the board used to pick the agent again after each of its steps)."""
    with running_table(tmp_path, prepare=in_a_move_two_bots_may_step) as (url, service):
        page = opened(browser, url, PHONE, touch=True)
        unlocked(page)
        turn = service.state.turn
        picked = turn.order[turn.active] if turn.order[turn.active] in stepping_bots(service) else None
        other = sorted(stepping_bots(service) - {picked})[0]
        expect(page.locator("#board")).to_have_attribute("data-selected", picked or other, timeout=WAIT)
        page.locator(f'#board .unit[data-unit="{other}"]').tap()
        expect(page.locator("#board")).to_have_attribute("data-selected", other, timeout=WAIT)
        space = next(la["at"] for la in service.legal().actions if la["tag"] == "step" and la["bot"] == other)
        number = service.number
        page.locator(f'#board [data-target][data-space="{space}"]').first.tap()
        wait_until(page, f"Number(document.getElementById('board').dataset.number) > {number}", timeout=WAIT)
        assert service.state.bot(other).space == space
        page.wait_for_timeout(500)  # the listing of the next steps comes, and with it the board's own pick
        assert page.locator("#board").get_attribute("data-selected") == other
        assert page.errors == []  # type: ignore[attr-defined]


def at_a_shared_target(service: TableService) -> None:
    """A new game played on until one bot has several actions aimed at one space (a door's keypad approaches)."""
    service.new_game()
    player = AutoPlayer()
    for _ in range(300):
        if shared_targets(service):
            return
        service.apply(player.choose(service.state))
    raise AssertionError("no space with several actions of one bot within 300 actions")


def shared_targets(service: TableService) -> list[tuple[str, str, list[int]]]:
    """(bot, space, the listed actions' indexes) of each space one bot has several actions aimed at."""
    aimed: dict[tuple[str, str], list[int]] = {}
    for la in service.legal().actions:
        if la["at"] and la["bot"]:
            aimed.setdefault((la["bot"], la["at"]), []).append(la["index"])
    return [(bot, space, found) for (bot, space), found in aimed.items() if len(found) > 1]


def test_several_actions_on_one_space_are_chosen_from_a_list(tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, prepare=at_a_shared_target) as (url, service):
        page = unlocked_on_a_phone(browser, url)
        bot, space, indexes = shared_targets(service)[0]
        page.locator(f'#board .unit[data-unit="{bot}"]').tap()
        target = page.locator(f'#board [data-target][data-space="{space}"]')
        expect(target).to_have_count(1)
        assert target.get_attribute("data-index") is None  # not one action: tapping it asks which
        target.tap()
        choices = page.locator("#target-choices button[data-index]")
        expect(choices).to_have_count(len(indexes))
        assert [int(i) for i in choices.evaluate_all("bs => bs.map(b => b.dataset.index)")] == indexes
        for button in page.locator("#target-choices button").all():
            box = button.bounding_box()
            assert box is not None and box["height"] >= 24 and box["width"] >= 24
        # the chooser says only its heading, its actions and Cancel (no unit stands there to pick): no stray word
        words = page.locator("#target-choices").inner_text().split("\n")
        assert "null" not in words and "false" not in words, words
        shot(page, "chooser-phone")
        plain = next(i for i in indexes if not service.legal().actions[i]["choose"])  # taken without a form
        before = service.number
        page.locator(f'#target-choices button[data-index="{plain}"]').tap()
        expect(page.locator("#target-choices")).to_be_hidden()
        wait_until(page, f"Number(document.getElementById('board').dataset.number) > {before}", timeout=WAIT)
        assert service.number > before
        assert page.errors == []  # type: ignore[attr-defined]


def on_another_bot(service: TableService) -> list[tuple[str, str, str, list[int]]]:
    """(bot, the other bot, its space, the listed actions' indexes) of each space a bot's actions aim at where
    another bot stands, outside a move (nothing picked by itself)."""
    state = service.state
    if state.turn.pending is not None:
        return []
    where = {b.space: b.id for b in state.bots if b.on_board and b.space}
    aimed: dict[tuple[str, str], list[int]] = {}
    for la in service.legal().actions:
        if la["at"] and la["bot"] and where.get(la["at"]) not in (None, la["bot"]):
            aimed.setdefault((la["bot"], la["at"]), []).append(la["index"])
    return [(bot, where[space], space, found) for (bot, space), found in aimed.items()]


def at_a_bot_on_a_lit_space(service: TableService) -> None:
    """A new game played on until a bot's action aims at the space another bot stands on (a swap, a repair)."""
    service.new_game()
    player = AutoPlayer()
    for _ in range(400):
        if on_another_bot(service):
            return
        service.apply(player.choose(service.state))
    raise AssertionError("no action aimed at another bot's space within 400 actions")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_bot_on_a_lit_space_stays_pickable_and_a_tap_there_never_acts_at_once(tmp_path: Path, browser: Browser,
                                                                             viewport: dict[str, int]) -> None:
    """Issue 37: with Casing picked, a tap on the command module standing on a space lit as Casing's swap swapped
    them, where the player meant to pick the module. The lit space over a unit carries the action's mark and a
    dashed edge, and a tap there asks: its actions, or pick the unit; picking it acts on nothing."""
    with running_table(tmp_path, prepare=at_a_bot_on_a_lit_space) as (url, service):
        touch = viewport is PHONE
        page = opened(browser, url, viewport, touch=touch)
        unlocked(page)
        bot, other, space, indexes = on_another_bot(service)[0]

        def press(selector: str) -> None:
            target = page.locator(selector).first
            target.tap() if touch else target.click()

        press(f'#board .unit[data-unit="{bot}"]')
        expect(page.locator("#board")).to_have_attribute("data-selected", bot, timeout=WAIT)
        lit = page.locator(f'#board [data-target][data-space="{space}"]')
        expect(lit).to_have_count(1)
        assert lit.get_attribute("data-index") is None and lit.get_attribute("data-occupant") == other
        expect(lit.locator("text.mark")).to_have_count(1)  # the action's mark, on the unit
        expect(lit).to_have_attribute("aria-label", re.compile(f"or pick {service.state.bot(other).name}"))
        shot(page, f"occupied-{'phone' if touch else 'laptop'}")
        before = service.number
        press(f'#board [data-target][data-space="{space}"]')  # a tap on the unit standing there
        choices = page.locator("#target-choices")
        expect(choices).to_be_visible()
        assert [int(i) for i in choices.locator("button[data-index]").evaluate_all(
            "bs => bs.map(b => b.dataset.index)")] == indexes
        expect(choices.locator(f'button[data-pick="{other}"]')).to_contain_text(
            f"Pick {service.state.bot(other).name}")
        page.wait_for_timeout(500)  # the touch's click, if any, has come and gone
        assert service.number == before, "the tap on a unit on a lit space acted"
        shot(page, f"occupied-chooser-{'phone' if touch else 'laptop'}")
        press(f'#target-choices button[data-pick="{other}"]')
        expect(page.locator("#board")).to_have_attribute("data-selected", other, timeout=WAIT)
        expect(choices).to_be_hidden()
        assert service.number == before
        # picked again, the bot takes its action there from the list
        press(f'#board .unit[data-unit="{other}"]')  # let the other go
        expect(page.locator("#board")).not_to_have_attribute("data-selected", other, timeout=WAIT)
        press(f'#board .unit[data-unit="{bot}"]')
        expect(page.locator("#board")).to_have_attribute("data-selected", bot, timeout=WAIT)
        tag = service.legal().actions[indexes[0]]["tag"]
        press(f'#board [data-target][data-space="{space}"]')
        press(f'#target-choices button[data-index="{indexes[0]}"]')
        if service.legal().actions[indexes[0]]["choose"]:  # (a repair asks how much power first)
            expect(page.locator("#choices")).to_be_visible(timeout=WAIT)
            press("#choices-go")
        wait_until(page, f"Number(document.getElementById('board').dataset.number) > {before}", timeout=WAIT)
        assert service._session.record.entries[-1].action.__struct_config__.tag == tag
        assert page.errors == []  # type: ignore[attr-defined]


# the chooser's first action laid over the whole screen: wherever the list lands as it opens, it is under the finger
UNDER_THE_FINGER = ("#target-choices button[data-index]:first-of-type "
                    "{ position: fixed; inset: 0; width: 100vw; height: 100vh; z-index: 9; }")


def test_the_tap_that_opens_the_chooser_chooses_nothing(tmp_path: Path, browser: Browser) -> None:
    """The click chromium sends after a touch lands on whatever is under the finger by then: the list of a shared
    space's actions, just opened and scrolled into view, must not take that click as the player's choice."""
    with running_table(tmp_path, prepare=at_a_shared_target) as (url, service):
        page = unlocked_on_a_phone(browser, url)
        bot, space, _ = shared_targets(service)[0]
        # a style sheet built in the page's CSSOM: the page's policy refuses an added <style> element
        page.evaluate("""css => { const sheet = new CSSStyleSheet(); sheet.replaceSync(css);
                                  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]; }""",
                      UNDER_THE_FINGER)
        page.locator(f'#board .unit[data-unit="{bot}"]').tap()
        before = service.number
        page.locator(f'#board [data-target][data-space="{space}"]').tap()
        page.wait_for_timeout(600)  # the touch's click, if any, has come and gone
        expect(page.locator("#target-choices")).to_be_visible()
        assert page.locator("#target-choices button[data-index]").first.evaluate(
            "b => getComputedStyle(b).position") == "fixed"  # the first action was under the finger
        assert service.number == before, "the touch that opened the list chose its first action"
        assert page.errors == []  # type: ignore[attr-defined]


TEXT_PX = """() => {
  const board = document.getElementById('board'), scale = board.getScreenCTM().a;
  return Math.min(...[...board.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale));
}"""


def frame_state(page: Page) -> dict[str, float]:
    return page.evaluate("""() => {
      const f = document.getElementById('board-wrap'), b = document.getElementById('board');
      return {cell: Number(b.dataset.cell), left: f.scrollLeft, top: f.scrollTop, frame: f.clientWidth,
              frameHeight: f.clientHeight, board: b.getBoundingClientRect().width,
              boardHeight: b.getBoundingClientRect().height, page: document.documentElement.scrollWidth}; }""")


def test_a_phone_board_is_large_enough_to_tap_and_pinches_pans_and_zooms_in_its_frame(tmp_path: Path,
                                                                                       browser: Browser) -> None:
    with running_table(tmp_path, prepare=lambda s: s.new_game()) as (url, service):
        page = opened(browser, url, PHONE, touch=True)
        floor = service.state.floor
        columns = page.locator("#board text.coordinate[data-column]").all_text_contents()
        rows = page.locator("#board text.coordinate[data-row]").all_text_contents()
        assert columns[:3] == ["A", "B", "C"] and rows[:3] == ["1", "2", "3"]  # as the floor format names spaces
        assert len(columns) == 20 and rows[-1] == "16" and floor.name == "Meridian Tower, Lobby"
        state = frame_state(page)
        assert state["cell"] >= 26 and state["page"] <= PHONE["width"]  # the board pans in its frame, not the page
        assert state["board"] > state["frame"]
        assert page.evaluate(TEXT_PX) >= 12
        for unit in page.locator("#board .unit").all():
            box = unit.bounding_box()
            assert box is not None and box["width"] >= 24 and box["height"] >= 24, box
        for button in ("#zoom-in", "#zoom-out", "#zoom-reset"):
            box = page.locator(button).bounding_box()
            assert box is not None and box["width"] >= 24 and box["height"] >= 24
        shot(page, "phone")
        cdp = page.context.new_cdp_session(page)
        # a finger on empty board pans the frame (the hallway's corner, away from every unit)
        empty = centre(page, '#board rect.space[data-space="K10"]')
        touch_drag(cdp, empty, (empty[0] - 120, empty[1]))
        assert frame_state(page)["left"] > state["left"] + 60
        # the row numbers stay at the frame's left edge over the board, and let a tap through to what is under them
        label = page.locator('#board text.coordinate[data-row="5"]').bounding_box()
        assert label is not None and frame_state(page)["left"] > 0
        under = page.evaluate(f"document.elementFromPoint({label['x'] + label['width'] / 2}, "
                              f"{label['y'] + label['height'] / 2}).closest('.coordinates') === null")
        assert under
        # two fingers spread: the board zooms about them
        frame = page.locator("#board-wrap").bounding_box()
        assert frame is not None
        middle = (frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2)
        pinch(cdp, middle, 60, 180)
        zoomed = frame_state(page)
        assert zoomed["cell"] > state["cell"] * 2, zoomed
        assert zoomed["page"] <= PHONE["width"]
        expect(page.locator("#zoom-reset")).to_be_enabled()
        shot(page, "pinched-phone")
        # one finger of a pinch lifted and the other moved on: the board waits for both (and does not fail)
        one, two = {"x": middle[0] - 40, "y": middle[1], "id": 1}, {"x": middle[0] + 40, "y": middle[1], "id": 2}
        touches(cdp, "touchStart", [one, two])
        touches(cdp, "touchEnd", [one])  # the points a touchEnd lists are the fingers lifted
        for k in range(1, 6):
            touches(cdp, "touchMove", [{**two, "y": middle[1] + 10 * k}])
        touches(cdp, "touchEnd", [two])
        assert frame_state(page)["cell"] == zoomed["cell"]
        # the buttons zoom out until the whole board is in the frame, and back to the default
        while page.locator("#zoom-out").is_enabled():
            page.locator("#zoom-out").tap()
        whole = frame_state(page)
        assert whole["board"] <= whole["frame"] + 1 and whole["boardHeight"] <= whole["frameHeight"] + 1, whole
        shot(page, "whole-phone")
        page.locator("#zoom-reset").tap()
        assert frame_state(page)["cell"] == state["cell"]
        assert page.errors == []  # type: ignore[attr-defined]


def test_a_laptop_board_fills_its_column_and_a_named_space_lights_on_it(tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, prepare=lambda s: s.new_game()) as (url, _):
        page = opened(browser, url, LAPTOP, touch=False)
        state = frame_state(page)
        assert state["cell"] >= 26 and state["board"] <= state["frame"] + 1  # all of it, no panning needed
        assert page.evaluate(TEXT_PX) >= 12
        shot(page, "laptop")
        # a space named in the page's text (an instruction, an action's title) lights up on the board when clicked
        name_a_space(page, "move Sentry to T16", "T16").click()
        box, frame = lit_within_the_frame(page, "T16")
        assert 0 <= box["y"] and box["y"] + box["height"] <= LAPTOP["height"]  # scrolled into view
        shot(page, "lit-laptop")
        assert page.errors == []  # type: ignore[attr-defined]


def test_a_named_space_lights_on_a_phone_board_panned_to_it(tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, prepare=lambda s: s.new_game()) as (url, _):
        page = opened(browser, url, PHONE, touch=True)
        name_a_space(page, "the game has it at A16", "A16").tap()
        box, frame = lit_within_the_frame(page, "A16")
        assert frame["y"] - 1 <= box["y"] and box["y"] + box["height"] <= frame["y"] + frame["height"] + 1
        assert -1 <= frame["y"] and box["y"] + box["height"] <= PHONE["height"]  # the board scrolled into view
        shot(page, "lit-phone")
        # a name on a button (an action's title) lights and pans the board, but leaves the page where the player is
        page.evaluate("""document.getElementById('log').append(Object.assign(document.createElement('button'),
                         {id: 'action-named', innerHTML: 'step → <span data-space="S2">S2</span>'}))""")
        page.locator("#action-named").scroll_into_view_if_needed()
        where = page.evaluate("window.scrollY")
        page.locator("#action-named span").tap()
        lit_within_the_frame(page, "S2")
        assert page.evaluate("window.scrollY") == where
        assert page.errors == []  # type: ignore[attr-defined]


def test_the_board_is_played_by_keyboard_too(tmp_path: Path, browser: Browser) -> None:
    """Enter on a focused bot lets it go and picks it again, moving the focus to its first lit space; Enter there
    takes that step; Escape lets the bot go."""
    with running_table(tmp_path, prepare=in_a_move) as (url, service):
        page = opened(browser, url, LAPTOP, touch=False)
        unlocked(page)
        expect(page.locator("#board")).to_have_attribute("data-selected", re.compile("."), timeout=WAIT)
        picked = page.locator("#board").get_attribute("data-selected")  # the move's bot, picked by itself
        step = next(la for la in service.legal().actions if la["tag"] == "step" and la["bot"] == picked)
        unit = page.locator(f'#board .unit[data-unit="{step["bot"]}"]')
        expect(unit).to_have_attribute("tabindex", "0")
        expect(unit).to_have_class(PICKED)
        unit.focus()
        page.keyboard.press("Enter")
        expect(unit).not_to_have_class(PICKED)
        page.keyboard.press("Enter")
        expect(unit).to_have_class(PICKED)
        focused = page.evaluate("[document.activeElement.dataset.space, document.activeElement.dataset.index]")
        lit = {la["at"]: str(la["index"]) for la in service.legal().actions
               if la["tag"] == "step" and la["bot"] == step["bot"]}
        assert lit[focused[0]] == focused[1]
        page.keyboard.press("Enter")
        expect(unit).to_have_attribute("data-space", focused[0], timeout=WAIT)
        assert service.state.bot(step["bot"]).space == focused[0]
        expect(page.locator("#board [data-target]")).not_to_have_count(0, timeout=WAIT)  # the next steps
        page.keyboard.press("Escape")  # lets the bot go
        expect(page.locator("#board [data-target]")).to_have_count(0)
        shot(page, "keyboard-laptop")
        assert page.errors == []  # type: ignore[attr-defined]
