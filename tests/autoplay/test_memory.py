"""The auto-player's memory is explicit: a state and an `AutoplayMemory` are all a decision reads."""

from __future__ import annotations

import msgspec
import pytest

from controller.autoplay.memory import AutoplayMemory
from controller.autoplay.player import AutoPlayer, team
from controller.rules import GameSetup, apply_action, new_game
from tests.support.rules_scenarios import CONTENT

GAMES = [  # one seeded game of each shipped mission, where its special play and memory come into use
    ("data-heist", "meridian-lobby", 2, 5),
    ("data-heist", "meridian-annex", 2, 1079),  # a guard holds the North stairs' doorway: the module's own zone
    ("tower-run", "meridian-lobby", 1, 3),
    ("tsm-103c", "meridian-labs", 1, 639),
    ("rescue-rangers", "meridian-annex", 1, 4),
    ("preconnaissance", "meridian-annex", 2, 7),
    ("ghost-in-the-dell", "meridian-annex", 2, 0),
]


@pytest.mark.slow  # whole games
@pytest.mark.parametrize("mission, floor, players, seed", GAMES)
def test_a_fresh_auto_player_given_the_memory_chooses_what_the_long_lived_one_does(mission, floor, players, seed):
    """Over a whole seeded game, at every decision: a new AutoPlayer handed the state and the long-lived
    player's memory (through JSON, as a service would store it) picks the same action and remembers the same."""
    state = new_game(CONTENT, GameSetup(floor=floor, players=players, mission=mission, seed=seed,
                                        level=1 if CONTENT.missions[mission].adaptable else None, agents=team(players)))
    kept = AutoPlayer()
    decisions = 0
    remembered = set()
    while state.outcome is None:
        stored = msgspec.json.decode(msgspec.json.encode(kept.memory), type=AutoplayMemory)
        fresh_action, fresh_memory = AutoPlayer().decide(state, stored)
        action = kept.choose(state)
        assert (fresh_action, fresh_memory) == (action, kept.memory), f"decision {decisions}"
        remembered |= {f for f in AutoplayMemory.__struct_fields__ if getattr(kept.memory, f)}
        state, _ = apply_action(state, action, in_place=True)
        decisions += 1
    used = {"move", "trails", "team_zone"} | ({"core_plan"} if mission == "ghost-in-the-dell" else set()) \
        | ({"module_zone"} if seed == 1079 else set())
    assert decisions > 50 and used <= remembered


def test_a_decision_leaves_the_memory_it_was_given_as_it_was():
    state = new_game(CONTENT, GameSetup(floor="meridian-lobby", players=2, seed=5, agents=team(2)))
    player, memory = AutoPlayer(), AutoplayMemory()
    for _ in range(40):
        before = msgspec.json.encode(memory)
        action, after = player.decide(state, memory)
        assert msgspec.json.encode(memory) == before
        state, _ = apply_action(state, action, in_place=True)
        memory = after
    assert memory != AutoplayMemory()
