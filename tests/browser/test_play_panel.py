"""The play panel from a phone (390x844, touch) and a laptop (1366x900): Debian's chromium through Playwright
against a demo table on loopback (tests/browser/dashboard_table.py's `Table`: the real service, its camera
filming a rendered table, uvicorn serving the page).

What a player meets between the board and the game: the dice and draws the game waits for (every kind at once,
each with what it can show, a deck's cards included), the actions grouped as the turn offers them with what
cannot succeed disabled and why, a question before what costs threat or replaces the game, choices made with
controls (never JSON or a route), the new game's agents in an order the players set, a restart that takes the
phone's rights away and says so, and a PIN lockout that counts down. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from controller.autoplay.player import AutoPlayer
from controller.library import load_content
from controller.rules import GameSetup, GameState, NetworkStep, legal_actions, new_game
from controller.rules.actions import apply
from controller.rules.dice import ScriptedDice, SeededDice
from controller.rules.errors import DiceNeeded, RulesError
from tests.browser.chromium import ARTIFACTS, page_at, wait_until
from tests.browser.dashboard_table import PIN, SLOW, Table
from tests.browser.tools_support import PIN as RUNNING_PIN
from tests.browser.tools_support import running_table

pytestmark = pytest.mark.slow

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}}
SIZES = pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
DEVELOPER_TEXT = re.compile(r'[{}"]|/api/')


def _press(page: Page, target: Locator) -> None:
    """A finger's tap on a phone, a click on a laptop."""
    if page.context.browser and page.viewport_size and page.viewport_size["width"] < 500:
        target.tap()
    else:
        target.click()


def _press_until_taken(page: Page, button: Locator, field: str) -> None:
    """Press the form's button until the form takes the press. A tap the page never got (the panel moved under
    the finger as the feed drew, on a loaded machine) leaves the field as typed and the button enabled: a
    person taps again. A press the form took disables the button at once and empties the field with the
    table's answer, so it is never sent twice."""
    typed = page.input_value(field)
    for _ in range(3):
        _press(page, button)
        for _ in range(20):
            if page.input_value(field) != typed or not button.is_enabled():
                return
            page.wait_for_timeout(100)


def _unlock(page: Page) -> None:
    page.fill("#pin-input", PIN)
    unlock = page.locator("#pin-form button[type=submit]")
    _press(page, unlock)
    # A tap the page never got (the panel moved under the finger as the feed drew, on a loaded machine) leaves
    # the PIN typed: a person taps again. A tap the form took empties the input at once, whatever the table says.
    for _ in range(3):
        if page.input_value("#pin-input") == "" or not page.locator("#pin-input").is_visible():
            break
        page.wait_for_timeout(2000)
        if page.locator("#pin-input").is_visible() and page.input_value("#pin-input") == PIN and unlock.is_enabled():
            _press(page, unlock)
    # a round trip to the table, which films and renders beside the browser on a shared 2-core machine
    expect(page.locator("#steps")).to_be_visible(timeout=SLOW)
    expect(page.locator("#actions .action")).not_to_have_count(0, timeout=SLOW)


