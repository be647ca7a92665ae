"""Memory & Joan the Drone: "Joan is not a bot and does not trigger guard awareness. She has two states:
charged and depleted. Depleted by surveilling or stunning guards via abilities, Joan recharges when sharing
a space with Memory. Units can pass through Joan via automatic swap."

The readings (docs/rules-interpretations.md, "Special characters"): Joan is a token on the floor
(`GameState.joan`), not a unit: nothing sees her and she holds no awareness chip. Memory's player spends
move-action AP on her steps as on the command module's; walls and locked doors stop her, and she enters
no space held by a unit other than Memory. A unit entering her space swaps her onto the space it left
(`Resolution.move_occupant`, through which every unit moves).
Her abilities are actions of Memory's action step: surveil the room she is in (its surveillance dice are
rolled as if Memory had entered it) or stun a guard adjacent to her; each depletes her.
"""

from __future__ import annotations

from contextlib import suppress

from controller.rules.action_types import JoanStun, JoanSurveil, Step
from controller.rules.errors import IllegalAction, StateError
from controller.rules.events import JoanCharge, JoanMoved, JoanStunned
from controller.rules.legal import Cost, LegalAction
from controller.rules.players.moves import surveil
from controller.rules.players.steps import active_agent
from controller.rules.resolution import MEMORY, Resolution, unit_label
from controller.rules.state import Bot, Drone, GameState, SecurityUnit

JOAN = "joan"  # her name in Step actions


def memory_of(state: GameState) -> Bot | None:
    return next((b for b in state.bots if b.id == MEMORY), None)


def place_joan(state: GameState) -> None:
    """Setup: Joan starts charged, sharing Memory's space."""
    memory = memory_of(state)
    if memory is not None and memory.space is not None:
        state.joan = Drone(space=memory.space)


def commander(resolution: Resolution) -> tuple[Bot, Drone]:
    """Memory, when it is her player's turn and she can act, and Joan."""
    state = resolution.state
    turn = state.turn
    memory = memory_of(state)
    if state.joan is None or memory is None:
        raise IllegalAction("Joan the drone is not in play: she comes with Memory")
    if turn.order[turn.active] != MEMORY:
        raise IllegalAction("Joan acts on Memory's turn")
    if not memory.on_board or memory.shut_down:
        raise IllegalAction("Memory is shut down: it cannot act until repaired")
    return memory, state.joan


def check_joan_step(resolution: Resolution, to: str) -> int:
    """Validate one step of Joan's within Memory's move action; returns the destination's index."""
    _, joan = commander(resolution)
    turn = resolution.state.turn
    if turn.pending is None or turn.pending.ap < 1:
        raise IllegalAction("no AP left in this move action: each AP allows a step")
    floor = resolution.floor
    if to not in floor.index:
        raise IllegalAction(f"{to} is not a space of {floor.name}")
    dest = floor.index[to]
    here = floor.index[joan.space]
    if dest not in {j for _, j in floor.bot_neighbours(here, resolution.unlocked, resolution.destroyed)}:
        raise IllegalAction(f"{to} is not adjacent to Joan on {joan.space}: walls and locked doors block her")
    other = resolution.occupant.get(dest)
    if other is not None and not (isinstance(other, Bot) and other.id == MEMORY):
        raise IllegalAction(f"{to} is occupied: Joan shares a space only with Memory")
    return dest


def step_joan(resolution: Resolution, to: str) -> None:
    check_joan_step(resolution, to)
    joan = resolution.state.joan
    if joan is None:
        raise StateError("Joan is not on the floor: only Memory's team has her drone")
    resolution.state.turn.move().ap -= 1
    frm, joan.space = joan.space, to
    resolution.emit(JoanMoved(path=[frm, to], reason="Memory spends move AP"))
    resolution.recharge_joan()


def _charged(resolution: Resolution) -> tuple[Bot, Drone]:
    memory, joan = commander(resolution)
    if not joan.charged:
        raise IllegalAction("Joan is depleted: she recharges when sharing a space with Memory")
    return memory, joan


