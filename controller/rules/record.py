"""The game record: the start state and every action applied since, with the faces it used and its events.

A service that holds a live game for hours stores exactly this value. Because the engine is pure and every
random result comes through the dice, the start state plus each action's recorded faces gives the same game
again, bit for bit: `replay` re-applies the entries with their recorded faces and checks each result against
the digest stored with it, so a record that no longer matches the engine says where it parts ways instead of
silently playing a different game. Undo is a replay of all entries but the last; redo re-applies the undone
entry with its own faces, so it comes out as it was the first time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Literal

import msgspec
from msgspec import Struct

from controller.rules.actions import AnyAction, apply
from controller.rules.dice import Dice, SeededDice
from controller.rules.errors import DiceWanted, RecordError, RulesError
from controller.rules.events import AnyEvent, Event
from controller.rules.state import GameState, copy_state, encode_state
from controller.rules.validate import state_problems

RECORD_VERSION = 1


class Face(Struct):
    """One result the dice gave: a die rolled ("roll") or an item drawn from a bag or deck ("draw"), by the
    die's or bag's name, the position among the faces or items offered, and that face or item as shown."""

    kind: Literal["roll", "draw"]
    die: str
    index: int
    face: str


class Entry(Struct):
    """One action as it was applied: the faces it used in order, the events it made, and the digest of the
    state after it. `seeded_rolls` is the game's roll count before the action when the faces came from the
    game's virtual dice (which advance that count), None when they were typed in at the table."""

    action: AnyAction
    faces: list[Face]
    events: list[AnyEvent]
    digest: str
    seeded_rolls: int | None = None


class GameRecord(Struct):
    """The start state, the entries applied to it in order, and the entries undone (latest undone last),
    which `redo` can put back until a new action is applied. Its parts ignore fields they do not know, so a
    record written by a later release still opens."""

    start: GameState
    entries: list[Entry] = []
    undone: list[Entry] = []
    version: int = RECORD_VERSION


def state_digest(state: GameState) -> str:
    """SHA-256 of the encoded state: equal digests mean bit-identical states."""
    return hashlib.sha256(encode_state(state)).hexdigest()


