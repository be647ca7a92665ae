"""The auto-player and random legal play: games end, every chosen action is legal, invariants hold."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from rules_scenarios import CONTENT

from controller.library import floor_text
from controller.rules import copy_state, encode_state, new_game, state_problems
from controller.rules.actions import apply_action, legal_actions
from controller.rules.autoplay import AutoPlayer, play_game

FLOORS = sorted(CONTENT.floors)
ADAPTABLE = [m for m, mission in CONTENT.missions.items() if mission.adaptable]


def start(floor: str, mission: str = "data-heist", seed: int = 1, players: int = 2, level: int | None = None):
    text, source = floor_text(floor)
    return new_game(CONTENT, text, source, players=players, mission=mission, seed=seed, level=level)


@pytest.mark.parametrize("floor", FLOORS)
@pytest.mark.parametrize("mission", list(CONTENT.missions))
def test_full_seeded_games_end_in_a_win_or_a_loss(floor, mission):
    """Every shipped floor and every shipped mission (the tower run climbs to its second floor), played by the
    auto-player to the end."""
    level = 2 if CONTENT.missions[mission].adaptable else None
    final = play_game(start(floor, mission, seed=3, level=level))
    assert final.outcome is not None and final.outcome.split(":")[0] in ("victory", "defeat")
    assert state_problems(final) == []


def test_the_same_seed_plays_the_same_game():
    """"A game replays exactly from its start, its actions and its rolls": the auto-player adds no chance."""
    a = play_game(start("meridian-lobby", seed=9))
    b = play_game(start("meridian-lobby", seed=9))
    assert encode_state(a) == encode_state(b)


def test_self_play_leaves_the_start_state_as_it_was():
    """Self-play works on its own copy (it applies its actions in place for speed)."""
    state = start("meridian-annex", seed=2)
    before = encode_state(state)
    final = play_game(state)
    assert encode_state(state) == before and final.outcome is not None


def test_the_auto_player_only_chooses_legal_kinds_of_action():
    """It picks among `legal_actions` (dice counts and choices filled in by it)."""
    state = start("meridian-labs", seed=4)
    player = AutoPlayer()
    for _ in range(400):
        if state.outcome is not None:
            break
        action = player.choose(state)
        assert type(action) in {type(la.action) for la in legal_actions(state)}
        state, _ = apply_action(state, action)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), floor=st.sampled_from(FLOORS), players=st.integers(1, 4),
       difficulty=st.sampled_from(["simplified", "standard", "seasoned"]))
def test_random_legal_play_keeps_every_invariant(seed, floor, players, difficulty):
    """Random legal actions (the corporation's turns included) never break an invariant nor change the state
    they are applied to."""
    text, source = floor_text(floor)
    state = new_game(CONTENT, text, source, players=players, difficulty=difficulty, seed=seed)
    rng = random.Random(seed)
    for _ in range(150):
        if state.outcome is not None:
            break
        options = legal_actions(state)
        assert options, "a game in progress always has a legal action"
        before = copy_state(state)
        state_after, _ = apply_action(state, rng.choice(options).action)
        assert state == before
        assert state_problems(state_after) == []
        assert 0 <= state_after.threat <= 26
        assert all(0 <= b.power <= 10 for b in state_after.bots)
        state = state_after
