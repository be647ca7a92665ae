"""A player's phone at the table, for the tests and the bench that play from one: a 390x844 touch page that acts
only by tapping what a person taps, and counts the taps each action took.

The auto-player (controller/autoplay) decides what to do, reading the game in-process from the service, as the
person holding the phone would decide by looking at the table; `Phone.act` turns that decision into taps. An
action aimed at a space is played on the board when the board offers targets (tap the unit, then its lit
target), otherwise from the list of actions; its choices, its confirmation and the dice rolled at the table are
tapped on the page too. The test makes no HTTP request of its own: every change goes through the page.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import msgspec
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from playwright.sync_api import Error as PlaywrightError

from controller.rules import (
    Action,
    CorporationTurn,
    GameState,
    LegalAction,
    legal_actions,
)
from controller.service.table import TableService
from tests.browser.chromium import ARTIFACTS, keep_errors, wait_until
from tests.browser.tools_support import PIN

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
WAIT = 30_000  # ms: a shared 2-core machine, with several browsers at once


def touch_context(browser: Browser) -> BrowserContext:
    """A phone held upright: 390x844, touch, a mobile viewport."""
    return browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=1)


def the_legal(state: GameState, action: Action) -> LegalAction:
    """The listed action the auto-player's choice is: the same action, or the same with its choices filled in."""
    legal = legal_actions(state)
    for la in legal:
        if la.action == action:
            return la
    for la in legal:
        if type(la.action) is type(action) and all(
                getattr(la.action, f) == getattr(action, f) for f in action.__struct_fields__ if f not in la.choose):
            return la
    raise AssertionError(f"the auto-player chose {action!r}, which is not among the {len(legal)} legal actions")


@dataclass
class Taps:
    """What the phone's player did for one action: taps on the page, and faces tapped for dice rolled at the table
    (counted apart: one tap per die is the dice's, not the page's)."""

    kind: str
    taps: int = 0
    faces: int = 0
    typed: int = 0  # values typed on the phone's keyboard (a number of dice, a payer's power)
    board: bool = False  # aimed at a space and played on the board


