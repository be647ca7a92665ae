"""What the reconciler shows the table: chips out of place, questions for the players, what is left to do.

Plain frozen values that turn into JSON, so the dashboard, MQTT and the tests read one shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from controller.rules import DIRECTION_WORDS

COMPASS: dict[str, str] = {letter: word for letter, word in DIRECTION_WORDS.items()}  # a chip's facing in words
Place = tuple[str, str | None]  # (space, facing); a bot's facing is None: bots face nowhere in the rules



def place_text(place: Place | None) -> str:
    if place is None:
        return "off the board"
    space, facing = place
    return f"{space}, facing {COMPASS.get(facing, facing)}" if facing else space


@dataclass(frozen=True)
class Misplaced:
    """A chip the camera sees where the game does not have it (or a chip the game does not know)."""

    unit: str | None                 # the game's unit id ("byte", "G3"); None for a chip not in this game
    chip: str                        # the physical chip ("hound-2")
    name: str
    seen: Place | None
    expected: Place | None

    def to_dict(self) -> dict[str, Any]:
        seen, expected = self.seen or (None, None), self.expected or (None, None)
        return {"unit": self.unit, "chip": self.chip, "name": self.name,
                "seen": {"space": seen[0], "facing": seen[1]},
                "expected": {"space": expected[0], "facing": expected[1]}, "text": self.text}

    @property
    def text(self) -> str:
        """Said for people: where the chip is seen and where the game has it, or that one of the two is nowhere."""
        if self.seen is None:
            return f"{self.name} is not seen on the board; the game has it at {place_text(self.expected)}"
        if self.unit is None:
            return f"{self.name} is seen at {place_text(self.seen)}, but it is not in this game"
        if self.expected is None:
            return f"{self.name} is seen at {place_text(self.seen)}, but the game has it off the board"
        return f"{self.name} is seen at {place_text(self.seen)}; the game has it at {place_text(self.expected)}"


@dataclass(frozen=True)
class Question:
    """Something the table cannot settle alone: a way to choose, a move the rules refuse, a doubtful sighting, a
    door sensor that disagrees with the game."""

    id: str
    kind: Literal["route", "refused", "vision", "door"]
    text: str
    options: tuple[str, ...] = ()
    unit: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "unit": self.unit, "text": self.text, "options": list(self.options)}


@dataclass(frozen=True)
class Instruction:
    """A change of the game the players carry out on the board; ticked off when the camera sees it done."""

    unit: str
    text: str
    was: Place | None                # where the chip stood before; None: it comes onto the board
    place: Place | None              # where the chip must end up; None: off the board
    done: bool = False

    def to_dict(self) -> dict[str, Any]:
        place = self.place or (None, None)
        return {"unit": self.unit, "text": self.text, "from": self.was and self.was[0], "space": place[0],
                "facing": place[1], "done": self.done}


@dataclass(frozen=True)
class ReconcilerView:
    """The reconciler's whole picture at one moment, for a dashboard."""

    number: int                      # the session's last change number this view reflects
    misplaced: tuple[Misplaced, ...] = ()
    questions: tuple[Question, ...] = ()
    instructions: tuple[Instruction, ...] = ()

    @property
    def pending(self) -> tuple[Instruction, ...]:
        return tuple(i for i in self.instructions if not i.done)

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "misplaced": [m.to_dict() for m in self.misplaced],
                "questions": [q.to_dict() for q in self.questions],
                "instructions": [i.to_dict() for i in self.instructions]}
