"""The hint desk (controller/service/hints): the search's thinking in a worker process, never on the event
loop; the same tap gets the same answer; a question the game moved past is cancelled (issue 35, parts 5 and 6)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Iterator

import msgspec
import pytest

from controller.autoplay.search import hint
from controller.rules import legal_actions
from controller.service.hints import HintDesk, HintView
from tests.autoplay.test_search import chip_decision, start
from tests.service.test_loop_never_waits import LoopLag

ITERATIONS = 60  # small enough for the fast loop, enough futures for three ranked actions


@pytest.fixture(scope="module")
def position() -> bytes:
    return msgspec.json.encode(chip_decision(start()))


@pytest.fixture
def desk() -> Iterator[HintDesk]:
    made = HintDesk(iterations=ITERATIONS, seconds=30.0)
    yield made
    made.close()


def answered(desk: HintDesk, kind: str = "hint", timeout: float = 60.0) -> HintView:
    deadline = time.monotonic() + timeout
    while (view := desk.view(kind)).status == "thinking":  # type: ignore[arg-type]
        assert time.monotonic() < deadline, f"no answer within {timeout} s"
        time.sleep(0.02)
    return view


def test_the_same_tap_gets_the_same_answer_and_the_search_s_own(desk: HintDesk, position: bytes) -> None:
    heard: list[HintView] = []
    desk.listen(heard.append)
    assert desk.ask("hint", position, 7).status == "thinking"
    assert desk.ask("hint", position, 7).status == "thinking"  # asked again meanwhile: joins the question
    first = answered(desk)
    assert first.status == "ready" and first.hint is not None
    assert len(first.hint.actions) == 3
    state = chip_decision(start())
    legal = {msgspec.json.encode(la.action) for la in legal_actions(state)}
    for option in first.hint.actions:
        assert msgspec.json.encode(option.action) in legal
        assert option.low <= option.chance <= option.high and option.reason
    assert [v.progress for v in heard if v.status == "thinking"][-1] > 0.5  # progress came while it thought
    again = desk.ask("hint", position, 7)
    assert again == first and desk.asked == 1  # from the kept answers: no second search
    direct = hint(state, seconds=30.0, iterations=ITERATIONS, seed=0)  # what the worker ran, here
    assert [msgspec.json.encode(a.action) for a in first.hint.actions] == \
        [msgspec.json.encode(a.action) for a in direct.actions]
    assert [a.chance for a in first.hint.actions] == [a.chance for a in direct.actions]


def test_a_question_the_game_moved_past_is_cancelled(position: bytes) -> None:
    desk = HintDesk(iterations=100_000, seconds=60.0)  # it would think for a minute
    try:
        desk.ask("hint", position, 3)
        time.sleep(1.5)  # the worker is spawned and under way
        desk.moved_on(3)  # the same change: nothing moved
        assert desk.view("hint").status == "thinking"
        desk.moved_on(4)
        view = desk.view("hint")
        assert view.status == "cancelled" and view.message == "the game moved on"
        desk.ask("threat", position, 4)  # the worker stopped the hint: it answers the next question soon
        assert answered(desk, "threat", timeout=10).status == "ready"
        assert desk.view("hint").status == "cancelled"
    finally:
        desk.close()


def test_the_threat_overlay_shades_every_space(desk: HintDesk, position: bytes) -> None:
    desk.ask("threat", position, 2)
    view = answered(desk, "threat")
    assert view.status == "ready" and view.threat is not None and view.samples == desk.samples
    state = chip_decision(start())
    guards = {unit.space for unit in state.security}
    assert any(view.threat[space].guard > 0 or view.threat[space].seen > 0 for space in view.threat)
    assert all(0 <= s.guard <= 1 and 0 <= s.seen <= 1 for s in view.threat.values())
    assert guards  # the lobby has guards out: somewhere is dangerous
    assert desk.ask("threat", position, 2) == view


def test_no_hint_for_the_corporation_s_turn_says_so(desk: HintDesk, position: bytes) -> None:
    state = chip_decision(start())
    state.turn.step = "corporation"
    desk.ask("hint", msgspec.json.encode(state), 9)
    view = answered(desk)
    assert view.status == "failed" and "corporation" in (view.message or "")


def test_the_event_loop_never_waits_for_a_hint(position: bytes) -> None:
    desk = HintDesk(iterations=100, seconds=30.0)

    async def body() -> float:
        lag = LoopLag()
        await lag.start()
        desk.ask("hint", position, 1)  # spawns the worker and sends the question: returns at once
        while desk.view("hint").status == "thinking":
            await asyncio.sleep(0.05)
        return await lag.stop()

    try:
        worst = asyncio.run(body())
        assert desk.view("hint").status == "ready"
    finally:
        desk.close()
    assert worst < 0.25, f"the loop waited {worst:.3f} s while the hint thought"


def test_a_worker_that_died_is_started_again_and_says_what_it_lost(position: bytes) -> None:
    desk = HintDesk(iterations=100_000, seconds=60.0)
    try:
        desk.ask("hint", position, 1)
        pid = desk.worker_pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)  # the worker dies mid-thought (out of memory, say)
        deadline = time.monotonic() + 10
        while desk.worker_pid is not None:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        desk.ask("threat", position, 1)
        assert desk.view("hint").status == "failed" and "worker stopped" in (desk.view("hint").message or "")
        assert answered(desk, "threat", timeout=30).status == "ready"
        assert desk.worker_pid not in (None, pid)
    finally:
        desk.close()
