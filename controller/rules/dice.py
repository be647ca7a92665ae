"""The one door randomness comes through: dice, decks and draw bags.

A game replays exactly from its seed and its actions because the engine never touches a random source
of its own: it asks a `Dice` for every roll and draw. `SeededDice` is the virtual table (each roll is a
pure function of the seed and the roll's number, so a saved game continues the same sequence);
`ScriptedDice` plays the faces the players typed in or a sensor sent, in order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from controller.rules.errors import BadFace, DiceNeeded, DiceWanted


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
    """Faces typed in by the players, used in order; a face may be named or numbered from 1."""

    def __init__(self, values: Sequence[str]) -> None:
        self.values = [v.strip() for v in values]
        self.rolls = 0

    def _take(self, what: str, options: Sequence[str]) -> str:
        if self.rolls >= len(self.values):
            raise DiceNeeded([DiceWanted(die=what, count=1, faces=tuple(options))], what, len(self.values))
        value = self.values[self.rolls]
        self.rolls += 1
        return value

    def _pick(self, what: str, options: Sequence[str]) -> int:
        value = self._take(what, options)
        if value in options:
            return list(options).index(value)
        if value.isdigit() and 1 <= int(value) <= len(options):
            return int(value) - 1
        raise BadFace(f"result {self.rolls} ({value!r}) is not a face of the {what}; "
                      f"expected one of {', '.join(options)} or 1-{len(options)}")

    def expect(self, dice: Sequence[DiceWanted], purpose: str) -> None:
        expect_faces(dice, purpose, given=len(self.values), used=self.rolls)

    def roll(self, die: str, faces: Sequence[str]) -> str:
        return faces[self._pick(die, faces)]

    def draw(self, bag: str, items: Sequence[str]) -> int:
        return self._pick(bag, items)

    def game_rolls(self, seed: int) -> int | None:
        return None  # faces from the table are not the game's virtual sequence


def expect_faces(dice: Sequence[DiceWanted], purpose: str, given: int, used: int) -> None:
    """Typed-in faces about to be read for `dice`: with `given` faces of which `used` are spent, too few left
    raises DiceNeeded naming the dice still wanted, before any of them is rolled."""
    left = given - used
    missing: list[DiceWanted] = []
    for wanted in dice:
        covered = min(left, wanted.count)
        left -= covered
        if covered < wanted.count:
            missing.append(DiceWanted(die=wanted.die, count=wanted.count - covered, faces=wanted.faces))
    if missing:
        raise DiceNeeded(missing, purpose, given, more=given > used)
