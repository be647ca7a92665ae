"""The table's "next" and "undo" buttons on gpiozero's MockFactory, wired by startup.build into a running
TableService: a press moves the game on or takes the last step back, through TableService.press; a step the
rules refuse changes nothing and is kept in last_refusal for the dashboard."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from controller.service.buttons import REPEAT_S
from controller.service.config import TableConfig
from controller.service.startup import build
from controller.service.table import TableService

NEXT_PIN, UNDO_PIN = 17, 27


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(check: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TableService, MockFactory]]:
    factory = MockFactory()
    config = TableConfig(database={"path": tmp_path / "games.sqlite3"}, camera={"source": "none"},  # type: ignore[arg-type]
                         web={"host": "127.0.0.1", "port": free_port()},
                         buttons={"next_pin": NEXT_PIN, "undo_pin": UNDO_PIN})
    service = build(config, pin_factory=factory, seed=11)
    running = threading.Thread(target=lambda: asyncio.run(service.run()))
    running.start()
    wait_for(lambda: service.buttons is not None and bool(service.buttons.buttons) and service.session.has_game())
    yield service, factory
    service.stop()
    running.join(10)
    service.session.close()
    factory.close()


def press(factory: MockFactory, pin: int) -> None:
    """A thumb on the button (wired to ground, pulled up), then the pause before a person's next press."""
    factory.pin(pin).drive_low()
    time.sleep(0.02)
    factory.pin(pin).drive_high()
    time.sleep(REPEAT_S + 0.05)


def test_next_moves_the_game_on_and_undo_takes_it_back(table: tuple[TableService, MockFactory]) -> None:
    service, factory = table
    start = service.session.status()
    press(factory, NEXT_PIN)
    wait_for(lambda: service.session.number > start["number"])
    moved = service.session.status()
    assert moved["entries"] == start["entries"] + 1 and moved["digest"] != start["digest"]
    assert service.last_refusal is None
    press(factory, UNDO_PIN)
    wait_for(lambda: service.session.number > moved["number"])
    back = service.session.status()
    assert back["digest"] == start["digest"] and back["entries"] == start["entries"] and back["can_redo"]


def test_a_refused_step_is_kept_and_changes_nothing(table: tuple[TableService, MockFactory]) -> None:
    service, factory = table
    start = service.session.status()
    assert start["entries"] == 0  # at the game's start there is nothing to undo
    press(factory, UNDO_PIN)
    wait_for(lambda: service.last_refusal is not None)
    assert service.last_refusal == "the undo button: there is nothing to undo: the game is at its start"
    assert service.session.status() == start
    press(factory, NEXT_PIN)  # a step that is accepted clears the refusal
    wait_for(lambda: service.session.number > start["number"])
    assert service.last_refusal is None
