"""Which physical chip stands for which unit of the game state.

The state names security units by their order of entry ("G1", "CAP") and records only the chip's printed
name ("Hound"); the box holds two Hound chips, each with its own sticker, and the rules never tell them apart
(the guard bag holds chips by name). Which sticker a unit wears is the table's fact, so it is decided here,
from the game's history rather than from one state: a unit keeps the chip it was given when it entered the
board until it leaves, and a newcomer takes, of the chips of its name free at that moment, the one free the
longest (chips never used yet first, in roster order; a chip taken off the board goes to the back). Deciding
from one state alone cannot work: when the first of two Trackers (on tracker-1) is shut down, the second
(on tracker-2) would be handed tracker-1, its namesake's chip, while tracker-2 still stands on the board.

`ChipRoster.follow` is that step, one state of a game to the next. The table follows a game's record entry by
entry (controller/service/camera/chips.py), so the reconciler, the demo's hands and its rendered camera all
come to the same chips, across undo and a restart alike. `chips_for_state` is the first step: the chips of a
state taken up with no history (a game's start, a state read from a file).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.rules.state import GameState, SecurityUnit
from vision.config import VisionConfig


def _fits(unit: SecurityUnit, chip: str) -> bool:
    """A physical chip the unit can wear: the captain's one chip, or a guard chip of the unit's printed name."""
    if unit.rank == "captain":
        return chip == "captain"
    return chip.startswith(f"{unit.chip.lower()}-")


@dataclass(frozen=True)
class ChipRoster:
    """The chips of one moment of a game: `chips`, game unit id ("G1", "CAP", "byte") -> physical chip id, for
    every unit of the state that has one; `worn`, the chip every unit that ever stood on the board wore last
    (a unit shut down keeps its entry: its chip is still on the board until the players take it off); `free`,
    the security chips no unit on the board wears, the one free the longest first."""

    chips: Mapping[str, str]
    worn: Mapping[str, str]
    free: tuple[str, ...]
    bot_chips: frozenset[str]

    @classmethod
    def empty(cls, config: VisionConfig) -> ChipRoster:
        """Before a game: every security chip of the box free, in roster order."""
        return cls({}, {}, tuple(u.id for u in config.units if u.kind != "bot"),
                   frozenset(u.id for u in config.units if u.kind == "bot"))

    @classmethod
    def start(cls, state: GameState, config: VisionConfig) -> ChipRoster:
        """The chips of a state taken up with no history: each unit takes the first free chip of its name."""
        return cls.empty(config).follow(state)

    def follow(self, state: GameState) -> ChipRoster:
        """The chips of the game's next state: every security unit still on the board keeps its chip; the chips of
        those gone go to the back of the free ones; each newcomer, in the state's order (the order of entry),
        takes the free chip of its name that has been free the longest, none when every one is worn. A bot's chip
        is its own (the box holds one chip of each bot)."""
        present = {u.id for u in state.security}
        chips = {b.id: b.id for b in state.bots if b.id in self.bot_chips}
        kept = {u.id: self.chips[u.id] for u in state.security if u.id in self.chips}
        released = tuple(c for u, c in self.chips.items() if u not in self.bot_chips and u not in present)
        free = [c for c in self.free if c not in kept.values()] + [c for c in released if c not in kept.values()]
        worn = dict(self.worn)
        for unit in state.security:
            chip = kept.get(unit.id)
            if chip is None:
                chip = next((c for c in free if _fits(unit, c)), None)
                if chip is None:
                    continue  # a chip the box has no sticker for, or every copy worn
                free.remove(chip)
            chips[unit.id] = worn[unit.id] = chip
        return ChipRoster(chips, worn, tuple(free), self.bot_chips)


def chips_for_state(state: GameState, config: VisionConfig) -> dict[str, str]:
    """Game unit id ("G1", "CAP", "byte") -> physical chip id for a state taken up with no history (each guard
    takes the first free chip of its name); within a game, follow it with `ChipRoster.follow` instead."""
    return dict(ChipRoster.start(state, config).chips)
