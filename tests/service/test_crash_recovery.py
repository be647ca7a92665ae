"""Nothing acknowledged is lost: the session killed with SIGKILL at random points of a scripted game, 50 times.

The writer runs in a forked child (the engine already imported, so a kill can land anywhere in a turn within
milliseconds) and reports each change only after the session acknowledged it. After each kill the table
restarts from the file: every acknowledged change is there, the state is exactly a replay of the log, and
undo still works; the next child plays on from the recovered game.
"""

from __future__ import annotations

import os
import random
import signal
import time

import pytest

from controller.rules.record import replay, state_digest
from controller.service.game.session import GameSession
from tests.support.session_support import next_action, start_state

pytestmark = pytest.mark.slow  # a scripted game killed with SIGKILL 50 times

KILLS = 50


def _writer(path: str, out: int) -> None:
    session = GameSession.open(path)
    k = 0
    while True:
        if session.state.outcome is not None:
            change = session.start_game(start_state(seed=k + 100))
        elif k % 9 == 8 and session.record.entries:
            change = session.undo()
        else:
            change = session.apply(next_action(session.state))
        os.write(out, f"{change.number} {change.kind} {state_digest(session.state)}\n".encode())
        k += 1


def test_sigkill_at_random_points_loses_nothing_acknowledged(tmp_path):
    path = str(tmp_path / "table.sqlite")
    GameSession.open(path).start_game(start_state(seed=11))
    rng = random.Random(5)
    for kill in range(KILLS):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: play until killed
            os.close(read)
            try:
                _writer(path, write)
            finally:
                os._exit(1)
        os.close(write)
        pipe = os.fdopen(read, "rb")
        first = pipe.readline()  # the child is under way: it has acknowledged a change
        time.sleep(rng.uniform(0.0, 0.2))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        with pipe:
            lines = (first + pipe.read()).decode().splitlines()
        acked = [line.split() for line in lines if line.count(" ") == 2]

        session = GameSession.open(path)
        numbers = {c.number for c in session.changes_since(0, limit=1_000_000)}
        missing = [n for n, _, _ in acked if int(n) not in numbers]
        assert missing == [], f"kill {kill}: acknowledged changes lost: {missing}"
        assert acked, f"kill {kill}: the child acknowledged nothing"
        assert session.number >= int(acked[-1][0])
        if session.number == int(acked[-1][0]):  # nothing after the last acknowledged change got in
            assert state_digest(session.state) == acked[-1][2]

        assert state_digest(session.state) == state_digest(replay(session.record)), f"kill {kill}"
        if session.record.entries and session.state.outcome is None:
            entries = len(session.record.entries)
            session.undo()
            assert len(session.record.entries) == entries - 1
            session.redo()
        session.close()
