"""Whole seeded games of the Adaptable missions, their special rules in force, played by the auto-player to a
win or a loss, with every invariant holding at the end."""

from __future__ import annotations

import pytest

from controller.autoplay.player import play_game
from controller.library import floor_text
from controller.rules import GameSetup, new_game, state_problems
from tests.support.rules_scenarios import CONTENT, play_randomly


@pytest.mark.parametrize("mission,floor,players,level,seed", [
    ("rescue-rangers", "meridian-labs", 1, 1, 11),
    ("rescue-rangers", "meridian-lobby", 4, 3, 12),
    ("preconnaissance", "meridian-labs", 3, 2, 13),
    ("ghost-in-the-dell", "meridian-lobby", 2, 3, 14),
])
def test_a_seeded_adaptable_game_ends_in_a_win_or_a_loss(mission, floor, players, level, seed):
    """"Adaptable missions can be played on any floor of any corporation": each mission, set up and played to
    its end."""
    text, source = floor_text(floor)
    start = new_game(CONTENT, GameSetup(floor=source, floor_text=text, mission=mission, level=level, players=players,
                                        seed=seed))
    final = play_game(start)
    assert final.outcome is not None and final.outcome.result in ("victory", "defeat")
    assert state_problems(final) == []


@pytest.mark.parametrize("mission", ["rescue-rangers", "preconnaissance", "ghost-in-the-dell"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_legal_play_of_an_adaptable_mission_keeps_every_invariant(mission, seed):
    """Random legal actions (hops, draws from the bag and the corporation's turns included) never break an
    invariant nor change the state they are applied to."""
    text, source = floor_text(["meridian-lobby", "meridian-labs"][seed % 2])
    state = new_game(CONTENT, GameSetup(floor=source, floor_text=text, mission=mission, level=1 + seed % 3,
                                        players=1 + seed, seed=seed))
    play_randomly(state, seed, 300)
