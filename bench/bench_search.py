"""Speed of the search player (issue 35): a decision's time at the booth's budget, and the search's rollouts
per second against a state copy, measured in the same run.

Plays a few two-player Data Heist games on the lobby with the search player and times every searched decision
(median, p99); then, on the searched positions, times one rollout of the blueprint's action (a determinization,
the action and the heuristic playing on to the end of the round, scored) against one `copy_state` of the
position, side by side.

    PYTHONPATH=. .venv/bin/python bench/bench_search.py [--games 3] [--iterations 48] [--seconds 1.5]
"""

from __future__ import annotations

import argparse
import random
import time

from stats import percentile, report, time_pairs

from controller.autoplay.player import AutoPlayer, team
from controller.autoplay.search import SearchPlayer, SearchSettings
from controller.autoplay.search.determinize import canonical, determinize
from controller.autoplay.search.search import rollout
from controller.library import floor_text, load_content
from controller.rules import GameSetup, GameState, apply_action, copy_state, new_game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=SearchSettings().iterations)
    parser.add_argument("--seconds", type=float, default=1.5)
    args = parser.parse_args()
    content = load_content()
    text, source = floor_text("meridian-lobby")
    budget = SearchSettings(iterations=args.iterations, seconds=args.seconds)
    decisions: list[float] = []
    searched: list[GameState] = []
    futures = 0
    t0 = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        state = new_game(content, GameSetup(floor=source, floor_text=text, players=2, agents=team(2), seed=seed))
        player = SearchPlayer(SearchSettings(seed=seed, iterations=budget.iterations, seconds=budget.seconds))
        while state.outcome is None:
            d0 = time.perf_counter()
            action = player.choose(state)
            if player.last is not None and player.last.searched:
                decisions.append(time.perf_counter() - d0)
                futures += player.last.futures * len(player.last.options)
                searched.append(state)
            state, _ = apply_action(state, action)
    total = time.perf_counter() - t0
    print(f"{args.games} two-player lobby games with the search ({budget.iterations} rollouts, at most "
          f"{budget.seconds} s a decision): {total:.1f} s, {total / args.games:.1f} s a game; "
          f"{len(decisions)} searched decisions, median {sorted(decisions)[len(decisions) // 2]:.3f} s, "
          f"p99 {percentile(decisions, 0.99):.3f} s; {futures / sum(decisions):.0f} rollouts a second")

    rng = random.Random(0)
    player = AutoPlayer()

    def one_rollout(state: GameState) -> None:
        world = determinize(canonical(state), rng)
        action, memory = player.decide(world, player.memory)
        rollout(world, action, memory, 1, player)

    subject, baseline = time_pairs(searched, one_rollout, copy_state)
    report("one rollout (to the end of the round)", subject, "copy_state", baseline)
    print(f"rollouts a second: {len(subject) / sum(subject):.0f}; state copies a second: "
          f"{len(baseline) / sum(baseline):.0f}")


if __name__ == "__main__":
    main()
