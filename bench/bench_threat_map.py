"""Speed of "Show threat" (issue 35, part 6): a threat map of N sampled corporation turns against one
corporation turn, measured side by side in one process on the same positions.

The positions are the players' turns of auto-played two-player games on the shipped Meridian floors (each
agent's first action of each round, rounds 1-8); the baseline is one corporation turn from the same
position as the threat map plays it (a copy of the state at the corporation's step, on seeded dice).

    .venv/bin/python bench/bench_threat_map.py [--samples 50] [--games 6]
"""

from __future__ import annotations

import argparse

from stats import report, time_pairs

from controller.autoplay.player import AutoPlayer, team
from controller.autoplay.threat_map import hidden_future_forgotten, threat_map
from controller.library import load_content
from controller.rules import GameSetup, GameState, SeededDice, apply_action, corporation_turn, new_game

FLOORS = ("meridian-lobby", "meridian-annex", "meridian-labs")


def positions(games: int) -> list[GameState]:
    """Each agent's first action of each round (up to round 8) of `games` auto-played games per floor."""
    content = load_content()
    found = []
    for floor in FLOORS:
        for seed in range(games):
            state = new_game(content, GameSetup(floor=floor, players=2, agents=team(2), seed=seed))
            player, seen = AutoPlayer(), set()
            while state.outcome is None and state.round <= 8:
                key = (state.round, state.turn.active)
                if state.turn.step == "actions" and state.turn.pending is None and key not in seen:
                    seen.add(key)
                    found.append(state)
                state, _ = apply_action(state, player.choose(state))
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=50)
    parser.add_argument("--games", type=int, default=6, help="games per floor the positions come from")
    args = parser.parse_args()
    states = positions(args.games)

    def one_turn(state: GameState) -> None:
        corporation_turn(hidden_future_forgotten(state), SeededDice(1))

    maps, turns = time_pairs(states, lambda s: threat_map(s, samples=args.samples, seed=1), one_turn)
    print(f"{len(states)} positions from {args.games} two-player games on each of {', '.join(FLOORS)}")
    report(f"threat map of {args.samples} corporation turns", maps, "one corporation turn", turns)


if __name__ == "__main__":
    main()
