"""What the camera's filter would report for a game state, for the reconciler's tests without a camera."""

from __future__ import annotations

from collections.abc import Mapping

from controller.rules import GameState
from controller.service.camera.reconciler import placements
from vision.config import VisionConfig
from vision.observation import Observation, UnitState
from vision.roster import chips_for_state
from vision.status import OK

CONFIG = VisionConfig()


def seen(state: GameState, ts: float, moved: dict[str, tuple[str, str | None]] | None = None,
         unseen: tuple[str, ...] = (), doubt: dict[str, tuple[str, ...]] | None = None,
         chips: Mapping[str, str] | None = None) -> Observation:
    """What the filter reports for `state`'s units, with some chips moved, hidden or sitting between spaces; each
    unit on the chip `chips` gives it (the chips a game's history gave, `ChipLedger`), else on the chip a state
    taken up with no history has it on (`chips_for_state`)."""
    chips = chips_for_state(state, CONFIG) if chips is None else chips
    units = {}
    for unit, place in placements(state).items():
        place = (moved or {}).get(unit, place)
        if place is None:
            continue
        chip = chips[unit]
        between = (doubt or {}).get(unit)
        units[chip] = UnitState(chip, place[0], place[1], 1.0, ts - 10.0 if unit in unseen else ts,
                                unit not in unseen, "between spaces" if between else None, between or ())
    return Observation(ts, OK, units)
