"""Win rate of the search player against the heuristic on the same seeds (issue 35, part 2).

Each setting (a mission on a floor, 2 players: Nano and Casing, standard, level 1) is played by both players on
the same seeds; it prints each one's wins with a 95% Wilson interval, the games only one of them won, the
search's decision times (median, p99) and the causes of defeat. Games run in `--jobs` processes.

    PYTHONPATH=. .venv/bin/python bench/bench_search_winrate.py [--settings lobby annex] [--games 40]
        [--seed 1000] [--iterations 64] [--horizon 1] [--no-race] [--jobs 2]

With --oracle the search sees the game's dice and draws (one future, the real one; give it --horizon 60 to
play each candidate to the end): part 3, each mission shown winnable.

With --fit it instead fits the evaluation's weights (controller/autoplay/search/tuning.py WEIGHTS, BIAS) by
logistic regression on the positions at each round's start of the heuristic's games and their results.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter
from multiprocessing import Pool

from controller.autoplay.player import AutoPlayer, team
from controller.autoplay.search import SearchPlayer, SearchSettings
from controller.autoplay.search.tuning import BOOTH_ITERATIONS, MARGIN, NOISE
from controller.library import floor_text, load_content
from controller.rules import GameSetup, GameState, apply_action, new_game

SETTINGS = {
    "lobby": ("data-heist", "meridian-lobby"),
    "annex": ("data-heist", "meridian-annex"),
    "labs": ("data-heist", "meridian-labs"),
    "tower": ("tower-run", "meridian-lobby"),
    "tsm-103c": ("tsm-103c", "meridian-lobby"),
    "rescue-rangers": ("rescue-rangers", "meridian-lobby"),
    "preconnaissance": ("preconnaissance", "meridian-lobby"),
    "ghost-in-the-dell": ("ghost-in-the-dell", "meridian-lobby"),
}
CONTENT = load_content()


def start(setting: str, seed: int) -> GameState:
    mission, floor = SETTINGS[setting]
    text, source = floor_text(floor)
    level = 1 if CONTENT.missions[mission].adaptable else None  # the others play the floor's own level
    return new_game(CONTENT, GameSetup(floor=source, floor_text=text, mission=mission, level=level, players=2,
                                       agents=team(2), seed=seed))


def play(task: tuple[str, str, int, dict]) -> tuple[str, str, int, bool, str, int, list[float]]:
    """One game: (setting, player, seed, won, how it ended, rounds, the searched decisions' seconds)."""
    setting, name, seed, options = task
    state = start(setting, seed)
    player = AutoPlayer() if name == "heuristic" else SearchPlayer(SearchSettings(seed=seed, **options))
    times: list[float] = []
    for _ in range(20_000):
        if state.outcome is not None:
            break
        t0 = time.perf_counter()
        action = player.choose(state)
        if isinstance(player, SearchPlayer) and player.last is not None and player.last.searched:
            times.append(time.perf_counter() - t0)
        state, _ = apply_action(state, action, in_place=True)
    outcome = state.outcome
    return setting, name, seed, bool(outcome and outcome.won), outcome.text if outcome else "unfinished", \
        state.round, times


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def share(wins: int, n: int) -> str:
    low, high = wilson(wins, n)
    return f"{wins}/{n} = {wins / max(1, n):.0%} [{low:.0%}, {high:.0%}]"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def compare(args: argparse.Namespace) -> None:
    options = {"iterations": args.iterations, "horizon": args.horizon, "margin": args.margin, "noise": args.noise,
               "oracle": args.oracle, "race": not args.no_race}
    if args.seconds is not None:
        options["seconds"] = args.seconds
    players = ["search", "heuristic"] if not args.search_only else ["search"]
    # seed by seed across the settings, so a run stopped early (--each) has every setting at the same depth
    tasks = [(s, p, seed, options) for seed in range(args.seed, args.seed + args.games) for s in args.settings
             for p in players]
    results: dict[tuple[str, str], dict[int, bool]] = {}
    causes: dict[tuple[str, str], Counter] = {}
    times: dict[str, list[float]] = {s: [] for s in args.settings}
    t0 = time.perf_counter()
    with Pool(args.jobs) as pool:
        for setting, name, seed, won, ended, rounds, took in pool.imap_unordered(play, tasks):
            if args.each:
                print(f"game {setting} {name} seed {seed}: {ended}, {rounds} rounds", flush=True)
            results.setdefault((setting, name), {})[seed] = won
            causes.setdefault((setting, name), Counter())[ended] += 1
            times[setting] += took
    print(f"search: {options}, {args.games} games a setting from seed {args.seed}, {args.jobs} processes, "
          f"{time.perf_counter() - t0:.0f} s")
    for setting in args.settings:
        search = results.get((setting, "search"), {})
        line = f"{setting:18} search {share(sum(search.values()), len(search))}"
        if not args.search_only:
            heuristic = results[(setting, "heuristic")]
            only_s = sum(search[k] and not heuristic[k] for k in search)
            only_h = sum(heuristic[k] and not search[k] for k in search)
            line += f"  heuristic {share(sum(heuristic.values()), len(heuristic))}  only search {only_s}, " \
                    f"only heuristic {only_h}"
        took = times[setting]
        if took:
            line += f"  decision median {statistics.median(took):.3f} s, p99 {percentile(took, 0.99):.3f} s"
        print(line)
        print(f"{'':18} search ended: {dict(causes[(setting, 'search')].most_common(4))}")


def positions(task: tuple[str, int]) -> list[tuple[tuple[float, ...], bool]]:
    """The features of each round's start of one heuristic game, with the game's result."""
    from controller.autoplay.search.evaluation import features

    setting, seed = task
    state = start(setting, seed)
    player = AutoPlayer()
    seen: list[tuple[float, ...]] = []
    last_round = 0
    for _ in range(20_000):
        if state.outcome is not None:
            break
        if state.round != last_round and state.turn.step == "route":
            seen.append(features(state))
            last_round = state.round
        state, _ = apply_action(state, player.choose(state), in_place=True)
    won = bool(state.outcome and state.outcome.won)
    return [(f, won) for f in seen]


def fit(args: argparse.Namespace) -> None:
    """Logistic regression (Newton's method with a small ridge) of the result on the features."""
    import numpy as np

    tasks = [(s, seed) for s in args.settings for seed in range(args.seed, args.seed + args.games)]
    with Pool(args.jobs) as pool:
        rows = [row for game in pool.imap_unordered(positions, tasks) for row in game]
    x = np.array([[1.0, *f] for f, _ in rows])
    y = np.array([float(w) for _, w in rows])
    w = np.zeros(x.shape[1])
    ridge = np.eye(x.shape[1]) * 1e-2
    ridge[0, 0] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        gradient = x.T @ (y - p) - ridge @ w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge
        w = w + np.linalg.solve(hessian, gradient)
    p = 1 / (1 + np.exp(-x @ w))
    loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
    print(f"{len(rows)} positions, {y.mean():.1%} from won games; log loss {loss:.4f}")
    print(f"BIAS = {w[0]:.3f}")
    print(f"WEIGHTS = ({', '.join(f'{v:.3f}' for v in w[1:])})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=BOOTH_ITERATIONS)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--horizon", type=int, default=1)
    parser.add_argument("--margin", type=float, default=MARGIN)
    parser.add_argument("--noise", type=float, default=NOISE)
    parser.add_argument("--no-race", action="store_true",
                        help="every candidate played in every future (the search before the race)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--search-only", action="store_true")
    parser.add_argument("--each", action="store_true", help="print each game's result as it ends")
    parser.add_argument("--oracle", action="store_true", help="the search sees the dice and draws (part 3)")
    parser.add_argument("--fit", action="store_true")
    args = parser.parse_args()
    fit(args) if args.fit else compare(args)


if __name__ == "__main__":
    main()
