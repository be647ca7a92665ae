"""Show threat: where the guards may stand and what they may see after the next corporation turn, sampled from
corporation turns that never read the game's hidden future."""

from __future__ import annotations

import random

import msgspec
import pytest

from controller.autoplay.player import AutoPlayer, team
from controller.autoplay.threat_map import threat_map
from controller.rules import GameSetup, GameState, Outcome, apply_action, copy_state, encode_state, new_game
from tests.support.rules_scenarios import CONTENT, bot, guard, make_state
from tests.support.turn_scenarios import in_turn


def casings_turn(seed: int, round: int) -> GameState:
    """Two players (Nano and Casing) on the lobby, played by the auto-player to Casing's first action of the
    round."""
    state = new_game(CONTENT, GameSetup(floor="meridian-lobby", players=2, agents=team(2), seed=seed))
    player = AutoPlayer()
    while not (state.round == round and state.turn.active == 1 and state.turn.step == "actions"
               and state.turn.pending is None):
        state, _ = apply_action(state, player.choose(state))
    return state


def lobby_in_round_3() -> GameState:
    """Seed 8, round 3: where the guards stand after the coming corporation turn turns on the dice, so the
    futures differ."""
    return casings_turn(seed=8, round=3)


def test_every_space_gets_shares_of_futures_between_0_and_1():
    state = lobby_in_round_3()
    shown = threat_map(state, samples=40, seed=7)
    assert shown.samples == 40 and sorted(shown.spaces) == sorted(shown.shares())
    assert all(0 <= s.guard <= 1 and 0 <= s.seen <= 1 for s in shown.spaces.values())
    # every unit stands somewhere in every future: the guard shares add up to the units on the floor
    assert sum(s.guard for s in shown.spaces.values()) >= len(state.security)
    assert any(0 < s.guard < 1 for s in shown.spaces.values())  # the dice were rolled afresh per future
    stood = {u for s in shown.spaces.values() if s.guard for u in s.guards}
    assert {u.id for u in state.security} <= stood


def test_the_same_seed_gives_the_same_map_and_the_state_is_left_as_it_was():
    state = lobby_in_round_3()
    before = encode_state(state)
    assert threat_map(state, samples=30, seed=3) == threat_map(state, samples=30, seed=3)
    assert encode_state(state) == before
    assert len({msgspec.json.encode(threat_map(state, samples=30, seed=k)) for k in range(6)}) > 1


def test_the_games_hidden_future_does_not_change_the_map():
    """The game's seed and roll count (its dice to come) and the order of the guard bag and the decks (its
    draws to come) are not read: a state that differs only there shows the same map. (Seed 2, round 2: a
    guard enters, drawn from the bag, whose chips differ in awareness.)"""
    state = casings_turn(seed=2, round=2)
    other = copy_state(state)
    other.seed, other.rolls = state.seed + 12345, state.rolls + 17
    for name in ("guard_bag", "keypad_deck", "network_deck", "terminal_deck"):
        random.Random(name).shuffle(getattr(other, name))
    assert encode_state(other) != encode_state(state)
    assert threat_map(other, samples=30, seed=9) == threat_map(state, samples=30, seed=9)


def test_a_stunned_guard_stays_where_it_stands_and_sees_the_spaces_beside_it_again():
    """"Stunned Security: Unit chip is flipped face down; skips activation this round and ignores
    awareness/abilities. Reactivates at end of corporation turn." and "Peripheral Awareness: Equal to half of
    the awareness stat (rounded up) in all other directions within the same area." (rules reference, Awareness
    Range): a guard of awareness 3 facing north on C3 sees C1-C2 ahead and two spaces every other way."""
    state = in_turn(make_state(bots=[bot("byte", "F1")], units=[guard("G1", "C3", facing="N", stunned=True)]))
    shown = threat_map(state, samples=20, seed=1)
    assert shown.at("C3").guard == 1.0 and shown.at("C3").guards == ("G1",)
    assert all(shown.at(s).seen == 1.0 and "G1" in shown.at(s).guards for s in ("C2", "C1", "B3", "D3", "C4", "C5"))
    assert shown.at("F1").seen == 0.0 and shown.at("F1").guard == 0.0  # out of every ray


def test_bad_requests_are_one_line_errors():
    state = in_turn(make_state(bots=[bot("byte", "F1")], units=[guard("G1", "C3")]))
    with pytest.raises(ValueError, match="at least one sampled corporation turn"):
        threat_map(state, samples=0)
    with pytest.raises(KeyError, match="no space 'Z9'"):
        threat_map(state, samples=1).at("Z9")
    state.outcome = Outcome(result="defeat", cause="threat_maxed", text="threat reached 26")
    with pytest.raises(ValueError, match="the game is over"):
        threat_map(state)
