"""The game session: the one writer of the table's live game.

Everything that changes the game (the reconciler seeing a chip move, a dashboard button, an MQTT command, a
physical button, the command line) calls this one object, so every change passes the same legality checks (the
engine's) and lands in the same log. A change is acknowledged (the method returns) only once it is committed to
the game log on disk; it then gets the next number and every watcher is told. Readers never block the writer:
they are woken, and pull what they missed with `changes_since(number)`, from memory while it is recent and from
the log when a slow reader fell behind, so a phone on bad Wi-Fi costs the table nothing.

Dice come in two kinds. With virtual dice the engine rolls the game's seeded dice. With physical dice the
players roll at the table: the session applies the action with the faces it has, and when the engine needs more
it records a dice request ("Casing's move action: still needed: 1 pressure die, 5 basic dice") that any input
(the dashboard, MQTT, a button sequence) answers with `supply_faces`, each face checked against its die as it is
given; the action is applied once it has them all, with every face in the log.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from controller.rules import (
    DiceNeeded,
    DiceWanted,
    GameState,
    RulesError,
    ScriptedDice,
    TableError,
    decode_state,
    encode_state,
)
from controller.rules.actions import AnyAction, CorporationTurn
from controller.rules.dice import check_faces
from controller.rules.phrasing import action_purpose
from controller.rules.record import (
    Entry,
    GameRecord,
    RecordError,
    check_record,
    decode_record,
    encode_record,
    record_action,
    redo,
    replay,
    state_digest,
)
from controller.service.game.store import Change, GameStore, StoreError

DiceMode = Literal["virtual", "physical"]
SNAPSHOT_EVERY = 50  # entries between snapshots: recovery replays at most this many actions
RECENT = 4096        # changes kept in memory for readers catching up


class SessionError(TableError):
    """A request the session cannot carry out now (nothing to undo, no dice asked for)."""

    code = "refused"
    status = 409


class NoGame(SessionError):
    """A request that needs a game before any game was started."""

    code = "no_game"
    status = 404


@dataclass(frozen=True)
class DiceRequest:
    """The engine stopped for want of dice the players roll at the table: which dice are still needed, how many
    and what each can show (`dice`, e.g. [{"die": "basic die", "count": 3, "faces": [...]}], in reading order),
    for what (`purpose`), and the faces already given (`faces`), with the die each was given for (`given_for`;
    None for faces given without one, which are read in order)."""

    action: dict[str, Any]
    faces: list[str]
    message: str
    dice: list[dict[str, Any]]
    purpose: str
    given_for: list[str] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The request as `status.pending_dice` shows it (docs/http-api.md, dice requests)."""
        return {"action": self.action, "faces": list(self.faces), "message": self.message,
                "dice": [dict(d) for d in self.dice], "purpose": self.purpose}

    def log_body(self) -> dict[str, Any]:
        """The request as the log keeps it: what the status shows, and the die each face was given for."""
        return {**self.to_dict(), "given_for": self.given_for}

    def answered_with(self, faces: list[str]) -> tuple[list[str], list[str] | None]:
        """The faces given so far and then `faces`, each for the die the request lists in its place, with the
        die each is for (None when earlier faces were given without theirs)."""
        slots = [d["die"] for d in self.dice for _ in range(d["count"])]
        given_for = None if self.given_for is None else self.given_for + slots[:len(faces)]
        return self.faces + list(faces), given_for

    def wanted(self) -> list[DiceWanted]:
        """The dice still needed, as the engine named them."""
        return [DiceWanted(die=d["die"], count=d["count"], faces=tuple(d["faces"])) for d in self.dice]

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> DiceRequest:
        """The request as the log holds it (a `dice_requested` change's body): the live session and its replay
        both build it this way, so they hold the same request."""
        dice = [{"die": d["die"], "count": d["count"], "faces": list(d.get("faces", ()))} for d in body["dice"]]
        given_for = body.get("given_for", None if body["faces"] else [])  # (logged before faces said their die)
        return cls(body["action"], list(body["faces"]), body["message"], dice, body["purpose"],
                   None if given_for is None else list(given_for))


@dataclass
class _Game:
    id: int
    title: str
    record: GameRecord
    state: GameState
    dice_mode: DiceMode = "virtual"
    pending_dice: DiceRequest | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _builtins(value: Any) -> Any:
    return msgspec.to_builtins(value)


def game_title(state: GameState) -> str:
    """A game's title for the list of games: its mission and floor."""
    return f"{state.mission.name} on {state.floor.name}"


