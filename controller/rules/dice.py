"""The one door randomness comes through: dice, decks and draw bags.

A game replays exactly from its seed and its actions because the engine never touches a random source
of its own: it asks a `Dice` for every roll and draw. `SeededDice` is the virtual table (each roll is a
pure function of the seed and the roll's number, so a saved game continues the same sequence);
`ScriptedDice` plays the faces the players typed in or a sensor sent, in order.

With faces from the table, what the players are asked to roll matters as much as what the engine reads: an
action announces (`Dice.expect`) every die and draw it will read that is known before it resolves, in reading
order, so the players roll them at once; only what depends on earlier results (an elite die's reroll, the
card a terminal's option draws) is asked for afterwards, as a follow-up. Every request lists the faces each
die or draw can show, and `check_faces` refuses a face that is not among them as soon as it is given.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from controller.rules.errors import BadFace, DiceNeeded, DiceWanted, counted_dice


class Dice(Protocol):
    @property
    def rolls(self) -> int:
        """How many results these dice have given."""

    def roll(self, die: str, faces: Sequence[str]) -> str:
        """Roll the named die and return its face."""

    def draw(self, bag: str, items: Sequence[str]) -> int:
        """Draw one item from a bag (or deck) and return its index."""

    def game_rolls(self, seed: int) -> int | None:
        """The game's roll count after these dice, when they continue the virtual sequence of game `seed`;
        None for faces from the table, which leave the game's count where it was."""

    def expect(self, dice: Sequence[DiceWanted], purpose: str) -> None:
        """The engine is about to roll these dice, in this order, for `purpose` ("Memory's move action"):
        dice that need faces from the table raise DiceNeeded for the ones they lack, before any is rolled."""


class SeededDice:
    """Virtual dice: roll number n of game seed s always shows the same face."""

    def __init__(self, seed: int, rolls: int = 0) -> None:
        self.seed = seed
        self.rolls = rolls

    def _next(self, n: int) -> int:
        rng = random.Random((self.seed & 0xFFFFFFFF) * 1_000_003 + self.rolls)
        self.rolls += 1
        return rng.randrange(n)

    def roll(self, die: str, faces: Sequence[str]) -> str:
        return faces[self._next(len(faces))]

    def draw(self, bag: str, items: Sequence[str]) -> int:
        return self._next(len(items))

    def game_rolls(self, seed: int) -> int | None:
        return self.rolls if seed == self.seed else None

    def expect(self, dice: Sequence[DiceWanted], purpose: str) -> None:
        return None  # virtual dice never run out


