"""Rescue Rangers: no command module on the floor until the calibration puts it in the draw bag; each agent
accesses a terminal.

The agents share the fourth slot (there is no module to pay it), and after the calibration they go into the
rooms with a free terminal space still holding a bead, where surveilling draws the next unit from the bag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.autoplay.missions.strategy import StandardPlay, bead_rooms
from controller.rules import Bot, Objective, Resolution, module_bagged

if TYPE_CHECKING:
    from controller.autoplay.paths import PathCosts


class RescueRangers(StandardPlay):
    """Rescue Rangers' play (docs/autoplay.md, "Rescue Rangers")."""

    def task_targets(self, paths: PathCosts, table: Resolution, bot: Bot, open_tasks: list[Objective]) -> set[int]:
        """"Before surveilling a room with at least one terminal space, draw a unit from the bag": after the
        calibration the module comes out only where a terminal room is surveilled."""
        state = table.state
        if not state.calibrated or state.later_floors:
            return set()
        if module_bagged(state) and bot.kind == "agent":
            return bead_rooms(table, terminal=True)
        return set()
