"""The game log on disk: every accepted change of every game, in one SQLite file.

"Nothing acknowledged is ever lost": the session writes each change here, committed with WAL and
synchronous=FULL, before it tells anyone the change happened, so a process killed at any instant restarts with
every acknowledged action. The log is append-only and numbered across the whole file: a change's number is its
SQLite rowid, never reused, which is what subscribers catch up from. Snapshots of the state are a cache for
fast recovery, checked against the digests in the log before they are trusted.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

from controller.rules import BurncycleError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    title TEXT NOT NULL,
    start BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS changes (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    game INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,
    body BLOB NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS changes_by_game ON changes (game, number);
CREATE TABLE IF NOT EXISTS snapshots (
    game INTEGER NOT NULL REFERENCES games(id),
    entries INTEGER NOT NULL,
    digest TEXT NOT NULL,
    state BLOB NOT NULL,
    PRIMARY KEY (game, entries, digest)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
STORE_VERSION = "1"
T = TypeVar("T")


class StoreError(BurncycleError):
    """The game log cannot be read or written (a full disk, a locked or damaged file): nothing was changed."""

    code = "store_error"
    status = 503


class NoSuchGame(StoreError):
    """A game number the log does not have: the request names a game that is not there, the log is fine."""

    code = "not_found"
    status = 404


class ChangeKind(StrEnum):
    """The kinds of change the game log holds, by the word written in its `kind` column (so a log written before
    this enum reads the same): the store writes them, the session's replay folds them, the web and MQTT phrase
    them, the reconciler and the dashboard's answers look at them."""

    NEW_GAME = "new_game"              # a game begun: its title and dice mode (the start state is in `games`)
    ACTION = "action"                  # one record entry: the action, the faces it read, its events and digest
    UNDO = "undo"                      # the last entry taken back (it can be redone)
    REDO = "redo"                      # the entry taken back, done again
    DICE_REQUESTED = "dice_requested"  # the engine waits for dice rolled at the table
    DICE_CANCELLED = "dice_cancelled"  # the action waiting for dice was given up
    DICE_MODE = "dice_mode"            # who rolls from now on
    RESUMED = "resumed"                # a past game made the current one again


@dataclass(frozen=True)
class Change:
    """One accepted change of the table, numbered across the whole game log (its rowid in `changes`)."""

    number: int
    game: int
    kind: ChangeKind
    body: dict[str, Any]
    created: float

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "game": self.game, "kind": self.kind.value, "created": round(self.created, 3),
                **self.body}


@dataclass(frozen=True)
class StoredGame:
    id: int
    created: float
    title: str
    start: bytes


def _explain(path: Path, e: sqlite3.Error) -> str:
    text = str(e)
    if "locked" in text or "busy" in text:
        why = "another program holds the file locked; stop it or choose another database path"
    elif "full" in text:
        why = "the disk is full; free some space, nothing was lost"
    elif "readonly" in text or "read-only" in text:
        why = "the file or its folder is read-only for this user"
    elif "not a database" in text or "malformed" in text:
        why = "the file is not a burncycle-table game log (or it is damaged)"
    elif "unable to open" in text:
        why = "the folder does not exist or cannot be written"
    else:
        why = text
    return f"game log {path}: {why} ({text})"


def _kind(word: str) -> ChangeKind:
    try:
        return ChangeKind(word)
    except ValueError:
        raise StoreError(f"a change of kind {word!r} in the game log: this release knows "
                         f"{', '.join(k.value for k in ChangeKind)} (was the file written by a later one?)") from None


