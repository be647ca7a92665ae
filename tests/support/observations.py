"""What the camera's filter would report for a game state, for the reconciler's tests without a camera, and the
seeded positions where a guard is struck off the board (the chips' tests need one)."""

from __future__ import annotations

from collections.abc import Mapping

from controller.rules import GameRecord, GameState, SeededDice, legal_actions, record_action
from controller.rules.actions import Strike, apply_action
from controller.rules.state import DicePool
from controller.service.camera.reconciler import placements
from tests.support.session_support import next_action, start_state
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


def _namesakes(state: GameState, unit: str) -> int:
    """How many other guards on the floor wear a chip of the unit's name (two Trackers: tracker-1, tracker-2)."""
    chip = next(u.chip for u in state.security if u.id == unit)
    return sum(u.chip == chip and u.id != unit for u in state.security)


def a_strike_that_shuts_a_guard_down(unique: bool = True) -> tuple[GameState, Strike, list[int]]:
    """The first position of a seeded game (the auto-player choosing) where an agent can strike a guard whose
    chip the camera knows (the table's chip set has a chip of its name free), the strike with its whole basic
    pool and the faces of the table's dice that shut the guard down; with `unique`, a guard no other guard on the
    floor shares its chip's name with, else one another guard does. Found, not counted in actions: a change to
    how the auto-player plays moves it."""
    for seed in range(1, 20):
        state = start_state(seed=seed)
        while state.outcome is None:
            for la in legal_actions(state):
                action = la.action
                if not isinstance(action, Strike) or action.stun_only or action.disguise or \
                        not action.unit.startswith("G") or action.unit not in chips_for_state(state, CONFIG) or \
                        (_namesakes(state, action.unit) == 0) != unique:
                    continue
                basic = next((c.most for c in la.dice if c.field == "basic"), 0)
                strike = Strike(bot=action.bot, unit=action.unit, dice=DicePool(basic=basic))
                for k in range(40):
                    scratch = GameRecord(start=state)
                    after, _ = record_action(scratch, state, strike, SeededDice(k))
                    if all(u.id != action.unit for u in after.security):
                        return state, strike, [f.face for f in scratch.entries[0].faces]
            state, _ = apply_action(state, next_action(state))
    raise AssertionError("no seeded game of seeds 1-19 lets an agent strike such a guard down")
