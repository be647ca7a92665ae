"""What stands on the table: chips placed on spaces, from a game state or at random.

A scene is the renderer's input and the ground truth of a synthetic frame at once, so tests and the
bench compare what vision reads with exactly what was drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from controller.rules.board.geometry import Floor
from controller.rules.state import GameState
from vision.config import VisionConfig
from vision.roster import chips_for_state

FACINGS = ("N", "E", "S", "W")


@dataclass(frozen=True)
class Placement:
    unit: str
    space: str
    facing: str = "N"                            # for bots: how the sticker happens to be turned
    offset_mm: tuple[float, float] = (0.0, 0.0)  # how sloppily the chip was put down
    twist_deg: float = 0.0                       # extra rotation off the facing

    @property
    def angle_deg(self) -> float:
        return FACINGS.index(self.facing) * 90.0 + self.twist_deg


@dataclass(frozen=True)
class Scene:
    placements: tuple[Placement, ...]

    def moved(self, unit: str, space: str, facing: str | None = None) -> Scene:
        """The same scene with one chip put on another space (and optionally turned)."""
        out = []
        for p in self.placements:
            if p.unit == unit:
                p = Placement(unit, space, facing or p.facing, (0.0, 0.0), 0.0)
            out.append(p)
        return Scene(tuple(out))


def scene_from_state(state: GameState, config: VisionConfig, chips: Mapping[str, str] | None = None) -> Scene:
    """Every bot and security unit standing on the floor, chips squarely placed: each unit's chip as `chips` says
    (unit id -> chip id: the chips the game's history gave them, `vision.roster.ChipRoster`), or as a state taken
    up with no history has them (`chips_for_state`)."""
    chips = chips_for_state(state, config) if chips is None else chips
    placements = [Placement(chips[b.id], b.at) for b in state.bots if b.on_board and b.id in chips]
    placements += [Placement(chips[s.id], s.space, s.facing) for s in state.security if s.id in chips]
    return Scene(tuple(placements))


def random_scene(floor: Floor, config: VisionConfig, rng: np.random.Generator, bots: int = 4, guards: int = 12,
                 jitter_mm: float = 6.0, twist_deg: float = 10.0) -> Scene:
    """`bots` bots and `guards` guard chips on distinct random spaces, put down with a player's sloppiness."""
    bot_ids = [u.id for u in config.units if u.kind == "bot"]
    guard_ids = [u.id for u in config.units if u.kind != "bot"]
    units = list(rng.choice(bot_ids, bots, replace=False)) + list(rng.choice(guard_ids, guards, replace=False))
    spaces = rng.choice(len(floor.ids), len(units), replace=False)
    out = []
    for unit, i in zip(units, spaces):
        dx, dy = rng.uniform(-jitter_mm, jitter_mm, 2)
        out.append(Placement(str(unit), floor.ids[int(i)], FACINGS[int(rng.integers(4))], (float(dx), float(dy)),
                             float(rng.uniform(-twist_deg, twist_deg))))
    return Scene(tuple(out))