class GameStore:
    """One SQLite file holding every game of this table, with one connection: it belongs to the session's writer
    thread, which alone reads and writes it (a read on a connection shared with a write in progress would see
    rows not yet committed); nothing else opens the file while the service runs (tests/test_architecture.py)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.last_error: str | None = None
        try:
            self._db = sqlite3.connect(str(self.path), timeout=2.0, isolation_level=None,
                                       check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            version = self._db.execute("SELECT value FROM meta WHERE key='version'").fetchone()
            if version is None:
                self._db.execute("INSERT INTO meta VALUES ('version', ?)", (STORE_VERSION,))
            elif version[0] != STORE_VERSION:
                raise StoreError(f"game log {self.path}: written by log format {version[0]}, this release reads "
                                 f"format {STORE_VERSION}")
        except sqlite3.Error as e:
            raise StoreError(_explain(self.path, e)) from None

    def close(self) -> None:
        self._db.close()

    def _write(self, fn: Callable[[], T]) -> T:
        """Run `fn` in one transaction, committed to disk before returning; a failure is kept in `last_error`
        (the health page shows it) until a write succeeds again."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                out = fn()
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        except sqlite3.Error as e:
            self.last_error = _explain(self.path, e)
            raise StoreError(self.last_error) from None
        self.last_error = None
        return out

    # -- writes: each one transaction, committed (and on disk) when the call returns --

    def add_game(self, title: str, start: bytes, body: dict[str, Any]) -> tuple[StoredGame, Change]:
        """A new game and its first change (`ChangeKind.NEW_GAME`), and make it the table's current game."""
        now = time.time()

        def do() -> tuple[StoredGame, Change]:
            game = int(self._db.execute("INSERT INTO games (created, title, start) VALUES (?, ?, ?)",
                                        (now, title, start)).lastrowid or 0)
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('current', ?)", (str(game),))
            change = self._insert(game, ChangeKind.NEW_GAME, body, now)
            return StoredGame(game, now, title, start), change
        return self._write(do)

    def append(self, game: int, kind: ChangeKind, body: dict[str, Any]) -> Change:
        return self._write(lambda: self._insert(game, kind, body, time.time()))

    def append_many(self, game: int, items: list[tuple[ChangeKind, dict[str, Any]]]) -> list[Change]:
        now = time.time()
        return self._write(lambda: [self._insert(game, k, b, now) for k, b in items])

    def _insert(self, game: int, kind: ChangeKind, body: dict[str, Any], now: float) -> Change:
        data = json.dumps(body, separators=(",", ":")).encode()
        number = int(self._db.execute("INSERT INTO changes (game, kind, body, created) VALUES (?, ?, ?, ?)",
                                      (game, kind.value, data, now)).lastrowid or 0)
        return Change(number, game, kind, body, now)

    def save_snapshot(self, game: int, entries: int, digest: str, state: bytes) -> None:
        """A cache for recovery; losing one costs time, never data, so a failure here is not raised."""
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?)", (game, entries, digest, state))

    def set_current(self, game: int) -> None:
        self._write(lambda: self._db.execute("INSERT OR REPLACE INTO meta VALUES ('current', ?)", (str(game),)))

    # -- reads --

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as e:
            raise StoreError(_explain(self.path, e)) from None

    def current_game(self) -> int | None:
        row = self._read("SELECT value FROM meta WHERE key='current'")
        return int(row[0][0]) if row else None

    def game(self, game: int) -> StoredGame:
        rows = self._read("SELECT id, created, title, start FROM games WHERE id=?", (game,))
        if not rows:
            raise NoSuchGame(f"game log {self.path}: there is no game {game}")
        return StoredGame(*rows[0])

    def games(self) -> list[StoredGame]:
        return [StoredGame(*r) for r in self._read("SELECT id, created, title, start FROM games ORDER BY id")]

    def changes(self, game: int | None = None, after: int = 0, limit: int | None = None) -> list[Change]:
        """Changes with a number above `after`, oldest first, of one game or of all."""
        sql = "SELECT number, game, kind, body, created FROM changes WHERE number > ?"
        args: tuple[Any, ...] = (after,)
        if game is not None:
            sql += " AND game = ?"
            args += (game,)
        sql += " ORDER BY number"
        if limit is not None:
            sql += " LIMIT ?"
            args += (limit,)
        return [Change(n, g, _kind(k), json.loads(b), c) for n, g, k, b, c in self._read(sql, args)]

    def latest(self, kind: ChangeKind) -> Change | None:
        """The last change of one kind, of any game (the dice mode the players chose last)."""
        rows = self._read("SELECT number, game, kind, body, created FROM changes WHERE kind = ? "
                          "ORDER BY number DESC LIMIT 1", (kind.value,))
        return Change(rows[0][0], rows[0][1], _kind(rows[0][2]), json.loads(rows[0][3]), rows[0][4]) if rows else None

    def last_number(self) -> int:
        row = self._read("SELECT MAX(number) FROM changes")
        return int(row[0][0] or 0)

    def snapshots(self, game: int) -> list[tuple[int, str, bytes]]:
        """(entries, digest, state) of the game's snapshots, the latest first."""
        return list(self._read("SELECT entries, digest, state FROM snapshots WHERE game=? ORDER BY entries DESC",
                               (game,)))
