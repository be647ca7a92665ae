"""Speed of `validate` on a state with a 10 MB equipment deck (issue 19: it took 14 s, a duplicate check that
grew with the square of the deck): median and p99 of `check_state` on the big state, against a baseline run
in the same process (`decode_state`, which is linear in the file's size), and the per-card figure against a
shipped-size state.

    .venv/bin/python bench/bench_validate.py [--runs 15] [--megabytes 10]
"""

from __future__ import annotations

import argparse

import msgspec
from stats import report, time_pairs

from controller.library import floor_text, load_content
from controller.rules import GameSetup, check_state, decode_state, encode_state, new_game


def big_state_text(megabytes: float) -> bytes:
    """A new game whose equipment deck is copies (with fresh ids) of its first card, until the file is this big."""
    text, source = floor_text("meridian-lobby")
    state = new_game(load_content(), GameSetup(floor=source, floor_text=text, players=2, seed=1))
    card = state.equipment_deck[0]
    size = len(msgspec.json.encode(card)) + 1
    state.equipment_deck = [msgspec.structs.replace(card, id=f"X{k}") for k in range(int(megabytes * 1e6 / size))]
    return encode_state(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--megabytes", type=float, default=10.0)
    args = parser.parse_args()
    data = big_state_text(args.megabytes)
    state = decode_state(data)
    print(f"state of {len(data) / 1e6:.1f} MB, {len(state.equipment_deck)} equipment cards")
    subject, baseline = time_pairs(range(args.runs), lambda _: check_state(state), lambda _: decode_state(data))
    report("check_state, 10 MB deck", subject, "decode_state of the same file", baseline)
    small = decode_state(big_state_text(0.005))
    small_times, _ = time_pairs(range(args.runs), lambda _: check_state(small), lambda _: None)
    big_per_card = sorted(subject)[len(subject) // 2] / len(state.equipment_deck)
    small_per_card = sorted(small_times)[len(small_times) // 2] / len(small.equipment_deck)
    print(f"per card: {big_per_card * 1e6:.2f} us on the big deck, {small_per_card * 1e6:.2f} us on a "
          f"{len(small.equipment_deck)}-card deck (ratio {big_per_card / small_per_card:.2f}x: linear is ~1x or less)")


if __name__ == "__main__":
    main()
