"""Are the search's judgments right? Its one-round rollouts against whole games, on the same decisions.

The search (controller/autoplay/search) scores a candidate by rollouts to the end of the round and the
evaluation's chance to win there. This plays heuristic games (Nano and Casing, standard, level 1), stops at
every `--every`-th searched decision and tries each candidate against the blueprint's action over the same
futures twice: as the search does (`--short` futures, to the end of the round, or `--horizon` rounds, and
the evaluation) and to the end of the
game (`--long` futures, won or lost), both with common dice. It prints how well the first foretells the
second: their correlation, the whole-game lead of the candidates the search's rollouts rank ahead of the
blueprint's and behind it (by bins of the one-round lead), and each kind of decision (the blueprint's
action against the candidate's) with its whole-game lead, so a candidate kind that wins more than the
blueprint shows. With `--wide` every decision is tried (a step of a move, the route step, the end of the
turn) with every legal action as a hint tries them, to the end of the game only. Times: the median and p99
of one decision's whole-game judgment against its one-round one, in the same run.

    .venv/bin/python bench/bench_search_judgement.py [--settings annex] [--games 12] [--seed 5000]
        [--every 4] [--short 16] [--horizon 1] [--long 48] [--wide] [--jobs 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from multiprocessing import Pool

import checkout  # noqa: F401  # the checkout first on the import path (bench/checkout.py)

from bench.bench_search_winrate import SETTINGS, percentile, start
from controller.autoplay.memory import AutoplayMemory
from controller.autoplay.player import AutoPlayer
from controller.autoplay.search.candidates import candidates
from controller.autoplay.search.determinize import canonical, determinize, public_digest
from controller.autoplay.search.search import SearchSettings, blueprint_decision, future_seed, rollout
from controller.rules import Action, GameState, apply_action

WHOLE_GAME = 99
"""A horizon past any game's last round: the rollout's value is its result."""

Row = tuple[str, str, float, float, float, float]
"""(decision kind, "blueprint's action -> candidate's", one-round lead, its spread, whole-game lead, its
spread), each lead the mean over the futures of the candidate's value less the blueprint's."""


def leads(state: GameState, actions: list[Action], memory: AutoplayMemory, futures: int, horizon: int,
          salt: int) -> list[tuple[float, float]]:
    """Each candidate's lead over the blueprint's (the first) over the same futures: mean and spread."""
    digest = public_digest(state)
    public = canonical(state)
    values: list[list[float]] = [[] for _ in actions]
    for number in range(futures):
        world = determinize(public, random.Random(future_seed(salt, digest, number)))
        for k, action in enumerate(actions):
            values[k].append(rollout(world, action, memory, horizon, AutoPlayer())[0])
    out = []
    for other in values[1:]:
        diffs = [b - a for a, b in zip(values[0], other, strict=True)]
        out.append((statistics.mean(diffs), statistics.stdev(diffs) if len(diffs) > 1 else 0.0))
    return out


def judge(task: tuple[str, int, argparse.Namespace]) -> tuple[list[Row], list[float], list[float]]:
    """One heuristic game's judged decisions, with the seconds of each decision's short and long judgments."""
    setting, seed, args = task
    state, memory, player = start(setting, seed), AutoplayMemory(), AutoPlayer()
    rows: list[Row] = []
    short_times: list[float] = []
    long_times: list[float] = []
    count = 0
    while state.outcome is None:
        if state.turn.step != "corporation":
            count += 1
            if count % args.every == 0:
                world, blueprint, after = blueprint_decision(state, memory, SearchSettings(), public_digest(state))
                actions = candidates(world, blueprint, wide=args.wide)
                if len(actions) > 1:
                    t0 = time.perf_counter()
                    short = [(0.0, 0.0)] * (len(actions) - 1) if args.wide else \
                        leads(state, actions, after, args.short, args.horizon, 1)
                    t1 = time.perf_counter()
                    long = leads(state, actions, after, args.long, WHOLE_GAME, 2)
                    short_times.append(t1 - t0)
                    long_times.append(time.perf_counter() - t1)
                    kind = state.turn.step + (" (a move's step)" if state.turn.pending else "")
                    for k, ((sm, ss), (lm, ls)) in enumerate(zip(short, long, strict=True), start=1):
                        pair = f"{type(actions[0]).__name__} -> {type(actions[k]).__name__}"
                        rows.append((kind, pair, sm, ss, lm, ls))
        action, memory = player.decide(state, memory)
        state, _ = apply_action(state, action, in_place=True)
    return rows, short_times, long_times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--settings", nargs="+", default=["annex"], choices=list(SETTINGS))
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--every", type=int, default=4, help="judge every N-th decision of the players")
    parser.add_argument("--short", type=int, default=16, help="futures of the one-round judgment")
    parser.add_argument("--horizon", type=int, default=1, help="rounds of the search's rollouts")
    parser.add_argument("--long", type=int, default=48, help="futures of the whole-game judgment")
    parser.add_argument("--wide", action="store_true", help="every decision, every legal action; whole games only")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    tasks = [(s, seed, args) for s in args.settings for seed in range(args.seed, args.seed + args.games)]
    rows: list[Row] = []
    short_times: list[float] = []
    long_times: list[float] = []
    with Pool(args.jobs) as pool:
        for got, st, lt in pool.imap_unordered(judge, tasks):
            rows += got
            short_times += st
            long_times += lt
    if not rows:
        print("no decision with more than one candidate was judged")
        return
    print(f"{len(rows)} candidates judged in {len(long_times)} decisions of {len(tasks)} games "
          f"({', '.join(args.settings)}, seeds {args.seed}-{args.seed + args.games - 1}); "
          f"{args.short} one-round futures, {args.long} whole-game futures")
    if not args.wide:
        print(f"correlation of the one-round lead with the whole game's: "
              f"{statistics.correlation([r[2] for r in rows], [r[4] for r in rows]):.2f}")
        print("one-round lead      n   its mean   the whole game's lead")
        for low, high in ((-1.0, -0.1), (-0.1, -0.03), (-0.03, -0.01), (-0.01, 0.01), (0.01, 0.03), (0.03, 0.06),
                          (0.06, 1.01)):
            chosen = [r for r in rows if low <= r[2] < high]
            if chosen:
                print(f"[{low:+.2f}, {high:+.2f})  {len(chosen):4d}   {statistics.mean(r[2] for r in chosen):+.3f}"
                      f"     {statistics.mean(r[4] for r in chosen):+.3f}")
    kinds: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for row in rows:
        kinds[row[0], row[1]].append(row)
    print("decision: the blueprint's -> the candidate's      n   whole-game lead (2 s.e.)   ahead in")
    for (kind, pair), some in sorted(kinds.items(), key=lambda kv: -statistics.mean(r[4] for r in kv[1])):
        mean = statistics.mean(r[4] for r in some)
        error = 2 * (statistics.mean(r[5] ** 2 for r in some) / args.long / len(some)) ** 0.5
        print(f"{kind + ': ' + pair:48s} {len(some):4d}   {mean:+.3f} ({error:.3f})   {sum(r[4] > 0 for r in some)}")
    if not args.wide:
        print(f"a decision's one-round judgment: median {statistics.median(short_times):.2f} s, p99 "
              f"{percentile(short_times, 0.99):.2f} s")
    ratio = statistics.median(long_times) / statistics.median(short_times) if not args.wide else 0.0
    print(f"a decision's whole-game judgment: median {statistics.median(long_times):.2f} s, p99 "
          f"{percentile(long_times, 0.99):.2f} s" + (f" ({ratio:.1f}x the one-round)" if ratio else ""))


if __name__ == "__main__":
    main()