class GameSession:
    """The live game of one table, durable in a `GameStore`; thread-safe (one lock around every change)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._lock = threading.RLock()
        self._watchers: list[Callable[[Change], None]] = []
        self._recent: deque[Change] = deque(maxlen=RECENT)
        self._game: _Game | None = None
        self.number = store.last_number()
        current = store.current_game()
        if current is not None:
            self._game = self._load(current)

    @classmethod
    def open(cls, path: str) -> GameSession:
        return cls(GameStore(path))

    def close(self) -> None:
        self.store.close()

    # -- reading --

    @property
    def game_id(self) -> int | None:
        return self._game.id if self._game else None

    @property
    def state(self) -> GameState:
        return self._require().state

    @property
    def record(self) -> GameRecord:
        return self._require().record

    @property
    def dice_mode(self) -> DiceMode:
        return self._require().dice_mode

    @property
    def pending_dice(self) -> DiceRequest | None:
        return self._require().pending_dice

    def has_game(self) -> bool:
        return self._game is not None

    def status(self) -> dict[str, Any]:
        """What a dashboard needs beside the state: the game, the last change, dice and undo availability."""
        with self._lock:
            g = self._game
            if g is None:
                return {"game": None, "number": self.number}
            return {"game": g.id, "title": g.title, "number": self.number, "entries": len(g.record.entries),
                    "can_undo": bool(g.record.entries), "can_redo": bool(g.record.undone),
                    "dice_mode": g.dice_mode,
                    "pending_dice": g.pending_dice.to_dict() if g.pending_dice else None,
                    "digest": state_digest(g.state)}

    def changes_since(self, number: int, limit: int = 1000) -> list[Change]:
        """Every change numbered above `number`, oldest first (at most `limit`): from memory while recent,
        from the log for a reader that fell far behind."""
        with self._lock:
            recent = list(self._recent)
        if recent and recent[0].number <= number + 1:
            return [c for c in recent if c.number > number][:limit]
        return self.store.changes(after=number, limit=limit)

    def watch(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        """Call `callback(change)` after each accepted change, from the writer's thread, in order; it must only
        wake its reader (set an event), never block. Returns the function that stops the watching."""
        with self._lock:
            self._watchers.append(callback)

        def unwatch() -> None:
            with self._lock:
                if callback in self._watchers:
                    self._watchers.remove(callback)
        return unwatch

    async def follow(self, after: int) -> AsyncIterator[Change]:
        """Every change after `after`, then each new one as it comes, for an asyncio reader."""
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        unwatch = self.watch(lambda _: loop.call_soon_threadsafe(wake.set))
        last = after
        try:
            while True:
                batch = self.changes_since(last)
                if not batch:
                    wake.clear()
                    batch = self.changes_since(last)
                    if not batch:
                        await wake.wait()
                        continue
                for change in batch:
                    last = change.number
                    yield change
        finally:
            unwatch()

    def record_of(self, game: int) -> tuple[str, GameRecord]:
        """Any game's title and record, the current one's or a past one's from the log (read-only: for the
        post-game summary and the replay; the live game is not touched). An unknown game is a StoreError."""
        with self._lock:
            g = self._game
            if g is not None and g.id == game:
                return g.title, GameRecord(start=g.record.start, entries=list(g.record.entries))
        title, record, _, _ = self._fold(game)
        return title, record

    def games(self) -> list[dict[str, Any]]:
        """Every game in the log, the current one marked."""
        current = self.game_id
        return [{"id": g.id, "title": g.title, "created": round(g.created, 3), "current": g.id == current}
                for g in self.store.games()]

    # -- changing the game --

    def start_game(self, start: GameState, title: str | None = None, dice_mode: DiceMode = "virtual") -> Change:
        """Begin a new game from a starting state (made by the engine's `new_game`); it becomes the table's
        current game, and the ones before stay in the log."""
        with self._lock:
            title = title or game_title(start)
            stored, change = self.store.add_game(title, encode_state(start), {"title": title, "dice_mode": dice_mode})
            self._game = _Game(stored.id, title, GameRecord(start=start), start, dice_mode)
            return self._publish(change)

    def apply(self, action: AnyAction, faces: list[str] | None = None) -> Change:
        """Apply one action for whoever is to act; `faces` are dice the players rolled, in the order the engine
        reads them. An illegal action raises IllegalAction with the rule and changes nothing."""
        return self._apply(action, faces, None)

    def _apply(self, action: AnyAction, faces: list[str] | None, given_for: list[str] | None) -> Change:
        with self._lock:
            g = self._require()
            physical = g.dice_mode == "physical"
            dice = ScriptedDice(faces or [], action_purpose(g.state, action),
                                given_for) if (faces is not None or physical) else None
            undone = list(g.record.undone)
            try:
                new, _ = record_action(g.record, g.state, action, dice)
            except DiceNeeded as e:
                if dice is None:
                    raise
                return self._ask_for_dice(g, action, faces or [], [] if given_for is None and not faces else given_for,
                                          e)
            except RecordError as e:
                raise SessionError(f"the game log and the engine disagree: {e}") from None
            entry = g.record.entries[-1]
            try:
                stored = self.store.append(g.id, "action", {"entry": _builtins(entry)})
            except StoreError:
                g.record.entries.pop()
                g.record.undone[:] = undone
                raise
            g.state, g.pending_dice = new, None
            self._maybe_snapshot(g)
            return self._publish(stored)

    def corporation_turn(self) -> Change:
        """The corporation's turn, as the engine's own action (refused when it is not the corporation's turn)."""
        return self.apply(CorporationTurn())

    def supply_faces(self, faces: list[str]) -> Change:
        """Faces rolled at the table for the pending dice request, in the order it lists the dice (some or all of
        them); the action is applied once it has enough. A face that is not on its die is refused as it is
        given (BadFace), before any is kept, so the request stays as it was."""
        with self._lock:
            g = self._require()
            if g.pending_dice is None:
                raise SessionError("no dice are asked for now: the game is not waiting for a roll")
            if not faces:
                raise SessionError("no faces given: type in the faces rolled, in order")
            request = g.pending_dice
            check_faces(request.wanted(), faces)
            action = msgspec.convert(request.action, AnyAction, strict=False)  # type: ignore[arg-type]
            return self._apply(action, *request.answered_with(faces))

    def cancel_dice(self) -> Change:
        """Give up the action that waits for dice (the players chose another)."""
        with self._lock:
            g = self._require()
            if g.pending_dice is None:
                raise SessionError("no dice are asked for now")
            stored = self.store.append(g.id, "dice_cancelled", {})
            g.pending_dice = None
            return self._publish(stored)

    def set_dice_mode(self, mode: DiceMode) -> Change:
        if mode not in ("virtual", "physical"):
            raise SessionError(f"dice mode {mode!r}: expected 'virtual' (the engine rolls) or 'physical' "
                               f"(the players roll and type in the faces)")
        with self._lock:
            g = self._require()
            stored = self.store.append(g.id, "dice_mode", {"dice_mode": mode})
            g.dice_mode = mode
            return self._publish(stored)

    def undo(self) -> Change:
        """Take back the last action (it can be redone until a new action is applied), across restarts."""
        with self._lock:
            g = self._require()
            if not g.record.entries:
                raise SessionError("there is nothing to undo: the game is at its start")
            before = self._state_after(g, len(g.record.entries) - 1)
            undone_entry = g.record.entries[-1]
            stored = self.store.append(g.id, "undo", {"action": _builtins(undone_entry.action)})
            g.record.undone.append(g.record.entries.pop())
            g.state, g.pending_dice = before, None
            return self._publish(stored)

    def redo(self) -> Change:
        with self._lock:
            g = self._require()
            if not g.record.undone:
                raise SessionError("there is nothing to redo: no action was undone since the last one")
            try:
                new, _ = redo(g.record, g.state)
            except RecordError as e:
                raise SessionError(f"the game log and the engine disagree: {e}") from None
            try:
                stored = self.store.append(g.id, "redo", {"action": _builtins(g.record.entries[-1].action)})
            except StoreError:
                g.record.undone.append(g.record.entries.pop())
                raise
            g.state, g.pending_dice = new, None
            self._maybe_snapshot(g)
            return self._publish(stored)

    # -- games in and out --

    def export_game(self, game: int | None = None) -> bytes:
        """One game's record as one JSON file, for another table's `import_game`."""
        with self._lock:
            if game is None or game == self.game_id:
                return encode_record(self._require().record)
        return encode_record(self._load(game).record)

    def import_game(self, data: bytes) -> Change:
        """A game exported by any table: checked as `validate` checks a state and replayed to its digests, then
        made the current game; a record that fails any check changes nothing."""
        record = decode_record(data)
        final = check_record(record)
        with self._lock:
            title = game_title(record.start)
            stored, first = self.store.add_game(title, encode_state(record.start),
                                                {"title": title, "dice_mode": "virtual", "imported": True})
            changes = self.store.append_many(stored.id, [("action", {"entry": _builtins(e)}) for e in record.entries])
            self._game = _Game(stored.id, title, GameRecord(start=record.start, entries=list(record.entries)), final)
            self._publish(first)
            for c in changes:
                self._publish(c)
            self._maybe_snapshot(self._game)
            return changes[-1] if changes else first

    def switch_game(self, game: int) -> Change:
        """Make a past game the current one again (to finish it, or to undo into it)."""
        with self._lock:
            loaded = self._load(game)
            self.store.set_current(game)
            stored = self.store.append(game, "resumed", {"title": loaded.title})
            self._game = loaded
            return self._publish(stored)

    # -- inside --

    def _require(self) -> _Game:
        if self._game is None:
            raise NoGame("there is no game yet: start a new game first")
        return self._game

    def _ask_for_dice(self, g: _Game, action: AnyAction, faces: list[str], given_for: list[str] | None,
                      needed: DiceNeeded) -> Change:
        request = DiceRequest.from_body({"action": _builtins(action), "faces": list(faces), "message": str(needed),
                                         "dice": _builtins(needed.dice), "purpose": needed.purpose,
                                         "given_for": given_for})
        stored = self.store.append(g.id, "dice_requested", request.log_body())
        g.pending_dice = request
        return self._publish(stored)

    def _publish(self, change: Change) -> Change:
        self.number = change.number
        self._recent.append(change)
        for callback in list(self._watchers):
            try:
                callback(change)
            except Exception:  # a broken reader must never stop the table
                self._watchers.remove(callback)
        return change

    def _maybe_snapshot(self, g: _Game) -> None:
        n = len(g.record.entries)
        if n and n % SNAPSHOT_EVERY == 0:
            self.store.save_snapshot(g.id, n, g.record.entries[-1].digest, encode_state(g.state))

    def _state_after(self, g: _Game, entries: int) -> GameState:
        """The state after the first `entries` entries: from the latest snapshot at or before them that still
        matches the log, replaying the rest with their digests checked."""
        return _replay_from_snapshots(self.store, g.id, g.record, entries)

    def _load(self, game: int) -> _Game:
        """A game rebuilt from the log alone: its record folded from the changes, its state from a checked
        snapshot plus the entries after it."""
        title, record, mode, pending = self._fold(game)
        try:
            state = _replay_from_snapshots(self.store, game, record, len(record.entries))
        except RecordError as e:
            raise StoreError(f"game log {self.store.path}: game {game} does not replay: {e}") from None
        return _Game(game, title, record, state, mode, pending)

    def _fold(self, game: int) -> tuple[str, GameRecord, DiceMode, DiceRequest | None]:
        """A game's title, record, dice mode and pending dice request, folded from its changes in the log."""
        stored = self.store.game(game)
        try:
            start = decode_state(stored.start)
        except RulesError as e:
            raise StoreError(f"game log {self.store.path}: game {game}'s start state cannot be read: {e}") from None
        record = GameRecord(start=start)
        mode: DiceMode = "virtual"
        pending: DiceRequest | None = None
        for c in self.store.changes(game=game):
            if c.kind == "new_game":
                mode = c.body.get("dice_mode", "virtual")
            elif c.kind == "action":
                record.entries.append(msgspec.convert(c.body["entry"], Entry, strict=False))
                record.undone.clear()
                pending = None
            elif c.kind == "undo":
                record.undone.append(record.entries.pop())
                pending = None
            elif c.kind == "redo":
                record.entries.append(record.undone.pop())
                pending = None
            elif c.kind == "dice_requested":
                pending = DiceRequest.from_body(c.body)
            elif c.kind == "dice_cancelled":
                pending = None
            elif c.kind == "dice_mode":
                mode = c.body["dice_mode"]
        return stored.title, record, mode, pending


def _replay_from_snapshots(store: GameStore, game: int, record: GameRecord, entries: int) -> GameState:
    for n, digest, blob in store.snapshots(game):
        if 0 < n <= entries and record.entries[n - 1].digest == digest:
            try:
                base = decode_state(blob)
            except RulesError:
                continue  # a damaged snapshot is only a lost shortcut
            if state_digest(base) != digest:
                continue
            return replay(GameRecord(start=base, entries=record.entries[n:entries]))
    return replay(record, entries)

