"""Each mission shown winnable (issue 35, part 3): the planning oracle against the heuristic on the same seeds.

The planning oracle (controller/autoplay/search/oracle.py) sees the game's dice and draws and searches whole
lines of play (up to `--lines` lines a game); each setting (a mission on a floor, 2 players: Nano and Casing,
standard, level 1) is played on the same seeds by it and by the heuristic. It prints per setting the games
won by each with a 95% Wilson interval, the seeds only one of them won, the games each calibrated in, how the
oracle's games ended, and the oracle's planning time per game (median, p99) against a heuristic game's time
in the same run.

    .venv/bin/python bench/bench_oracle.py [--settings tsm-103c ...] [--games 8] [--seed 1000] [--lines 600]
        [--jobs 2] [--each]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from multiprocessing import Pool

import checkout  # noqa: F401  # the checkout first on the import path (bench/checkout.py)

from bench.bench_search_winrate import SETTINGS, percentile, share, start
from controller.autoplay.player import AutoPlayer
from controller.autoplay.search.oracle import OraclePlanner, OracleSettings
from controller.rules import apply_action


def play(task: tuple[str, str, int, int]) -> tuple[str, str, int, bool, bool, str, int, float, int]:
    """One game: (setting, player, seed, won, calibrated, how it ended, rounds, seconds, lines the oracle
    played)."""
    setting, name, seed, lines = task
    state = start(setting, seed)
    player = OraclePlanner(OracleSettings(seed=seed, lines=lines)) if name == "oracle" else AutoPlayer()
    t0 = time.perf_counter()
    for _ in range(20_000):
        if state.outcome is not None:
            break
        state, _ = apply_action(state, player.choose(state), in_place=True)
    took = time.perf_counter() - t0
    played = player.last.lines if isinstance(player, OraclePlanner) and player.last is not None else 0
    outcome = state.outcome
    return (setting, name, seed, bool(outcome and outcome.won), state.calibrated,
            outcome.text if outcome else "unfinished", state.round, took, played)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--lines", type=int, default=600)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--each", action="store_true", help="print each game's result as it ends")
    args = parser.parse_args()
    tasks = [(s, p, seed, args.lines) for seed in range(args.seed, args.seed + args.games) for s in args.settings
             for p in ("oracle", "heuristic")]
    won: dict[tuple[str, str], dict[int, bool]] = {}
    calibrated: Counter = Counter()
    ended: dict[str, Counter] = {s: Counter() for s in args.settings}
    took: dict[tuple[str, str], list[float]] = {}
    lines: dict[str, list[int]] = {s: [] for s in args.settings}
    t0 = time.perf_counter()
    with Pool(args.jobs) as pool:
        for setting, name, seed, win, calibration, how, rounds, seconds, played in pool.imap_unordered(play, tasks):
            if args.each:
                print(f"{setting} {name} seed {seed}: {how}, {rounds} rounds, {seconds:.1f} s"
                      + (f", {played} lines" if name == "oracle" else ""), flush=True)
            won.setdefault((setting, name), {})[seed] = win
            calibrated[(setting, name)] += calibration
            took.setdefault((setting, name), []).append(seconds)
            if name == "oracle":
                ended[setting][how] += 1
                lines[setting].append(played)
    print(f"planning oracle: up to {args.lines} lines a game; {args.games} games a setting from seed {args.seed}, "
          f"{args.jobs} processes, {time.perf_counter() - t0:.0f} s")
    for setting in args.settings:
        oracle, heuristic = won[(setting, "oracle")], won[(setting, "heuristic")]
        only_o = sum(oracle[k] and not heuristic[k] for k in oracle)
        only_h = sum(heuristic[k] and not oracle[k] for k in oracle)
        mine, base = took[(setting, "oracle")], took[(setting, "heuristic")]
        ratio = statistics.median(mine) / max(1e-9, statistics.median(base))
        print(f"{setting:18} oracle {share(sum(oracle.values()), len(oracle))}  heuristic "
              f"{share(sum(heuristic.values()), len(heuristic))}  only oracle {only_o}, only heuristic {only_h}; "
              f"calibrated: oracle {calibrated[(setting, 'oracle')]}, heuristic {calibrated[(setting, 'heuristic')]}")
        print(f"{'':18} oracle game median {statistics.median(mine):.1f} s, p99 {percentile(mine, 0.99):.1f} s "
              f"(heuristic game median {statistics.median(base):.3f} s: {ratio:.0f}x); lines median "
              f"{statistics.median(lines[setting]):.0f}; oracle ended: {dict(ended[setting].most_common(4))}")


if __name__ == "__main__":
    main()
