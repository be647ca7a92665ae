"""Buttons and buzzer on gpiozero's MockFactory: presses reach the asyncio loop's thread, once each; a long
press of "next" is told from a short one; the buzzer's pin plays each sound's pattern and counts; a pin that
cannot be had is a failure the supervisor sees."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from controller.service.devices.buttons import HOLD_CHECK_S, HOLD_S, REPEAT_S, SOUNDS, ButtonsAndBuzzer
from controller.service.frame.components import Health
from controller.service.frame.supervisor import Backoff, Supervisor
from tests.support.clock import Clock
from tests.support.service_helpers import until


@pytest.fixture
def factory() -> MockFactory:
    made = MockFactory()
    yield made
    made.close()


async def settle() -> None:
    """Lets the loop run what the pins' handlers handed it (gpiozero's MockFactory calls them as a pin is driven)."""
    for _ in range(3):
        await asyncio.sleep(0)


def test_presses_arrive_on_the_loop_thread_once_each(factory: MockFactory) -> None:
    async def test() -> None:
        loop_thread = threading.get_ident()
        calls: list[tuple[str, int]] = []
        clock = Clock()
        part = ButtonsAndBuzzer(next_pin=17, undo_pin=27, pin_factory=factory, clock=clock,
                                on_press=lambda name, held: calls.append((name, threading.get_ident())))
        await part.start()
        assert part.health is Health.OK and part.message == "ready: next on GPIO17, undo on GPIO27"
        pin = factory.pin(17)

        def press(pin_number: int) -> None:  # a person's thumb, on another thread than the loop
            p = factory.pin(pin_number)
            p.drive_low()
            p.drive_high()

        for count, pin_number in enumerate((17, 27, 17), start=1):
            await asyncio.to_thread(press, pin_number)
            await until(lambda n=count: len(calls) == n)
            clock.step(REPEAT_S)  # a person's next press
        assert [name for name, _ in calls] == ["next", "undo", "next"]
        assert {thread for _, thread in calls} == {loop_thread}
        assert pin.state  # pulled up: released reads high
        await part.stop()
    asyncio.run(test())


def test_contact_chatter_is_one_press(factory: MockFactory) -> None:
    async def test() -> None:
        calls: list[str] = []
        clock = Clock()
        part = ButtonsAndBuzzer(next_pin=5, undo_pin=6, pin_factory=factory, clock=clock,
                                on_press=lambda name, held: calls.append(name))
        await part.start()

        for pin_number in (5, 6):
            pin = factory.pin(pin_number)
            for _ in range(5):
                pin.drive_low()
                pin.drive_high()
            pin.drive_low()
            await settle()
            clock.step(0.1)
            pin.drive_high()
            await settle()
        assert calls == ["next", "undo"]
        await part.stop()
    asyncio.run(test())


async def next_button(factory: MockFactory) -> tuple[ButtonsAndBuzzer, Any, Clock, list[tuple[str, bool]]]:
    """A started "next" button on mock pin 5 with a clock of its own, and the presses it reports."""
    calls: list[tuple[str, bool]] = []
    clock = Clock()
    part = ButtonsAndBuzzer(next_pin=5, pin_factory=factory, clock=clock,
                            on_press=lambda name, held: calls.append((name, held)))
    await part.start()
    return part, factory.pin(5), clock, calls


def test_a_long_press_of_next_is_one_held_press(factory: MockFactory) -> None:
    """Held HOLD_S on the part's clock, "next" is a long press while still down: the clock is stepped, no
    real second passes; the chatter as it opens is still that press, a short press after it counts."""
    async def test() -> None:
        part, pin, clock, calls = await next_button(factory)
        pin.drive_low()
        await settle()
        clock.step(HOLD_S - 0.05)
        await asyncio.sleep(HOLD_CHECK_S * 3)
        assert calls == []  # not yet long
        clock.step(0.06)
        await until(lambda: calls == [("next", True)])  # long while still held
        for _ in range(3):  # the contact chatters as it opens: still the end of the long press
            pin.drive_high()
            pin.drive_low()
        pin.drive_high()
        await settle()
        assert calls == [("next", True)]
        clock.step(REPEAT_S)
        pin.drive_low()  # then a short press: it counts when released
        await settle()
        pin.drive_high()
        await settle()
        assert calls == [("next", True), ("next", False)]
        await part.stop()
    asyncio.run(test())


def test_a_release_after_hold_s_is_a_long_press_even_before_the_loop_looked(factory: MockFactory) -> None:
    async def test() -> None:
        part, pin, clock, calls = await next_button(factory)
        pin.drive_low()
        await settle()
        clock.step(HOLD_S + 0.01)
        pin.drive_high()
        await settle()
        assert calls == [("next", True)]
        await part.stop()
    asyncio.run(test())


def test_the_buzzer_plays_each_sounds_pattern(factory: MockFactory) -> None:
    async def test() -> None:
        part = ButtonsAndBuzzer(buzzer_pin=18, pin_factory=factory)
        await part.start()
        pin = factory.pin(18)
        for name, sound in SOUNDS.items():
            pin.clear_states()
            part.sound(name)
            await asyncio.sleep(sound.beeps * (sound.on_s + sound.off_s) + 0.2)
            highs = [s for s in pin.states if s.state]
            assert len(highs) == sound.beeps, name
            assert not pin.state
        pin.clear_states()
        part.count(4)
        await asyncio.sleep(4 * 0.2 + 0.2)
        assert len([s for s in pin.states if s.state]) == 4 and not pin.state
        await part.stop()
    asyncio.run(test())


def test_nothing_wired_is_not_an_error(factory: MockFactory) -> None:
    async def test() -> None:
        part = ButtonsAndBuzzer(pin_factory=factory)
        await part.start()
        assert part.health is Health.OK and part.message == "no buttons or buzzer configured"
        part.sound("threat")  # no buzzer: silent, not an error
        await part.stop()
    asyncio.run(test())


def test_a_pin_in_use_fails_and_recovers_when_freed(factory: MockFactory) -> None:
    async def test() -> None:
        from gpiozero import LED

        squatter = LED(17, pin_factory=factory)  # another program's LED on the button's pin
        part = ButtonsAndBuzzer(next_pin=17, buzzer_pin=18, pin_factory=factory)
        async with Supervisor([part], backoff=Backoff(first_s=0.01, cap_s=0.02)):
            await until(lambda: part.health is Health.FAILED)
            assert part.last_error.startswith("cannot use the GPIO pins next on GPIO17, buzzer on GPIO18: ")
            assert "GPIO17" in part.last_error.split(": ", 1)[1]
            squatter.close()
            await until(lambda: part.health is Health.OK)
        assert part.health is Health.STOPPED
    asyncio.run(test())
