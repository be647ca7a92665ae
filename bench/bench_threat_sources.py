"""Where the rounds and the threat go: the heuristic's Data Heist games split into won and lost, each game's
threat summed by its source (the end of the round, reboots, the ping die, bots shut down, network cards, hubs,
threat events...) before and after the calibration, with the rounds each phase took and the threat at the
calibration.

It plays `--games` games from `--seed` (Nano and Casing, standard, two players) with the game's own dice and
reads each `ThreatChanged` event's reason. Per outcome (won, lost to the threat, lost with the module shut
down) it prints the average per game of every source and phase, so a source that lost games stands out
against the won ones; the time taken per game (median, p99) against a bare `play_game` of the same seeds, in
the same run, is the cost of reading the events.

    PYTHONPATH=. .venv/bin/python bench/bench_threat_sources.py [--floor meridian-annex] [--games 200]
        [--seed 3000] [--jobs 2] [--mission data-heist]
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections import defaultdict
from multiprocessing import Pool

import checkout  # noqa: F401  # the checkout first on the import path (bench/checkout.py)

from controller.autoplay.player import AutoPlayer, play, play_game, team
from controller.autoplay.start import chosen_setup
from controller.library import floor_text, load_content
from controller.rules import GameSetup, GameState, new_game
from controller.rules.events import ThreatChanged

CONTENT = load_content()

SOURCES = [
    ("end of round", r"^end of round"),
    ("reboot", r"^reboot"),
    ("ping die", r"^ping die"),
    ("shut down", r"was shut down$"),
    ("threat event", r"^threat event"),
    ("strike", r" struck "),
    ("network card", r"^network card"),
    ("layer 2 hub", r"layer 2 hub"),
    ("core", r"reached the core"),
    ("captain chip", r"captain chip"),
]


def source_of(reason: str) -> str:
    for name, pattern in SOURCES:
        if re.search(pattern, reason):
            return name
    return reason


def start(floor: str, mission: str, seed: int) -> GameState:
    """The game selfplay plays for this seed: the team's start spaces chosen by the auto-player where the rules
    let it (Rescue Rangers' agents, an Adaptable mission above level 1), not left in reading order."""
    text, source = floor_text(floor)
    level = 1 if CONTENT.missions[mission].adaptable else None
    setup = GameSetup(floor=source, floor_text=text, mission=mission, level=level, players=2, agents=team(2),
                      seed=seed)
    return new_game(CONTENT, chosen_setup(CONTENT, setup))


def one_game(task: tuple[str, str, int]) -> tuple[str, dict[str, float], float, float]:
    """(how it ended, {phase/source: threat, phase/rounds: rounds, ...}, seconds read, seconds bare)."""
    floor, mission, seed = task
    state = start(floor, mission, seed)
    tally: dict[str, float] = defaultdict(float)
    started = time.perf_counter()
    calibrated_round = None
    last = state
    for _action, events, after in play(state, AutoPlayer()):
        phase = "after" if last.calibrated else "before"
        for event in events:
            if isinstance(event, ThreatChanged):
                tally[f"{phase}/{source_of(event.reason)}"] += event.new - event.old
        if after.calibrated and calibrated_round is None:
            calibrated_round = after.round
            tally["threat at calibration"] = after.threat
        last = after
    read = time.perf_counter() - started
    outcome = last.outcome
    ended = "unfinished" if outcome is None else ("won" if outcome.result == "victory" else outcome.text)
    tally["before/rounds"] = (calibrated_round or last.round) - 1
    tally["after/rounds"] = last.round - (calibrated_round or last.round) + (1 if calibrated_round else 0)
    tally["calibrated"] = 1.0 if calibrated_round else 0.0
    started = time.perf_counter()
    play_game(start(floor, mission, seed), AutoPlayer())
    bare = time.perf_counter() - started
    return ended, dict(tally), read, bare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floor", default="meridian-lobby")
    parser.add_argument("--mission", default="data-heist")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=3000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    tasks = [(args.floor, args.mission, s) for s in range(args.seed, args.seed + args.games)]
    with Pool(args.jobs) as pool:
        results = pool.map(one_game, tasks, chunksize=4)
    groups: dict[str, list[dict[str, float]]] = defaultdict(list)
    for ended, tally, _read, _bare in results:
        groups[ended].append(tally)
    keys = sorted({k for _, t, _, _ in results for k in t})
    names = sorted(groups, key=lambda g: -len(groups[g]))
    print(f"{args.mission} on {args.floor}, seeds {args.seed}-{args.seed + args.games - 1}; average per game")
    print(f"{'':28}" + "".join(f"{n[:18]:>20}" for n in names))
    print(f"{'games':28}" + "".join(f"{len(groups[n]):>20}" for n in names))
    for key in keys:
        row = [sum(t.get(key, 0.0) for t in groups[n]) / len(groups[n]) for n in names]
        print(f"{key[:28]:28}" + "".join(f"{v:>20.2f}" for v in row))
    reads = sorted(r for _, _, r, _ in results)
    bares = sorted(b for _, _, _, b in results)
    p99 = max(0, int(len(reads) * 0.99) - 1)
    print(f"per game: median {statistics.median(reads) * 1000:.1f} ms, p99 {reads[p99] * 1000:.1f} ms read; "
          f"bare play_game median {statistics.median(bares) * 1000:.1f} ms, p99 {bares[p99] * 1000:.1f} ms; "
          f"ratio {statistics.median(reads) / statistics.median(bares):.2f}")


if __name__ == "__main__":
    main()
