"""Security units entering play: from a guard chip or the captain card to a unit on a post."""

from __future__ import annotations

from controller.rules.board.awareness import recheck
from controller.rules.board.geometry import DIRECTIONS
from controller.rules.events import UnitPlaced
from controller.rules.resolution import Resolution
from controller.rules.state import CaptainCard, Direction, GuardChip, SecurityUnit

# "Level 1 Guard: 10 AP / Level 2 Guard: 15 AP / Level 3 Guard: 20 AP"
GUARD_DURABILITY = {1: 10, 2: 15, 3: 20}


def best_facing(resolution: Resolution, space: int) -> Direction:
    """Facing for a unit placed on a post: the direction with the longest line of sight (N, E, S, W on ties)."""
    rays = resolution.floor.rays[space]
    return max(DIRECTIONS, key=lambda d: (len(rays[d]), -DIRECTIONS.index(d)))


def guard_unit(chip: GuardChip, number: int, space: str, facing: Direction, key: bool = False) -> SecurityUnit:
    # "Guards deal damage equal to their level (1, 2, or 3)"
    return SecurityUnit(id=f"G{number}", chip=chip.name, rank="guard", level=chip.level, space=space,
                        facing=facing, awareness=chip.awareness, movement=chip.movement, patrol=chip.patrol,
                        damage=chip.level, durability=GUARD_DURABILITY[chip.level], key=key,
                        abilities=list(chip.abilities), colour=chip.colour)


def guard_chip(unit: SecurityUnit) -> GuardChip:
    """The chip a guard on the floor was drawn as (to return it to the bag)."""
    return GuardChip(name=unit.chip, colour=unit.colour, level=unit.level, awareness=unit.awareness,
                     movement=unit.movement, patrol=unit.patrol, abilities=list(unit.abilities))


def captain_unit(card: CaptainCard, space: str, facing: Direction) -> SecurityUnit:
    # "captains deal 3 damage"; durability: "Captain: Value printed on the Captain card"
    return SecurityUnit(id="CAP", chip=card.name, rank="captain", level=3, space=space, facing=facing,
                        awareness=card.awareness, movement=card.movement, patrol=card.patrol,
                        damage=card.damage, durability=card.durability, abilities=list(card.abilities))


def draw_guard(resolution: Resolution, level: int, colour: str | None = None) -> GuardChip | None:
    """Draw a chip of the level (and colour) from the guard bag through the dice; None if none is left."""
    bag = resolution.state.guard_bag
    choices = [k for k, c in enumerate(bag) if c.level == level and (colour is None or c.colour == colour)]
    if not choices:
        return None
    pick = choices[resolution.dice.draw("guard bag", [bag[k].name for k in choices])]
    return bag.pop(pick)


def station(resolution: Resolution, unit: SecurityUnit) -> None:
    """Put a unit on the floor (setup places units silently; play announces them with `spawn_guard`)."""
    resolution.state.security.append(unit)
    resolution.occupant[resolution.floor.index[unit.space]] = unit


def enlist(resolution: Resolution, chip: GuardChip, space: int, key: bool = False) -> SecurityUnit:
    """A guard chip onto a space: the next guard number, facing its longest line of sight."""
    number = resolution.state.next_unit
    resolution.state.next_unit += 1
    unit = guard_unit(chip, number, resolution.floor.ids[space], best_facing(resolution, space), key)
    station(resolution, unit)
    return unit


def spawn_guard(resolution: Resolution, post_kind: str, level: int, colour: str | None = None, key: bool = False,
                within: set[int] | None = None) -> bool:
    """Put a guard of `level` on the first free post of that kind ("hallway": any of posts 1-3);
    False when no post or chip is free. `within` limits the posts to those spaces (one room's)."""
    kinds = ("post1", "post2", "post3") if post_kind == "hallway" else (post_kind,)
    free = [p for k in kinds for p in resolution.floor.posts.get(k, ())
            if p not in resolution.occupant and (within is None or p in within)]
    if not free:
        return False
    chip = draw_guard(resolution, level, colour)
    if chip is None:
        return False
    unit = enlist(resolution, chip, free[0], key)
    resolution.emit(UnitPlaced(unit=unit.id, space=unit.space, facing=unit.facing))
    recheck(resolution)
    return True
