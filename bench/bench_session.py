"""Session bench: accepting an action (engine + durable write), and recovering a 500-action game.

    .venv/bin/python bench/bench_session.py [--games 3]

Targets (the table service issue): accepting an action p99 at most 10 ms; recovery of a 500-action game at most
1 s. The camera's reconciler then takes the recovered game up (the instructions its log leaves, the chips each
unit wears), printed against one replay of the record, which is what it costs when it replays the game once. The baseline, run in the same process on the same actions, is the engine alone (`apply` with the record's
recording dice), so the ratio shows what the durable write costs. Games are the auto-player's on the lobby; a
game shorter than 500 actions gets corrections (a guard confirmed where it stands) between its actions until the\nlog holds 500 entries.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import checkout  # noqa: F401  # the checkout first on the import path (bench/checkout.py)

from controller.autoplay.player import AutoPlayer
from controller.library import load_content
from controller.rules import AnyAction, Correct, GameSetup, GameState, apply, new_game
from controller.rules.record import GameRecord, record_action, replay
from controller.service.camera.reconciler import Reconciler
from controller.service.game.session import GameSession

ENTRIES = 500


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q / 100 * (len(s) - 1))))]


def _padded_game(start: GameState) -> list[AnyAction]:
    """The auto-player's game from `start`, with a correction that leaves a guard where it stands after each
    action as often as it takes to make 500 entries (a short game is still a 500-entry log to recover)."""
    played: list[AnyAction] = []
    state, player = start, AutoPlayer()
    while state.outcome is None and len(played) < ENTRIES:
        action = player.choose(state)
        state, _ = apply(state, action)
        played.append(action)
    per_action = -(-(ENTRIES - len(played)) // len(played))
    out: list[AnyAction] = []
    state = start
    for action in played:
        if len(out) < ENTRIES:
            for _ in range(per_action):
                if len(out) < ENTRIES - 1:
                    guard = state.security[0]
                    out.append(Correct(unit=guard.id, space=guard.space))
            out.append(action)
            state, _ = apply(state, action)
    return out[:ENTRIES]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    content = load_content()
    engine_ms, session_ms, recovery_s, take_up_s, replay_s = [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for g in range(args.games):
            start = new_game(content, GameSetup(floor="meridian-lobby", players=2, seed=40 + g))
            session = GameSession.open(f"{tmp}/bench-{g}.sqlite")
            session.start_game(start)
            baseline = GameRecord(start=start)
            state = start
            actions = _padded_game(start)
            for action in actions:
                t = time.perf_counter()
                state, _ = record_action(baseline, state, action)
                engine_ms.append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                session.apply(action)
                session_ms.append((time.perf_counter() - t) * 1000)
            session.close()
            t = time.perf_counter()
            again = GameSession.open(f"{tmp}/bench-{g}.sqlite")
            recovery_s.append(time.perf_counter() - t)
            assert len(again.record.entries) == ENTRIES
            t = time.perf_counter()
            Reconciler(again, watched=False)
            take_up_s.append(time.perf_counter() - t)
            t = time.perf_counter()
            replay(again.record)
            replay_s.append(time.perf_counter() - t)
            again.close()
    print(f"accepting an action, {len(session_ms)} actions over {args.games} games:")
    print(f"  session (engine + durable write): median {statistics.median(session_ms):.2f} ms, "
          f"p99 {pct(session_ms, 99):.2f} ms (target p99 <= 10 ms)")
    print(f"  engine alone (baseline):          median {statistics.median(engine_ms):.2f} ms, "
          f"p99 {pct(engine_ms, 99):.2f} ms")
    print(f"  ratio session/engine: median {statistics.median(session_ms) / statistics.median(engine_ms):.1f}x")
    print(f"recovery of a {ENTRIES}-action game: median {statistics.median(recovery_s) * 1000:.0f} ms, "
          f"worst {max(recovery_s) * 1000:.0f} ms (target <= 1000 ms)")
    print(f"the reconciler taking it up: median {statistics.median(take_up_s) * 1000:.0f} ms, "
          f"worst {max(take_up_s) * 1000:.0f} ms; one replay of the record (baseline): median "
          f"{statistics.median(replay_s) * 1000:.0f} ms; ratio {statistics.median(take_up_s) / statistics.median(replay_s):.2f}x")


if __name__ == "__main__":
    main()
