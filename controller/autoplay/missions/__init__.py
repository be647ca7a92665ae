"""Each mission's own play for the auto-player, behind one `MissionStrategy`, chosen by the mission's id.

A mission the auto-player has no strategy for (new content) is played with `StandardPlay`: its own rules
only.
"""

from __future__ import annotations

from controller.autoplay.missions.ghost_in_the_dell import GhostInTheDell
from controller.autoplay.missions.preconnaissance import Preconnaissance
from controller.autoplay.missions.rescue_rangers import RescueRangers
from controller.autoplay.missions.standard import DataHeist, TowerRun
from controller.autoplay.missions.strategy import MissionStrategy, StandardPlay
from controller.autoplay.missions.tsm_103c import Tsm103c

STRATEGIES: dict[str, MissionStrategy] = {
    "data-heist": DataHeist(),
    "tower-run": TowerRun(),
    "tsm-103c": Tsm103c(),
    "rescue-rangers": RescueRangers(),
    "preconnaissance": Preconnaissance(),
    "ghost-in-the-dell": GhostInTheDell(),
}
_STANDARD = StandardPlay()


def strategy_for(mission: str) -> MissionStrategy:
    """The strategy for the mission with this id."""
    return STRATEGIES.get(mission, _STANDARD)


__all__ = ["MissionStrategy", "STRATEGIES", "StandardPlay", "strategy_for"]
