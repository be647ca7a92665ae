"""Hint bench: how long "What would the table do?" takes to answer, at a Pi's budget and on this machine.

    .venv/bin/python bench/bench_hint.py [--positions 12] [--seconds 1.6]

Target (issue 35, part 5): a hint answers within 2 s in the Pi-sized run. Each answer is timed as a phone sees it:
from the question given to the table's hint desk (controller/service/hints: the search in its worker process,
the table's budget, HINT_SECONDS and HINT_ITERATIONS) to its answer back in the table's process. The positions are
chip decisions of the heuristic's games of Data Heist on the lobby (2 players, standard), each asked once (a tap
asked again is answered from the kept answers: not measured). The worker is warm (spawned and its imports paid by
a first question, a threat overlay, timed apart: the table pays that once an evening).

The same positions run twice in this process: the worker unthrottled (this machine's core: the baseline), then
the worker pinned to one core and held to a quarter of it (the Pi-sized run of bench/bench_table_cpu.py, by its
SIGSTOP/SIGCONT throttle, 5 ms of every 20). The budget is in seconds of the wall clock, so the Pi-sized run plays
fewer futures in it: their count is printed beside the times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import msgspec
from checkout import ROOT  # noqa: F401  (the checkout first on the import path: bench/checkout.py)

from bench.bench_table_cpu import throttle
from bench.stats import percentile
from controller.autoplay.player import AutoPlayer, team
from controller.library import floor_text
from controller.rules import GameSetup, GameState, Terminal, apply_action, legal_actions, new_game
from controller.service.hints import HintDesk, HintView
from controller.service.hints.desk import HINT_SECONDS
from tests.support.rules_scenarios import CONTENT

TARGET_S = 2.0


def positions(count: int) -> list[GameState]:
    """Chip decisions with several kinds of action (no terminal under a bot), two a game, from seeds 1000 on."""
    found: list[GameState] = []
    text, source = floor_text("meridian-lobby")
    seed = 1000
    while len(found) < count:
        state = new_game(CONTENT, GameSetup(floor=source, floor_text=text, mission="data-heist", players=2,
                                            agents=team(2), seed=seed))
        player, taken = AutoPlayer(), 0
        for k in range(600):
            if state.outcome is not None or taken == 2:
                break
            turn = state.turn
            kinds = {type(la.action) for la in legal_actions(state)}
            if k > 20 * taken and turn.step == "actions" and turn.pending is None and len(kinds) >= 3 \
                    and Terminal not in kinds:
                found.append(state)
                taken += 1
            state, _ = apply_action(state, player.choose(state))
        seed += 1
    return found[:count]


def answer(desk: HintDesk, state: GameState, number: int) -> tuple[float, HintView]:
    started = time.perf_counter()
    desk.ask("hint", msgspec.json.encode(state), number)
    while (view := desk.view("hint")).status == "thinking":
        time.sleep(0.002)
    return time.perf_counter() - started, view


def run(states: list[GameState], seconds: float, pi: bool) -> tuple[float, list[float], list[int]]:
    """The seconds from the first question (the worker spawned, its imports, a threat overlay) to its answer,
    then each position's hint, and the futures each searched."""
    desk = HintDesk(seconds=seconds)
    done = None
    try:
        started = time.perf_counter()
        desk.ask("threat", msgspec.json.encode(states[0]), 0)  # spawns the worker
        pid = desk.worker_pid
        assert pid is not None
        if pi:
            os.sched_setaffinity(pid, {sorted(os.sched_getaffinity(0))[0]})
            done = throttle(pid, 0.25)
        while desk.view("threat").status == "thinking":
            time.sleep(0.01)
        cold = time.perf_counter() - started
        times, futures = [], []
        for k, state in enumerate(states, 2):
            took, view = answer(desk, state, k)
            assert view.status == "ready" and view.hint is not None, view.message
            times.append(took)
            futures.append(view.hint.futures)
        return cold, times, futures
    finally:
        if done is not None:
            done.set()
        desk.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=HINT_SECONDS, help="the hint's search budget")
    args = parser.parse_args()
    states = positions(args.positions)
    _, here, here_futures = run(states, args.seconds, pi=False)
    cold, pi, pi_futures = run(states, args.seconds, pi=True)
    print(f"hint answers, {len(states)} chip decisions of Data Heist on the lobby, budget {args.seconds} s "
          "(asked to answered, through the hint desk's worker process)")
    print(f"  this machine's core : median {statistics.median(here):.2f} s, p99 {percentile(here, 0.99):.2f} s, "
          f"futures median {statistics.median(here_futures):.0f}")
    print(f"  Pi-sized (1/4 core) : median {statistics.median(pi):.2f} s, p99 {percentile(pi, 0.99):.2f} s, "
          f"futures median {statistics.median(pi_futures):.0f}")
    print(f"  the evening's first question (the worker spawned and its imports, then a threat overlay), Pi-sized: "
          f"{cold:.2f} s")
    print(f"  ratio Pi-sized / this machine: median {statistics.median(pi) / statistics.median(here):.2f}x, "
          f"p99 {percentile(pi, 0.99) / percentile(here, 0.99):.2f}x")
    verdict = "met" if percentile(pi, 0.99) <= TARGET_S else "NOT met"
    print(f"  target: every answer within {TARGET_S:.0f} s in the Pi-sized run: {verdict}")


if __name__ == "__main__":
    main()
