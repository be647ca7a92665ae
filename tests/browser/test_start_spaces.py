"""Where the team starts, chosen on the new game's form: a phone held upright (390x844, touch) on a real table
service with no camera. The form shows "Where the team starts" only where the rules give the choice (GET
/api/options: each mission's levels from the rules' `starts_in_safe_zones`, each floor's level and safe zones),
a select per bot the players place, follows the mission, level and team as they change, says before sending
that two bots cannot share a space, shows the table's refusal beside its button, and the game starts with the
bots where they were put. Screenshots of the form at phone and laptop size go to test-artifacts/start-*.png;
axe-core audits the form as it is open."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.chromium import ARTIFACTS, keep_errors
from tests.browser.phone_support import LAPTOP, WAIT, Phone
from tests.browser.test_accessibility import serious, unreachable
from tests.browser.tools_support import PIN, running_table

pytestmark = pytest.mark.slow  # a browser: Debian's chromium against a served table

TABLE = {"agents": ("nano", "casing"), "mission": "data-heist"}  # table.toml's [game]: the lobby, level 1


def _start_selects(page: Page) -> list[str]:
    """The bots the start part offers a space for, in its order."""
    return page.locator("#new-start select").evaluate_all("ss => ss.map((s) => s.dataset.bot)")


def _shown_whole(select: Locator) -> bool:
    """Whether the select's chosen option fits its box on one line: its text's width in the select's font against
    the box less its padding and the arrow (about 1.5 em)."""
    return bool(select.evaluate("""(s) => {
        const style = getComputedStyle(s), pen = document.createElement('canvas').getContext('2d');
        pen.font = style.font;
        const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
            - 1.5 * parseFloat(style.fontSize);
        return pen.measureText(s.selectedOptions[0].text).width <= room; }"""))


def _expect_drawn(page: Page, where: dict[str, tuple[str, bool]]) -> None:
    """The new game's floor shows exactly these bots, each on its space, dashed when left to the table."""
    board = page.locator("#new-start-board")
    expect(board.locator(".unit")).to_have_count(len(where), timeout=WAIT)
    lit = board.locator(".start-lit rect").evaluate_all("rs => rs.map((r) => r.dataset.space)")
    assert sorted(lit) == sorted(space for space, _ in where.values())  # lit once each, however often redrawn
    for bot, (space, table) in where.items():
        unit = board.locator(f'.unit[data-unit="{bot}"]')
        expect(unit).to_have_attribute("data-space", space, timeout=WAIT)
        expect(unit).to_have_class(re.compile(r"\btable-choice\b") if table else re.compile(r"^(?!.*table-choice)"))


