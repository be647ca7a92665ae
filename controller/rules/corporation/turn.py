"""The corporation turn: "1. Security Unit Activation (Pursue, Investigate, Patrol) 2. Ping Activation
3. Threat Advancement"."""

from __future__ import annotations

from controller.rules.board.awareness import recheck
from controller.rules.corporation.pings import activate_pings
from controller.rules.corporation.security import activate_security
from controller.rules.corporation.threat import change_threat
from controller.rules.corporation.threat_effects import apply_effect
from controller.rules.dice import Dice, SeededDice
from controller.rules.errors import IllegalAction
from controller.rules.events import Event, PhaseStarted
from controller.rules.missions import special_rules
from controller.rules.resolution import Resolution
from controller.rules.state import GameState


def corporation_turn(state: GameState, dice: Dice | None = None) -> tuple[GameState, list[Event]]:
    """Resolve one corporation turn; returns the new state and what happened. `state` is left unchanged.
    Refused unless it is the corporation's step; a game goes on to the next player with
    `apply(state, CorporationTurn(), dice)`, which calls this and then starts the next round's first turn.

    Without dice, the game's own seeded dice continue where the state's roll count left them, so a saved
    game replays the same rolls.
    """
    if state.outcome is not None:
        raise IllegalAction(f"the game is over ({state.outcome}); no more corporation turns")
    if state.turn.step != "corporation":
        player = state.bot(state.turn.order[state.turn.active]).name
        raise IllegalAction(f"it is {player}'s turn, not the corporation's: "
                            f"\"the corporation turn follows the player with the corporation marker chip\"")
    dice = dice if dice is not None else SeededDice(state.seed, state.rolls)
    resolution = Resolution(state, dice, apply_effect)
    special_rules.start_of_corporation_turn(resolution)
    resolution.emit(PhaseStarted(phase="security activation"))
    # "Security awareness is continuously checked at all times, during any phase or turn.": a bot the
    # players left in a unit's sight is detected before the units activate, so it can be pursued.
    recheck(resolution)
    activate_security(resolution)
    if not resolution.over:
        resolution.emit(PhaseStarted(phase="ping activation"))
        activate_pings(resolution)
    if not resolution.over:
        resolution.emit(PhaseStarted(phase="threat advancement"))
        # "End-of-round increase equals the player count."
        change_threat(resolution, resolution.state.players, f"end of round: threat advances by the player count "
                                                  f"({resolution.state.players})")
    if not resolution.over:
        special_rules.end_of_round(resolution)
    resolution.state.round += 1
    counted = dice.game_rolls(state.seed)
    if counted is not None:
        resolution.state.rolls = counted
    return resolution.state, resolution.events
