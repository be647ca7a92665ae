"""Whatever the live session does, a session opened afresh on its log does the same: after any sequence of
changes (actions, dice asked for, faces supplied or refused, a request given up, undo, redo, dice modes, the
"next" step, the corporation's turn, a new game, a game resumed or imported), the fresh session has the same
state, the same dice request, the same undo and redo, on a real SQLite file."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from controller.rules import BurncycleError
from controller.rules.record import state_digest
from controller.service.game.flow import next_step
from controller.service.game.session import GameSession
from tests.support.session_support import next_action, start_state

START = start_state(seed=11)


def _faces(session: GameSession, pick: random.Random, how_many: int | None = None) -> list[str]:
    """Faces for the pending request, each from the faces it lists (a few, or all it still needs)."""
    pending = session.pending_dice
    slots = [d for d in pending.dice for _ in range(d["count"])] if pending else []
    if not slots:
        return ["1"]
    n = len(slots) if how_many is None else min(how_many, len(slots))
    return [pick.choice(d["faces"]) for d in slots[:n]]


def _corporation(session: GameSession) -> None:
    """On through the flow to the corporation's turn (stopping where the game waits for dice), then that turn."""
    while session.state.turn.step != "corporation" and session.state.outcome is None:
        before = session.number
        session.apply(next_step(session.state))
        if session.pending_dice is not None or session.number == before:
            return
    session.corporation_turn()


OPS: dict[str, Callable[[GameSession, random.Random], Any]] = {
    "act": lambda s, _: s.apply(next_action(s.state)),
    "next": lambda s, _: s.apply(next_step(s.state)),
    "corporation": lambda s, _: _corporation(s),
    "supply_all": lambda s, pick: s.supply_faces(_faces(s, pick)),
    "supply_some": lambda s, pick: s.supply_faces(_faces(s, pick, how_many=1)),
    "supply_bad": lambda s, _: s.supply_faces(["banana"]),
    "cancel": lambda s, _: s.cancel_dice(),
    "undo": lambda s, _: s.undo(),
    "redo": lambda s, _: s.redo(),
    "physical": lambda s, _: s.set_dice_mode("physical"),
    "virtual": lambda s, _: s.set_dice_mode("virtual"),
    "new_game": lambda s, pick: s.start_game(start_state(seed=pick.randrange(100)),
                                             dice_mode=pick.choice(["virtual", "physical"])),
    "resume_first": lambda s, _: s.switch_game(s.games()[0]["id"]),
    "import": lambda s, _: s.import_game(s.export_game()),
}
# the game moving on is what most sequences should do, so that dice, undo and redo meet a game under way
WEIGHTED = ["act"] * 4 + ["next"] * 2 + ["supply_all"] * 3 + ["undo", "redo"] * 2 + list(OPS)


def _seen(session: GameSession) -> dict[str, Any]:
    """Everything a reader of the session can see of the current game."""
    status = session.status()
    if session.has_game():
        pending = session.pending_dice
        status["given_for"] = pending.given_for if pending is not None else None
        status["undone"] = [e.digest for e in session.record.undone]
        status["digest_of_state"] = state_digest(session.state)
    return status


@pytest.mark.slow
@example(mode="virtual", steps=[("act", 0), ("undo", 0), ("physical", 0), ("act", 0), ("redo", 0)])  # issue 28, 1
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(["virtual", "physical"]),
       steps=st.lists(st.tuples(st.sampled_from(WEIGHTED), st.integers(0, 2**16)), min_size=1, max_size=20))
def test_a_fresh_session_on_the_log_sees_what_the_live_one_does(mode: str, steps: list[tuple[str, int]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "table.sqlite")
        live = GameSession.open(path)
        live.start_game(START)
        while live.state.turn.step != "actions":  # into the action step, where most actions roll dice
            live.apply(next_step(live.state))
        live.set_dice_mode(mode)  # type: ignore[arg-type]
        try:
            for k, (name, seed) in enumerate(steps):
                try:
                    OPS[name](live, random.Random(seed))
                except BurncycleError:
                    pass  # a refusal changes nothing, which the fresh session must see too
                fresh = GameSession.open(path)
                try:
                    assert _seen(fresh) == _seen(live), f"after {[s for s, _ in steps[:k + 1]]}"
                finally:
                    fresh.close()
        finally:
            live.close()
