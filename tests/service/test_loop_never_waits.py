"""Nothing on the event loop that can wait: the demo booth's auto-player decides in a worker thread (a decision
the game moved past meanwhile is dropped), and the MQTT bridge says goodbye to a broker that does not answer
without stalling the loop. Each measures the loop's lag (a 10 ms sleep's lateness) while the slow part runs."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.autoplay.player import AutoPlayer
from controller.rules import GameState
from controller.rules.action_types import Action
from controller.service.demo.booth import DemoPlayers, DemoTable
from controller.service.frame import startup
from tests.support.mqtt_broker import Broker, table
from tests.support.service_helpers import config, until

# a search player's thinking time, on the scale of the booth's pace: a decision on the loop would stall it at least
# this long, so half of it tells the two apart with room for a busy machine's scheduling (a 2-core machine under
# load stalled the loop 150 ms now and then with the decisions off it)
DECISION_S = 0.6


class LoopLag:
    """The worst lateness of a 10 ms sleep on the running loop, while `measuring`."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t0 = loop.time()
            await asyncio.sleep(0.01)
            self.worst = max(self.worst, loop.time() - t0 - 0.01)

    async def start(self) -> None:
        """Start measuring; returns once the first sleep is under way."""
        self._task = asyncio.get_running_loop().create_task(self._run())
        await asyncio.sleep(0.02)

    async def stop(self) -> float:
        """The worst lateness, once the sleep under way has woken (a stall it slept through counts)."""
        assert self._task is not None
        await asyncio.sleep(0.02)
        self._task.cancel()
        return self.worst


class SlowPlayer(AutoPlayer):
    """The heuristic auto-player thinking for DECISION_S on every decision (as a search player would), noting the
    session's change number each decision was asked at; its first decision waits until `go` is set."""

    def __init__(self, number: Callable[[], int]) -> None:
        super().__init__()
        self.number = number
        self.asked_at: list[int] = []
        self.thinking, self.go = threading.Event(), threading.Event()

    def choose(self, state: GameState) -> Action:
        self.asked_at.append(self.number())
        self.thinking.set()
        self.go.wait(5)
        time.sleep(DECISION_S)
        return super().choose(state)


def test_the_booths_decisions_run_off_the_loop_and_one_the_game_moved_past_is_dropped(tmp_path: Path) -> None:
    service = startup.build(config(tmp_path), seed=5)
    service.new_game()
    players = DemoPlayers(service, DemoTable(), games=1)
    slow = players.player = SlowPlayer(lambda: service.number)
    service.add(players)

    async def body() -> None:
        run = asyncio.create_task(service.run())
        lag = LoopLag()
        await lag.start()
        await asyncio.to_thread(slow.thinking.wait, 5)  # the first decision is under way
        moved = await asyncio.to_thread(service.next_step)  # a phone presses "next" meanwhile
        slow.go.set()
        await until(lambda: len(slow.asked_at) >= 3, 10)
        worst = await lag.stop()
        service.stop()
        await run
        assert worst < DECISION_S / 2, f"the loop stalled {worst * 1000:.0f} ms while the auto-player decided"
        # the decision asked before the phone's step was dropped: the next was asked at the phone's change
        assert slow.asked_at[:2] == [moved.number - 1, moved.number] and players.dropped == 1

    asyncio.run(body())
    service.close()


@pytest.mark.slow  # a real mosquitto
def test_the_bridge_says_goodbye_to_a_hung_broker_without_stalling_the_loop(tmp_path: Path, broker: Broker) -> None:
    service, bridge = table(tmp_path, broker.port)
    assert broker.process is not None

    async def body() -> None:
        run = asyncio.create_task(service.run())
        await until(lambda: bridge.status()["state"] == "ok", 10)
        os.kill(broker.process.pid, signal.SIGSTOP)  # the broker hangs: "offline" is never acknowledged
        try:
            lag = LoopLag()
            await lag.start()
            started = time.monotonic()
            await bridge.stop()
            took = time.monotonic() - started
            worst = await lag.stop()
        finally:
            os.kill(broker.process.pid, signal.SIGCONT)
        service.stop()
        await run
        assert took >= 1.5  # it did wait for the broker (up to 2 s), on a worker thread
        assert worst < 0.2, f"the loop stalled {worst * 1000:.0f} ms while the bridge waited for the broker"

    asyncio.run(body())
    service.close()
