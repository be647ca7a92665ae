"""Operation Rescue Rangers' draw bag: units waiting off the floor until a room with a terminal is surveilled.

"After all other setup, place the captain in the draw bag. Then, add any number of random guards to the bag,
such that when their levels are added together, they equal" 5 / 7 / 9 / 11 for a level 1 / 2 / 3 / 4 team.
"Before surveilling a room with at least one terminal space, draw a unit from the bag and place it on a
terminal in the room." The calibration result adds the command module, which "comes into play" when drawn.

The bag's units are kept apart from the burncycle's chips, which is what "If the draw bag is needed for any
function while there are still units in the bag, empty the bag and perform the needed action. Then, place
all of those emptied chips back into the bag." amounts to: no burncycle draw can ever pick a unit.
"""

from __future__ import annotations

from controller.rules.board.awareness import recheck
from controller.rules.board.geometry import Area
from controller.rules.corporation.deploy import best_facing, captain_unit, enlist, station
from controller.rules.errors import RulesError, StateError
from controller.rules.events import CALIBRATION_REF, UnitBagged, UnitDrawn
from controller.rules.resolution import Resolution
from controller.rules.state import BagUnit, GameState

TERMINAL_SPACES = ("terminal", "mainframe")


def fill_draw_bag(resolution: Resolution) -> None:
    """Setup's last step: the captain, then random guards whose levels add up exactly to the team's total."""
    state = resolution.state
    setup = state.mission.setup
    if setup.bag_captain:
        state.draw_bag.append(BagUnit(unit="captain"))
    if not setup.bag_guard_levels:
        return
    remaining = setup.bag_guard_levels[min(state.players, len(setup.bag_guard_levels)) - 1]
    bag = state.guard_bag
    if remaining not in _sums([c.level for c in bag]):
        raise RulesError(f"the guard bag cannot make guards whose levels add up to {remaining}")
    while remaining:
        # only chips that still leave an exact total reachable with the others
        choices = [k for k, c in enumerate(bag) if c.level <= remaining
                   and remaining - c.level in _sums([o.level for j, o in enumerate(bag) if j != k])]
        pick = choices[resolution.dice.draw("guard bag", [bag[k].name for k in choices])]
        chip = bag.pop(pick)
        remaining -= chip.level
        state.draw_bag.append(BagUnit(unit="guard", guard=chip))


def _sums(levels: list[int]) -> set[int]:
    sums = {0}
    for level in levels:
        sums |= {s + level for s in sums}
    return sums


def module_bagged(state: GameState) -> bool:
    return any(u.unit == "module" for u in state.draw_bag)


def bag_module(resolution: Resolution) -> None:
    """The Search Begins' result: "Add the command module to the draw bag.\""""
    state = resolution.state
    module = next((b for b in state.bots if b.kind == "module"), None)
    if module is None or module.on_board or module_bagged(state):
        return
    state.draw_bag.append(BagUnit(unit="module"))
    resolution.emit(UnitBagged(unit=module.id, reason=f"{CALIBRATION_REF}: the calibration result"))


def label(state: GameState, unit: BagUnit) -> str:
    if unit.unit == "guard":
        if unit.guard is None:
            raise StateError("a guard in the draw bag has no guard chip")
        return f"{unit.guard.name} (level {unit.guard.level} guard)"
    if unit.unit == "captain":
        return f"the captain ({state.captain.name})"
    return "the command module"


def free_terminals(resolution: Resolution, area: Area) -> list[int]:
    """The room's free terminal spaces when surveilling it draws a unit from the bag onto the first; none when
    nothing is drawn (the mission draws nothing on surveillance, the bag is empty, every terminal is taken)."""
    state, floor = resolution.state, resolution.floor
    if not state.mission.rule(state.calibrated).bag_on_surveil or not state.draw_bag:
        return []
    return [s for s in area.spaces if floor.feature[s] in TERMINAL_SPACES and s not in resolution.occupant]


def draw_onto_terminal(resolution: Resolution, area: Area) -> None:
    """"Before surveilling a room with at least one terminal space, draw a unit from the bag and place it on a
    terminal in the room. If it is a security unit, it must be placed to not face a wall." The unit goes on
    the room's first free terminal space; with every terminal space taken, nothing is drawn."""
    state, floor = resolution.state, resolution.floor
    free = free_terminals(resolution, area)
    if not free:
        return
    unit = state.draw_bag.pop(resolution.dice.draw("draw bag", [label(state, u) for u in state.draw_bag]))
    space = free[0]
    where = floor.ids[space]
    if unit.unit == "module":
        module = next(b for b in state.bots if b.kind == "module")
        module.space = where
        resolution.occupant[space] = module
        resolution.emit(UnitDrawn(unit=module.id, space=where))
    else:
        # best_facing looks down the longest line of sight, so never at a wall while any side is open
        if unit.unit == "captain":
            placed = captain_unit(state.captain, where, best_facing(resolution, space))
            station(resolution, placed)
        else:
            if unit.guard is None:
                raise StateError("a guard in the draw bag has no guard chip")
            placed = enlist(resolution, unit.guard, space)
        resolution.emit(UnitDrawn(unit=placed.id, space=where, facing=placed.facing))
    recheck(resolution)
