"""What the auto-player remembers from one decision to the next, as one value.

A decision reads the game's state and this memory and returns an action and the memory after it: nothing
else is carried over (the caches of path costs are answers to the same questions, not memory). So a service
can store the memory beside the game record, and a fresh auto-player given a state and that memory chooses
what a long-lived one would.
"""

from __future__ import annotations

import msgspec


class TeamZone(msgspec.Struct, frozen=True):
    """The safe zone the team gathers in on one floor, kept once chosen so that guards walking by do not turn
    the team around (given up only when every way in turns out jammed)."""

    floor: str  # which floor: a digest of its text (a tower's floors differ)
    space: str | None  # the zone's first space; None when no zone was open to all (chosen again next decision)


class CorePlan(msgspec.Struct, frozen=True):
    """Ghost in the Dell: whether the active agent's IP can land on the core in this turn's network step,
    worked out once, early in the turn (trying every choice of transfers on a copy of the game), and kept for
    the turn while the module walks to the captain's terminal or stays hidden."""

    round: int
    turn: int  # the index of the agent's turn in the round (`turn.active`)
    lands: bool


class AutoplayMemory(msgspec.Struct, frozen=True):
    """Everything the auto-player carries between decisions; a fresh memory starts a game."""

    # bots a guard stood in the best way of that could not push it: the next route step buys push
    blocked_by_unit: frozenset[str] = frozenset()
    # which move action the trails belong to (round, turn, burncycle slot), None outside one
    move: tuple[int, int, int] | None = None
    # the spaces each bot stood on in that move action: no bot walks back over its own steps in one
    trails: dict[str, frozenset[str]] = msgspec.field(default_factory=dict)
    team_zone: TeamZone | None = None
    # the safe zone the command module heads for instead of the team's, once a guard held the only way into
    # the team's (any safe zone wins Data Heist: "All bots simultaneously: occupy safe zones")
    module_zone: TeamZone | None = None
    core_plan: CorePlan | None = None
