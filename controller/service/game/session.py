"""The game session: the one writer of the table's live game.

Everything that changes the game (the reconciler seeing a chip move, a dashboard button, an MQTT command, a
physical button, the command line) calls this one object, so every change passes the same legality checks (the
engine's) and lands in the same log. A change is acknowledged (the method returns) only once it is committed to
the game log on disk; it then gets the next number and every watcher is told. Readers never block the writer:
they are woken, and pull what they missed with `changes_since(number)`, from memory while it is recent and from
the log when a slow reader fell behind, so a phone on bad Wi-Fi costs the table nothing.

One writer. Every change runs on the session's own thread, the writer, one at a time and in the order it was
handed over; the writer alone holds the game log's SQLite connection, for its reads as for its writes. A caller
on another thread (a web request, the camera's) waits for the result (`write`; the change methods below do it
for it); code on the event loop awaits it (`call`) or hands a change over without waiting (`submit`, a button
press), so the loop never waits for a lock or an fsync. It is a thread with a queue (a one-thread
`ThreadPoolExecutor`: a FIFO queue and futures) rather than `asyncio.to_thread` under one lock because the queue
keeps the order changes were handed over in (a button's press, then an MQTT command, run in that order, where
threads racing for a lock do not), and because a connection with one owner never lets a read on another thread
see a write's transaction before it is committed. The writer builds each change on copies, commits it, and only
then takes the session's lock, for as long as it takes to put the new game in place and number the change;
readers (`state`, `status`, the recent changes) take the same lock for as long as a read. So a reader never
waits for a write to reach the disk, and never sees a change that is not on it.

Dice come in two kinds. With virtual dice the engine rolls the game's seeded dice. With physical dice the
players roll at the table: the session applies the action with the faces it has, and when the engine needs more
it records a dice request ("Casing's move action: still needed: 1 pressure die, 5 basic dice") that any input
(the dashboard, MQTT, a button sequence) answers with `supply_faces`, each face checked against its die as it is
given; the action is applied once it has them all, with every face in the log.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, TypeVar

import msgspec

from controller.rules import (
    BurncycleError,
    DiceNeeded,
    DiceWanted,
    GameState,
    RulesError,
    ScriptedDice,
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
from controller.service.game.store import Change, ChangeKind, GameStore, StoreError

__all__ = ["Change", "ChangeKind", "DiceMode", "DiceRequest", "GameSession", "SessionError", "game_title"]
DiceMode = Literal["virtual", "physical"]
SNAPSHOT_EVERY = 50  # entries between snapshots: recovery replays at most this many actions
RECENT = 4096        # changes kept in memory for readers catching up
T = TypeVar("T")


class SessionError(BurncycleError):
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


@dataclass(frozen=True)
class _Game:
    """The live game as readers see it: replaced whole by the writer at each change, never changed in place (its
    record's lists included), so a reader may keep one and read it at leisure."""

    id: int
    title: str
    record: GameRecord
    state: GameState
    dice_mode: DiceMode = "virtual"
    pending_dice: DiceRequest | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _builtins(value: Any) -> Any:
    return msgspec.to_builtins(value)


def _copy(record: GameRecord) -> GameRecord:
    """A record the writer may change (the engine's `record_action` and `redo` append to it) while readers keep
    the one they have."""
    return msgspec.structs.replace(record, entries=list(record.entries), undone=list(record.undone))


def game_title(state: GameState) -> str:
    """A game's title for the list of games: its mission and floor."""
    return f"{state.mission.name} on {state.floor.name}"


class GameSession:
    """The live game of one table, durable in a `GameStore`; thread-safe: every change runs on the session's
    writer thread (the module's docstring says why), every read takes the session's lock for as long as a read."""

    def __init__(self, store: GameStore) -> None:
        self._store = store
        self._lock = threading.RLock()
        self._watchers: list[Callable[[Change], object]] = []
        self._log_watchers: list[Callable[[str | None], object]] = []
        self._recent: deque[Change] = deque(maxlen=RECENT)
        self._game: _Game | None = None
        self._number = 0
        self._log_error: str | None = None
        self._closed = False
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="game-writer")
        self._writer_thread = self._writer.submit(threading.get_ident).result()
        try:
            self.write(self._open)
        except BaseException:
            self._writer.shutdown()
            raise

    @classmethod
    def open(cls, path: str) -> GameSession:
        return cls(GameStore(path))

    def close(self) -> None:
        """Finish the changes handed over, then close the game log; a change asked for after is a SessionError."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._writer.submit(self._store.close).result()
        self._writer.shutdown()

    # -- the writer --

    def write(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` run on the writer, behind every change handed over before it: what it returns, or what it
        raises. On the writer's own thread (a change that makes another, a button press) it runs at once."""
        if threading.get_ident() == self._writer_thread:
            return self._run(fn, *args)
        return self.submit(fn, *args).result()

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """Hand `fn(*args)` to the writer without waiting: its future is done once it ran. The writer's own code
        must never wait for such a future (it would wait for itself)."""
        try:
            if self._closed:
                raise RuntimeError
            return self._writer.submit(self._run, fn, *args)
        except RuntimeError:
            raise SessionError(f"the game log {self.path} is closed: the table is stopping") from None

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """For code on the event loop: `fn(*args)` on the writer, the loop going on meanwhile."""
        return await asyncio.wrap_future(self.submit(fn, *args))

    def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """One job of the writer; then, when the game log's health changed (a write failed, or one succeeded
        again after a failure), its watchers hear it."""
        try:
            return fn(*args)
        finally:
            error = self._store.last_error
            if error != self._log_error:
                with self._lock:
                    self._log_error = error
                    watchers = list(self._log_watchers)
                for callback in watchers:
                    callback(error)

    def _open(self) -> None:
        number, current = self._store.last_number(), self._store.current_game()
        game = self._load(current) if current is not None else None
        with self._lock:
            self._number, self._game = number, game

    # -- reading --

    @property
    def path(self) -> Path:
        """The game log's file."""
        return self._store.path

    @property
    def last_error(self) -> str | None:
        """Why the last write to the game log failed, until one succeeds again (the health page shows it)."""
        with self._lock:
            return self._log_error

    @property
    def number(self) -> int:
        """The number of the last accepted change."""
        with self._lock:
            return self._number

    @property
    def game_id(self) -> int | None:
        with self._lock:
            return self._game.id if self._game else None

    @property
    def state(self) -> GameState:
        return self._current().state

    @property
    def record(self) -> GameRecord:
        return self._current().record

    @property
    def dice_mode(self) -> DiceMode:
        return self._current().dice_mode

    @property
    def pending_dice(self) -> DiceRequest | None:
        return self._current().pending_dice

    def has_game(self) -> bool:
        with self._lock:
            return self._game is not None

    def status(self) -> dict[str, Any]:
        """What a dashboard needs beside the state: the game, the last change, dice and undo availability."""
        with self._lock:
            g, number = self._game, self._number
        if g is None:
            return {"game": None, "number": number}
        return {"game": g.id, "title": g.title, "number": number, "entries": len(g.record.entries),
                "can_undo": bool(g.record.entries), "can_redo": bool(g.record.undone),
                "dice_mode": g.dice_mode,
                "pending_dice": g.pending_dice.to_dict() if g.pending_dice else None,
                "digest": state_digest(g.state)}

    def changes_since(self, number: int, limit: int = 1000) -> list[Change]:
        """Every change numbered above `number`, oldest first (at most `limit`): from memory while recent,
        from the log (read by the writer) for a reader that fell far behind."""
        recent = self._recent_after(number, limit)
        return recent if recent is not None else self.write(self._store.changes, None, number, limit)

    def changes_of(self, game: int) -> list[Change]:
        """Every change of one game, oldest first, from the log (read by the writer): what a reader that takes up
        a game already under way (after a restart) folds to know what the table showed."""
        return self.write(self._store.changes, game)

    async def changes_after(self, number: int, limit: int = 1000) -> list[Change]:
        """`changes_since` for code on the event loop: a far-behind reader's read of the log is awaited."""
        recent = self._recent_after(number, limit)
        return recent if recent is not None else await self.call(self._store.changes, None, number, limit)

    def _recent_after(self, number: int, limit: int) -> list[Change] | None:
        with self._lock:
            if self._recent and self._recent[0].number <= number + 1:
                return [c for c in self._recent if c.number > number][:limit]
            if number >= self._number:
                return []
        return None

    def watch(self, callback: Callable[[Change], object]) -> Callable[[], None]:
        """Call `callback(change)` after each accepted change, from the writer's thread, in order; it must only
        wake its reader (set an event), never block. Returns the function that stops the watching."""
        return self._add(self._watchers, callback)

    def watch_log(self, callback: Callable[[str | None], object]) -> Callable[[], None]:
        """Call `callback(error)` from the writer's thread when the game log's health changes: the words of a
        write that failed, or None once one succeeds again. Returns the function that stops the watching."""
        return self._add(self._log_watchers, callback)

    def _add(self, watchers: list[Callable[[T], object]], callback: Callable[[T], object]) -> Callable[[], None]:
        with self._lock:
            watchers.append(callback)

        def unwatch() -> None:
            with self._lock:
                if callback in watchers:
                    watchers.remove(callback)
        return unwatch

    async def follow(self, after: int) -> AsyncIterator[Change]:
        """Every change after `after`, then each new one as it comes, for an asyncio reader."""
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        unwatch = self.watch(lambda _: loop.call_soon_threadsafe(wake.set))
        last = after
        try:
            while True:
                wake.clear()
                batch = await self.changes_after(last)
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
        title, record, _, _ = self.write(self._fold, game)
        return title, record

    def games(self) -> list[dict[str, Any]]:
        """Every game in the log, the current one marked."""
        current = self.game_id
        return [{"id": g.id, "title": g.title, "created": round(g.created, 3), "current": g.id == current}
                for g in self.write(self._store.games)]

    def export_game(self, game: int | None = None) -> bytes:
        """One game's record as one JSON file, for another table's `import_game`."""
        with self._lock:
            g = self._game
        if game is None or (g is not None and game == g.id):
            return encode_record(self._current().record)
        return encode_record(self.write(self._load, game).record)

    # -- changing the game: each on the writer --

    def start_game(self, start: GameState, title: str | None = None, dice_mode: DiceMode = "virtual") -> Change:
        """Begin a new game from a starting state (made by the engine's `new_game`); it becomes the table's
        current game, and the ones before stay in the log."""
        return self.write(self._start_game, start, title or game_title(start), dice_mode)

    def apply(self, action: AnyAction, faces: list[str] | None = None) -> Change:
        """Apply one action for whoever is to act; `faces` are dice the players rolled, in the order the engine
        reads them. An illegal action raises IllegalAction with the rule and changes nothing."""
        return self.write(self._apply, action, faces, None)

    def corporation_turn(self) -> Change:
        """The corporation's turn, as the engine's own action (refused when it is not the corporation's turn)."""
        return self.apply(CorporationTurn())

    def supply_faces(self, faces: list[str]) -> Change:
        """Faces rolled at the table for the pending dice request, in the order it lists the dice (some or all of
        them); the action is applied once it has enough. A face that is not on its die is refused as it is
        given (BadFace), before any is kept, so the request stays as it was."""
        return self.write(self._supply_faces, faces)

    def cancel_dice(self) -> Change:
        """Give up the action that waits for dice (the players chose another)."""
        return self.write(self._cancel_dice)

    def set_dice_mode(self, mode: DiceMode) -> Change:
        if mode not in ("virtual", "physical"):
            raise SessionError(f"dice mode {mode!r}: expected 'virtual' (the engine rolls) or 'physical' "
                               f"(the players roll and type in the faces)")
        return self.write(self._set_dice_mode, mode)

    def chosen_dice_mode(self) -> DiceMode | None:
        """The dice mode the players chose last, in any game of the log (None: they never chose): a table keeps
        it for its new games until they choose again."""
        chosen = self.write(self._store.latest, ChangeKind.DICE_MODE)
        return chosen.body["dice_mode"] if chosen is not None else None

    def undo(self) -> Change:
        """Take back the last action (it can be redone until a new action is applied), across restarts."""
        return self.write(self._undo)

    def redo(self) -> Change:
        return self.write(self._redo)

    def import_game(self, data: bytes) -> Change:
        """A game exported by any table: checked as `validate` checks a state and replayed to its digests, then
        made the current game; a record that fails any check changes nothing."""
        record = decode_record(data)
        final = check_record(record)  # (the caller's thread replays it: the writer only writes it)
        return self.write(self._import_game, record, final)

    def switch_game(self, game: int) -> Change:
        """Make a past game the current one again (to finish it, or to undo into it)."""
        return self.write(self._switch_game, game)

    # -- the writer's side: the only code that reads and writes the game log --

    def _start_game(self, start: GameState, title: str, dice_mode: DiceMode) -> Change:
        stored, change = self._store.add_game(title, encode_state(start), {"title": title, "dice_mode": dice_mode})
        return self._commit(_Game(stored.id, title, GameRecord(start=start), start, dice_mode), change)

    def _apply(self, action: AnyAction, faces: list[str] | None, given_for: list[str] | None) -> Change:
        g = self._require()
        physical = g.dice_mode == "physical"
        dice = ScriptedDice(faces or [], action_purpose(g.state, action),
                            given_for) if (faces is not None or physical) else None
        record = _copy(g.record)
        try:
            new, _ = record_action(record, g.state, action, dice)
        except DiceNeeded as e:
            if dice is None:
                raise
            return self._ask_for_dice(g, action, faces or [], [] if given_for is None and not faces else given_for, e)
        except RecordError as e:
            raise SessionError(f"the game log and the engine disagree: {e}") from None
        stored = self._store.append(g.id, ChangeKind.ACTION, {"entry": _builtins(record.entries[-1])})
        return self._commit(self._snapshot(replace(g, record=record, state=new, pending_dice=None)), stored)

    def _supply_faces(self, faces: list[str]) -> Change:
        g = self._require()
        if g.pending_dice is None:
            raise SessionError("no dice are asked for now: the game is not waiting for a roll")
        if not faces:
            raise SessionError("no faces given: type in the faces rolled, in order")
        request = g.pending_dice
        check_faces(request.wanted(), faces)
        action = msgspec.convert(request.action, AnyAction, strict=False)
        return self._apply(action, *request.answered_with(faces))

    def _cancel_dice(self) -> Change:
        g = self._require()
        if g.pending_dice is None:
            raise SessionError("no dice are asked for now")
        stored = self._store.append(g.id, ChangeKind.DICE_CANCELLED, {})
        return self._commit(replace(g, pending_dice=None), stored)

    def _set_dice_mode(self, mode: DiceMode) -> Change:
        g = self._require()
        stored = self._store.append(g.id, ChangeKind.DICE_MODE, {"dice_mode": mode})
        return self._commit(replace(g, dice_mode=mode), stored)

    def _undo(self) -> Change:
        g = self._require()
        if not g.record.entries:
            raise SessionError("there is nothing to undo: the game is at its start")
        before = self._state_after(g, len(g.record.entries) - 1)
        undone = g.record.entries[-1]
        stored = self._store.append(g.id, ChangeKind.UNDO, {"action": _builtins(undone.action)})
        record = msgspec.structs.replace(g.record, entries=g.record.entries[:-1], undone=[*g.record.undone, undone])
        return self._commit(replace(g, record=record, state=before, pending_dice=None), stored)

    def _redo(self) -> Change:
        g = self._require()
        if not g.record.undone:
            raise SessionError("there is nothing to redo: no action was undone since the last one")
        record = _copy(g.record)
        try:
            new, _ = redo(record, g.state)
        except RecordError as e:
            raise SessionError(f"the game log and the engine disagree: {e}") from None
        stored = self._store.append(g.id, ChangeKind.REDO, {"action": _builtins(record.entries[-1].action)})
        return self._commit(self._snapshot(replace(g, record=record, state=new, pending_dice=None)), stored)

    def _import_game(self, record: GameRecord, final: GameState) -> Change:
        title = game_title(record.start)
        stored, first = self._store.add_game(title, encode_state(record.start),
                                             {"title": title, "dice_mode": "virtual", "imported": True})
        changes = self._store.append_many(stored.id, [(ChangeKind.ACTION, {"entry": _builtins(e)})
                                                      for e in record.entries])
        game = _Game(stored.id, title, GameRecord(start=record.start, entries=list(record.entries)), final)
        return self._commit(self._snapshot(game), first, *changes)

    def _switch_game(self, game: int) -> Change:
        loaded = self._load(game)
        self._store.set_current(game)
        stored = self._store.append(game, ChangeKind.RESUMED, {"title": loaded.title})
        return self._commit(loaded, stored)

    def _ask_for_dice(self, g: _Game, action: AnyAction, faces: list[str], given_for: list[str] | None,
                      needed: DiceNeeded) -> Change:
        request = DiceRequest.from_body({"action": _builtins(action), "faces": list(faces), "message": str(needed),
                                         "dice": _builtins(needed.dice), "purpose": needed.purpose,
                                         "given_for": given_for})
        stored = self._store.append(g.id, ChangeKind.DICE_REQUESTED, request.log_body())
        return self._commit(replace(g, pending_dice=request), stored)

    def _commit(self, game: _Game, *changes: Change) -> Change:
        """Put the game as the changes (already on disk) made it in place, number them, then tell the watchers,
        in order, on this thread (the writer's), outside the lock so a watcher may read the session."""
        with self._lock:
            self._game = game
            self._number = changes[-1].number
            self._recent.extend(changes)
            watchers = list(self._watchers)
        for change in changes:
            for callback in watchers:
                try:
                    callback(change)
                except Exception:  # a broken reader must never stop the table
                    with self._lock:
                        if callback in self._watchers:
                            self._watchers.remove(callback)
        return changes[-1]

    def _current(self) -> _Game:
        with self._lock:
            return self._require()

    def _require(self) -> _Game:
        if self._game is None:
            raise NoGame("there is no game yet: start a new game first")
        return self._game

    def _snapshot(self, g: _Game) -> _Game:
        """`g`, its state saved beside the log every SNAPSHOT_EVERY entries (a shortcut for recovery)."""
        n = len(g.record.entries)
        if n and n % SNAPSHOT_EVERY == 0:
            self._store.save_snapshot(g.id, n, g.record.entries[-1].digest, encode_state(g.state))
        return g

    def _state_after(self, g: _Game, entries: int) -> GameState:
        """The state after the first `entries` entries: from the latest snapshot at or before them that still
        matches the log, replaying the rest with their digests checked."""
        return _replay_from_snapshots(self._store, g.id, g.record, entries)

    def _load(self, game: int) -> _Game:
        """A game rebuilt from the log alone: its record folded from the changes, its state from a checked
        snapshot plus the entries after it."""
        title, record, mode, pending = self._fold(game)
        try:
            state = _replay_from_snapshots(self._store, game, record, len(record.entries))
        except RecordError as e:
            raise StoreError(f"game log {self._store.path}: game {game} does not replay: {e}") from None
        return _Game(game, title, record, state, mode, pending)

    def _fold(self, game: int) -> tuple[str, GameRecord, DiceMode, DiceRequest | None]:
        """A game's title, record, dice mode and pending dice request, folded from its changes in the log."""
        stored = self._store.game(game)
        try:
            start = decode_state(stored.start)
        except RulesError as e:
            raise StoreError(f"game log {self._store.path}: game {game}'s start state cannot be read: {e}") from None
        record = GameRecord(start=start)
        mode: DiceMode = "virtual"
        pending: DiceRequest | None = None
        for c in self._store.changes(game=game):
            if c.kind is ChangeKind.NEW_GAME:
                mode = c.body.get("dice_mode", "virtual")
            elif c.kind is ChangeKind.ACTION:
                record.entries.append(msgspec.convert(c.body["entry"], Entry, strict=False))
                record.undone.clear()
                pending = None
            elif c.kind is ChangeKind.UNDO:
                record.undone.append(record.entries.pop())
                pending = None
            elif c.kind is ChangeKind.REDO:
                record.entries.append(record.undone.pop())
                pending = None
            elif c.kind is ChangeKind.DICE_REQUESTED:
                pending = DiceRequest.from_body(c.body)
            elif c.kind is ChangeKind.DICE_CANCELLED:
                pending = None
            elif c.kind is ChangeKind.DICE_MODE:
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