class RecordingDice:
    """Wraps any dice and notes every face they give, virtual or typed in, in order."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.faces: list[Face] = []

    @property
    def rolls(self) -> int:
        return self.inner.rolls

    def roll(self, die: str, faces: Sequence[str]) -> str:
        face = self.inner.roll(die, faces)
        self.faces.append(Face(kind="roll", die=die, index=list(faces).index(face), face=face))
        return face

    def draw(self, bag: str, items: Sequence[str]) -> int:
        k = self.inner.draw(bag, items)
        self.faces.append(Face(kind="draw", die=bag, index=k, face=items[k]))
        return k

    def game_rolls(self, seed: int) -> int | None:
        return self.inner.game_rolls(seed)

    def expect(self, dice: Sequence[DiceWanted], purpose: str) -> None:
        self.inner.expect(dice, purpose)


class ReplayDice:
    """Gives back the faces of one recorded entry, in order, and refuses a roll or draw that differs from
    the record (another die, another set of faces), which would mean the engine no longer plays this game."""

    def __init__(self, faces: Sequence[Face], entry: int, seed: int | None, rolls: int) -> None:
        self.faces = list(faces)
        self.entry = entry
        self.seed = seed  # the game's seed when the faces came from its virtual dice
        self.rolls = rolls
        self.used = 0

    def _next(self, kind: str, die: str, offered: Sequence[str]) -> int:
        if self.used >= len(self.faces):
            raise RecordError(f"entry {self.entry}: the action asks for a {die} {kind} beyond the "
                              f"{len(self.faces)} recorded")
        face = self.faces[self.used]
        if face.kind != kind or face.die != die or not 0 <= face.index < len(offered) \
                or offered[face.index] != face.face:
            raise RecordError(f"entry {self.entry}: result {self.used + 1} was recorded as {face.die} "
                              f"{face.kind} {face.face!r}, but the action now asks for a {die} {kind}")
        self.used += 1
        self.rolls += 1
        return face.index

    def roll(self, die: str, faces: Sequence[str]) -> str:
        return faces[self._next("roll", die, faces)]

    def draw(self, bag: str, items: Sequence[str]) -> int:
        return self._next("draw", bag, items)

    def game_rolls(self, seed: int) -> int | None:
        return self.rolls if self.seed == seed else None

    def expect(self, dice: Sequence[DiceWanted], purpose: str) -> None:
        return None  # a record that runs out of faces is refused face by face, naming the entry


def start_record(state: GameState) -> GameRecord:
    """A record of a game that starts from `state` (a copy is kept, so the caller may go on with its own)."""
    return GameRecord(start=copy_state(state))


def current_digest(record: GameRecord) -> str:
    return record.entries[-1].digest if record.entries else state_digest(record.start)


def record_action(record: GameRecord, state: GameState, action: AnyAction,
                  dice: Dice | None = None) -> tuple[GameState, list[Event]]:
    """Apply `action` to `state`, the record's current state, with `dice` (the game's virtual dice when
    None), and append what happened. A new action clears the redo list, as in any editor. An illegal
    action raises before the record changes."""
    if state_digest(state) != current_digest(record):
        raise RecordError(f"the state given is not the record's state after its {len(record.entries)} "
                          f"entries; replay the record to get it")
    inner = dice if dice is not None else SeededDice(state.seed, state.rolls)
    recording = RecordingDice(inner)
    seeded = inner.game_rolls(state.seed)
    new, events = apply(state, action, recording)
    record.entries.append(Entry(action=action, faces=recording.faces, events=list(events),  # type: ignore[arg-type]
                                digest=state_digest(new), seeded_rolls=seeded))
    record.undone.clear()
    return new, events


def _reapply(state: GameState, entry: Entry, number: int) -> tuple[GameState, list[Event]]:
    dice = ReplayDice(entry.faces, number, state.seed if entry.seeded_rolls is not None else None,
                      entry.seeded_rolls if entry.seeded_rolls is not None else 0)
    new, events = apply(state, entry.action, dice)
    if dice.used != len(entry.faces):
        raise RecordError(f"entry {number}: the action used {dice.used} of its {len(entry.faces)} recorded "
                          f"results")
    if state_digest(new) != entry.digest:
        raise RecordError(f"entry {number} ({entry.action.__struct_config__.tag}) replays to a different state "
                          f"than was recorded")
    if events != entry.events:
        raise RecordError(f"entry {number} ({entry.action.__struct_config__.tag}) replays with different events "
                          f"than were recorded")
    return new, events


def replay(record: GameRecord, entries: int | None = None) -> GameState:
    """The state after the first `entries` entries (all when None), each checked against its digest and its
    recorded events."""
    count = len(record.entries) if entries is None else entries
    if not 0 <= count <= len(record.entries):
        raise RecordError(f"the record has {len(record.entries)} entries, not {count}")
    state = record.start
    for number, entry in enumerate(record.entries[:count], 1):
        state, _ = _reapply(state, entry, number)
    return state


def undo(record: GameRecord) -> GameState:
    """Take back the last entry (kept for `redo`) and return the state before it."""
    if not record.entries:
        raise RecordError("there is nothing to undo: the record is at the start of the game")
    record.undone.append(record.entries.pop())
    return replay(record)


def redo(record: GameRecord, state: GameState) -> tuple[GameState, list[Event]]:
    """Re-apply the entry undone last to `state`, the record's current state, with its recorded faces."""
    if not record.undone:
        raise RecordError("there is nothing to redo: no entry has been undone since the last action")
    if state_digest(state) != current_digest(record):
        raise RecordError(f"the state given is not the record's state after its {len(record.entries)} "
                          f"entries; replay the record to get it")
    entry = record.undone[-1]
    new, events = _reapply(state, entry, len(record.entries) + 1)
    record.entries.append(record.undone.pop())
    return new, events


def check_record(record: GameRecord) -> GameState:
    """A record from outside (another table's export, a file edited by hand) checked before anything plays it:
    its version, its start state as `validate` checks a state, then every entry replayed against its digest.
    Returns the state after the last entry; any problem is one RecordError naming what is wrong."""
    if record.version != RECORD_VERSION:
        raise RecordError(f"game record: version {record.version}: this release reads version {RECORD_VERSION} "
                          f"records (export the game again from a table of this release)")
    problems = state_problems(record.start)
    if not record.start.bots:
        problems.append("bots: none; a game at a table has at least one agent")
    if problems:
        raise RecordError(f"game record: start: {'; '.join(problems)}")
    try:
        return replay(record)
    except RecordError:
        raise
    except RulesError as e:  # an illegal action, a face no die has: the record is not this engine's game
        raise RecordError(f"game record: does not replay: {e}") from None


_encoder = msgspec.json.Encoder()
# lax: a JSON schema's integer may be written 5.0, and a record's schema (GET /openapi.json) is msgspec's own, so
# the decoder takes every record that schema calls valid; what it then holds is checked by `check_record`
_decoder = msgspec.json.Decoder(GameRecord, strict=False)


def encode_record(record: GameRecord) -> bytes:
    return _encoder.encode(record)


def decode_record(data: bytes | str) -> GameRecord:
    """Decode and type-check a record; a malformed one raises RecordError naming the field."""
    try:
        return _decoder.decode(data)
    except msgspec.ValidationError as e:
        raise RecordError(f"game record: {e}") from None
    except msgspec.DecodeError as e:
        raise RecordError(f"game record: not valid JSON ({e})") from None
    except RecursionError:  # msgspec skips an unknown field's value by recursing into it
        raise RecordError("game record: nested deeper than any game record is (a file GET "
                          "/api/games/{game}/export wrote is a few levels deep)") from None