class ScriptedDice:
    """Faces typed in by the players; a face may be named or numbered from 1. `purpose` names the action they
    are for ("Casing's end of turn"), for a read no announcement (`expect`) covered.

    Without `given_for` the faces are read strictly in order. With it, `given_for[k]` is the die or draw face k
    was given for (as a dice request listed it), and each read takes the first unread face given for its die:
    the players roll an announced batch at once (two surveillance dice) even where the engine resolves a face,
    and reads something else, before it reads the next (a guard drawn for a surveillance die's guard face)."""

    def __init__(self, values: Sequence[str], purpose: str = "the action",
                 given_for: Sequence[str] | None = None) -> None:
        self.values = [v.strip() for v in values]
        self.rolls = 0
        self.purpose = purpose
        self.given_for = None if given_for is None else list(given_for)
        self._read = [False] * len(self.values)

    def _take(self, what: str, options: Sequence[str]) -> tuple[int, str]:
        k = self._next_for(what)
        if k is None:
            raise DiceNeeded([DiceWanted(die=what, count=1, faces=tuple(options))], self.purpose, len(self.values),
                             follow_up=self.rolls > 0)
        self._read[k] = True
        self.rolls += 1
        return k, self.values[k]

    def _next_for(self, what: str) -> int | None:
        if self.given_for is None:
            return self.rolls if self.rolls < len(self.values) else None
        return next((k for k, die in enumerate(self.given_for) if die == what and not self._read[k]), None)

    def _pick(self, what: str, options: Sequence[str]) -> int:
        k, value = self._take(what, options)
        index = face_index(value, options)
        if index is None:
            raise BadFace(f"result {k + 1} ({value!r}) is not {not_on(what, options)}")
        return index

    def expect(self, dice: Sequence[DiceWanted], purpose: str) -> None:
        self.purpose = purpose
        if self.given_for is None:
            expect_faces(dice, purpose, given=len(self.values), used=self.rolls)
            return
        left = Counter(die for die, read in zip(self.given_for, self._read, strict=True) if not read)
        missing: list[DiceWanted] = []
        for wanted in dice:
            covered = min(left[wanted.die], wanted.count)
            left[wanted.die] -= covered
            if covered < wanted.count:
                missing.append(DiceWanted(die=wanted.die, count=wanted.count - covered, faces=wanted.faces))
        if missing:
            raise DiceNeeded(missing, purpose, len(self.values), follow_up=self.rolls > 0)

    def roll(self, die: str, faces: Sequence[str]) -> str:
        return faces[self._pick(die, faces)]

    def draw(self, bag: str, items: Sequence[str]) -> int:
        return self._pick(bag, items)

    def game_rolls(self, seed: int) -> int | None:
        return None  # faces from the table are not the game's virtual sequence


def face_index(value: str, options: Sequence[str]) -> int | None:
    """Which of a die's faces (or a bag's items) a typed-in face names: the face as printed, or its number from
    1; None when it names none."""
    value = value.strip()
    if value in options:
        return list(options).index(value)
    if value.isdigit() and 1 <= int(value) <= len(options):
        return int(value) - 1
    return None


def not_on(what: str, options: Sequence[str]) -> str:
    """'a face of the basic die; its faces are 1, 2, blank': what a refused face is not."""
    names = list(dict.fromkeys(options))
    shown = ", ".join(names[:12]) + (f" and {len(names) - 12} more" if len(names) > 12 else "")
    if what.endswith(" die"):
        return f"a face of the {what}; its faces are {shown}"
    return f"in the {what}; it holds {shown}"


def check_faces(dice: Sequence[DiceWanted], faces: Sequence[str]) -> None:
    """Faces given for a dice request, checked as they are given, before any is kept: the first goes to the
    first die still needed, and so on in reading order (a partial list is checked as far as it goes). Each is
    a face as printed (a card or chip by the name the request lists), never a position, which made `3` on a
    basic die mean its third face. A face that is not on its die, or more faces than the request asks for,
    raises BadFace saying which."""
    slots = [wanted for wanted in dice for _ in range(wanted.count)]
    if len(faces) > len(slots):
        raise BadFace(f"{len(faces)} faces given, but only {counted_dice(dice)} {'is' if len(slots) == 1 else 'are'} "
                      f"still needed: give at most {len(slots)}")
    for k, (face, wanted) in enumerate(zip(faces, slots, strict=False), 1):
        if wanted.faces and face.strip() not in wanted.faces:  # (a request logged without faces: the engine checks)
            raise BadFace(f"face {k} ({face!r}) is not {not_on(wanted.die, wanted.faces)}")


def expect_faces(dice: Sequence[DiceWanted], purpose: str, given: int, used: int) -> None:
    """Typed-in faces about to be read for `dice`: with `given` faces of which `used` are spent, too few left
    raises DiceNeeded naming the dice still wanted, before any of them is rolled (a follow-up when faces of the
    action were read before these)."""
    left = given - used
    missing: list[DiceWanted] = []
    for wanted in dice:
        covered = min(left, wanted.count)
        left -= covered
        if covered < wanted.count:
            missing.append(DiceWanted(die=wanted.die, count=wanted.count - covered, faces=wanted.faces))
    if missing:
        raise DiceNeeded(missing, purpose, given, follow_up=used > 0)