def _shot(page: Page, name: str, at: str = "#new-start") -> None:
    """The form as a person looks at it: the screen scrolled to `at` (start-NAME.png), and the whole new game's
    panel (start-NAME-panel.png)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(at).evaluate("(e) => e.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(ARTIFACTS / f"start-{name}.png"))
    page.locator("#new-game-panel").screenshot(path=str(ARTIFACTS / f"start-{name}-panel.png"))


def test_the_team_chooses_where_it_starts_from_a_phone(tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, game=dict(TABLE)) as (url, service):
        phone = Phone.open(browser, url, service)
        page = phone.page
        phone.unlock()
        expect(page.locator("#new-game button[type=submit]")).to_be_attached(timeout=WAIT)
        start = page.locator("#new-start")
        # Data Heist starts the bots at the entrance, on the lobby as on the labs (level 2): nothing to choose
        expect(start).to_be_hidden()
        phone.pick("#new-floor", "meridian-labs")
        expect(start).to_be_hidden()
        phone.pick("#new-floor", "meridian-lobby")
        _shot(page, "data-heist-phone", "#new-game-panel")
        # TSM-103C on the lobby at its own level (1) starts at the entrance; on level 2 in the safe zones, the
        # command module placed by the players with the agents
        phone.pick("#new-mission", "tsm-103c")
        expect(start).to_be_hidden()
        phone.pick("#new-level", "2")
        expect(start).to_be_visible()
        assert _start_selects(page) == ["nano", "casing", "module"]
        phone.tap('#new-game input[value="casing"]')  # casing no longer plays: nothing to place
        assert _start_selects(page) == ["nano", "module"]
        phone.tap('#new-game input[value="casing"]')
        # Rescue Rangers starts the agents in the safe zones at any level, and leaves the module off the floor
        phone.pick("#new-mission", "rescue-rangers")
        phone.pick("#new-level", "")
        # the Adaptable missions in a group of their own, each named whole on the phone's one-line select
        mission = page.locator("#new-mission")
        groups = mission.evaluate("(s) => [...s.querySelectorAll('optgroup')].map((g) => [g.label, "
                                  "[...g.children].map((o) => o.text)])")
        assert groups == [["Adaptable missions", ["Operation Module TSM-103C", "Operation Rescue Rangers",
                                                  "Operation Preconnaissance", "Operation Ghost in the Dell"]]]
        for adaptable in ("ghost-in-the-dell", "rescue-rangers"):
            phone.pick("#new-mission", adaptable)
            assert _shown_whole(mission), f"{mission.evaluate('(s) => s.selectedOptions[0].text')} is cut off"
        expect(start.locator("legend")).to_have_text("Where the team starts")
        phone.tap('#new-game input[value="byte"]')
        assert _start_selects(page) == ["nano", "casing", "byte"]
        nano = page.locator("#new-start-nano")
        assert nano.evaluate("(s) => s.options[0].textContent") == "the table's choice"
        assert nano.evaluate("(s) => [...s.querySelectorAll('optgroup')].map((g) => g.label)") == [
            "East safe zone", "West safe zone"]
        # two bots on one space: said on the form before anything is sent
        phone.pick("#new-start-nano", "D15")
        phone.pick("#new-start-casing", "D15")
        problem = page.locator("#new-game-problem")
        expect(problem).to_have_text("Nano and Casing would both start on D15: one bot per space, so choose "
                                     "another for one of them.")
        expect(page.locator('#new-start select[aria-invalid="true"]')).to_have_count(2)
        _shot(page, "twice-phone")
        game = service.game_id
        phone.tap("#new-game button[type=submit]")
        page.wait_for_timeout(500)
        assert service.game_id == game and not page.locator("#confirm").evaluate("(d) => d.open")
        phone.pick("#new-start-casing", "Q4")
        expect(problem).to_have_text("")
        _shot(page, "chosen-phone")
        # the floor below the selects shows each bot where it would start: byte, left to the table, dashed where
        # the engine puts it (the game started below has it there)
        _expect_drawn(page, {"nano": ("D15", False), "casing": ("Q4", False), "byte": ("Q3", True)})
        expect(page.locator("#new-start-board")).to_have_attribute(
            "aria-label", "Where the team would start on Meridian Tower, Lobby: Nano on D15, Casing on Q4, "
                          "Byte on Q3 (the table's choice).")
        _shot(page, "board-phone", "#new-start-board")
        phone.tap("#new-game button[type=submit]")
        phone.tap("#confirm-yes")  # the game in progress is replaced: asked first
        expect(page.locator("#title")).to_have_text("Adaptable: Operation Rescue Rangers on Meridian Tower, Lobby",
                                                    timeout=WAIT)
        state = service.state
        # byte, left to the table, takes the first free safe zone space in reading order
        assert {b.id: b.space for b in state.bots} == {"nano": "D15", "casing": "Q4", "byte": "Q3", "module": None}
        for bot, space in (("nano", "D15"), ("casing", "Q4"), ("byte", "Q3")):
            expect(page.locator(f'#board .unit[data-unit="{bot}"]')).to_have_attribute("data-space", space,
                                                                                       timeout=WAIT)
        # the table's own refusal (409 setup_mismatch) is shown by the form beside its button: a form kept open
        # while the floor's file changed under it offers a space that is no longer in a safe zone
        page.locator("#new-start-nano").evaluate(
            "(s) => { s.append(new Option('A1', 'A1')); s.value = 'A1'; }")
        game = service.game_id
        phone.tap("#new-game button[type=submit]")
        phone.tap("#confirm-yes")
        expect(problem).to_contain_text("Nano's start space A1 is not in a safe zone", timeout=WAIT)
        expect(page.locator("#message")).to_contain_text("Nano's start space A1 is not in a safe zone")
        assert service.game_id == game
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
        phone.pick("#new-start-nano", "A13")
        expect(problem).to_have_text("")
        assert serious(page) == []
        assert phone.errors == []


def test_the_start_part_at_laptop_size_passes_the_audit(tmp_path: Path, browser: Browser) -> None:
    """A table whose table.toml starts Rescue Rangers with Nano on D15: the form starts from it."""
    game = {**TABLE, "mission": "rescue-rangers", "start": {"nano": "D15"}}
    with running_table(tmp_path, game=game) as (url, _):
        page = browser.new_context(viewport=LAPTOP).new_page()
        errors: list[str] = []
        keep_errors(page, errors)
        page.goto(url)
        page.fill("#pin-input", PIN)
        page.locator("#pin-form button[type=submit]").click()
        expect(page.locator("#new-game button[type=submit]")).to_be_attached(timeout=WAIT)
        expect(page.locator("#new-start-nano")).to_have_value("D15")
        expect(page.locator("#new-start-casing")).to_have_value("")
        page.select_option("#new-mission", "tsm-103c")
        page.select_option("#new-floor", "meridian-labs")  # level 2 of its own: the team chooses
        expect(page.locator("#new-start")).to_be_visible()
        assert _start_selects(page) == ["nano", "casing", "module"]
        expect(page.locator("#new-start-nano")).to_have_value("")  # the labs have no D15 in a safe zone
        page.select_option("#new-start-module", "B7")
        _expect_drawn(page, {"nano": ("A6", True), "casing": ("B6", True), "module": ("B7", False)})
        _shot(page, "laptop")
        assert serious(page) == []
        assert unreachable(page) == []
        assert errors == []
