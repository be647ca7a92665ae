"""The missions the auto-player plays with its own rules only (Data Heist), and the tower run's climb."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from controller.autoplay.missions.strategy import StandardPlay
from controller.autoplay.tuning import TOWER_ZONE_WEIGHT
from controller.rules import Bot, Floor, Objective, Resolution, compile_floor

if TYPE_CHECKING:
    from controller.autoplay.paths import PathCosts


class DataHeist(StandardPlay):
    """Data Heist: terminals, then a safe zone; the auto-player's rules were measured on it first."""


class TowerRun(StandardPlay):
    """The tower run: each floor's objectives (terminals), then up the stairwells, then the last floor's
    calibration and the escape. The k-th safe zone of a floor leads to the k-th of the next ("placing
    returning units in corresponding safe zones"), so the team gathers in the zone whose stairwell comes out
    nearest the next floor's work (docs/autoplay.md, "The tower run")."""

    watch_reach: int | None = None
    """A guard's sight weighs on the whole path, not only within WATCH_REACH steps of the bot: the tower's
    bots walk home through the lobby's patrolled hallways (13 steps from the server room, two ways) and up
    onto a level 2 floor, and the nearer reach that Data Heist wins with lost the tower run games
    (docs/autoplay.md, "The tower run": seeds 3000-3999, wins of 1000)."""

    def task_targets(self, paths: PathCosts, table: Resolution, bot: Bot, open_tasks: list[Objective]) -> set[int]:
        """On the last floor the command module walks to an entrance from the start, while the agents access
        the calibration's terminals: it escapes first ("the command module before the last agent"), and only
        the agents' move AP walk it, so waiting in the safe zone until the calibration left it far from the way
        out when the threat was nearly spent."""
        if bot.kind != "module" or table.state.later_floors or not open_tasks:
            return set()
        return set(table.floor.posts.get("entrance", ()))

    def zone_cost(self, table: Resolution, zone: int) -> int:
        later = table.state.later_floors
        if not later:
            return 0
        return TOWER_ZONE_WEIGHT * landing_steps(compile_floor(later[0].text, later[0].name))[zone]


@cache
def landing_steps(floor: Floor) -> tuple[int, ...]:
    """For each safe zone of a floor the team climbs to, the steps from it to its nearest entrance (where the
    escape is) and to its nearest terminal."""
    steps = floor.distances(frozenset())
    zones = [a for a in floor.areas if a.kind == "safe"]
    entrances = floor.posts.get("entrance", ())
    terminals = floor.posts.get("terminal", ())
    return tuple(min((steps[s][e] for s in z.spaces for e in entrances), default=0)
                 + min((steps[s][t] for s in z.spaces for t in terminals), default=0) for z in zones)
