"""What each security unit sees now, by space name: a board drawn for people shows the very spaces that
detection checks (`unit_sight`), so a page never works out a guard's sight, its stun or the escalations'
awareness bonus again from the rules."""

from __future__ import annotations

from controller.rules.board.awareness import unit_sight
from controller.rules.corporation.threat_effects import apply_effect
from controller.rules.dice import SeededDice
from controller.rules.resolution import Resolution
from controller.rules.state import GameState


def security_sight(state: GameState) -> dict[str, list[str]]:
    """Each security unit's id with the names of the spaces it sees, sorted (a stunned unit: none). Reads the
    state only: no die is rolled and nothing is changed."""
    resolution = Resolution(state, SeededDice(0), apply_effect, copy=False)
    floor = resolution.floor
    return {unit.id: sorted(floor.ids[s] for s in unit_sight(resolution, unit)) for unit in state.security}
