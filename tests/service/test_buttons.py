"""Buttons and buzzer on gpiozero's MockFactory: presses reach the asyncio loop's thread, once each; a long
press of "next" is told from a short one; the buzzer's pin plays each sound's pattern and counts; a pin that
cannot be had is a failure the supervisor sees."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from controller.service.buttons import HOLD_S, REPEAT_S, SOUNDS, ButtonsAndBuzzer
from controller.service.components import Health
from controller.service.supervisor import Backoff, Supervisor
from tests.service.service_helpers import until


@pytest.fixture
def factory() -> MockFactory:
    made = MockFactory()
    yield made
    made.close()


def test_presses_arrive_on_the_loop_thread_once_each(factory: MockFactory) -> None:
    async def test() -> None:
        loop_thread = threading.get_ident()
        calls: list[tuple[str, int]] = []
        part = ButtonsAndBuzzer(next_pin=17, undo_pin=27, pin_factory=factory,
                                on_press=lambda name, held: calls.append((name, threading.get_ident())))
        await part.start()
        assert part.health is Health.OK and part.message == "ready: next on GPIO17, undo on GPIO27"
        pin = factory.pin(17)

        def press(pin_number: int) -> None:  # a person's thumb, on another thread than the loop
            p = factory.pin(pin_number)
            p.drive_low()
            time.sleep(0.01)
            p.drive_high()
            time.sleep(REPEAT_S + 0.05)  # a person's next press

        await asyncio.to_thread(press, 17)
        await asyncio.to_thread(press, 27)
        await asyncio.to_thread(press, 17)
        await until(lambda: len(calls) == 3)
        assert [name for name, _ in calls] == ["next", "undo", "next"]
        assert {thread for _, thread in calls} == {loop_thread}
        assert pin.state  # pulled up: released reads high
        await part.stop()
    asyncio.run(test())


def test_contact_chatter_is_one_press(factory: MockFactory) -> None:
    async def test() -> None:
        calls: list[str] = []
        part = ButtonsAndBuzzer(next_pin=5, undo_pin=6, pin_factory=factory,
                                on_press=lambda name, held: calls.append(name))
        await part.start()

        def chatter(pin_number: int) -> None:
            pin = factory.pin(pin_number)
            for _ in range(5):
                pin.drive_low()
                pin.drive_high()
            pin.drive_low()
            time.sleep(0.1)
            pin.drive_high()

        await asyncio.to_thread(chatter, 5)
        await asyncio.to_thread(chatter, 6)
        await asyncio.sleep(0.05)
        assert calls == ["next", "undo"]
        await part.stop()
    asyncio.run(test())


def test_a_long_press_of_next_is_one_held_press(factory: MockFactory) -> None:
    async def test() -> None:
        calls: list[tuple[str, bool]] = []
        part = ButtonsAndBuzzer(next_pin=5, pin_factory=factory, on_press=lambda name, held: calls.append((name, held)))
        await part.start()

        def hold() -> None:
            pin = factory.pin(5)
            pin.drive_low()
            time.sleep(HOLD_S + 0.3)
            for _ in range(3):  # the contact chatters as it opens: still the end of the long press
                pin.drive_high()
                pin.drive_low()
            pin.drive_high()
            time.sleep(REPEAT_S + 0.05)
            pin.drive_low()  # then a short press: it counts when released
            time.sleep(0.02)
            pin.drive_high()

        await asyncio.to_thread(hold)
        await until(lambda: len(calls) == 2)
        await asyncio.sleep(0.05)
        assert calls == [("next", True), ("next", False)]
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
