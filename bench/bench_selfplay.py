"""Speed of automated play (issue "players' turn"): complete auto-played games of the shipped mission.

Prints the time of N complete games (default 1000) with the win rate, average rounds and threat, the
per-game median and p99, and a baseline measured in the same process: the same number of games' worth of
corporation turns alone (each game's rounds, replayed as corporation turns on the start state).

    .venv/bin/python bench/bench_selfplay.py [--games 1000] [--players 2]
"""

from __future__ import annotations

import argparse
import statistics
import time

from controller.autoplay.player import play_game, team
from controller.library import floor_text, load_content
from controller.rules import GameSetup, copy_state, corporation_turn, new_game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--floor", default="meridian-lobby")
    args = parser.parse_args()
    content = load_content()
    text, source = floor_text(args.floor)
    # the team `selfplay` plays with: the auto-player's choice of agents
    starts = [new_game(content, GameSetup(floor=source, floor_text=text, players=args.players,
                                          agents=team(args.players), seed=k))
              for k in range(args.games)]
    times, rounds, threats, wins = [], [], [], 0
    t0 = time.perf_counter()
    for state in starts:
        g0 = time.perf_counter()
        final = play_game(state)
        times.append(time.perf_counter() - g0)
        rounds.append(final.round)
        threats.append(final.threat)
        wins += final.outcome is not None and final.outcome.won
    total = time.perf_counter() - t0

    b0 = time.perf_counter()
    for state, n in zip(starts, rounds):
        s = copy_state(state)  # the corporation's turn alone, round after round
        s.turn.step, s.turn.active = "corporation", s.turn.order.index(s.turn.marker)
        for _ in range(n):
            if s.outcome is not None:
                break
            s, _ = corporation_turn(s)
    baseline = time.perf_counter() - b0

    ordered = sorted(times)
    names = ", ".join(b.name for b in starts[0].bots if b.kind == "agent")
    print(f"{args.games} complete games of {starts[0].mission.name} on {args.floor}, {args.players} players "
          f"({names}): {total:.1f} s")
    print(f"per game: median {statistics.median(times) * 1000:.1f} ms, "
          f"p99 {ordered[int(0.99 * (len(ordered) - 1))] * 1000:.1f} ms")
    print(f"win rate {wins / args.games:.1%}, average rounds {sum(rounds) / len(rounds):.1f}, "
          f"average threat at the end {sum(threats) / len(threats):.1f}")
    print(f"baseline (the same rounds as corporation turns alone): {baseline:.1f} s; "
          f"ratio {total / baseline:.1f}x")


if __name__ == "__main__":
    main()
