"""A heuristic auto-player for the agents' side, for convention demos and self-play.

It plays the way a cautious table would: each bot heads for its next objective (a terminal with a chip
while terminal calibrations are open, then a safe zone), opens the locked doors on its way with a key or by
brute force, accesses terminals it stands on, spreads its dice over the burncycle's slots, and prefers a
step out of every guard's sight when two steps are equally short. It only ever chooses among
`legal_actions`, so it can never make an illegal move. Its memory between decisions is one value
(`AutoplayMemory`), each mission's own play is a `MissionStrategy`, its tuning constants are in `tuning.py`;
how it plays and what was measured for each rule is docs/autoplay.md.

`AutoPlayer` is the composition of parts with one job each (docs/autoplay.md, "Where it lives"): its sense of
the floor (`PathCosts`), where each bot goes and how it walks (`Routes`), doors and walls (`Doors`), repairs
(`Repairs`), the route and end steps (`Turn`), the action step (`ActionStep`), the steps of a move action
(`MoveSteps`) and the network step (`network_step`), all sharing one decision's `Notes`.
"""


from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from controller.autoplay.actions import ActionStep
from controller.autoplay.doors import Doors
from controller.autoplay.memory import AutoplayMemory
from controller.autoplay.missions import strategy_for
from controller.autoplay.moves import MoveSteps
from controller.autoplay.network_step import network_step
from controller.autoplay.notes import Notes
from controller.autoplay.paths import PathCosts
from controller.autoplay.repairs import Repairs
from controller.autoplay.routes import Routes
from controller.autoplay.tuning import TEAM
from controller.autoplay.turn import Turn
from controller.rules import (
    Action,
    CorporationTurn,
    Event,
    GameState,
    Resolution,
    SeededDice,
    apply_action,
    apply_effect,
    copy_state,
    legal_actions,
)

if TYPE_CHECKING:  # players.py makes an AutoPlayer by name: the import runs one way only
    from controller.autoplay.players import Player


def team(players: int) -> list[str]:
    """The agents the auto-player plays a game of `players` with, when the players name none."""
    return list(TEAM[:players])


class AutoPlayer:
    """Chooses the next action for whoever is to act (the corporation's turn included).

    `decide` is the whole decision: a state and an `AutoplayMemory` in, an action and the memory after it
    out. `choose` is the same for a player kept through a game, holding its memory in `memory`. Its parts are
    kept as attributes (`paths`, `routes`, `doors`, `repairs`, `turn`, `actions`, `moves`) for a player that
    borrows one of them; they share the decision's `notes`."""

    def __init__(self, memory: AutoplayMemory | None = None) -> None:
        self.memory = memory or AutoplayMemory()
        self.notes = Notes(self.memory)
        self.paths = PathCosts(self.notes)
        self.routes = Routes(self.paths)
        self.doors = Doors(self.routes)
        self.repairs = Repairs(self.routes)
        self.turn = Turn(self.routes, self.repairs)
        self.actions = ActionStep(self.routes, self.doors, self.repairs)
        self.moves = MoveSteps(self.routes)

    def choose(self, state: GameState) -> Action:
        """The next action, remembering what the decision learnt for the next one."""
        action, self.memory = self.decide(state, self.memory)
        return action

    def decide(self, state: GameState, memory: AutoplayMemory) -> tuple[Action, AutoplayMemory]:
        """The next action for `state` and the memory to give the next decision (`memory` is left as it was)."""
        self.notes.recall(memory)
        step = state.turn.step
        if step == "corporation":
            action: Action = CorporationTurn()
        elif step == "route":
            action = self.turn.route(state)
        elif step == "network":
            action = network_step(state, strategy_for(state.mission.id))
        elif step == "end":
            action = self.turn.spend_down(state)
        else:
            table = Resolution(state, SeededDice(0), apply_effect, copy=False)
            legal = legal_actions(state)
            action = self.moves.step(table, legal) if state.turn.pending is not None else \
                self.actions.choose(table, legal)
        return action, self.notes.kept()


def play(state: GameState, player: Player | None = None,
         max_actions: int = 20_000) -> Iterator[tuple[Action, list[Event], GameState]]:
    """Play a game with the game's own seeded dice, one action at a time: each action, its events and the state
    after it, a fresh value each time (the state given, and every state yielded before, are left as they were)."""
    player = player or AutoPlayer()
    for _ in range(max_actions):
        if state.outcome is not None:
            return
        action = player.choose(state)
        state, events = apply_action(state, action)
        yield action, events, state


def play_game(state: GameState, player: Player | None = None, max_actions: int = 20_000) -> GameState:
    """Play a game to its end; returns the final state (the one given is left as it was). Nobody sees the states
    in between, so it plays on one private copy in place (the player only picks listed actions)."""
    player = player or AutoPlayer()
    state = copy_state(state)
    for _ in range(max_actions):
        if state.outcome is not None:
            break
        state, _ = apply_action(state, player.choose(state), in_place=True)
    return state
