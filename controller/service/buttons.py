"""The table's push buttons ("next", "undo") and its buzzer, on the Pi's header through gpiozero.

Each part is optional: a table wires what it has and leaves the rest out of table.toml. The pin factory
is injectable (gpiozero's MockFactory in tests and the demo, lgpio on a Pi). gpiozero calls a button's
handler from its own thread; the handlers here only hand the press over to the asyncio loop with
`call_soon_threadsafe`, so the game is only ever changed from the loop's thread. Not every pin backend
debounces (gpiozero's MockFactory does not), so presses of one button within REPEAT_S count once: a
"next" that chatters must not skip a step of the game.

The buzzer is an active piezo (it sounds when its pin is high), so each sound is a beep pattern:
detection is urgent (three short beeps), the threat crossing an event is one long beep.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from gpiozero import Button, Buzzer, GPIOZeroError
from gpiozero.pins import Factory

from controller.service.components import Component

BOUNCE_S = 0.05  # a pressed contact chatters for a few ms: the pin backend filters what it can
REPEAT_S = 0.25  # presses of one button closer than this are one press (chatter the backend let through)


@dataclass(frozen=True)
class Sound:
    """A beep pattern: `beeps` times on for `on_s`, off for `off_s`."""

    on_s: float
    off_s: float
    beeps: int


SOUNDS: dict[str, Sound] = {
    "detection": Sound(0.08, 0.08, 3),
    "threat": Sound(0.6, 0.1, 1),
}


class ButtonsAndBuzzer(Component):
    """The optional buttons and buzzer as one supervised component.

    `on_next` and `on_undo` are called on the event loop's thread, once per press.
    """

    def __init__(self, *, next_pin: int | None = None, undo_pin: int | None = None, buzzer_pin: int | None = None,
                 on_next: Callable[[], None] | None = None, on_undo: Callable[[], None] | None = None,
                 pin_factory: Factory | None = None) -> None:
        super().__init__("buttons")
        self.pins = {"next": next_pin, "undo": undo_pin, "buzzer": buzzer_pin}
        self._handlers = {"next": on_next, "undo": on_undo}
        self.pin_factory = pin_factory
        self.buttons: dict[str, Button] = {}
        self.buzzer: Buzzer | None = None
        self._last_press: dict[str, float] = {}

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            for name in ("next", "undo"):
                pin = self.pins[name]
                if pin is None:
                    continue
                button = Button(pin, pull_up=True, bounce_time=BOUNCE_S, pin_factory=self.pin_factory)
                # gpiozero's thread: only hand the press to the loop
                button.when_pressed = lambda name=name: loop.call_soon_threadsafe(self._pressed, name)
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
        sound = SOUNDS[name]
        if self.buzzer is not None:
            self.buzzer.beep(sound.on_s, sound.off_s, n=sound.beeps, background=True)

    def _pressed(self, name: str) -> None:
        now = asyncio.get_running_loop().time()
        if now - self._last_press.get(name, -REPEAT_S) < REPEAT_S:
            return
        self._last_press[name] = now
        handler = self._handlers[name]
        if handler is not None:
            handler()

    def _wired(self) -> str:
        return ", ".join(f"{name} on GPIO{pin}" for name, pin in self.pins.items() if pin is not None)
