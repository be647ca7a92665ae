"""Where the auto-player's team starts when the rules let it choose ("bots start on a safe zone space of their
choice"; Rescue Rangers: "Agents start on any safe zone space").

The table is first set up with every bot in reading order; the mission's strategy looks at it (the guards at
their posts, the rooms still to surveil) and names the spaces, and the game is set up again with them. Nothing
else changes: the bots are placed after the guards and before the burncycle, and no die is rolled for where
they stand.
"""

from __future__ import annotations

import msgspec

from controller.autoplay.missions import strategy_for
from controller.autoplay.missions.strategy import floor_view
from controller.rules import Content, GameSetup, new_game, starts_in_safe_zones


def chosen_setup(content: Content, setup: GameSetup) -> GameSetup:
    """`setup` with the team's start spaces chosen by the mission's strategy, where the rules give the choice
    and the setup has not made it; otherwise `setup` as it is."""
    if setup.start is not None:
        return setup
    state = new_game(content, setup)
    if not starts_in_safe_zones(state.mission, state.floor.level):
        return setup
    start = strategy_for(state.mission.id).start_spaces(floor_view(state))
    return msgspec.structs.replace(setup, start=start) if start else setup
