"""Who may do what: anyone on the table's network watches; changing the game needs the table's PIN.

A correct PIN (`POST /api/session`) earns an HttpOnly, SameSite=Strict session cookie; the `Player` dependency
guards every state-changing route (a valid cookie, an Origin that is the table's own, a table that is not
read-only) and `Watcher` guards what only the people at the table should see (the camera picture shows them).
Wrong PINs are limited per client address: a few tries, then a wait that doubles with each further wrong PIN, so
guessing a 6-digit PIN from a phone on the venue's Wi-Fi takes years. A guesser with many addresses (a
laptop that takes a new one per try) meets the limit of the whole table: past TABLE_FREE_TRIES wrong PINs from
anyone, logins pause for everyone, for a wait that doubles in the same way; phones already logged in play on,
and the table's owner lifts the pause with a long press of the "next" button (`lift`). Every refusal is an
error of the project's one tree (web/errors.py), which the app answers with the JSON body every endpoint
answers with: `{"error": code, "message": ...}`.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request, Response, WebSocket
from pydantic import BaseModel, ConfigDict, Field

from web.errors import BadOrigin, PinRequired, ReadOnly, TooManyTries, WrongPin

COOKIE = "burncycle_session"
FREE_TRIES = 5          # wrong PINs a client may type before it has to wait
FIRST_WAIT_S = 2.0      # the first wait; each further wrong PIN doubles it
LONGEST_WAIT_S = 3600.0
MOST_SESSIONS = 256     # phones logged in at once; the oldest session goes first beyond this
MOST_CLIENTS = 4096     # client addresses whose wrong tries are remembered
TABLE_FREE_TRIES = 20   # wrong PINs from all addresses together before every login waits
TABLE_QUIET_S = 3600.0  # an hour without a wrong PIN forgets the table's count


def new_pin() -> str:
    """A random 6-digit PIN for a table whose config sets none (printed by `run` and `demo` at start)."""
    return f"{secrets.randbelow(10**6):06d}"


@dataclass
class _Tries:
    wrong: int = 0
    wait_until: float = 0.0


class TableAuth:
    """The PIN, the sessions it opened and each client's wrong tries; one per app (`app.state.auth`).

    `clock` is the monotonic clock the waits are measured on (a test steps it instead of sleeping). FastAPI runs
    the routes in a thread pool, so the sessions and tries change under one lock."""

    def __init__(self, pin: str, *, read_only: bool = False, clock: Callable[[], float] = time.monotonic) -> None:
        self.pin, self.read_only, self.clock = pin, read_only, clock
        self._sessions: OrderedDict[str, None] = OrderedDict()
        self._tries: OrderedDict[str, _Tries] = OrderedDict()
        self._table = _Tries()           # every client's wrong PINs together
        self._table_last_wrong = 0.0
        self._lock = threading.Lock()
        self.boot = secrets.token_hex(8)  # sessions live in memory: a new run forgets them, and says so

    def log_in(self, client: str, pin: str) -> str:
        """A new session token for a correct PIN; a wrong one raises `wrong_pin` or `too_many_tries`."""
        with self._lock:
            return self._log_in(client, pin)

    def _log_in(self, client: str, pin: str) -> str:
        now = self.clock()
        paused = self._table.wait_until - now
        if paused > 0:  # not even checked: a paused table gives a guesser nothing, right or wrong
            raise self._too_many(paused, table=True)
        tries = self._tries.get(client, _Tries())
        wait = tries.wait_until - now
        if wait > 0:
            raise self._too_many(wait)
        if hmac.compare_digest(pin.encode(), self.pin.encode()):
            self._tries.pop(client, None)
            token = secrets.token_urlsafe(32)
            self._sessions[token] = None
            while len(self._sessions) > MOST_SESSIONS:
                self._sessions.popitem(last=False)
            return token
        self._count_for_table(now)
        tries.wrong += 1
        self._tries[client] = tries
        self._tries.move_to_end(client)
        while len(self._tries) > MOST_CLIENTS:
            self._tries.popitem(last=False)
        left = FREE_TRIES - tries.wrong
        if left > 0:
            raise WrongPin(f"wrong PIN: {left} {'try' if left == 1 else 'tries'} left before a "
                           f"wait; the PIN is printed by the table service at start", tries_left=left)
        seconds = min(FIRST_WAIT_S * 2 ** (-left), LONGEST_WAIT_S)
        tries.wait_until = self.clock() + seconds
        raise self._too_many(seconds)

    def _count_for_table(self, now: float) -> None:
        """One more wrong PIN at the table; past TABLE_FREE_TRIES every login waits, longer with each one."""
        if now - self._table_last_wrong > TABLE_QUIET_S:
            self._table = _Tries()
        self._table_last_wrong = now
        self._table.wrong += 1
        over = self._table.wrong - TABLE_FREE_TRIES
        if over > 0:
            self._table.wait_until = now + min(FIRST_WAIT_S * 2 ** (over - 1), LONGEST_WAIT_S)

    def lift(self) -> bool:
        """The owner, at the table (a long press of "next"), lifts the pause of logins and every device's wait;
        True when there was one to lift (then the press does nothing else)."""
        with self._lock:
            paused = self._table.wait_until > self.clock()
            self._table = _Tries()
            self._tries.clear()
            return paused

    def log_out(self, token: str | None) -> None:
        if token is not None:
            with self._lock:
                self._sessions.pop(token, None)

    def is_player(self, token: str | None) -> bool:
        return token is not None and token in self._sessions

    @staticmethod
    def _too_many(seconds: float, *, table: bool = False) -> TooManyTries:
        whole = max(1, int(seconds + 0.999))
        message = (f"too many wrong PINs at this table: logins are paused for everyone for {whole} s (phones "
                   f"already logged in play on); the table's owner lifts the pause with a long press of the next "
                   f"button" if table else f"too many wrong PINs from this device: try again in {whole} s")
        return TooManyTries(message, headers={"Retry-After": str(whole)}, retry_after=whole, tries_left=0)


def auth_of(request: Request) -> TableAuth:
    auth: TableAuth = request.app.state.auth
    return auth


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def origin_refusal(headers: Mapping[str, str]) -> BadOrigin | None:
    """A browser names the page that sent a request in `Origin`: one from another site (a page a player opened
    elsewhere, posting to the table behind their back) is refused. Requests without it (curl, scripts) pass."""
    origin = headers.get("origin")
    if origin is None:
        return None
    host = headers.get("host", "")
    seen = urlsplit(origin).netloc if "://" in origin else origin
    if seen.lower() == host.lower():
        return None
    return BadOrigin(f"Origin {origin!r} is not this table ({host or 'no Host header'}): "
                    f"changes are only taken from the table's own page")


def check_origin(request: Request) -> None:
    refusal = origin_refusal(request.headers)
    if refusal is not None:
        raise refusal


def check_websocket_origin(websocket: WebSocket) -> BadOrigin | None:
    return origin_refusal(websocket.headers)


def require_watcher(request: Request) -> None:
    if not auth_of(request).is_player(request.cookies.get(COOKIE)):
        raise PinRequired("this needs the table's PIN: type it on the page (the table service "
                       "prints it when it starts)")


def require_player(request: Request) -> None:
    check_origin(request)
    if auth_of(request).read_only:
        raise ReadOnly("this table is read-only (web.read_only): the game can be watched, "
                       "not changed")
    require_watcher(request)


Player = Annotated[None, Depends(require_player)]
Watcher = Annotated[None, Depends(require_watcher)]


class Login(BaseModel):
    """The table's PIN, as printed by the service at start (or set as web.pin)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"pin": "482913"}]})
    pin: str = Field(min_length=1, max_length=64, description="the table's PIN")


class SessionState(BaseModel):
    player: bool = Field(description="this client's session may change the game")
    read_only: bool = Field(description="the table refuses every change (a spectators' table)")
    boot: str = Field(description="this run of the table service: another value after a reconnect means it "
                      "restarted, and every session it had opened is gone")


router = APIRouter(prefix="/api", tags=["session"])


@router.post("/session", summary="Log in with the table's PIN: sets the session cookie",
             responses={401: {"description": "wrong PIN"}, 429: {"description": "too many wrong PINs: wait"}})
def log_in(login: Login, request: Request, response: Response) -> dict[str, bool]:
    check_origin(request)
    token = auth_of(request).log_in(_client(request), login.pin)
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
    return {"player": True}


@router.delete("/session", summary="Log out: the session cookie is forgotten")
def log_out(request: Request, response: Response) -> dict[str, bool]:
    check_origin(request)
    auth_of(request).log_out(request.cookies.get(COOKIE))
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
    return {"player": False}


@router.get("/session", summary="Whether this client may change the game, and whether the table is read-only")
def session_state(request: Request) -> SessionState:
    auth = auth_of(request)
    return SessionState(player=auth.is_player(request.cookies.get(COOKIE)), read_only=auth.read_only, boot=auth.boot)
