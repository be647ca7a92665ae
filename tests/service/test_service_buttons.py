"""The table's "next" and "undo" buttons on gpiozero's MockFactory, wired by compose.build into a running
TableService: a press moves the game on or takes the last step back, through TableService.press; a step the
rules refuse changes nothing and is kept in last_refusal for the dashboard. With physical dice, while the
game waits for a roll, the same two buttons type in the faces of the dice the engine asked for."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from controller.cli.compose import build
from controller.rules import Move
from controller.rules.state import DicePool
from controller.service.devices.buttons import HOLD_S, REPEAT_S
from controller.service.frame.components import Health
from controller.service.frame.config import (
    ButtonsConfig,
    CameraConfig,
    DatabaseConfig,
    GameConfig,
    ServiceConfig,
    WebConfig,
)
from controller.service.table import TableService
from tests.support.clock import Clock
from tests.support.net import free_port, wait_for

NEXT_PIN, UNDO_PIN, BUZZER_PIN = 17, 27, 18


@dataclass
class Table:
    """A running table with its buttons on MockFactory: its loop (the test's, to know a press reached it) and
    the clock its long press is measured on (stepped by the test instead of holding a button for real)."""

    service: TableService
    factory: MockFactory
    loop: asyncio.AbstractEventLoop
    clock: Clock

    def settle(self) -> None:
        """Waits until the loop has run what the pins' handlers handed it so far, and the session's writer the
        presses the loop handed it (it takes them in order)."""
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0), self.loop).result(5)
        self.service._session.write(lambda: None)

    def press(self, pin: int) -> None:
        """A thumb on the button (wired to ground, pulled up), then the pause before a person's next press."""
        self.factory.pin(pin).drive_low()
        self.factory.pin(pin).drive_high()
        self.settle()
        self.clock.step(REPEAT_S)

    def hold(self, pin: int) -> None:
        """A thumb kept on the button past the long-press time, then let go."""
        self.factory.pin(pin).drive_low()
        self.settle()
        self.clock.step(HOLD_S + 0.01)
        self.factory.pin(pin).drive_high()
        self.settle()
        self.clock.step(REPEAT_S)


@contextmanager
def running_table(tmp_path: Path, game: dict[str, Any], buttons: dict[str, int]) -> Iterator[Table]:
    factory = MockFactory()
    config = ServiceConfig(database=DatabaseConfig(path=tmp_path / "games.sqlite3"), camera=CameraConfig(source="none"),
                           web=WebConfig(host="127.0.0.1", port=free_port()), buttons=ButtonsConfig(**buttons),
                           game=GameConfig(**game))
    clock = Clock()
    service = build(config, pin_factory=factory, seed=11, clock=clock)
    loop = asyncio.new_event_loop()
    running = threading.Thread(target=lambda: loop.run_until_complete(service.run()))
    running.start()
    # every button made (the component says ready): a pin driven while gpiozero still builds its Button finds the
    # Button's hold thread not yet made (AttributeError in gpiozero's own thread)
    wait_for(lambda: service._buttons is not None and service._buttons.health is Health.OK and service.has_game())
    yield Table(service, factory, loop, clock)
    service.stop()
    running.join(10)
    loop.close()
    service.close()
    factory.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with running_table(tmp_path, {}, {"next_pin": NEXT_PIN, "undo_pin": UNDO_PIN}) as made:
        yield made


@pytest.fixture
def physical_table(tmp_path: Path) -> Iterator[Table]:
    """A table whose players roll real dice, with both buttons and the buzzer."""
    with running_table(tmp_path, {"dice": "physical"},
                       {"next_pin": NEXT_PIN, "undo_pin": UNDO_PIN, "buzzer_pin": BUZZER_PIN}) as made:
        yield made


def entering(service: TableService) -> dict[str, Any] | None:
    """The die being typed in, as GET /health shows it."""
    entry: dict[str, Any] | None = msgspec.to_builtins(service.health()).get("dice_entry")
    return entry


def test_next_moves_the_game_on_and_undo_takes_it_back(table: Table) -> None:
    service, press = table.service, table.press
    start = service._session.status()
    press(NEXT_PIN)
    wait_for(lambda: service.number > start["number"])
    moved = service._session.status()
    assert moved["entries"] == start["entries"] + 1 and moved["digest"] != start["digest"]
    assert service.last_refusal is None
    press(UNDO_PIN)
    wait_for(lambda: service.number > moved["number"])
    back = service._session.status()
    assert back["digest"] == start["digest"] and back["entries"] == start["entries"] and back["can_redo"]


def test_a_refused_step_is_kept_and_changes_nothing(table: Table) -> None:
    service, press = table.service, table.press
    start = service._session.status()
    assert start["entries"] == 0  # at the game's start there is nothing to undo
    press(UNDO_PIN)
    wait_for(lambda: service.last_refusal is not None)
    assert service.last_refusal == "the undo button: there is nothing to undo: the game is at its start"
    assert service._session.status() == start
    press(NEXT_PIN)  # a step that is accepted clears the refusal (once the writer has done the press)
    wait_for(lambda: service.number > start["number"] and service.last_refusal is None)


def test_physical_dice_are_typed_in_with_next_and_undo(physical_table: Table) -> None:
    service, press, hold = physical_table.service, physical_table.press, physical_table.hold
    factory = physical_table.factory
    session = service._session
    press(NEXT_PIN)  # no dice asked for: "next" steps the game (route power is done)
    wait_for(lambda: session.status()["entries"] == 1)
    assert entering(service) is None
    asked = session.apply(Move(dice=DicePool(basic=3)))  # Byte's move, chosen on the dashboard: 3 basic dice
    assert asked.kind == "dice_requested"
    faces = tuple(dict.fromkeys(asked.body["dice"][0]["faces"]))  # the basic die's faces, as the engine gives them
    assert faces == ("1", "2", "blank")
    assert entering(service) == {"die": 1, "of": 3, "kind": "basic die", "face": "1", "taken": [],
                                 "text": "die 1 of 3 (basic die): face 1"}

    def shows(die: int, face: str, taken: list[str]) -> Callable[[], bool]:
        return lambda: entering(service) == {
            "die": die, "of": 3, "kind": "basic die", "face": face, "taken": taken,
            "text": f"die {die} of 3 (basic die): face {face}"}

    buzzer = factory.pin(BUZZER_PIN)

    def beeps() -> int:
        return len([s for s in buzzer.states if s.state])

    wait_for(lambda: beeps() == 2 and not buzzer.state)  # the buzzer's "roll" call (two beeps) is over
    buzzer.clear_states()
    press(NEXT_PIN)
    wait_for(shows(1, "2", []))
    wait_for(lambda: beeps() == 2)  # the buzzer counts face 2
    hold(NEXT_PIN)
    wait_for(shows(2, "1", ["2"]))
    hold(NEXT_PIN)
    wait_for(shows(3, "1", ["2", "1"]))
    press(NEXT_PIN)
    press(NEXT_PIN)
    wait_for(shows(3, "blank", ["2", "1"]))
    press(UNDO_PIN)  # back one die: the second die shows the face it had
    wait_for(shows(2, "1", ["2"]))
    press(NEXT_PIN)
    hold(NEXT_PIN)
    wait_for(shows(3, "1", ["2", "2"]))
    press(NEXT_PIN)
    press(NEXT_PIN)
    press(NEXT_PIN)  # past the last face: the first again
    press(NEXT_PIN)
    wait_for(shows(3, "2", ["2", "2"]))
    press(NEXT_PIN)
    hold(NEXT_PIN)
    wait_for(lambda: session.status()["entries"] == 2)
    assert session.pending_dice is None and entering(service) is None and service.last_refusal is None
    assert [(f.die, f.face) for f in session.record.entries[-1].faces] == [("basic die", "2"), ("basic die", "2"),
                                                                           ("basic die", "blank")]
    assert session.state.turn.pending is not None and session.state.turn.pending.ap == 4
    press(UNDO_PIN)  # no dice asked for: "undo" takes the move back
    wait_for(lambda: session.status()["entries"] == 1)


def test_undo_on_the_first_die_gives_up_the_roll(physical_table: Table) -> None:
    service, press = physical_table.service, physical_table.press
    session = service._session
    press(NEXT_PIN)
    wait_for(lambda: session.status()["entries"] == 1)
    session.apply(Move(dice=DicePool(basic=2)))
    assert entering(service) == {"die": 1, "of": 2, "kind": "basic die", "face": "1", "taken": [],
                                 "text": "die 1 of 2 (basic die): face 1"}
    press(UNDO_PIN)
    wait_for(lambda: session.pending_dice is None)
    assert session.status()["entries"] == 1 and entering(service) is None
    assert session.changes_since(session.number - 1)[0].kind == "dice_cancelled"


async def _worst_lag(seconds: float, every: float = 0.005) -> float:
    """How late the event loop ran a short sleep at worst over `seconds`: what a press that blocks it costs."""
    loop = asyncio.get_running_loop()
    worst, end = 0.0, loop.time() + seconds
    while loop.time() < end:
        asked = loop.time()
        await asyncio.sleep(every)
        worst = max(worst, loop.time() - asked - every)
    return worst


def test_a_press_while_a_web_request_waits_on_a_slow_write_leaves_the_loop_free(table: Table) -> None:
    """A dashboard's "next" holds the game through a write that waits on the disk (here another program holds
    the game log locked for 0.6 s); a button pressed meanwhile goes to the session's writer behind it, and the
    event loop (the web server, the LEDs, the buttons themselves) runs on: both steps land, in order."""
    service = table.service
    start = service.number
    locker = sqlite3.connect(str(service._session.path), timeout=0)
    locker.execute("BEGIN EXCLUSIVE")
    lag = asyncio.run_coroutine_threadsafe(_worst_lag(1.2), table.loop)
    web = threading.Thread(target=service.next_step)
    try:
        web.start()
        time.sleep(0.1)  # the web request is inside its write, waiting for the disk
        table.factory.pin(NEXT_PIN).drive_low()
        table.factory.pin(NEXT_PIN).drive_high()
        time.sleep(0.5)
    finally:
        locker.rollback()
        locker.close()
    web.join(5)
    assert lag.result(5) < 0.2
    wait_for(lambda: service.number == start + 2)
    assert service.last_refusal is None
    kinds = [c.kind for c in service.changes_since(start)]
    assert kinds == ["action", "action"]
