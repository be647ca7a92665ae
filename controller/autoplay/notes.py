"""What one decision of the auto-player knows and learns, shared by the parts that decide.

A decision starts from the game's state and an `AutoplayMemory`; the parts (its sense of the floor, the
routes, doors, repairs, the turn, the steps) read and change one working copy of that memory here, and keep
the answers they work out more than once in the decision (`memo`). When the decision is made, `kept()` is the
memory to give the next one.
"""

from __future__ import annotations

from controller.autoplay.memory import AutoplayMemory, CorePlan, TeamZone


class Notes:
    """The working copy of the memory for one decision, and the answers worked out once in it."""

    def __init__(self, memory: AutoplayMemory) -> None:
        self.recall(memory)

    def recall(self, memory: AutoplayMemory) -> None:
        """Start a decision from `memory` (left as it was): nothing worked out for the last decision holds."""
        self.memo: dict[object, object] = {}
        # bots a guard stood in the best way of that could not push it (the route step buys push)
        self.blocked_by_unit: set[str] = set(memory.blocked_by_unit)
        self.move: tuple[int, int, int] | None = memory.move  # the move action the trails belong to
        self.trails: dict[str, set[str]] = {bot: set(spaces) for bot, spaces in memory.trails.items()}
        self.team_zone: TeamZone | None = memory.team_zone
        self.module_zone: TeamZone | None = memory.module_zone
        self.core_plan: CorePlan | None = memory.core_plan

    def kept(self) -> AutoplayMemory:
        """The memory after the decision, for the next one."""
        return AutoplayMemory(blocked_by_unit=frozenset(self.blocked_by_unit), move=self.move,
                              trails={bot: frozenset(spaces) for bot, spaces in sorted(self.trails.items())},
                              team_zone=self.team_zone, module_zone=self.module_zone, core_plan=self.core_plan)
