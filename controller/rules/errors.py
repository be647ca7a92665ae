"""Errors the rules engine raises, each phrased for a person at the table, and the root of the project's
error tree.

Every error says what is wrong, where, and which rule or format line it breaks; callers (the command line,
the dashboard, MQTT) show the message as it is, and programs read its machine-readable `code` (and, for
dice the players must still roll, which dice as data). The engine raises before it changes anything, so a
caught error always leaves the game as it was. The root, `TableError`, lives here because the rules are the
bottom layer every other package may import; the LEDs, vision and the command line derive their own.
"""

from __future__ import annotations

from typing import ClassVar

from msgspec import Struct


class TableError(Exception):
    """Root of every error the project raises on purpose: `str()` is the message for people, `code` the
    kind for programs."""

    code: ClassVar[str] = "table_error"


class RulesError(TableError):
    """Base of every error the engine raises on purpose."""

    code = "rules_error"


class FloorError(RulesError):
    """A floor file that cannot be read: names the file, line and column."""

    code = "floor_error"

    def __init__(self, source: str, line: int, column: int, message: str) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.message = message
        where = f"{source}:{line}" + (f":{column}" if column else "")
        super().__init__(f"{where}: {message}")


class ContentError(RulesError):
    """A content file (guards, captains, network, threat cards, missions) that is invalid."""

    code = "content_error"


class StateError(RulesError):
    """A game state that breaks an invariant of the game (two units on one space, power 11, ...)."""

    code = "state_error"


class IllegalAction(RulesError):
    """An action the rules forbid; the message quotes the rule."""

    code = "illegal_action"


class DiceError(RulesError):
    """Faces typed in at the table that the engine cannot use."""

    code = "dice_error"


class DiceWanted(Struct, frozen=True):
    """Dice the players still have to roll: `count` of the named die ("basic die", "ping die"), and the faces
    it shows (the items of a bag) in printed order, so an input at the table can offer exactly those."""

    die: str
    count: int
    faces: tuple[str, ...] = ()


class DiceNeeded(DiceError):
    """The action needs faces the players have not typed in yet: which dice, how many, and for what, so a
    service can ask the table for exactly those and apply the action again with all the faces."""

    code = "dice_needed"

    def __init__(self, dice: list[DiceWanted], purpose: str, given: int, more: bool = False) -> None:
        self.dice = dice
        self.purpose = purpose
        self.given = given
        if len(dice) == 1 and dice[0].count == 1 and dice[0].die == purpose:
            wanted = f"another result for the {purpose}"
        else:
            wanted = ", ".join(f"{d.count} {'more ' if more else ''}{_plural(d)}" for d in dice) + f" for {purpose}"
        short = f", but only {given} {'was' if given == 1 else 'were'} given" if given else ""  # none yet: a request
        super().__init__(f"the turn needs {wanted}{short}")


def _plural(wanted: DiceWanted) -> str:
    if wanted.count == 1:
        return wanted.die
    return wanted.die[:-len(" die")] + " dice" if wanted.die.endswith(" die") else wanted.die


class BadFace(DiceError):
    """A typed-in result that is not a face of the die being rolled (nor a face number)."""

    code = "bad_face"


class RecordError(RulesError):
    """A game record that cannot be used: it does not replay to its digests, or a state does not belong to it."""

    code = "record_error"