def _deplete(resolution: Resolution, joan: Drone, why: str) -> None:
    joan.charged = False
    resolution.emit(JoanCharge(charged=False, reason=why))


def surveil_room(resolution: Resolution) -> int:
    """The room Joan can surveil now (its area index); raises when there is none."""
    _, joan = _charged(resolution)
    floor = resolution.floor
    area = floor.area(floor.index[joan.space])
    if area.kind != "room" or floor.ids[area.spaces[0]] not in resolution.state.floor.surveillance:
        raise IllegalAction(f"Joan on {joan.space} is not in a room that still holds a surveillance bead")
    return area.index


def joan_surveils(resolution: Resolution) -> None:
    """Joan surveils the room she is in: remove the bead and roll its surveillance dice, as if Memory had
    entered it (a powercell powers Memory)."""
    area = surveil_room(resolution)
    memory, joan = _charged(resolution)
    _deplete(resolution, joan, "she surveilled a room")
    surveil(resolution, memory, area, where=joan.space)


def stun_target(resolution: Resolution, unit_id: str) -> SecurityUnit:
    _, joan = _charged(resolution)
    unit = next((u for u in resolution.state.security if u.id == unit_id), None)
    if unit is None:
        raise IllegalAction(f"there is no security unit {unit_id} on the floor")
    if unit.rank != "guard":
        raise IllegalAction("Joan stuns guards, not the captain")
    if unit.stunned:
        raise IllegalAction(f"{unit_label(unit)} is already stunned")
    floor = resolution.floor
    here = floor.index[joan.space]
    if floor.index[unit.space] not in {j for _, j in floor.bot_neighbours(here, resolution.unlocked,
                                                                          resolution.destroyed)}:
        raise IllegalAction(f"{unit_label(unit)} is not adjacent to Joan on {joan.space}")
    return unit


def joan_stuns(resolution: Resolution, unit_id: str) -> None:
    """Joan stuns an adjacent guard: it skips the corporation's next activation, as a stunned unit does.
    Joan is not a bot, so nobody is detected and threat does not advance."""
    unit = stun_target(resolution, unit_id)
    _, joan = _charged(resolution)
    unit.stunned = True
    resolution.emit(JoanStunned(unit=unit.id, space=unit.space))
    _deplete(resolution, joan, "she stunned a guard")


# -- what is legal now (composed by actions.legal_actions) ---------------------------------------------------

def legal_joan_steps(resolution: Resolution) -> list[LegalAction]:
    """Joan's steps within Memory's move action."""
    joan = resolution.state.joan
    if joan is None or active_agent(resolution.state).id != MEMORY:
        return []
    out = []
    for _, j in resolution.floor.bot_neighbours(resolution.floor.index[joan.space], resolution.unlocked,
                                                resolution.destroyed):
        to = resolution.floor.ids[j]
        try:
            check_joan_step(resolution, to)
        except IllegalAction:
            continue
        out.append(LegalAction(Step(bot=JOAN, to=to), "1 AP", cost=Cost(ap=1)))
    return out


def legal_joan_abilities(resolution: Resolution) -> list[LegalAction]:
    """Charged Joan's surveillance of her room and her stuns of the guards next to her."""
    joan = resolution.state.joan
    memory = active_agent(resolution.state)
    if joan is None or not joan.charged or memory.id != MEMORY or memory.shut_down:
        return []  # a shut-down Memory "cannot act until repaired", nor direct Joan
    out = []
    with suppress(IllegalAction):  # no room with a bead where she stands
        surveil_room(resolution)
        out.append(LegalAction(JoanSurveil(), "depletes Joan; surveillance die rolls", bot=JOAN))
    for _, j in resolution.floor.bot_neighbours(resolution.floor.index[joan.space], resolution.unlocked,
                                                resolution.destroyed):
        unit = resolution.occupant.get(j)
        if isinstance(unit, SecurityUnit) and unit.rank == "guard" and not unit.stunned:
            out.append(LegalAction(JoanStun(unit=unit.id), "depletes Joan", bot=JOAN))
    return out
