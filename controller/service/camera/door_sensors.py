"""Door sensors: a reed switch or a microswitch in a door's peg hole, held against the game.

In the rules a door opens only by play: a keypad action, a key spent during a move, a terminal card ("All
doors start locked ... Unlocking requires a keypad action or spending a key. Once unlocked, insert an
unlocked door peg."), and an Autolock or a floor change locks doors again. The engine keeps which doors are
unlocked, and no action sets a door from outside. So a sensor never changes the game: what it reports is a
check, like the camera's. A door the sensor says is open (the unlocked peg in) while the game holds it
locked, or the other way round, is a question on the table view; it clears by itself once the peg and the
game agree (the peg taken out, or the keypad action played). Only the last report of each door is kept.
"""

from __future__ import annotations

import threading

from controller.rules import GameState
from controller.rules.board.geometry import compile_floor, edge_id
from controller.rules.errors import BurncycleError, RulesError
from controller.service.camera.reconciler_view import Question


class DoorError(BurncycleError):
    """A report about something that is not a door of the floor in play."""

    code = "not_a_door"


class DoorSensors:
    """The last report of each door sensor, and the questions where it disagrees with the game."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[str, bool] = {}  # door ("H3/H4") -> the sensor says open (the unlocked peg is in)

    def report(self, state: GameState, door: str, is_open: bool) -> bool:
        """Keep a sensor's report of `door` (its two spaces, either way round); returns whether it says something
        new (a sensor that repeats itself, as some report every few seconds, changes nothing)."""
        name = door_name(state, door)
        with self._lock:
            new = self._open.get(name) != is_open
            self._open[name] = is_open
        return new

    def questions(self, state: GameState) -> tuple[Question, ...]:
        """A question for each door of the floor in play whose sensor disagrees with the game."""
        doors = set(compile_floor(state.floor.text, state.floor.name).doors)
        unlocked = set(state.floor.unlocked_doors)
        with self._lock:
            reports = sorted(self._open.items())
        out = []
        for door, is_open in reports:
            if door not in doors or is_open == (door in unlocked):
                continue
            if is_open:
                text = (f"the sensor of door {door} says it is open, but the game holds it locked: a door opens "
                        f"only by a keypad action, a key or a terminal card. Take the unlocked door peg out, or "
                        f"play what unlocks it; the game does not change by itself")
            else:
                text = (f"the game has door {door} unlocked, but its sensor says it is closed: put an unlocked "
                        f"door peg in the door")
            out.append(Question(f"door-{door}", "door", text))
        return tuple(out)


def door_name(state: GameState, door: str) -> str:
    """`door` as the engine names it ("H3/H4", spaces in order), or DoorError naming the floor's doors."""
    floor = compile_floor(state.floor.text, state.floor.name)
    spaces = door.split("/")
    try:
        name = edge_id(spaces[0], spaces[1]) if len(spaces) == 2 else None
    except RulesError:
        name = None
    if name is None or name not in floor.doors:
        raise DoorError(f"{door!r} is not a door of {state.floor.name}: name a door by the two spaces it joins, "
                        f"one of {', '.join(floor.doors)}")
    return name
