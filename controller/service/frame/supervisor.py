"""Runs the service's components together, each in its own task, and keeps them running.

One component failing (the camera unplugged, the LED board gone) never stops the others: its task
catches the failure, marks it FAILED with what went wrong, closes it, waits and tries again. The wait
grows exponentially up to a cap, so a part that is gone for the evening costs little, and is jittered
so that several parts that failed together do not retry in lock-step; the jitter comes from a
`random.Random` the caller may seed, so tests see the same waits every run (and the wait itself is the
caller's `sleep`, so a test hears each wait without sitting through it). A component that ran well for a
while before failing starts again from the shortest wait.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from controller.service.frame.components import Component, Health, error_text

STOP_TIMEOUT_S = 5.0
C = TypeVar("C", bound=Component)


@dataclass(frozen=True)
class Backoff:
    """Waits between restarts: first, first*factor, ... up to cap, each spread by +-jitter (a fraction)."""

    first_s: float = 0.5
    factor: float = 2.0
    cap_s: float = 30.0
    jitter: float = 0.2
    healthy_after_s: float = 30.0  # a run this long resets the waits to first_s

    def delay(self, attempt: int, rng: random.Random) -> float:
        """The wait before restart number `attempt` (1 = the first restart)."""
        base = min(self.cap_s, self.first_s * self.factor ** (attempt - 1))
        return min(self.cap_s, base * (1 + self.jitter * (2 * rng.random() - 1)))


class Supervisor:
    """Starts components together, restarts failed ones with backoff, stops them together.

    Use as `async with Supervisor([...]) as sup:`; `sup.health()` is the body of GET /health.
    """

    def __init__(self, components: Iterable[Component], *, backoff: Backoff = Backoff(),
                 rng: random.Random | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.components: list[Component] = []
        self.backoff = backoff
        self._rng = rng or random.Random()
        self._sleep = sleep
        self._tasks: dict[str, asyncio.Task[None]] = {}
        for component in components:
            self.add(component)

    def add(self, component: Component) -> None:
        """One more component, before the supervisor starts: names must differ, as `get` and /health know a part
        by its name."""
        if self._tasks:
            raise RuntimeError(f"component {component.name!r}: the supervisor has started; add components before")
        names = [c.name for c in self.components] + [component.name]
        if len(set(names)) != len(names):
            raise ValueError(f"component names must differ: {names}")
        self.components.append(component)

    async def __aenter__(self) -> Supervisor:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        """Starts every component in its own task and returns at once; failures are retried there."""
        for component in self.components:
            self._tasks[component.name] = asyncio.create_task(self._keep(component), name=f"component:{component.name}")

    async def stop(self) -> None:
        """Cancels every component's task; each closes its part (within STOP_TIMEOUT_S)."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()

    def listen(self, listener: Callable[[Component], None]) -> None:
        """Calls `listener(component)` whenever any component changes health (the dashboard, MQTT)."""
        for component in self.components:
            component.listen(listener)

    def get(self, name: str, kind: type[C]) -> C | None:
        """The component called `name` (None when there is none), checked to be a `kind`, so its caller may use
        what that kind offers (the web server's port): the one lookup of a part by its name."""
        found = next((c for c in self.components if c.name == name), None)
        if found is not None and not isinstance(found, kind):
            raise TypeError(f"component {name!r} is a {type(found).__name__}, not a {kind.__name__}")
        return found

    def health(self) -> dict[str, Any]:
        """{"status": worst state that matters, "components": {name: status}}, JSON-able."""
        states = {c.health for c in self.components}
        if Health.FAILED in states or Health.DEGRADED in states:
            overall = "degraded"
        elif Health.STARTING in states:
            overall = "starting"
        elif states <= {Health.STOPPED}:
            overall = "stopped"
        else:
            overall = "ok"
        return {"status": overall, "components": {c.name: c.status() for c in self.components}}

    async def _keep(self, component: Component) -> None:
        attempt = 0
        try:
            while True:
                component.set_health(Health.STARTING, "starting" if attempt == 0 else f"restarting (try {attempt + 1})")
                started = time.monotonic()
                try:
                    await component.start()
                    if component.health is Health.STARTING:
                        component.ok()
                    await component.run()
                except asyncio.CancelledError:
                    raise
                except Exception as err:  # noqa: BLE001 - any failure of a part is that part's, not the service's
                    if time.monotonic() - started >= self.backoff.healthy_after_s:
                        attempt = 0
                    attempt += 1
                    delay = self.backoff.delay(attempt, self._rng)
                    component.retries += 1
                    component.last_error = error_text(err)
                    component.set_health(Health.FAILED, f"{component.last_error}; trying again in {delay:.2g} s")
                    await self._close(component)
                    await self._sleep(delay)
                    continue
                await self._close(component)
                component.set_health(Health.STOPPED, "finished")
                return
        finally:
            if component.health is not Health.STOPPED:
                await self._close(component)
                component.set_health(Health.STOPPED, "stopped")

    async def _close(self, component: Component) -> None:
        """Stops a component without letting its own failure to close escape (it is recorded instead)."""
        try:
            async with asyncio.timeout(STOP_TIMEOUT_S):
                await component.stop()
        except asyncio.CancelledError:
            raise
        except Exception as err:  # noqa: BLE001
            component.last_error = f"while closing: {error_text(err)}"
