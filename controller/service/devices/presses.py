"""What the table's buttons do, and what the buzzer says of the game's changes.

A press ("next", `held` for a long press, or "undo") runs on the session's writer: while the game waits for
physical dice it types in their faces (DiceFromButtons); a long press of "next" lifts what someone at the table
may lift (`on_owner_press`: the web's pause of PIN logins); else it steps the game on or back. A step the rules
refuse changes nothing, and the refusal is kept for the dashboard (a button has no screen to say it on).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from controller.rules import BurncycleError
from controller.service.devices.buttons import ButtonsAndBuzzer, DiceFromButtons
from controller.service.game.session import Change, ChangeKind, GameSession

log = logging.getLogger(__name__)
DETECTION_EVENTS = {"bot_detected"}
THREAT_EVENTS = {"threat_event_fired", "escalation_active", "defeat"}


class ButtonPresses:
    """The buttons' presses, handled on the session's writer, and the buzzer's sounds."""

    def __init__(self, session: GameSession, buttons: ButtonsAndBuzzer | None, *, next_step: Callable[[], object],
                 undo: Callable[[], object]) -> None:
        self._buttons, self._next_step, self._undo = buttons, next_step, undo
        self.dice = DiceFromButtons(session, buttons)
        self._owner_lifts: list[Callable[[], bool]] = []
        self.last_refusal: str | None = None

    def on_owner_press(self, lift: Callable[[], bool]) -> None:
        self._owner_lifts.append(lift)

    def press(self, name: str, held: bool) -> None:
        """A press, on the session's writer: what it reads of the game and the change it makes are one step."""
        try:
            if not self.dice.press(name, held) and not (name == "next" and held and self._owner_pressed()):
                (self._next_step if name == "next" else self._undo)()
            self.last_refusal = None
        except BurncycleError as err:
            self.last_refusal = f"the {name} button: {err}"
        except Exception:  # a fault of the table's own: its future holds it, and the log says it (no one waits)
            log.exception("the %s button's press failed", name)
            raise

    def _owner_pressed(self) -> bool:
        lifted = [lift() for lift in self._owner_lifts]  # every one, not only up to the first that lifts
        if any(lifted) and self._buttons is not None:
            self._buttons.sound("accepted")
        return any(lifted)

    def sound(self, change: Change, loop: asyncio.AbstractEventLoop) -> None:
        """The buzzer's word on a change (on the writer's thread: the sound is made on the loop): dice to roll,
        a bot detected, the threat rising."""
        if self._buttons is None:
            return
        entry: dict[str, Any] = change.body.get("entry", {})
        kinds = {e.get("type") for e in entry.get("events", [])}
        if change.kind is ChangeKind.DICE_REQUESTED:
            loop.call_soon_threadsafe(self._buttons.sound, "roll")
        elif kinds & DETECTION_EVENTS:
            loop.call_soon_threadsafe(self._buttons.sound, "detection")
        elif kinds & THREAT_EVENTS:
            loop.call_soon_threadsafe(self._buttons.sound, "threat")
