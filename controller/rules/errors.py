"""Errors the rules engine raises, each phrased for a person at the table, and the root of the project's
error tree.

Every error says what is wrong, where, and which rule or format line it breaks; callers (the command line,
the dashboard, MQTT) show the message as it is, and programs read its machine-readable `code` (and, for
dice the players must still roll, which dice as data). The engine never speaks HTTP: the web app answers each
code with its status from one table (web/errors.py). The engine raises before it changes anything, so a
caught error always leaves the game as it was. The root, `BurncycleError`, lives here because the rules are the
bottom layer every other package may import; the LEDs, vision and the command line derive their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from msgspec import Struct


class BurncycleError(Exception):
    """Root of every error the project raises on purpose: `str()` is the message for people, `code` the
    kind for programs (the web answers each code with its status: web/errors.py)."""

    code: ClassVar[str] = "table_error"


class RulesError(BurncycleError):
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
    """The action needs faces the players have not typed in yet: which dice, how many still, and for what, so a
    service can ask the table for exactly those and apply the action again with all the faces. `follow_up`:
    these dice depend on results already read (an elite die's reroll, a card an option draws), so they could
    not be asked for with the action's first dice."""

    code = "dice_needed"

    def __init__(self, dice: list[DiceWanted], purpose: str, given: int, follow_up: bool = False) -> None:
        self.dice = dice
        self.purpose = purpose
        self.given = given
        self.follow_up = follow_up
        still = counted_dice(dice)
        if follow_up:
            said = f"{purpose}, after the results given: still needed: {still}"
        elif given:
            said = f"{purpose}: {given} {'face' if given == 1 else 'faces'} given; still needed: {still}"
        else:
            said = f"{purpose}: still needed: {still}"
        super().__init__(said)


def counted_dice(dice: Sequence[DiceWanted]) -> str:
    """'1 pressure die, 5 basic dice, 1 card from the mod deck': the dice and draws of a request, counted."""
    return ", ".join(counted(wanted.die, wanted.count) for wanted in dice)


def counted(die: str, count: int) -> str:
    """'5 basic dice', '1 card from the mod deck', '2 chips from the guard bag'."""
    if die.endswith(" die"):
        return f"{count} {die if count == 1 else die[:-len('die')] + 'dice'}"
    thing = "card" if die.endswith(" deck") else "chip"
    return f"{count} {thing}{'' if count == 1 else 's'} from the {die}"


class BadFace(DiceError):
    """A typed-in result that is not a face of the die being rolled (nor a face number)."""

    code = "bad_face"


class RecordError(RulesError):
    """A game record that cannot be used: it does not replay to its digests, or a state does not belong to it."""

    code = "record_error"
