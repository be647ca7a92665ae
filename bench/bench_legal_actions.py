"""Speed of listing the legal actions (issue "players' turn"): median and p99 against a baseline run in the
same process (copying the state), over states from seeded games at every turn step.

    .venv/bin/python bench/bench_legal_actions.py [--samples 3000]
"""

from __future__ import annotations

import argparse
import random
import statistics

from stats import percentile, report, time_pairs

from controller.autoplay.player import play
from controller.library import floor_text, load_content
from controller.rules import GameSetup, copy_state, new_game
from controller.rules.actions import apply_action, legal_actions


def sample_states(count: int, seed: int = 5) -> list:
    """States met in play, from seeded new games on every shipped floor: half from the auto-player's games
    (moves under way, late rounds), half from random legal actions."""
    content = load_content()
    rng = random.Random(seed)
    states = []
    while len(states) < count // 2:
        text, src = floor_text(rng.choice(sorted(content.floors)))
        start = new_game(content, GameSetup(floor=src, floor_text=text, players=rng.randint(1, 4),
                                            seed=rng.randrange(10**6)))
        for _, _, state in play(start):
            if len(states) >= count // 2:
                break
            if rng.random() < 0.1:
                states.append(copy_state(state))
    while len(states) < count:
        name = rng.choice(sorted(content.floors))
        text, src = floor_text(name)
        state = new_game(content, GameSetup(floor=src, floor_text=text, players=rng.randint(1, 4),
                                            seed=rng.randrange(10**6)))
        for _ in range(60):
            if state.outcome is not None or len(states) >= count:
                break
            options = legal_actions(state)
            states.append(state)
            state, _ = apply_action(state, rng.choice(options).action)
    return states


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=3000)
    args = parser.parse_args()
    states = sample_states(args.samples)
    listing, copying = time_pairs(states, legal_actions, copy_state)
    report(f"legal actions over {len(states)} states", listing, "copy of the state", copying)
    # the median hides how different the steps are: the action step lists by far the most
    by_step: dict[str, list[float]] = {}
    for s, took in zip(states, listing):
        step = "move under way" if s.turn.pending is not None else s.turn.step
        by_step.setdefault(step, []).append(took)
    for step, times in sorted(by_step.items()):
        print(f"  {step:15s} {len(times):5d} states: median {statistics.median(times) * 1000:.3f} ms, "
              f"p99 {percentile(times, 0.99) * 1000:.3f} ms")


if __name__ == "__main__":
    main()
