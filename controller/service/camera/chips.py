"""The table's one assignment of physical chips to the game's units, along the game's record.

Which sticker a unit wears (tracker-1 or tracker-2 for a Tracker) is no rule of the game, so the state does not
say; it is decided step by step by `vision.roster.ChipRoster.follow` (a unit keeps its chip while it is on the
board, a newcomer takes the free chip of its name free the longest). Stepped once per entry of the game's
record, from its start, the chips are a function of the record alone: whoever follows the record (the
reconciler, the demo's hands and rendered camera) comes to the same chips, however many changes it takes in at a
time; an undo gives back the chips from before the entry; and a restart, which rebuilds the record from the game
log in SQLite, gives back the chips from before it. Nothing else needs storing.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.rules import GameState
from controller.rules.record import Entry, GameRecord, replay, state_digest
from vision.config import VisionConfig
from vision.roster import ChipRoster


class ChipLedger:
    """Follows one game's record (and any other game's, from its start, when handed one) and keeps the chips
    after each of its entries, so following it again after a few more entries, or after an undo, costs only the
    entries that changed: one replay of each new entry by the engine. Not thread-safe: one owner calls it."""

    def __init__(self, config: VisionConfig) -> None:
        self.config = config
        self._start: GameState | None = None
        self._start_digest = ""
        self._rosters: list[ChipRoster] = []  # the chips at the start, then after each entry followed
        self._digests: list[str] = []         # the digest of each entry followed, in order
        self._entries: list[Entry] = []       # the entries of the record last followed
        self._state: GameState | None = None  # the state after the entries followed, once known

    def follow(self, record: GameRecord, states: Sequence[GameState] | None = None) -> ChipRoster:
        """The chips after the last entry of `record`. `states`, when the caller has replayed the record already
        (a reconciler taking up a game walks its log), is the state after each of its entries, used instead of
        replaying them a second time: taking up a long game after a restart costs one replay, not two."""
        start = record.start
        if states is not None and len(states) != len(record.entries):
            raise ValueError(f"the chip ledger was given {len(states)} states for a record of "
                             f"{len(record.entries)} entries")
        if start is not self._start:
            digest = state_digest(start)
            if digest != self._start_digest:  # another game: from its start
                self._start_digest, self._rosters, self._digests = digest, [ChipRoster.start(start, self.config)], []
                self._state = start
            self._start = start
        entries = record.entries
        k = 0
        while k < min(len(self._digests), len(entries)) and self._digests[k] == entries[k].digest:
            k += 1
        if k < len(self._digests):  # undone (and maybe played otherwise since): back to the chips before
            del self._digests[k:], self._rosters[k + 1:]
            self._state = start if k == 0 else None
        self._entries = list(entries)
        if k < len(entries):
            state = self.state if states is None or k == 0 else states[k - 1]
            for n, entry in enumerate(entries[k:], k):
                state = replay(GameRecord(start=state, entries=[entry])) if states is None else states[n]
                self._rosters.append(self._rosters[-1].follow(state))
                self._digests.append(entry.digest)
            self._state = state
        return self._rosters[-1]

    @property
    def state(self) -> GameState:
        """The state the chips last followed are of (replayed from the start after an undo, when asked for)."""
        if self._start is None:
            raise ValueError("the chip ledger has followed no game yet")
        if self._state is None:
            self._state = replay(GameRecord(start=self._start, entries=self._entries[:len(self._digests)]))
        return self._state
