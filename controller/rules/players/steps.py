"""The players' turn: its five steps, the burncycle tracker, turn order and the corporation marker.

"During the action phase, players proceed through active burncycle slots from left to right, advancing the
tracking bead"; "Degraded chips are skipped". The tracker only ever stands on a usable chip; when none is
left to the right, the action step is over and the network step begins.
"""

from __future__ import annotations

import msgspec

from controller.rules.action_types import BeginActions, Degrade, EndMove, EndTurn, Pass
from controller.rules.cards.mods import mod_bonus, power_bank
from controller.rules.corporation.captain_chip import reach_captain_chip
from controller.rules.events import ChipChanged, DieRolled, SlotReached, StepStarted, TurnStarted
from controller.rules.legal import Choice, LegalAction
from controller.rules.missions import special_rules
from controller.rules.players.burncycle import MAX_SLOTS
from controller.rules.resolution import Resolution
from controller.rules.state import Bot, DicePool, GameState, TurnState

BURNCYCLE_FACES = ("1", "2", "3", "4", "5", "choose")


def initial_turn(order: list[str]) -> TurnState:
    """The first player (of the agents in turn order) starts; the last player holds the corporation marker."""
    return TurnState(order=order, marker=order[-1], active=0, step="route")


def active_agent(state: GameState) -> Bot:
    turn = state.turn
    return state.bot(turn.order[turn.active])


def usable(state: GameState, slot: int) -> bool:
    chip = state.burncycle.slots[slot] if slot < len(state.burncycle.slots) else None
    return chip is not None and not chip.degraded


def start_turn(resolution: Resolution) -> None:
    """Begin the active player's turn at step 1; a shut-down or escaped agent's turn passes at once."""
    state = resolution.state
    turn = state.turn
    turn.step, turn.pool, turn.pending, turn.acted = "route", DicePool(), None, False
    agent = active_agent(state)
    special_rules.start_of_agent_turn(resolution, agent)
    if resolution.over:
        return
    if agent.shut_down or agent.escaped:
        # "Cannot act or advance floors until repaired": nothing to route, roll or degrade.
        resolution.emit(StepStarted(step="skip", bot=agent.id, reason="shut down" if agent.shut_down else "gone"))
        next_player(resolution)
        return
    resolution.emit(TurnStarted(agent=agent.id))


def enter_actions(resolution: Resolution) -> None:
    """Step 2: "1 basic die for each current power point, plus advanced and elite dice matching their
    activated upgrades"; then step 3 starts at the leftmost usable chip."""
    state = resolution.state
    turn = state.turn
    agent = active_agent(state)
    # installed mods add their dice ("an advanced die in the pool")
    turn.pool = DicePool(basic=agent.power, advanced=agent.advanced_dice + mod_bonus(agent, "advanced_die"),
                         elite=agent.elite_dice + mod_bonus(agent, "elite_die"),
                         proprietary=1 if agent.proprietary_die is not None else 0)  # characters/proprietary_dice.py
    turn.step = "actions"
    resolution.emit(StepStarted(step="actions", bot=agent.id, dice=msgspec.structs.asdict(turn.pool)))
    _place_tracker(resolution, 0)


def _place_tracker(resolution: Resolution, start: int) -> None:
    state = resolution.state
    for slot in range(start, len(state.burncycle.slots)):
        if usable(state, slot):
            state.burncycle.tracker = slot
            chip = state.burncycle.chip(slot)
            resolution.emit(SlotReached(slot=slot + 1, chip=chip.kind))
            if chip.kind == "captain":
                # "Captain Action Chip: Its designated event on the Captain card must be executed
                # immediately when reached, even if the player passes on taking an action with the chip."
                reach_captain_chip(resolution)
            return
    enter_network(resolution)


def finish_action(resolution: Resolution) -> None:
    """The action on the current chip is done (or passed): on to the next usable chip."""
    turn = resolution.state.turn
    turn.pending = None
    turn.extra_action = False
    _place_tracker(resolution, resolution.state.burncycle.tracker + 1)


