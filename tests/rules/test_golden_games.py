"""Golden games (tests/rules/golden/*.json): whole games played by the auto-player and checked in as game
records replay bit for bit on every run, each entry against its recorded digest and events (see
tests/support/golden_games.py for what they are and how to regenerate them when a change is meant to alter games)."""

from __future__ import annotations

import pytest

from controller.rules import decode_record, encode_state, new_game, replay
from tests.support.golden_games import GAMES, GOLDEN
from tests.support.rules_scenarios import CONTENT


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_golden_game_replays_to_its_digests(name):
    record = decode_record((GOLDEN / f"{name}.json").read_bytes())
    assert encode_state(record.start) == encode_state(new_game(CONTENT, GAMES[name]))  # the setup it names
    final = replay(record)
    assert final.outcome is not None and final.outcome.won  # a whole game, played to its end


def test_every_golden_file_is_listed():
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == sorted(GAMES)