@dataclass
class Phone:
    """A touch page on the dashboard, unlocked with the table's PIN, that plays what it is told with taps."""

    page: Page
    service: TableService
    dice: random.Random = field(default_factory=lambda: random.Random(0))
    record: list[Taps] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)  # what the table asked to be rolled or drawn, in order
    moments: str = ""  # the screenshots' prefix: set, the phone saves the first of each moment a person looks at
    taken: set[str] = field(default_factory=set)  # the screenshots saved, by name
    _now: Taps | None = None

    @classmethod
    def open(cls, browser: Browser, url: str, service: TableService, seed: int = 0) -> Phone:
        page = touch_context(browser).new_page()
        phone = cls(page, service, random.Random(seed))
        keep_errors(page, phone.errors)
        page.goto(url)
        return phone

    # -- taps --

    def tap(self, selector: str) -> None:
        """One finger tap on what `selector` names (visible and enabled first, as a person waits for it); the
        board drawn again between finding it and tapping it is looked at again, as an eye would."""
        for attempt in range(5):
            target = self.page.locator(selector).first
            try:
                target.scroll_into_view_if_needed(timeout=WAIT)
                target.tap(timeout=WAIT)
                break
            except PlaywrightError as err:
                if "not attached" not in str(err) or attempt == 4:
                    raise
        if self._now is not None:
            self._now.taps += 1

    def type_into(self, selector: str, value: str) -> None:
        """A tap on a field and a value typed on the phone's keyboard."""
        self.tap(selector)
        self.page.locator(selector).first.fill(value)
        if self._now is not None:
            self._now.typed += 1

    def pick(self, selector: str, value: str) -> None:
        """A select's option chosen: a tap opens the phone's picker, a second taps the option."""
        self.page.locator(selector).first.select_option(value)
        if self._now is not None:
            self._now.taps += 2

    def shot(self, name: str) -> Path:
        """What the phone shows now (its screen, not the whole page), for a person to look at."""
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"phone-game-{name}.png"
        self.page.screenshot(path=str(path))
        return path

    def moment(self, name: str) -> None:
        """The screen the first time the game reaches this moment (the new-game form, a choice, the dice)."""
        if self.moments and f"{self.moments}-{name}" not in self.taken:
            self.taken.add(f"{self.moments}-{name}")
            self.shot(f"{self.moments}-{name}")

    # -- the game's start --

    def unlock(self) -> None:
        self.tap("#pin-input")
        self.page.locator("#pin-input").fill(PIN)
        self.tap("#pin-form button[type=submit]")
        expect(self.page.locator("#steps")).to_be_visible(timeout=WAIT)

    def new_game(self, *, mission: str, agents: list[str]) -> None:
        """A new game from the page's form: the mission and agents chosen, then started (and confirmed)."""
        form = self.page.locator("#new-game")
        expect(form.locator("button[type=submit]")).to_be_visible(timeout=WAIT)
        if self.page.locator("#new-mission").input_value() != mission:
            self.pick("#new-mission", mission)
        for box in form.locator("input[name=agents]").all():
            if box.is_checked() != (box.get_attribute("value") in agents):
                box.scroll_into_view_if_needed()
                box.tap()
        before = self.service.game_id if self.service.has_game() else None
        form.scroll_into_view_if_needed()
        self.moment("new-game")
        self.tap("#new-game button[type=submit]")
        started = partial(self._new_game_started, before)
        assert self._until(lambda: started() or self._asking() == "confirm"), "the form neither started nor asked"
        if not started():
            self.tap("#confirm-yes")
        assert self._until(started), "the new game did not start from the form"

    # -- playing --

    def settle(self) -> None:
        """Wait until the page shows the game's latest change: the board drawn from it and, for a player, the
        list of actions the game offers now (a list drawn after the last tap, the same actions)."""
        number = self.service.number
        wait_until(self.page, f"Number(document.getElementById('board').dataset.number) >= {number}", timeout=WAIT)
        state = self.service.state
        if state.outcome is not None or self.service._session.pending_dice is not None:
            return
        wanted = [[la.tag, k] for k, la in enumerate(legal_actions(state))]
        wait_until(
            self.page,
            """wanted => {
                 const shown = [...document.querySelectorAll('#actions button.action')];
                 if (shown.some((b) => b.__tapped)) return false;
                 const got = shown.map((b) => [b.dataset.tag, Number(b.dataset.index)]);
                 const want = wanted.filter(([tag]) => tag !== 'corporation_turn');
                 return want.every(([t, k]) => got.some(([g, j]) => g === t && j === k));
               }""", wanted, timeout=WAIT)

    def act(self, action: Action) -> Taps:
        """Play `action` with taps, the dice too when the table rolls them; returns the taps it took."""
        state = self.service.state
        number = self.service.number
        self._now = Taps(type(action).__name__)
        self.page.evaluate("document.querySelectorAll('#actions button.action').forEach((b) => { b.__tapped = true; })")
        if isinstance(action, CorporationTurn) and self.page.locator("#corp").is_visible():
            self.tap("#corp")
        else:
            legal = the_legal(state, action)
            index = next(k for k, la in enumerate(legal_actions(state)) if la == legal)
            if legal.at is not None and legal.bot is not None:
                self._on_board(legal, index)
            else:
                self.tap(f'#actions button.action[data-index="{index}"]')
            self._answer(legal, action, number)
        self._roll(number)
        assert self._until(lambda: self.service.number > number
                           and self.service._session.pending_dice is None), f"{action!r} was not played from the page"
        done, self._now = self._now, None
        self.record.append(done)
        return done

    def _on_board(self, legal: LegalAction, index: int) -> None:
        """The action played on the board: its bot picked (unless it is already), then the lit space the action
        aims at (`legal.at`), then the action among those that share that space."""
        at = legal.at
        if self.page.locator("#board").get_attribute("data-selected") != legal.bot:
            self._let_go(str(legal.bot))
            self.tap(f'#board .unit[data-unit="{legal.bot}"]')
            self.moment("targets")
        target = f'#board [data-target][data-space="{at}"]'
        self.page.locator(target).first.wait_for(state="attached", timeout=WAIT)
        shared = self.page.locator(target).first.get_attribute("data-index") is None
        self.tap(target)
        if shared:
            assert self.page.locator("#target-choices").is_visible(), (
                f"the tap on {at}, a space {legal.bot}'s actions share, did not list them: the click that follows "
                f"the touch took what the list, scrolled into view, put under the finger")
            self.moment("target-choices")
            self.tap(f'#target-choices button[data-index="{index}"]')
        self._now.board = True  # type: ignore[union-attr]

    def _let_go(self, bot: str) -> None:
        """The picked unit let go when its lit targets cover the bot to pick next (a tap there would act): a tap
        on the picked unit, or on the nearest empty space when a target covers that too."""
        picked = self.page.locator("#board").get_attribute("data-selected")
        if picked is None:
            return
        lit = set(self.page.evaluate("[...document.querySelectorAll('#board [data-target]')]"
                                     ".map((t) => t.dataset.space)"))
        state = self.service.state
        where = {u.id: u.space for u in state.security} | {b.id: b.space for b in state.bots if b.space}
        if where.get(bot) not in lit:
            return
        if where.get(picked) not in lit:
            self.tap(f'#board .unit[data-unit="{picked}"]')
            return
        taken = lit | set(where.values())
        spaces = self.page.evaluate("[...document.querySelectorAll('#board rect.space')].map((r) => r.dataset.space)")
        empty = min((s for s in spaces if s not in taken), key=lambda s: _distance(s, where[picked]))
        self.tap(f'#board rect.space[data-space="{empty}"]')

    def _choose(self, legal: LegalAction, action: Action) -> None:
        """The choices the listed action asks for, set as the auto-player chose them, then "Do it": a number of
        dice or of power typed, an option picked from its list, a network step's transfer picked per step (or
        typed), boxes ticked (in the listing's order)."""
        chosen = msgspec.to_builtins(action)
        default = msgspec.to_builtins(legal.action)
        for name in legal.choose:
            if chosen.get(name) == default.get(name):
                continue
            if name == "dice":
                for grade, count in chosen["dice"].items():
                    if count != (default["dice"] or {}).get(grade):
                        self.type_into(f'#choices [name="dice-{grade}"]', str(count))
            elif name == "payers":
                for bot in legal.payers:
                    if chosen["payers"].get(bot, 0) != default["payers"].get(bot, 0):
                        self.type_into(f'#choices [name="payer-{bot}"]', str(chosen["payers"].get(bot, 0)))
            elif name == "transfers" and self.page.locator('#choices select[name^="transfer-"]').count():
                for step in sorted(set(chosen[name]) | set(default[name] or {})):
                    if chosen[name].get(step) != (default[name] or {}).get(step):
                        self.pick(f'#choices select[name="transfer-{step}"]', chosen[name].get(step) or "")
            elif name in legal.options:
                options = msgspec.to_builtins(legal.options[name])
                if isinstance(chosen[name], list):
                    boxes = self.page.locator(f'#choices input[type=checkbox][name="{name}"]')
                    for k, option in enumerate(options):
                        if (option in chosen[name]) != (option in default[name]):
                            boxes.nth(k).tap()
                            self._now.taps += 1  # type: ignore[union-attr]
                else:
                    select = f'#choices select[name="{name}"]'
                    self.pick(select, _option_value(self.page.locator(select).first, options, chosen[name]))
            elif isinstance(chosen[name], bool):
                self.tap(f'#choices input[type=checkbox][name="{name}"]')
            else:
                field = self.page.locator(f'#choices [name="{name}"]').first
                as_json = (field.input_value() or "").startswith(("[", "{", '"'))
                said = (msgspec.json.encode(chosen[name]).decode() if as_json
                        else ", ".join(chosen[name]) if isinstance(chosen[name], list) else str(chosen[name] or ""))
                self.type_into(f'#choices [name="{name}"]', said)
        self.moment(f"{legal.tag}-choices")
        self.tap("#choices-go")

    def _answer(self, legal: LegalAction, action: Action, number: int) -> None:
        """What the page asks once the action is tapped, until the table takes it: "are you sure?" (yes), its
        choices (set, then Do it), in whichever order the page asks them."""
        chosen = False
        while True:
            assert self._until(partial(self._taken_or_asking, number, chosen)), \
                f"the page neither took {legal.tag} nor asked anything"
            asking = self._asking()
            if asking == "confirm":
                self.tap("#confirm-yes")
            elif asking == "choices" and not chosen:
                self._choose(legal, action)
                chosen = True
            else:
                return

    def _taken_or_asking(self, number: int, chosen: bool) -> bool:
        asking = self._asking()
        return (self._changed(number) or self.service._session.pending_dice is not None or asking == "confirm"
                or (asking == "choices" and not chosen))

    def _asking(self) -> str | None:
        """What the page asks now: "confirm" (its dialog open), "choices" (an action's form shown), or None."""
        return self.page.evaluate("""() => {
            const dialog = document.getElementById('confirm');
            if (dialog && dialog.open) return 'confirm';
            const choices = document.getElementById('choices');
            return choices && !choices.hidden ? 'choices' : null; }""")

    def _new_game_started(self, before: int | None) -> bool:
        return self.service.has_game() and self.service.game_id != before

    def _roll(self, number: int) -> None:
        """Dice rolled at the table: each face the game asks for tapped on the page as it lies, then sent."""
        for _ in range(20):
            if not self._until(partial(self._asked_or_changed, number), seconds=WAIT / 1000):
                return
            request = self.service._session.pending_dice
            if request is None:
                return
            self.asked.append(request.message)
            expect(self.page.locator("#dice")).to_be_visible(timeout=WAIT)
            for wanted in request.dice:
                buttons = self.page.locator(f'#dice button[data-die="{wanted["die"]}"][data-face]')
                try:  # the live feed brings a follow-up request a moment after the session holds it
                    expect(buttons.first).to_be_attached(timeout=WAIT)
                except AssertionError:
                    pass  # a real dead end: said just below
                # the page may still show the request before this one (a bag drawn twice in a row: a chip that has
                # left the bag since): wait until it offers what this request offers, then read at once (the panel
                # drawn again between finding its buttons and reading each was a flake)
                listed = set(wanted.get("faces") or [])
                if listed:
                    self._until(partial(self._offers, buttons, listed), seconds=WAIT / 1000)
                faces = self._faces(buttons)
                if not faces:
                    self.shot("dead-end")
                assert faces, f"the page offers no face to tap for {wanted['die']} (asked: {self.asked})"
                for _ in range(wanted["count"]):
                    face = self.dice.choice(faces)
                    self.tap(f'#dice button[data-die="{wanted["die"]}"][data-face="{face}"]')
                    self._now.taps -= 1  # type: ignore[union-attr]
                    self._now.faces += 1  # type: ignore[union-attr]
            number = self.service.number
            self.moment("dice")
            self.tap("#dice-send")
            assert self._until(partial(self._changed, number)), f"the faces for {request.message} were not taken"

    @staticmethod
    def _faces(buttons: Locator) -> list[str]:
        """The faces the dice panel offers for one kind, read in one go."""
        return list(buttons.evaluate_all("bs => bs.map((b) => b.dataset.face)"))

    def _offers(self, buttons: Locator, listed: set[str]) -> bool:
        return set(self._faces(buttons)) == listed

    def _changed(self, number: int) -> bool:
        return self.service.number > number

    def _asked_or_changed(self, number: int) -> bool:
        return self._changed(number) or self.service._session.pending_dice is not None

    def _until(self, check, seconds: float = 30.0) -> bool:  # type: ignore[no-untyped-def]
        """Wait (letting the page run) until `check()` holds; False after `seconds`."""
        for _ in range(int(seconds * 20)):
            if check():
                return True
            self.page.wait_for_timeout(50)
        return check()


def _option_value(select: Locator, options: list[object], value: object) -> str:
    """The value of the select's option for `value`: its place in the listing's options (none: empty), or, on a
    page whose options carry the value itself, that value as JSON."""
    values = [v for v in select.evaluate("(s) => [...s.options].map((o) => o.value)") if v not in ("", "null")]
    if values == [str(k) for k in range(len(options))]:
        return "" if value is None else str(options.index(value))
    return msgspec.json.encode(value).decode()


def _distance(a: str, b: str) -> int:
    """Spaces apart on the grid, by their names (a column letter, a row number)."""
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:]))


def taps_by_kind(record: list[Taps]) -> dict[str, list[int]]:
    """Each action kind's tap counts, in the order played."""
    kinds: dict[str, list[int]] = defaultdict(list)
    for t in record:
        kinds[t.kind].append(t.taps)
    return dict(kinds)
