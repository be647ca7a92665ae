"""The "next" step: what the table does when someone presses next (the button, the dashboard, MQTT).

The engine drives the game's flow; "next" only says "go on with the flow": route power is done, the move
is over, this chip passes, the network step moves nothing, the turn ends, the corporation takes its turn.
It never chooses for the players (which action, which dice): those come from their own inputs.
"""

from __future__ import annotations

from controller.rules import (
    AnyAction,
    BeginActions,
    CorporationTurn,
    EndMove,
    EndTurn,
    GameState,
    IllegalAction,
    NetworkStep,
    Pass,
)


def next_step(state: GameState) -> AnyAction:
    """The action that moves the game on from where it stands."""
    if state.outcome is not None:
        raise IllegalAction(f"the game is over ({state.outcome}): start a new game")
    step = state.turn.step
    if step == "corporation":
        return CorporationTurn()
    if step == "route":
        return BeginActions()
    if step == "actions":
        return EndMove() if state.turn.pending is not None else Pass()
    if step == "network":
        return NetworkStep()
    return EndTurn()
