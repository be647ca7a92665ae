"""The auto-player still plays the golden games (tests/rules/golden) action for action: its parts (routes,
doors, repairs, the turn, the steps, each mission's play) may be rearranged, but a change to how it plays is
seen here at once and is made on purpose (then the games are regenerated: tests/support/golden_games.py)."""

from __future__ import annotations

import pytest

from controller.rules import decode_record
from tests.support.golden_games import GAMES, GOLDEN, play_recorded


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_auto_player_plays_each_golden_game_as_recorded(name):
    recorded = decode_record((GOLDEN / f"{name}.json").read_bytes())
    played = play_recorded(GAMES[name])
    assert [e.action for e in played.entries] == [e.action for e in recorded.entries]
    assert played.entries[-1].digest == recorded.entries[-1].digest
