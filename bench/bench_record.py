"""Cost of the game record (issue 19): recording an action and replaying a whole game, against plain `apply`.

A table service records every action and undoes by replaying the record, so both must stay cheap. Plays N
seeded auto-player games of Data Heist with two players, recording each, then measures per action, side by
side in one process: `record_action` (apply through RecordingDice, plus the state's digest) against `apply`
alone, and `replay` of each whole game (what an undo costs) against applying the same actions without checks.

    .venv/bin/python bench/bench_record.py [--games 20]
"""

from __future__ import annotations

import argparse
import time

from stats import report, time_pairs

from controller.autoplay.player import AutoPlayer, team
from controller.library import load_content
from controller.rules import GameSetup, apply, new_game, record_action, replay, start_record
from controller.rules.record import ReplayDice


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    content = load_content()
    records, steps = [], []
    for seed in range(args.games):
        state = new_game(content, GameSetup(players=2, agents=team(2), seed=seed))
        record, player = start_record(state), AutoPlayer()
        while state.outcome is None:
            action = player.choose(state)
            steps.append((state, action))
            state, _ = record_action(record, state, action)
        records.append(record)

    def recorded(item) -> None:
        state, action, record = item
        record_action(record, state, action)

    def plain(item) -> None:
        state, action, _ = item
        apply(state, action)

    items = [(state, action, start_record(state)) for state, action in steps]  # records made before timing
    record_times, apply_times = time_pairs(items, recorded, plain)
    report(f"record_action, per action ({len(steps)} actions)", record_times, "apply alone", apply_times)

    def unchecked(record) -> None:
        state = record.start
        for k, entry in enumerate(record.entries, 1):
            seeded = entry.seeded_rolls is not None
            state, _ = apply(state, entry.action, ReplayDice(entry.faces, k, state.seed if seeded else None,
                                                            entry.seeded_rolls or 0))

    t0 = time.perf_counter()
    replay_times, bare_times = time_pairs(records, replay, unchecked)
    entries = sum(len(r.entries) for r in records)
    report(f"replay of a whole game ({args.games} games, {entries / args.games:.0f} entries on average)",
           replay_times, "the same actions applied without digest and event checks", bare_times)
    print(f"total {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
