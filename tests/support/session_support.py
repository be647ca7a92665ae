"""A seeded game for session tests: a real start state and the auto-player's choice of legal actions."""

from __future__ import annotations

from controller.autoplay.player import AutoPlayer
from controller.library import load_content
from controller.rules import GameSetup, GameState, new_game
from controller.rules.actions import apply_action


def start_state(seed: int = 7, mission: str = "data-heist", floor: str = "meridian-lobby",
                players: int = 2) -> GameState:
    return new_game(load_content(), GameSetup(floor=floor, mission=mission, players=players, seed=seed))


def next_action(state: GameState):
    """What a sensible player does next (the auto-player only picks legal actions)."""
    return AutoPlayer().choose(state)


def played_until(done, seed: int = 7) -> tuple[GameState, GameState]:
    """The seeded game's start, and its state once `done(state)` holds (the auto-player choosing)."""
    start = state = start_state(seed=seed)
    while not done(state):
        state, _ = apply_action(state, next_action(state))
    return start, state
