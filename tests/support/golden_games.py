"""The golden games: whole games played by the auto-player and checked in as game records (tests/rules/golden),
in the spirit of chess engines' perft suites. `test_golden_games.py` replays each on every run against the
digests and events recorded with it, so a change that alters how any recorded game plays is seen at once.

When a change of the rules is meant to change games, regenerate them and say so in the commit:

    .venv/bin/python -m tests.support.golden_games
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from controller.autoplay.player import AutoPlayer, team
from controller.library import load_content
from controller.rules import GameRecord, GameSetup, encode_record, new_game, record_action, replay, start_record

GOLDEN = Path(__file__).resolve().parents[1] / "rules" / "golden"
# name -> setup: a one-floor mission, a two-floor one (changing floors, the escape) and an Adaptable one (the
# draw bag), each played to a win
GAMES = {
    "data-heist-lobby-2p": GameSetup(floor="meridian-lobby", mission="data-heist", players=2, agents=team(2), seed=1),
    "tower-run-lobby-2p": GameSetup(floor="meridian-lobby", mission="tower-run", players=2, agents=team(2), seed=10),
    "rescue-rangers-lobby-2p": GameSetup(floor="meridian-lobby", mission="rescue-rangers", level=1, players=2,
                                         agents=team(2), seed=184),
}


def play_recorded(setup: GameSetup, max_actions: int = 20_000) -> GameRecord:
    """A whole game by the auto-player with the game's seeded dice, recorded entry by entry."""
    state = new_game(load_content(), setup)
    record, player = start_record(state), AutoPlayer()
    for _ in range(max_actions):
        if state.outcome is not None:
            break
        state, _ = record_action(record, state, player.choose(state))
    return record


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, setup in GAMES.items():
        record = play_recorded(setup)
        # one field per line, so that a change to a game reads as a diff
        (GOLDEN / f"{name}.json").write_bytes(msgspec.json.format(encode_record(record), indent=1) + b"\n")
        print(f"{name}: {len(record.entries)} entries, {replay(record).outcome}")


if __name__ == "__main__":
    main()
