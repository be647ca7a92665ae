"""The hint desk: "What would the table do?" and "Show threat", thought out in a worker process.

A search must never hold up the table: the event loop serves the phones and the session's writer takes the
table's changes, so the desk hands each question to one worker process (spawned once, kept warm, its imports
paid once) and answers from what that process sends back. One question is thought about at a time, within a
budget in seconds; the worker reports its progress as it goes, and a question about a position the game has
moved past is cancelled (the worker asks between futures). Answers are kept by (kind, change number, digest of
the state, budget): the same tap gets the same answer, whether it comes while the worker thinks (it joins the
question) or after (from the cache), and the search itself is reproducible for the same position, seed and
iteration budget (controller/autoplay/search/hints.py).

The worker imports the search only: it gets the state as JSON and gives back the hint or the threat map's
shares as msgspec values.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.context import SpawnProcess
from multiprocessing.queues import Queue
from multiprocessing.sharedctypes import Synchronized
from typing import Any, Literal

import msgspec

from controller.rules import Action, AnyAction, GameState

HintKind = Literal["hint", "threat"]
HintStatus = Literal["idle", "thinking", "ready", "cancelled", "failed"]
HINT_SECONDS = 1.6
"""A hint's search budget: with the worker's hand-over it answers within 2 s on a Pi 4's core
(bench/bench_hint.py); the iteration budget (HINT_ITERATIONS) usually ends it first on a laptop."""
THREAT_SAMPLES = 40
"""Sampled corporation turns of a threat overlay: shares in steps of 2.5%, within a second on a Pi's core."""
KEPT_ANSWERS = 32
"""Answers kept for a tap asked again (a few positions of each kind: the game moves on)."""
PROGRESS_STEP = 0.05
"""The worker reports progress when it has done at least this share more (twenty reports a question)."""

log = logging.getLogger(__name__)


class ThreatShare(msgspec.Struct, frozen=True, array_like=True):
    """One space's shade: the share of sampled corporation turns in which a guard stands on it, and in which a
    guard sees it (0 to 1)."""

    guard: float
    seen: float


class HintOption(msgspec.Struct, kw_only=True):
    """One of a hint's actions as the page shows it: the action (as `GET /api/legal` lists it), what it does,
    its estimated chance to win with a 95% band over `futures` sampled futures, one sentence of why, and the
    space the board marks it on (where it goes, or where its bot stands)."""

    action: AnyAction
    text: str
    chance: float
    low: float
    high: float
    futures: int
    reason: str
    trouble: str | None = None
    space: str | None = None


class HintAnswer(msgspec.Struct, kw_only=True):
    """The search's best actions (up to three, best first), the futures it played and its own seconds;
    `searched` is False when there was one sensible action only (controller/autoplay/search/hints.py's Hint)."""

    actions: list[HintOption]
    futures: int
    seconds: float
    searched: bool


class HintView(msgspec.Struct, kw_only=True):
    """The desk's answer about one kind of question: what it is doing for the position of change `number`, how
    far it is (0 to 1), and, when ready, the hint or the threat overlay's shades by space."""

    kind: HintKind
    number: int = 0
    status: HintStatus = "idle"
    progress: float = 0.0
    budget: float = 0.0
    hint: HintAnswer | None = None
    threat: dict[str, ThreatShare] | None = None
    samples: int = 0
    seconds: float = 0.0  # how long the answer took, asked to answered
    message: str | None = None  # why it failed or was cancelled, in words


Key = tuple[str, int, str, float]


@dataclass
class _Question:
    id: int
    key: Key
    view: HintView
    started: float = field(default_factory=time.monotonic)


def digest(state_json: bytes) -> str:
    """A short digest of the state's JSON: a change number alone does not name a position (a new game starts
    its numbers again)."""
    return hashlib.blake2b(state_json, digest_size=12).hexdigest()


