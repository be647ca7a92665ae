"""The supervisor with real failing components: restarts with backoff, health transitions, and the
others running on all the while."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from controller.service.frame.components import Component, Health
from controller.service.frame.supervisor import Backoff, Supervisor
from tests.support.service_helpers import Ticker, until

FAST = Backoff(first_s=0.01, factor=2.0, cap_s=0.04, jitter=0.25, healthy_after_s=60.0)


class FailsToStart(Component):
    """A camera that is not there for the first `failures` tries."""

    def __init__(self, failures: int) -> None:
        super().__init__("camera")
        self.failures = failures
        self.starts = 0
        self.stops = 0

    async def start(self) -> None:
        self.starts += 1
        if self.starts <= self.failures:
            raise FileNotFoundError(2, "No such device", "/dev/video0")

    async def stop(self) -> None:
        self.stops += 1


class DiesMidRun(Component):
    """An LED board that works a while, then is unplugged once."""

    def __init__(self) -> None:
        super().__init__("leds")
        self.runs = 0
        self.running = asyncio.Event()

    async def run(self) -> None:
        self.runs += 1
        self.running.set()
        if self.runs == 1:
            await asyncio.sleep(0.02)
            raise ConnectionError("LED board unplugged")
        await asyncio.Event().wait()


def transitions(component: Component) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    component.listen(lambda c: seen.append((c.health.value, c.message)))
    return seen


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def test_a_part_that_fails_to_start_is_retried_until_it_works() -> None:
    async def test() -> None:
        camera, ticker = FailsToStart(failures=3), Ticker()
        seen = transitions(camera)
        async with Supervisor([camera, ticker], backoff=FAST, rng=random.Random(1)) as sup:
            await until(lambda: camera.health is Health.OK)
            assert camera.starts == 4 and camera.retries == 3 and camera.stops == 3
            assert camera.last_error == "No such device: /dev/video0"
            assert sup.health()["status"] == "ok"
        states = [state for state, _ in seen]
        assert states == ["starting", "failed"] * 3 + ["starting", "ok", "stopped"]
        assert seen[1][1].startswith("No such device: /dev/video0; trying again in ")
        assert seen[2] == ("starting", "restarting (try 2)")
        assert ticker.stopped == 1 and ticker.health is Health.STOPPED
    run(test)


def test_waits_grow_exponentially_to_the_cap_and_repeat_with_the_same_seed() -> None:
    async def waits(seed: int) -> list[float]:
        heard: list[float] = []

        async def sleep(seconds: float) -> None:  # each wait heard, none sat through
            heard.append(seconds)

        camera = FailsToStart(failures=6)
        async with Supervisor([camera], backoff=FAST, rng=random.Random(seed), sleep=sleep):
            await until(lambda: camera.health is Health.OK)
        return heard

    async def test() -> None:
        first, again, other = await waits(7), await waits(7), await waits(8)
        assert first == again and first != other
        bases = [0.01, 0.02, 0.04, 0.04, 0.04, 0.04]
        assert len(first) == 6
        for delay, base in zip(first, bases):
            assert base * 0.75 <= delay <= min(base * 1.25, FAST.cap_s)
    run(test)


def test_a_part_that_dies_mid_run_is_restarted_and_the_others_keep_running() -> None:
    async def test() -> None:
        leds, ticker = DiesMidRun(), Ticker()
        seen = transitions(leds)
        async with Supervisor([leds, ticker], backoff=FAST, rng=random.Random(2)) as sup:
            await until(lambda: leds.health is Health.FAILED)
            health = sup.health()
            assert health["status"] == "degraded"
            assert health["components"]["leds"]["last_error"] == "LED board unplugged"
            assert health["components"]["ticker"]["state"] == "ok"
            ticks = ticker.ticks
            await until(lambda: leds.runs == 2 and leds.health is Health.OK)
            assert ticker.ticks > ticks and ticker.health is Health.OK
        assert [s for s, _ in seen] == ["starting", "ok", "failed", "starting", "ok", "stopped"]
    run(test)


def test_a_part_that_never_works_does_not_stop_the_service() -> None:
    async def test() -> None:
        broken, ticker = FailsToStart(failures=10**9), Ticker()
        async with Supervisor([broken, ticker], backoff=FAST, rng=random.Random(3)) as sup:
            await until(lambda: broken.retries >= 5 and ticker.ticks > 20)
            assert ticker.health is Health.OK
            assert sup.health()["components"]["camera"]["state"] in ("failed", "starting")
        assert broken.health is Health.STOPPED and ticker.health is Health.STOPPED
    run(test)


class StuckDegraded(Component):
    """A part that starts but reports itself impaired, and fails to close."""

    async def start(self) -> None:
        self.degraded("board not answering on /dev/burncycle-leds: retrying")

    async def stop(self) -> None:
        raise OSError(5, "Input/output error")


def test_health_is_json_and_names_what_is_wrong() -> None:
    async def test() -> None:
        part = StuckDegraded("leds")
        async with Supervisor([part, Ticker()], backoff=FAST) as sup:
            await until(lambda: part.health is Health.DEGRADED)
            body = json.loads(json.dumps(sup.health()))
            assert body["status"] == "degraded"
            assert body["components"]["leds"]["message"] == "board not answering on /dev/burncycle-leds: retrying"
            assert set(body["components"]["ticker"]) == {"state", "message", "last_error", "retries", "for_s"}
        assert part.health is Health.STOPPED and part.last_error == "while closing: Input/output error"
        assert sup.health()["status"] == "stopped"
    run(test)


def test_two_components_of_one_name_are_refused() -> None:
    with pytest.raises(ValueError, match="component names must differ"):
        Supervisor([Ticker("a"), Ticker("a")])


def test_listeners_hear_every_components_changes() -> None:
    async def test() -> None:
        camera, ticker = FailsToStart(failures=1), Ticker()
        sup = Supervisor([camera, ticker], backoff=FAST, rng=random.Random(4))
        heard: list[tuple[str, str]] = []
        sup.listen(lambda c: heard.append((c.name, c.health.value)))
        async with sup:
            await until(lambda: camera.health is Health.OK)
        assert [state for name, state in heard if name == "camera"] == ["starting", "failed", "starting", "ok", "stopped"]
        assert [state for name, state in heard if name == "ticker"] == ["starting", "ok", "stopped"]
    run(test)


def test_get_is_the_one_lookup_of_a_part_by_name_and_kind() -> None:
    camera, ticker = FailsToStart(failures=0), Ticker()
    sup = Supervisor([camera, ticker])
    assert sup.get("camera", FailsToStart) is camera and sup.get("ticker", Component) is ticker
    assert sup.get("web", Component) is None
    with pytest.raises(TypeError, match="component 'ticker' is a Ticker, not a FailsToStart"):
        sup.get("ticker", FailsToStart)


def test_a_part_is_added_before_the_start_only() -> None:
    async def test() -> None:
        sup = Supervisor([Ticker("a")])
        sup.add(Ticker("b"))
        with pytest.raises(ValueError, match="component names must differ"):
            sup.add(Ticker("b"))
        async with sup:
            with pytest.raises(RuntimeError, match="'c': the supervisor has started"):
                sup.add(Ticker("c"))
        assert [c.name for c in sup.components] == ["a", "b"]
    run(test)