def enter_network(resolution: Resolution) -> None:
    turn = resolution.state.turn
    turn.step = "network"
    turn.pending = None
    resolution.emit(StepStarted(step="network"))


def degrade(resolution: Resolution, choice: int | None) -> None:
    """"At the end of every turn, roll the burncycle die to degrade a slot ... A result lets the player choose
    which chip degrades. If the rolled slot is already degraded or inactive, advance clockwise to the next
    active chip (slot 5 wraps to slot 1)." `choice` (0-4) answers the chooser face; without one the engine
    degrades the rightmost usable chip, the one used last."""
    state = resolution.state
    slots = state.burncycle.slots
    if not any(usable(state, k) for k in range(len(slots))):
        return
    face = resolution.dice.roll("burncycle die", BURNCYCLE_FACES)
    resolution.emit(DieRolled(die="burncycle die", face=face, why="degrade the burncycle"))
    if face == "choose":
        if choice is not None and usable(state, choice):
            slot = choice
        else:
            slot = max(k for k in range(len(slots)) if usable(state, k))
    else:
        slot = int(face) - 1
        for _ in range(len(slots) + MAX_SLOTS):
            if slot < len(slots) and usable(state, slot):
                break
            slot = (slot + 1) % MAX_SLOTS
    chip = state.burncycle.chip(slot)
    chip.degraded = True
    resolution.emit(ChipChanged(slot=slot + 1, chip=chip.kind, degraded=True, reason="burncycle die"))


def next_player(resolution: Resolution) -> None:
    """After the marker holder's turn comes the corporation's; otherwise the next player's."""
    state = resolution.state
    turn = state.turn
    if turn.order[turn.active] == turn.marker:
        turn.step = "corporation"
        turn.pending = None
        resolution.emit(StepStarted(step="corporation"))
        return
    turn.active = (turn.active + 1) % len(turn.order)
    start_turn(resolution)


def after_corporation(resolution: Resolution) -> None:
    """"The corporation turn follows the player with the corporation marker chip": the player after the
    marker holder starts the next round."""
    state = resolution.state
    turn = state.turn
    turn.active = (turn.order.index(turn.marker) + 1) % len(turn.order)
    if all(state.bot(a).shut_down or state.bot(a).escaped for a in turn.order):
        turn.step = "corporation"
        return
    start_turn(resolution)


# -- what is legal now (composed by actions.legal_actions) ---------------------------------------------------

def legal_begin() -> list[LegalAction]:
    return [LegalAction(BeginActions(), "end power routing: build the dice pool and start along the burncycle")]


def legal_pass() -> list[LegalAction]:
    return [LegalAction(Pass(), "pass this chip: the tracker moves on")]


def legal_end_move() -> list[LegalAction]:
    return [LegalAction(EndMove(), "end the move action: AP not spent are lost")]


def legal_end(state: GameState) -> list[LegalAction]:
    """End the turn (degrading first, unless `Degrade` has this turn), or degrade now for free actions to
    follow; both warn when the agent holds power above its bank, which the end of the turn loses."""
    turn = state.turn
    agent = active_agent(state)
    bank = power_bank(agent)
    lost = agent.power - bank if agent.kind == "agent" else 0
    warning = (f"{agent.name} holds {agent.power} power and its bank {bank}: the end of the turn loses {lost} "
               f"power unless spent first (upgrades, repairs)") if lost > 0 else ""
    if turn.degraded:
        return [LegalAction(EndTurn(), "the burncycle has degraded: pass the turn", warning=warning)]
    slots: list[Choice] = [k + 1 for k in range(len(state.burncycle.slots)) if usable(state, k)]
    chooser = "the slot to degrade if the burncycle die shows the chooser face"
    return [LegalAction(EndTurn(), chooser, choose=["choose"],
                        options={"choose": slots}, warning=warning),
            LegalAction(Degrade(), f"{chooser}; free actions may follow before ending the turn", choose=["choose"],
                        options={"choose": slots})]
