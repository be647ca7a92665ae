"""The table's push buttons ("next", "undo") and its buzzer, on the Pi's header through gpiozero.

Each part is optional: a table wires what it has and leaves the rest out of table.toml. The pin factory
is injectable (gpiozero's MockFactory in tests and the demo, lgpio on a Pi). gpiozero calls a button's
handler from its own thread; the handlers here only hand the press over to the asyncio loop with
`call_soon_threadsafe` (which keeps the presses' order), and the loop hands it on to the game session's one
writer without waiting (`TableService.press`), so the game is only ever changed by that writer, in the order
the buttons were pressed, and the loop never waits for a lock or a write to disk. Not every pin backend
debounces (gpiozero's MockFactory does not), so presses of one button within REPEAT_S count once: a
"next" that chatters must not skip a step of the game.

"next" tells a short press from a long one (held HOLD_S), so a table with only these two buttons can type
in physical dice (`DiceFromButtons`): it acts when released, or when held long enough. "undo" acts when
pressed. Both the long press and the repeat window are measured here, on an injectable monotonic clock (as
web/auth.py's TableAuth measures its waits), not by gpiozero's hold thread: a test steps the clock instead
of holding a button for real seconds.

The buzzer is an active piezo (it sounds when its pin is high), so each sound is a beep pattern:
detection is urgent (three short beeps), the threat crossing an event is one long beep, a roll asked for
is two beeps, and while dice are typed in it counts the face shown in short beeps.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpiozero.exc import GPIOZeroError
from gpiozero.input_devices import Button
from gpiozero.output_devices import Buzzer
from gpiozero.pins import Factory

from controller.rules import BurncycleError
from controller.service.frame.components import Component
from controller.service.game.session import DiceRequest, GameSession

BOUNCE_S = 0.05  # a pressed contact chatters for a few ms: the pin backend filters what it can
REPEAT_S = 0.25  # presses of one button closer than this are one press (chatter the backend let through)
HOLD_S = 0.8     # "next" held this long is a long press: long enough that a firm short press is not one
HOLD_CHECK_S = 0.02  # while "next" is down, how often the loop looks whether it has been held HOLD_S


@dataclass(frozen=True)
class Sound:
    """A beep pattern: `beeps` times on for `on_s`, off for `off_s`."""

    on_s: float
    off_s: float
    beeps: int


SOUNDS: dict[str, Sound] = {
    "detection": Sound(0.08, 0.08, 3),
    "threat": Sound(0.6, 0.1, 1),
    "roll": Sound(0.2, 0.1, 2),       # the game waits for dice rolled at the table
    "accepted": Sound(0.4, 0.1, 1),   # a die's face taken, on to the next die
}
COUNT = Sound(0.06, 0.14, 1)  # one short beep per face number while dice are typed in


class ButtonsAndBuzzer(Component):
    """The optional buttons and buzzer as one supervised component.

    `on_press(name, held)` is called on the event loop's thread, once per press: ("next", False) for a short
    press of "next" (on release), ("next", True) once it has been held HOLD_S, ("undo", False) for "undo"; it
    must return at once (the table's hands the press to the session's writer).
    `clock` is the monotonic clock the long press and the repeat window are measured on.
    """

    def __init__(self, *, next_pin: int | None = None, undo_pin: int | None = None, buzzer_pin: int | None = None,
                 on_press: Callable[[str, bool], object] | None = None, pin_factory: Factory | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__("buttons")
        self.pins = {"next": next_pin, "undo": undo_pin, "buzzer": buzzer_pin}
        self._on_press = on_press
        self.pin_factory = pin_factory
        self.clock = clock
        self.buttons: dict[str, Button] = {}
        self.buzzer: Buzzer | None = None
        self._last_press: dict[str, float] = {}
        self._down_since: float | None = None  # when "next" went down, while it is down
        self._held = False  # "next" went long: its release is not another press
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop the presses and the sounds run on

    async def start(self) -> None:
        loop = self._loop = asyncio.get_running_loop()
        try:
            for name in ("next", "undo"):
                pin = self.pins[name]
                if pin is None:
                    continue
                button = Button(pin, pull_up=True, bounce_time=BOUNCE_S, pin_factory=self.pin_factory)
                # gpiozero's thread: only hand the press to the loop (which keeps the events' order)
                if name == "next":
                    button.when_pressed = lambda: loop.call_soon_threadsafe(self._next_down)
                    button.when_released = lambda: loop.call_soon_threadsafe(self._next_released)
                else:
                    button.when_pressed = lambda name=name: loop.call_soon_threadsafe(self._pressed, name, False)
                self.buttons[name] = button
            if self.pins["buzzer"] is not None:
                self.buzzer = Buzzer(self.pins["buzzer"], pin_factory=self.pin_factory)
        except GPIOZeroError as err:
            raise RuntimeError(f"cannot use the GPIO pins {self._wired()}: {err}") from None
        self.ok(f"ready: {self._wired()}" if any(p is not None for p in self.pins.values())
                else "no buttons or buzzer configured")

    async def stop(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()
        if self.buzzer is not None:
            self.buzzer.close()
            self.buzzer = None

    def sound(self, name: str) -> None:
        """Plays a named sound (see SOUNDS) in the background; nothing without a buzzer."""
        self._play(SOUNDS[name])

    def count(self, n: int) -> None:
        """Beeps `n` short times (the number of the face shown while dice are typed in)."""
        self._play(Sound(COUNT.on_s, COUNT.off_s, n))

    def _play(self, sound: Sound) -> None:
        """Beeps on the event loop's thread, whoever asks (the dice typed in ask from the session's writer), so
        one sound replaces another in the order they were asked for."""
        loop = self._loop
        if loop is not None and not loop.is_closed() and _running_loop() is not loop:
            loop.call_soon_threadsafe(self._play, sound)
        elif self.buzzer is not None:
            # beep is gpiozero's alias of blink, made after the class where a type checker cannot see it
            self.buzzer.blink(sound.on_s, sound.off_s, n=sound.beeps, background=True)

    def _next_down(self) -> None:
        if self._down_since is None:
            self._down_since = self.clock()
            self._watch_hold()

    def _watch_hold(self) -> None:
        """While "next" is down and not yet long: a long press once it has been down HOLD_S, else look again."""
        if self._down_since is None or self._held:
            return
        if self.clock() - self._down_since >= HOLD_S:
            self._held = True
            self._pressed("next", True)
        else:
            asyncio.get_running_loop().call_later(HOLD_CHECK_S, self._watch_hold)

    def _next_released(self) -> None:
        self._watch_hold()  # held long enough since the last look: still a long press
        self._down_since = None
        if self._held:  # the end of a long press, already acted on; chatter after it is no press either
            self._held = False
            self._last_press["next"] = self.clock()
            return
        self._pressed("next", False)

    def _pressed(self, name: str, held: bool) -> None:
        now = self.clock()
        if not held and now - self._last_press.get(name, -REPEAT_S) < REPEAT_S:
            return
        self._last_press[name] = now
        if self._on_press is not None:
            self._on_press(name, held)

    def _wired(self) -> str:
        return ", ".join(f"{name} on GPIO{pin}" for name, pin in self.pins.items() if pin is not None)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


@dataclass(frozen=True)
class DieToEnter:
    """One die of a roll asked for: its name and its distinct faces in printed order (as the engine gives them)."""

    die: str
    faces: tuple[str, ...]


class DiceFromButtons:
    """Typing in the faces of physical dice with the two buttons, while the game waits for a roll.

    The dice are the ones the engine asked for (the session's `pending_dice`), in the order it reads them,
    each with the faces the engine says it has. The current die starts on its first face. A short press of
    "next" shows its next face (after the last, the first again) and the buzzer counts the face's number;
    holding "next" takes the face shown and goes on to the next die; "undo" goes back one die, and on the
    first die gives up the action that waits for the dice (`session.cancel_dice`). Once the last die's face
    is taken, the faces go to `session.supply_faces`. With no dice asked for, the buttons are the game's
    plain "next" and "undo" (`press` says False). Thread-safe: presses come from the session's writer (where
    `TableService.press` hands them), `status` from the web's threads.
    """

    def __init__(self, session: GameSession, buzzer: ButtonsAndBuzzer | None = None) -> None:
        self.session, self.buzzer = session, buzzer
        self._lock = threading.Lock()
        self._request: DiceRequest | None = None
        self._dice: list[DieToEnter] = []
        self._taken: list[int] = []  # the face taken for each die done, as its index in the die's faces
        self._shown = 0              # the face shown on the current die

    def press(self, name: str, held: bool) -> bool:
        """A press of "next" (`held`: a long press) or "undo": True when it went to the dice being typed in."""
        with self._lock:
            if not self._sync():
                return False
            if name == "undo":
                if not self._taken:
                    self.session.cancel_dice()
                    return True
                self._shown = self._taken.pop()
                self._count()
            elif not held:
                self._shown = (self._shown + 1) % len(self._dice[len(self._taken)].faces)
                self._count()
            else:
                self._taken.append(self._shown)
                self._shown = 0
                if len(self._taken) < len(self._dice):
                    self._sound("accepted")
                else:
                    self._supply()
            return True

    def status(self) -> dict[str, Any] | None:
        """The die being typed in, for the health page, the dashboard and MQTT; None when no dice are asked for."""
        with self._lock:
            if not self._sync():
                return None
            n = len(self._taken)
            die = self._dice[n]
            face = die.faces[self._shown]
            return {"die": n + 1, "of": len(self._dice), "kind": die.die, "face": face,
                    "taken": [d.faces[k] for d, k in zip(self._dice, self._taken)],
                    "text": f"die {n + 1} of {len(self._dice)} ({die.die}): face {face}"}

    def _supply(self) -> None:
        faces = [d.faces[k] for d, k in zip(self._dice, self._taken)]
        try:
            self.session.supply_faces(faces)
        except BurncycleError:
            self._shown = self._taken.pop()  # the rules refused: the last die stays open to change or go back
            raise
        self._request = None  # a roll asked for next (the action's later dice) starts afresh

    def _sync(self) -> bool:
        """Follow the session's request: a new one starts on its first die. False when none can be typed in."""
        pending = self.session.pending_dice if self.session.has_game() else None
        if pending is None:
            self._request = None
            return False
        if pending is not self._request:
            dice = [DieToEnter(d["die"], tuple(dict.fromkeys(d.get("faces", ()))))
                    for d in pending.dice for _ in range(d["count"])]
            if not dice or not all(d.faces for d in dice):
                return False  # a request logged before requests named their faces: the dashboard types it in
            self._request, self._dice, self._taken, self._shown = pending, dice, [], 0
        return True

    def _count(self) -> None:
        if self.buzzer is not None:
            self.buzzer.count(self._shown + 1)

    def _sound(self, name: str) -> None:
        if self.buzzer is not None:
            self.buzzer.sound(name)
