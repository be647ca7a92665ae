"""The space an action aims at, for a board that is tapped rather than read: `LegalAction.at`.

A dashboard lights a unit's targets on the board and acts when one is tapped, so each action that aims at a place
names that space here, from the engine's own state (where the other unit stands, where a hop jumps out), and the
page never works it out again from the rules. Actions that aim at no place (a move's dice, an upgrade, an exterior
wall named by its side) have none.
"""

from __future__ import annotations

from controller.rules.action_types import (
    Action,
    Escape,
    Hop,
    JoanStun,
    Keypad,
    Push,
    Repair,
    Step,
    Strike,
    StrikeWall,
    Swap,
    Terminal,
    Trade,
    UseEquipment,
)
from controller.rules.state import GameState


def aimed_at(state: GameState, action: Action) -> str | None:
    """The space `action` aims at: where a bot steps or hops to, the unit it strikes, swaps with, pushes, trades
    with or repairs, the space beyond a door or wall, or its own space for a terminal or an escape."""
    if isinstance(action, Step):
        return action.to
    if isinstance(action, Hop):
        return action.path[-1] if action.path else None
    if isinstance(action, (Keypad, StrikeWall)):
        return action.beyond
    if isinstance(action, (Terminal, Escape)):
        return _space_of(state, action.bot)
    if isinstance(action, Swap):
        return _space_of(state, action.other)
    if isinstance(action, (Push, Strike, JoanStun)):
        return _space_of(state, action.unit)
    if isinstance(action, Trade):
        return _space_of(state, action.to)
    if isinstance(action, Repair):
        return _space_of(state, action.target)
    if isinstance(action, UseEquipment):
        if action.unit is not None:
            return _space_of(state, action.unit)
        return action.beyond or (action.path[-1] if action.path else None)
    return None


def _space_of(state: GameState, unit: str) -> str | None:
    """Where a bot or a security unit stands (None off the board: in a bag, escaped, or not known)."""
    for b in state.bots:
        if b.id == unit:
            return b.space if b.on_board else None
    for u in state.security:
        if u.id == unit:
            return u.space
    return None
