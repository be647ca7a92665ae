"""The search's decisions in the game's words: what an action does, and why it was chosen.

"Nano goes for the terminal: 71% of futures won, 52% waiting"; a reason names the most frequent thing that went
wrong in the action's futures ("Casing is seen by guard 2 in 4 futures of 10", "the threat reaches 26").
"""

from __future__ import annotations

from controller.autoplay.search.search import Decision, Option, unit_name
from controller.rules import (
    Action,
    Alter,
    BeginActions,
    BuyDiceUpgrade,
    BuyUpgrade,
    DrawChip,
    EndMove,
    EndTurn,
    Escape,
    GameState,
    Keypad,
    Move,
    NetworkCardAction,
    NetworkStep,
    Pass,
    Reboot,
    Repair,
    Step,
    Strike,
    StrikeWall,
    Terminal,
    UnlockSlot,
    UseEquipment,
    active_agent,
)


def _name(state: GameState, bot_id: str) -> str:
    return next((b.name for b in state.bots if b.id == bot_id), bot_id)


def describe(action: Action, state: GameState) -> str:
    """What the action does, as a player would say it ("Casing forces the door to D8")."""
    agent = _name(state, active_agent(state).id) if state.turn.step != "corporation" else "the corporation"
    if isinstance(action, Move):
        return f"{agent} moves"
    if isinstance(action, Step):
        return f"{_name(state, action.bot)} steps to {action.to}"
    if isinstance(action, EndMove):
        return f"{agent} stops moving"
    if isinstance(action, Terminal):
        return f"{_name(state, action.bot)} accesses the terminal"
    if isinstance(action, Keypad):
        how = {"key": "with a key", "brute_force": "by force", "inputs": "with the keypad's inputs"}
        return f"{_name(state, action.bot)} opens the door to {action.beyond} {how.get(action.approach, '')}".strip()
    if isinstance(action, Strike):
        return f"{_name(state, action.bot)} strikes {unit_name(action.unit)}"
    if isinstance(action, StrikeWall):
        return f"{_name(state, action.bot)} strikes the wall to {action.beyond}"
    if isinstance(action, Repair):
        return f"{_name(state, action.bot)} repairs {_name(state, action.target)}"
    if isinstance(action, Escape):
        return f"{_name(state, action.bot)} escapes"
    if isinstance(action, NetworkCardAction):
        return f"{agent} draws a network card"
    if isinstance(action, DrawChip):
        return f"{agent} draws a {action.chip} chip for threat"
    if isinstance(action, Pass):
        return f"{agent} waits"
    if isinstance(action, Reboot):
        return f"{agent} reboots the burncycle"
    if isinstance(action, BeginActions):
        return f"{agent} goes on with the burncycle as it is"
    if isinstance(action, UnlockSlot):
        return f"{agent} unlocks another burncycle slot"
    if isinstance(action, Alter):
        return f"{agent} alters slot {action.slot} to a {action.chip} chip"
    if isinstance(action, BuyUpgrade):
        return f"{_name(state, action.bot)} buys {action.upgrade}"
    if isinstance(action, BuyDiceUpgrade):
        return f"{_name(state, action.bot)} buys a die upgrade"
    if isinstance(action, UseEquipment):
        return f"{_name(state, action.bot)} uses equipment"
    if isinstance(action, NetworkStep):
        return f"{agent}'s IP moves" + (" with transfers" if action.transfers else "")
    if isinstance(action, EndTurn):
        return f"{agent} ends the turn"
    return f"{agent}: {str(type(action).__struct_config__.tag).replace('_', ' ')}"


def percent(p: float) -> str:
    return f"{round(100 * p)}%"


def trouble(option: Option) -> str | None:
    """The most frequent thing that went wrong in the option's futures, with how often."""
    if not option.causes or option.visits == 0:
        return None
    cause, count = next(iter(option.causes.items()))
    return f"{cause} in {count} {'future' if count == 1 else 'futures'} of {option.visits}"


def reason(option: Option, state: GameState, against: Option | None) -> str:
    """One sentence for an option: what it does, its chance, the alternative's, and its worst trouble."""
    text = f"{describe(option.action, state)}: {percent(option.chance)} of futures won"
    if against is not None:
        text += f", {percent(against.chance)} if {lower_first(describe(against.action, state))}"
    worry = trouble(option)
    return text + (f"; {worry}" if worry else "")


def lower_first(text: str) -> str:
    """A description after "if": names stay capitalized ("Nano moves"), a leading "the" does not."""
    return text[:1].lower() + text[1:] if text.startswith("The ") else text


def explain(decision: Decision, state: GameState) -> str | None:
    """The reason for the decision's choice, against the runner-up; None when there was nothing to weigh."""
    if not decision.searched or len(decision.options) < 2:
        return None
    ranked = decision.ranked()
    text = reason(ranked[0], state, ranked[1])
    if ranked[1].chance > ranked[0].chance:  # the blueprint's action kept: the other's lead is within the noise
        text += " (too close to leave the plan)"
    return text
