"""Manual corrections: the players say where a unit really stands, and the game takes their word.

The camera can be wrong and so can a hand that moved a chip without telling anyone; when the people at the
table correct the game (from the dashboard, MQTT or the command line), the correction wins. It is an action like
any other, so it is logged, replayed and undone with the rest of the game, but it is not a move under the
rules: it costs nothing, triggers nothing (no awareness, no caches, no sight), and may come at any step of any
turn. It only refuses what no table can show: a space that is not on the floor, or two units on one space.
"""

from __future__ import annotations

from controller.rules.board.geometry import compile_floor
from controller.rules.errors import IllegalAction
from controller.rules.events import Event, UnitCorrected
from controller.rules.state import Direction, GameState, copy_state


def apply_correction(state: GameState, unit: str, space: str,
                     facing: Direction | None = None) -> tuple[GameState, list[Event]]:
    """The state with `unit` on `space` (a security unit also turned to `facing`); the state given is kept."""
    floor = compile_floor(state.floor.text, state.floor.name)
    if space not in floor.index:
        raise IllegalAction(f"{space} is not a space of {state.floor.name}: a unit can only be put on a "
                            f"space of the floor")
    new = copy_state(state)
    bot = next((b for b in new.bots if b.id == unit), None)
    if bot is None and all(u.id != unit for u in new.security):
        known = ", ".join([b.id for b in new.bots if b.on_board] + [u.id for u in new.security])
        raise IllegalAction(f"there is no unit {unit!r} on the floor to correct (on the floor: {known})")
    if bot is not None and not bot.on_board:
        raise IllegalAction(f"{bot.name} is not on the floor (escaped or off the board): it cannot be put back "
                            f"by a correction")
    if bot is not None and facing is not None:
        raise IllegalAction("a bot has no facing in the rules: correct only its space")
    others = [b.space for b in new.bots if b.on_board and b.id != unit]
    others += [u.space for u in new.security if u.id != unit]
    if space in others:
        raise IllegalAction(f"{space} is taken by another unit: two units cannot stand on one space")
    if bot is not None:
        was, bot.space = bot.space, space
        return new, [UnitCorrected(unit=bot.id, was=was, space=space, facing=None)]
    for guard in new.security:
        if guard.id == unit:
            was, guard.space = guard.space, space
            guard.facing = facing or guard.facing
            return new, [UnitCorrected(unit=guard.id, was=was, space=space, facing=guard.facing)]
    raise IllegalAction(f"there is no unit {unit!r} on the floor to correct")
