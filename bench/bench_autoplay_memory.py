"""Cost of the auto-player's explicit memory (issue 19): a decision by a fresh auto-player handed the state
and the stored memory (decoded from JSON, as a service holding one live game would do at every step),
against the long-lived player's decision on the same state, measured side by side in one process.

The fresh player starts without the path-cost caches (answers, not memory), so the ratio is what a service
pays for keeping no player object between steps. Also checks, at every decision, that both choose the same.

    .venv/bin/python bench/bench_autoplay_memory.py [--games 20] [--players 2]
"""

from __future__ import annotations

import argparse
import time

import msgspec
from stats import report

from controller.autoplay.memory import AutoplayMemory
from controller.autoplay.player import AutoPlayer, team
from controller.library import load_content
from controller.rules import GameSetup, apply_action, new_game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--floor", default="meridian-lobby")
    args = parser.parse_args()
    content = load_content()
    fresh_times, kept_times, sizes = [], [], []
    for seed in range(args.games):
        state = new_game(content, GameSetup(floor=args.floor, players=args.players, seed=seed,
                                            agents=team(args.players)))
        kept = AutoPlayer()
        while state.outcome is None:
            stored = msgspec.json.encode(kept.memory)
            sizes.append(len(stored))
            t0 = time.perf_counter()
            action = kept.choose(state)
            t1 = time.perf_counter()
            fresh, _ = AutoPlayer().decide(state, msgspec.json.decode(stored, type=AutoplayMemory))
            t2 = time.perf_counter()
            if fresh != action:
                raise SystemExit(f"seed {seed}: a fresh player chose {fresh!r}, the long-lived one {action!r}")
            kept_times.append(t1 - t0)
            fresh_times.append(t2 - t1)
            state, _ = apply_action(state, action, in_place=True)
    print(f"{len(kept_times)} decisions of {args.games} games on {args.floor}, {args.players} players; "
          f"the same action every time; memory as JSON: median {sorted(sizes)[len(sizes) // 2]} bytes, "
          f"largest {max(sizes)}")
    report("a fresh player given the memory", fresh_times, "the long-lived player", kept_times)


if __name__ == "__main__":
    main()
