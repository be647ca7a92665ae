"""`--rolls`: the faces rolled at the table, typed in, read in one unambiguous way.

A value is always a face's name as printed on the die (for a basic die `1`, `2` or `blank`), or the id or
name of what is drawn from a deck or bag (`T03`, `physical`): never a face's position, which made `3` on a
basic die silently mean its third face (a 1) and `6` its sixth (a blank). The engine asks for dice in a
fixed order (ROLL_ORDER); typing too few faces names the dice still needed, typing too many names the extra
ones, and the action is refused in both cases, so nothing is written.

`TypedRolls` is a `Dice` of the engine's protocol: it answers the engine's `expect` as `ScriptedDice` does,
with the engine's structured `DiceNeeded` (which dice, how many, for what), and a face it lacks raises the
same; `checked_run` turns that into the command line's one line, naming the dice `DiceNeeded` lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from controller.errors import UserError
from controller.rules import DiceNeeded, DiceWanted, SeededDice
from controller.rules.dice import expect_faces

ROLL_ORDER = ("in the order the rules read them: a proprietary die first, then the basic, advanced and elite "
              "dice of the check, a die for each elite reroll face, then the dice the action's effects roll "
              "(keypad, surveillance, equipment, burncycle die) and the cards or chips it draws; a corporation "
              "turn reads one ping die per ping, in the order of the ping ids")
ROLLS_HELP = ("the faces rolled at the table, comma-separated, " + ROLL_ORDER + ". Each die is given by the face "
              "printed on it (basic: 1, 2, blank; advanced: 1, 2, 3; elite: 2, 3, reroll; ping: threat, ceo+transfer, "
              "...), a card or chip drawn by its id or name (T03, physical); a number is a face's value, never its "
              "position. Default: the game's virtual dice")


class RollsError(UserError):
    """The typed-in faces do not fit what the action rolls."""


class TypedRolls:
    """The Dice the engine asks, answered from the faces typed in (then, when `then` is given, from virtual
    dice, so the CLI can learn which dice a short list leaves unanswered)."""

    def __init__(self, text: str, then: SeededDice | None = None) -> None:
        # `--rolls ''` is zero faces (a script passes the faces it has, sometimes none), not one empty face
        self.values = [v.strip() for v in text.split(",")] if text.strip() else []
        if not text.isascii():
            odd = next(c for c in text if not c.isascii())
            raise RollsError(f"--rolls: {odd!r} is not a face of any die; faces are plain names such as 1, 2, "
                             f"blank, threat+transfer")
        empty = [k for k, v in enumerate(self.values, 1) if not v]
        if empty:
            raise RollsError(f"--rolls: result {empty[0]} is empty; give the faces separated by single commas")
        self.then = then
        self.rolls = 0
        self.asked: list[str] = []  # every die, deck or bag asked for, in order

    def _take(self, what: str, options: Sequence[str]) -> str | SeededDice:
        """The next face typed in, or, once they are used up, the virtual dice that answer in their place."""
        face: str | SeededDice
        if self.rolls < len(self.values):
            face = self.values[self.rolls]
        elif self.then is not None:
            face = self.then
        else:
            raise DiceNeeded([DiceWanted(die=what, count=1, faces=tuple(options))], what, len(self.values))
        self.asked.append(what)
        self.rolls += 1
        return face

    def expect(self, dice: Sequence[DiceWanted], purpose: str) -> None:
        """The engine is about to roll these dice: too few faces left for them raises DiceNeeded before any
        is rolled (while probing, the virtual dice answer what the faces do not)."""
        if self.then is not None:
            return
        expect_faces(dice, purpose, given=len(self.values), used=self.rolls)

    def game_rolls(self, seed: int) -> int | None:
        return None  # faces from the table are not the game's virtual sequence

    def roll(self, die: str, faces: Sequence[str]) -> str:
        value = self._take(die, faces)
        if not isinstance(value, str):
            return value.roll(die, faces)
        match = _named(value, faces)
        if match is None:
            raise RollsError(f"--rolls: result {self.rolls} ({value!r}) is not a face of the {die}; its faces are "
                             f"{', '.join(dict.fromkeys(faces))} (a number is a face's value, never its position)")
        return faces[match]

    def draw(self, bag: str, items: Sequence[str]) -> int:
        value = self._take(bag, items)
        if not isinstance(value, str):
            return value.draw(bag, items)
        match = _named(value, items)
        if match is None:
            names = list(dict.fromkeys(items))
            shown = ", ".join(names[:12]) + (f" and {len(names) - 12} more" if len(names) > 12 else "")
            raise RollsError(f"--rolls: result {self.rolls} ({value!r}) is not in the {bag}; it holds {shown}")
        return match


def _named(value: str, options: Sequence[str]) -> int | None:
    folded = value.casefold()
    return next((k for k, o in enumerate(options) if o.casefold() == folded), None)


def described(asked: Sequence[str]) -> str:
    """'2 basic dice, then the keypad deck': the dice asked for, in order, runs of one die counted."""
    parts = []
    for what, run in groupby(asked):
        n = len(list(run))
        parts.append(f"{n} {_plural(what)}" if n > 1 else f"the {what}")
    return ", then ".join(parts)


def wanted(needed: DiceNeeded) -> str:
    """'2 basic dice for Memory's move action': the dice the engine's DiceNeeded lists, and what for."""
    dice = ", ".join(f"{d.count} {_plural(d.die)}" if d.count > 1 else f"the {d.die}" for d in needed.dice)
    return dice if [d.die for d in needed.dice] == [needed.purpose] else f"{dice} for {needed.purpose}"


def _plural(what: str) -> str:
    return what[:-3] + "dice" if what.endswith(" die") else what + " draws"


def checked_run(text: str, seed_dice: SeededDice, run):
    """Run `run(dice)` on the typed-in faces; too few or too many faces is refused naming the dice, in order."""
    dice = TypedRolls(text)
    try:
        result = run(dice)
    except DiceNeeded as needed:
        probe = TypedRolls(text, then=seed_dice)
        run(probe)  # the same action with virtual faces after the typed ones: which dice it goes on to read
        given = len(probe.values)
        later = probe.asked[given + sum(d.count for d in needed.dice):]  # read after the dice DiceNeeded names
        still = wanted(needed) + (f", then {described(later)}" if later else "")
        raise RollsError(f"--rolls gives {given} {'face' if given == 1 else 'faces'}, but the action reads "
                         f"{len(probe.asked)}: {described(probe.asked)}; still needed: {still} "
                         f"(later dice can depend on the faces rolled; read {ROLL_ORDER})") from None
    if dice.rolls < len(dice.values):
        extra = dice.values[dice.rolls:]
        read = described(dice.asked) if dice.asked else "no dice"
        raise RollsError(f"--rolls gives {len(dice.values)} faces, but the action reads {dice.rolls} ({read}): "
                         f"drop the extra {', '.join(extra)}")
    return result