class HintDesk:
    """Questions to the worker process and its answers. Thread-safe: the web asks from the event loop (each
    call returns at once), the session's writer says when the game moved on, a reader thread takes the answers.

    `seconds` bounds a hint's search, `samples` a threat overlay; `seed` is the search's own seed (never the
    game's)."""

    def __init__(self, *, seconds: float = HINT_SECONDS, samples: int = THREAT_SAMPLES, seed: int = 0,
                 iterations: int | None = None) -> None:
        self.seconds, self.samples, self.seed, self.iterations = seconds, samples, seed, iterations
        self._lock = threading.Lock()
        self._latest: dict[str, _Question] = {}  # the last question of each kind
        self._waiting: dict[int, _Question] = {}  # sent to the worker, not answered yet
        self._answers: OrderedDict[Key, HintView] = OrderedDict()
        self._listeners: list[Callable[[HintView], object]] = []
        self._next_id = 0
        self._context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        self._process: SpawnProcess | None = None
        self._jobs: Queue[Any] | None = None
        self._replies: Queue[Any] | None = None
        self._cancelled: Synchronized[int] | None = None  # every question up to this id is cancelled
        self._reader: threading.Thread | None = None
        self.asked = 0  # questions sent to the worker (a tap answered from the cache or joined sends none)
        self.closed = False

    # -- asking --

    def ask(self, kind: HintKind, state_json: bytes, number: int) -> HintView:
        """Start thinking about `kind` for the position (its JSON and change number), or join the same question
        already asked, or answer it from the kept answers. Returns at once."""
        if self.closed:
            raise RuntimeError("the hint desk is closed")
        budget = self.seconds if kind == "hint" else float(self.samples)
        key: Key = (kind, number, digest(state_json), budget)
        with self._lock:
            kept = self._answers.get(key)
            if kept is not None:
                self._answers.move_to_end(key)
                self._latest[kind] = _Question(-1, key, kept)
                return kept
            current = self._latest.get(kind)
            if current is not None and current.key == key and current.view.status == "thinking":
                return current.view
            if current is not None and current.view.status == "thinking":
                self._cancel(current, "another position was asked about")
            self._next_id += 1
            question = _Question(self._next_id, key, HintView(kind=kind, number=number, status="thinking",
                                                              budget=budget))
            self._latest[kind] = question
            self._waiting[question.id] = question
            self.asked += 1
            view = question.view
        self._send((question.id, kind, state_json, budget, self.seed, self.iterations))
        self._tell(view)
        return view

    def warm(self) -> bool:
        """Start the worker process now (it imports the search as it starts), so that the first question is
        answered within its budget: on a Pi the start takes several seconds. True if it was not running."""
        if self.closed:
            return False
        with self._lock:
            if self._process is not None and self._process.is_alive():
                return False
            self._start()
            return True

    def view(self, kind: HintKind) -> HintView:
        """The last question of `kind` as it stands (idle when none was asked)."""
        with self._lock:
            current = self._latest.get(kind)
            return current.view if current is not None else HintView(kind=kind)

    def moved_on(self, number: int) -> None:
        """The game is at change `number` now: a question about another position is cancelled."""
        told = []
        with self._lock:
            for question in list(self._latest.values()):
                if question.view.status == "thinking" and question.view.number != number:
                    told.append(self._cancel(question, "the game moved on"))
        for view in told:
            self._tell(view)

    def cancel(self, kind: HintKind) -> HintView:
        """Stop thinking about the last question of `kind` (a player closed it)."""
        with self._lock:
            question = self._latest.get(kind)
            if question is None or question.view.status != "thinking":
                return question.view if question is not None else HintView(kind=kind)
            view = self._cancel(question, "stopped")
        self._tell(view)
        return view

    def listen(self, callback: Callable[[HintView], object]) -> Callable[[], None]:
        """Call `callback` with a question's view each time it changes (progress, an answer, a cancel), from
        whichever thread changed it; returns the function that stops listening."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback)

    @property
    def worker_pid(self) -> int | None:
        """The worker process's id once it is running (bench/bench_hint.py holds it to a Pi's share of a core)."""
        return self._process.pid if self._process is not None and self._process.is_alive() else None

    def close(self) -> None:
        """Stop the worker process (the table is shutting down)."""
        self.closed = True
        with self._lock:
            for question in list(self._waiting.values()):
                self._cancel(question, "the table is shutting down")
        if self._jobs is not None:
            self._jobs.put(None)
        if self._process is not None:
            self._process.join(timeout=5)
            if self._process.is_alive():
                self._process.terminate()
                self._process.join(timeout=5)
        if self._reader is not None:
            assert self._replies is not None
            self._replies.put(None)
            self._reader.join(timeout=5)

    # -- the worker --

    def _cancel(self, question: _Question, why: str) -> HintView:
        """Mark `question` cancelled (the lock held) and tell the worker every question up to it is."""
        question.view = msgspec.structs.replace(question.view, status="cancelled", message=why)
        self._waiting.pop(question.id, None)
        if self._cancelled is not None:
            with self._cancelled.get_lock():
                self._cancelled.value = max(self._cancelled.value, question.id)
        return question.view

    def _send(self, job: tuple[Any, ...]) -> None:
        """Hand a question to the worker; one that died (killed, out of memory) is started again, and the questions
        it took with it fail, saying so."""
        lost: list[HintView] = []
        with self._lock:
            if self._process is not None and not self._process.is_alive():
                for question in [q for q in self._waiting.values() if q.id != job[0]]:
                    question.view = msgspec.structs.replace(question.view, status="failed",
                                                            message="the hint worker stopped: ask again")
                    self._waiting.pop(question.id)
                    lost.append(question.view)
                assert self._replies is not None
                self._replies.put(None)  # the old reader ends
            if self._process is None or not self._process.is_alive():
                self._start()
            assert self._jobs is not None
            self._jobs.put(job)
        for view in lost:
            self._tell(view)

    def _start(self) -> None:
        ctx = self._context
        self._jobs, self._replies = ctx.Queue(), ctx.Queue()
        self._cancelled = ctx.Value("q", 0)
        self._process = ctx.Process(target=_serve, args=(self._jobs, self._replies, self._cancelled),
                                    name="hint worker", daemon=True)
        self._process.start()
        replies = self._replies
        self._reader = threading.Thread(target=self._read, args=(replies,), name="hint answers", daemon=True)
        self._reader.start()

    def _read(self, replies: Queue[Any]) -> None:
        """Take the worker's reports as they come (a thread of its own: the queue's get waits)."""
        while True:
            reply = replies.get()
            if reply is None:
                return
            what, question_id, body = reply
            with self._lock:
                question = self._waiting.get(question_id)
                if question is None:  # cancelled meanwhile: its late word is not news
                    continue
                view = question.view
                if what == "progress":
                    view = msgspec.structs.replace(view, progress=body)
                elif what == "failed":
                    view = msgspec.structs.replace(view, status="failed", message=body)
                    self._waiting.pop(question_id)
                elif what == "cancelled":
                    view = msgspec.structs.replace(view, status="cancelled", message="stopped")
                    self._waiting.pop(question_id)
                else:
                    view = self._answered(question, body)
                question.view = view
            self._tell(view)

    def _answered(self, question: _Question, body: bytes) -> HintView:
        """The view of an answer (the lock held), kept for the same tap again."""
        seconds = time.monotonic() - question.started
        if question.view.kind == "hint":
            view = msgspec.structs.replace(question.view, status="ready", progress=1.0, seconds=seconds,
                                           hint=msgspec.json.decode(body, type=HintAnswer))
        else:
            shades = msgspec.json.decode(body, type=dict[str, ThreatShare])
            view = msgspec.structs.replace(question.view, status="ready", progress=1.0, seconds=seconds,
                                           threat=shades, samples=int(question.view.budget))
        self._waiting.pop(question.id)
        self._answers[question.key] = view
        while len(self._answers) > KEPT_ANSWERS:
            self._answers.popitem(last=False)
        return view

    def _tell(self, view: HintView) -> None:
        for callback in list(self._listeners):
            try:
                callback(view)
            except Exception:  # a listener's fault must not stop the answers
                log.exception("a hint listener failed")


def _serve(jobs: Queue[Any], replies: Queue[Any], cancelled: Synchronized[int]) -> None:
    """The worker process: answer each question in turn; skip one cancelled before it began."""
    from controller.autoplay.search import SearchCancelled, hint
    from controller.autoplay.search.tuning import HINT_ITERATIONS
    from controller.autoplay.threat_map import threat_map
    from controller.rules import decode_state

    while True:
        job = jobs.get()
        if job is None:
            return
        question_id, kind, state_json, budget, seed, iterations = job
        if cancelled.value >= question_id:
            replies.put(("cancelled", question_id, None))
            continue
        told = [0.0]

        def progress(share: float, question_id: int = question_id, told: list[float] = told) -> None:
            if share - told[0] >= PROGRESS_STEP:
                told[0] = share
                replies.put(("progress", question_id, round(share, 3)))

        def stop(question_id: int = question_id) -> bool:
            return bool(cancelled.value >= question_id)

        try:
            state = decode_state(state_json)
            if kind == "hint":
                found = hint(state, seconds=budget, iterations=iterations or HINT_ITERATIONS, seed=seed,
                             progress=progress, cancel=stop)
                answer = msgspec.to_builtins(found)
                for option, action in zip(answer["actions"], found.actions, strict=True):
                    option["space"] = _marked_on(state, action.action)
                replies.put(("answer", question_id, msgspec.json.encode(answer)))
            else:
                shares = threat_map(state, samples=int(budget), seed=seed).shares()
                replies.put(("answer", question_id, msgspec.json.encode(
                    {name: ThreatShare(guard, seen) for name, (guard, seen) in shares.items()})))
        except SearchCancelled:
            replies.put(("cancelled", question_id, None))
        except ValueError as err:  # the rules' word: a game over, the corporation's turn
            replies.put(("failed", question_id, str(err)))
        except Exception as err:  # the worker lives on: one bad question must not end hints for the evening
            replies.put(("failed", question_id, f"the search failed ({type(err).__name__}: {err})"))


def _marked_on(state: GameState, action: Action) -> str | None:
    """The space a hint's action is marked on: where it goes, else where its bot (or the acting agent) stands."""
    from controller.rules import active_agent

    to = getattr(action, "to", None)
    if isinstance(to, str):
        return to
    bot = getattr(action, "bot", None)
    standing = next((b.space for b in state.bots if b.id == bot), None) if isinstance(bot, str) else None
    return standing or active_agent(state).space


def attach(desk: HintDesk, number: Callable[[], int], listen: Callable[[Callable[[str], object]], object]) -> HintDesk:
    """Have `desk` cancel a question when the game moves on: `listen` is the table's news (`TableService.listen`),
    `number` its change number now."""
    listen(lambda news: desk.moved_on(number()) if news == "change" else None)
    return desk