def _shot(page: Page, size: dict[str, Any], name: str, *, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    kind = "phone" if size is PHONE else "laptop"
    page.screenshot(path=str(ARTIFACTS / f"play-{name}-{kind}.png"), full_page=full_page)


def _no_developer_text(page: Page, where: str) -> None:
    text = page.evaluate("document.body.innerText")
    found = [text[max(0, m.start() - 60): m.end() + 60] for m in DEVELOPER_TEXT.finditer(text)]
    assert not found, f"{where} shows developer text: {found[:3]}"


def _played(done: Any, seed: int) -> GameState:
    """The auto-player's game of Nano and Casing on the lobby (the demo table's setup), up to `done(state)`."""
    state = new_game(load_content(), GameSetup(floor="meridian-lobby", mission="data-heist", players=2,
                                               agents=["nano", "casing"], seed=seed))
    player, dice = AutoPlayer(), SeededDice(seed)
    for _ in range(400):
        if done(state):
            return state
        state, _ = apply(state, player.choose(state), dice)
    raise AssertionError("the condition never held in 400 actions")


def _draws_a_mod(state: GameState) -> bool:
    """Nano's network step draws from the mod deck (the page asked "1 x mod deck: tap each face" with nothing to
    tap, issue 27)."""
    if state.turn.step != "network":
        return False
    try:
        apply(state, NetworkStep(), ScriptedDice([]))
    except DiceNeeded as e:
        return e.dice[0].die == "mod deck"
    except RulesError:
        return False
    return False


@SIZES
def test_a_card_draw_is_answered_from_a_picker_of_the_decks_cards(table: Table, browser: Browser,
                                                                   size: dict[str, Any]) -> None:
    table.service.play_from(_played(_draws_a_mod, seed=1))
    table.service.set_dice_mode("physical")
    page = page_at(browser, table.url, **size)
    _unlock(page)
    step = page.locator('#actions .action[data-tag="network_step"]').first
    _press(page, step)
    expect(page.locator("#choices")).to_be_visible()
    expect(page.locator("#choices fieldset").first).to_be_visible()  # controls (or a note that none apply), no JSON
    _no_developer_text(page, "the network step's choices")
    _press(page, page.locator("#choices-go"))
    expect(page.locator("#dice")).to_be_visible()
    cards = page.locator('#dice button[data-die="mod deck"]')
    expect(cards).not_to_have_count(0)  # the deck's cards to tap: no dead end
    wanted = table.service._session.pending_dice
    assert wanted is not None and [d["die"] for d in wanted.dice] == ["mod deck"]
    assert cards.count() == len(set(wanted.dice[0]["faces"]))
    first = cards.first.get_attribute("data-face")
    name = next(m.name for m in load_content().mods if m.id == first)
    expect(cards.first).to_contain_text(name)  # a card by its name, as drawn at the table
    expect(page.locator("#dice-send")).to_be_disabled()
    _no_developer_text(page, "the draw")
    _shot(page, size, "draw")
    _press(page, cards.first)
    expect(page.locator("#dice-send")).to_be_enabled()
    _press(page, page.locator("#dice-send"))
    expect(page.locator("#dice")).to_be_hidden(timeout=SLOW)
    assert table.service._session.pending_dice is None and table.state.turn.step != "network"
    expect(page.locator("#log")).to_contain_text(name)  # the card tapped is the card the game drew
    assert page.errors == []  # type: ignore[attr-defined]


def _at_the_network_step_on(node: str) -> GameState:
    """Nano alone on the lobby at the network step of the first turn (burncycle: general, general, captain), the
    IP put on `node`: from L2-12 a white line leads inward at step 1, and from where that leaves it at step 2."""
    state = new_game(load_content(), GameSetup(floor="meridian-lobby", mission="data-heist", players=1,
                                               agents=["nano"], seed=3))
    player, dice = AutoPlayer(), SeededDice(3)
    while state.turn.step != "network":
        state, _ = apply(state, player.choose(state), dice)
    state.network.ips[0].node = node
    return state


def _offered(page: Page, step: int) -> list[str]:
    return page.locator(f"#choices select[name=transfer-{step}] option").evaluate_all("os => os.map((o) => o.value)")


@SIZES
def test_the_network_step_offers_only_the_transfers_the_rules_take(tmp_path: Path, browser: Browser,
                                                                   size: dict[str, Any]) -> None:
    """Issue 37: every step's selector offered inward and outward, and most were refused ("No white line leads
    outward from L1-12"). Each step offers the directions of the listing's options that agree with the steps
    before it; a step with nothing to transfer has no selector, and the transfers chosen are taken."""
    state = _at_the_network_step_on("L2-12")
    with running_table(tmp_path, prepare=lambda s: s.play_from(state)) as (url, service):
        general = next(k for k, la in enumerate(legal_actions(service.state))
                       if isinstance(la.action, NetworkStep) and "transfers" in la.choose)
        assert legal_actions(service.state)[general].options["transfers"] == [{}, {1: "in"}, {1: "in", 2: "in"}]
        page = page_at(browser, url + "/", **size)
        page.fill("#pin-input", RUNNING_PIN)
        _press(page, page.locator("#pin-form button[type=submit]"))
        _press(page, page.locator(f'#actions .action[data-index="{general}"]'))
        expect(page.locator("#choices")).to_be_visible()
        assert _offered(page, 1) == ["", "in"]  # no outward line from L2-12
        assert _offered(page, 2) == [""] and page.locator("#choices select[name=transfer-2]").is_disabled()
        expect(page.locator("#choices select[name=transfer-3]")).to_have_count(0)  # no line on the third step
        page.locator("#choices select[name=transfer-1]").select_option("in")
        assert _offered(page, 2) == ["", "in"]  # transferred inward first, step 2 stands by a line inward
        page.locator("#choices select[name=transfer-2]").select_option("in")
        _no_developer_text(page, "the network step's transfers")
        _shot(page, size, "network-transfers", full_page=False)
        number = service.number
        _press(page, page.locator("#choices-go"))
        wait_until(page, f"Number(document.getElementById('board').dataset.number) > {number}", timeout=SLOW)
        taken = service._session.record.entries[-1].action
        assert isinstance(taken, NetworkStep) and taken.transfers == {1: "in", 2: "in"}
        expect(page.locator("#message")).not_to_contain_text("white line")
        assert page.errors == []  # type: ignore[attr-defined]


@SIZES
def test_every_kind_of_an_actions_dice_is_asked_at_once_with_the_count_still_needed(
        table: Table, browser: Browser, size: dict[str, Any]) -> None:
    state = _played(lambda s: s.turn.step == "actions" and s.turn.pool.elite > 0 and s.turn.pool.basic >= 2
                    and s.turn.pending is None and any(la.tag == "move" for la in legal_actions(s)), seed=0)
    table.service.play_from(state)
    table.service.set_dice_mode("physical")
    page = page_at(browser, table.url, **size)
    _unlock(page)
    _press(page, page.locator('#actions .action[data-tag="move"]').first)
    page.locator('#choices input[name="dice-basic"]').fill("2")
    page.locator('#choices input[name="dice-elite"]').fill("1")
    _press(page, page.locator("#choices-go"))
    basic, elite = page.locator('#dice [data-kind="basic die"]'), page.locator('#dice [data-kind="elite die"]')
    expect(basic).to_contain_text("2 basic dice still to tap")
    expect(elite).to_contain_text("1 elite die still to tap")
    expect(elite.locator("button[data-face] .face-picture")).to_have_count(3)  # 2, 3 and reroll, as printed
    _press(page, basic.locator('button[data-face="2"]'))
    expect(basic).to_contain_text("1 basic die still to tap")  # the count said is the count still needed
    expect(page.locator("#dice-send")).to_be_disabled()
    _press(page, basic.locator('button[data-face="1"]'))
    expect(basic).to_contain_text("all tapped")
    expect(basic.locator("button[data-face]").first).to_be_disabled()
    _press(page, elite.locator('button[data-face="3"]'))
    _shot(page, size, "dice-at-once")
    _press(page, page.locator("#dice-send"))
    expect(page.locator("#dice")).to_be_hidden(timeout=SLOW)
    pending = table.state.turn.pending
    assert pending is not None and pending.ap - (2 if pending.optimized else 0) == 2 + 1 + 3
    assert page.errors == []  # type: ignore[attr-defined]


def test_dice_the_players_cannot_type_are_rolled_by_the_table_on_request(table: Table, browser: Browser) -> None:
    table.service.set_dice_mode("physical")
    table.service.apply(next(la.action for la in legal_actions(table.state) if la.tag == "begin_actions"))
    page = page_at(browser, table.url, **PHONE)
    _unlock(page)
    _press(page, page.locator('#actions .action[data-tag="move"]').first)
    page.locator('#choices input[name="dice-basic"]').fill("2")
    _press(page, page.locator("#choices-go"))
    expect(page.locator("#dice")).to_be_visible()
    _press(page, page.locator("#dice-table"))
    expect(page.locator("#dice")).to_be_hidden(timeout=SLOW)
    expect(page.locator("#message")).to_contain_text("The table rolled for Nano's move action")
    assert table.state.turn.pending is not None  # the move goes on with the table's roll
    assert table.service._session.dice_mode == "physical"  # and the players roll again from now on
    expect(page.locator("#dice-mode")).to_have_value("physical")
    assert page.errors == []  # type: ignore[attr-defined]


@SIZES
def test_actions_are_grouped_as_the_turn_offers_them_and_what_cannot_succeed_says_why(
        table: Table, browser: Browser, size: dict[str, Any]) -> None:
    table.service.play_from(_played(lambda s: any(la.tag in ("strike", "strike_wall") and not la.dice
                                                           for la in legal_actions(s)), seed=7))
    page = page_at(browser, table.url, **size)
    page.evaluate("document.addEventListener('legal', (e) => { window.offered = e.detail.map((a) => a.tag); })")
    _unlock(page)
    wait_until(page, "window.offered && window.offered.length > 0")  # the board hears of every refresh
    assert page.evaluate("window.offered") == [a["tag"] for a in table.service.legal().actions]
    chip = table.state.burncycle.slots[table.state.burncycle.tracker]
    now = page.locator('#actions [data-group="now"]')
    expect(now.locator("h3")).to_have_text(f"On the {chip.kind} chip of slot {table.state.burncycle.tracker + 1}")
    hopeless = now.locator('.action[data-tag^="strike"]:disabled').first
    expect(hopeless).to_contain_text("Cannot succeed: no dice left in the pool: it needs 10 AP")
    expect(now.locator(".action").last).to_have_attribute("data-tag", "pass")  # what ends something comes last
    expect(page.locator('#actions .action[data-tag^="strike"] [data-space]').first).to_be_visible()
    texts = page.locator("#actions .action").all_inner_texts()
    for text in texts:
        said = text.lower().split()
        assert all(a != b for a, b in zip(said, said[1:], strict=False)), f"a word said twice: {text!r}"
    _no_developer_text(page, "the action list")
    _shot(page, size, "actions")
    # the route step: free actions and purchases under their own headings
    table.service.play_from(_played(lambda s: s.turn.step == "route" and s.round == 2, seed=7))
    headings = page.locator("#actions h3")
    expect(headings).to_have_text(["Power routing", "Free actions", "Purchases"], timeout=SLOW)
    expect(page.locator('#actions [data-group="purchases"] .action[data-tag="reboot"]')).to_be_visible()
    assert page.errors == []  # type: ignore[attr-defined]


@SIZES
def test_a_reboot_and_a_new_game_are_asked_about_first(table: Table, browser: Browser, size: dict[str, Any]) -> None:
    page = page_at(browser, table.url, **size)
    _unlock(page)
    threat = table.state.threat
    reboot = page.locator('#actions .action[data-tag="reboot"]')
    _press(page, reboot)
    dialog = page.locator("dialog#confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Reboot the burncycle?")
    expect(dialog).to_contain_text("It raises the threat by 2.")
    expect(page.locator("#confirm-no")).to_be_focused()  # the safe answer under the thumb
    _shot(page, size, "confirm-reboot", full_page=False)  # the dialog over the screen as the player sees it
    _press(page, page.locator("#confirm-no"))
    expect(dialog).to_be_hidden()
    expect(page.locator("#message")).to_have_text("Nothing was done.")
    assert table.state.threat == threat
    _press(page, reboot)
    _press(page, page.locator("#confirm-yes"))
    expect(page.locator("#summary")).to_contain_text(f"threat {threat + 2}", timeout=SLOW)
    # a new game replaces this one: asked first
    game = table.service.game_id
    _press(page, page.locator("#new-game button[type=submit]"))
    expect(dialog).to_contain_text("Start a new game?")
    page.keyboard.press("Escape")  # Escape is no
    expect(dialog).to_be_hidden()
    assert table.service.game_id == game
    _press(page, page.locator("#new-game button[type=submit]"))
    _press(page, page.locator("#confirm-yes"))
    expect(page.locator("#summary")).to_contain_text("threat 0", timeout=SLOW)
    assert table.service.game_id != game
    assert page.errors == []  # type: ignore[attr-defined]


def test_ending_a_turn_that_loses_power_is_asked_about_first(table: Table, browser: Browser) -> None:
    state = _played(lambda s: s.turn.step == "end" and any(
        la.tag == "end_turn" and la.warning for la in legal_actions(s)), seed=0)
    warning = next(la.warning for la in legal_actions(state) if la.tag == "end_turn")
    table.service.play_from(state)
    page = page_at(browser, table.url, **PHONE)
    _unlock(page)
    number = table.service.number
    _press(page, page.locator('#actions .action[data-tag="end_turn"]'))
    dialog = page.locator("dialog#confirm")
    expect(dialog).to_contain_text("End the turn?")
    # the rules' own warning, as the auto-player's game left the power (Nano held 6 against a bank of 5 there)
    assert "the end of the turn loses" in warning and "power unless spent first" in warning
    expect(dialog).to_contain_text(warning)
    _shot(page, PHONE, "confirm-end-turn", full_page=False)
    _press(page, page.locator("#confirm-no"))
    expect(page.locator("#choices")).to_be_hidden()  # nothing asked, nothing done
    assert table.service.number == number
    _press(page, page.locator('#actions .action[data-tag="end_turn"]'))
    _press(page, page.locator("#confirm-yes"))
    expect(page.locator("#choices")).to_be_visible()  # then its choice: the slot to degrade on the chooser face
    expect(page.locator("#choices select[name=choose] option").nth(1)).to_have_text(re.compile(r"^slot 1 \("))
    _press(page, page.locator("#choices-go"))
    expect(page.locator("#summary")).not_to_contain_text("the end of the turn", timeout=SLOW)
    assert page.errors == []  # type: ignore[attr-defined]


@SIZES
def test_the_new_games_agents_are_ticked_beside_their_names_and_ordered(table: Table, browser: Browser,
                                                                         size: dict[str, Any]) -> None:
    page = page_at(browser, table.url, **size)
    _unlock(page)
    guard = table.state.security[0].id
    page.locator(f'#board .unit[data-unit="{guard}"]').click()  # a guard selected on the board
    expect(page.locator("#turn-unit")).to_be_visible()  # the guard's facing offered, in this game
    expect(page.locator("#new-floor option", has_text="Meridian Tower, Annex")).to_have_count(1)  # by name
    rows = page.locator("#new-agents li.agent")
    expect(rows.first).to_have_attribute("data-agent", "nano")  # the table's order: Nano, then Casing
    casing = page.locator('#new-agents li[data-agent="casing"]')
    expect(casing.locator("label")).to_have_text(re.compile(r"Casing"))
    assert casing.locator("label input[type=checkbox]").is_checked()  # the box inside its name's label
    casing.locator("button.earlier").focus()
    page.keyboard.press("Enter")  # the keyboard moves it too
    expect(rows.first).to_have_attribute("data-agent", "casing")
    expect(rows.first.locator("button.earlier")).to_be_disabled()
    page.locator("#new-agents label", has_text="Byte").locator("input").check()
    page.select_option("#new-floor", "meridian-annex")
    page.select_option("#new-mission", "tower-run")
    _shot(page, size, "new-game")
    _press(page, page.locator("#new-game button[type=submit]"))
    _press(page, page.locator("#confirm-yes"))
    expect(page.locator("#title")).to_have_text("Operation Tower Run on Meridian Tower, Annex", timeout=SLOW)
    assert table.state.turn.order == ["casing", "nano", "byte"]
    expect(page.locator("#turn-unit")).to_be_hidden()  # the old game's guard row does not carry over
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_restarted_table_takes_the_phones_rights_away_and_says_so(table: Table, browser: Browser) -> None:
    page = page_at(browser, table.url, **PHONE)
    _unlock(page)
    table.stop()
    expect(page.locator("#offline")).to_be_visible(timeout=10_000)
    expect(page.locator("#actions .action")).to_have_count(0)  # nothing offered to a table that cannot take it
    expect(page.locator("#steps")).to_be_hidden()
    table.start()  # a new run: the sessions it had are gone
    expect(page.locator("#offline")).to_be_hidden(timeout=SLOW)
    expect(page.locator("#message")).to_have_text("The table restarted: type its PIN to play again.")
    expect(page.locator("#pin")).to_be_visible()
    expect(page.locator("#who")).to_have_text("watching")
    page.wait_for_timeout(500)  # the snapshot's change drawn: still nothing offered
    expect(page.locator("#actions .action")).to_have_count(0)
    _shot(page, PHONE, "restarted")
    _unlock(page)
    expect(page.locator("#who")).to_have_text("unlocked: this phone plays")
    assert page.errors == []  # type: ignore[attr-defined]


@SIZES
def test_a_pin_lockout_counts_down_and_unlock_waits_for_it(table: Table, browser: Browser,
                                                          size: dict[str, Any]) -> None:
    page = page_at(browser, table.url, **size)
    unlock = page.locator("#pin-form button[type=submit]")
    for left in (4, 3, 2, 1):
        page.fill("#pin-input", "0000")
        _press_until_taken(page, unlock, "#pin-input")
        expect(page.locator("#pin .pin-problem")).to_contain_text(f"{left} tr")
    page.evaluate("""window.said = [];
        const line = document.querySelector('#pin .pin-problem');
        new MutationObserver(() => window.said.push(line.textContent))
          .observe(line, {childList: true, characterData: true, subtree: true})""")
    page.fill("#pin-input", "0000")
    _press_until_taken(page, unlock, "#pin-input")  # the fifth: the table makes this device wait 2 s
    expect(page.locator("#pin .pin-problem")).to_have_text(
        "Too many wrong PINs from this device: Unlock works again in 2 s.")
    expect(unlock).to_be_disabled()
    _shot(page, size, "lockout")
    expect(unlock).to_be_enabled(timeout=4_000)
    expect(page.locator("#pin .pin-problem")).to_have_text("You may try the PIN again.")
    waits = [s for s in page.evaluate("window.said") if s.startswith("Too many")]
    assert [w[-4:] for w in dict.fromkeys(waits)] == ["2 s.", "1 s."]  # counted down second by second
    _unlock(page)
    assert page.errors == []  # type: ignore[attr-defined]


@SIZES
def test_burncycle_chip_names_are_never_broken_mid_word(table: Table, browser: Browser, size: dict[str, Any]) -> None:
    page = page_at(browser, table.url, **size)
    broken = page.evaluate("""[...document.querySelectorAll('#burncycle .slot')].flatMap((slot) =>
        [...slot.childNodes].filter((n) => n.nodeType === 3).flatMap((n) =>
          [...n.textContent.matchAll(/\\S+/g)].filter((word) => {
            const r = document.createRange();
            r.setStart(n, word.index);
            r.setEnd(n, word.index + word[0].length);
            return r.getClientRects().length > 1;  // one word on two lines
          }).map((word) => word[0])))""")
    assert broken == []
    assert page.evaluate("[...document.querySelectorAll('#burncycle .slot')]"
                         ".every((s) => s.scrollWidth <= s.clientWidth)")


def test_no_page_shows_json_or_a_route(table: Table, browser: Browser) -> None:
    for size in (PHONE, LAPTOP):
        page = page_at(browser, table.url, **size)
        _no_developer_text(page, "the dashboard, watching")
        _unlock(page)
        _no_developer_text(page, "the dashboard, playing")
        for path, ready in (("camera", "#health"), ("floors/edit", "main"),
                            (f"games/{table.service.game_id}/replay", "main")):
            tool = page_at(browser, table.url + path, board=False, **size)
            expect(tool.locator(ready)).not_to_be_empty(timeout=SLOW)
            tool.wait_for_timeout(1500)  # its first requests answered
            _no_developer_text(tool, f"/{path}")
            assert tool.errors == []  # type: ignore[attr-defined]
        camera = page_at(browser, table.url + "camera", board=False, **size)
        expect(camera.locator("#health")).to_have_text(
            "The camera's picture shows the players: type the table's PIN to see it.", timeout=SLOW)
        _shot(camera, size, "camera-locked")
        camera.locator("#unlock-slot button").click()  # the same PIN form as the dashboard's, in a dialog
        dialog = camera.locator("dialog.pin-dialog")
        expect(dialog.locator("#pin-input-dialog")).to_be_focused()
        dialog.locator("input[name=pin]").fill("0000")
        dialog.locator("button[type=submit]").click()
        expect(dialog.locator(".pin-problem")).to_contain_text("Wrong PIN")
        _shot(camera, size, "camera-pin-dialog", full_page=False)
        dialog.locator("input[name=pin]").fill(PIN)
        dialog.locator("button[type=submit]").click()
        expect(dialog).to_have_count(0)
        expect(camera.locator("#picture")).to_have_attribute("src", re.compile(r"^blob:"), timeout=SLOW)
