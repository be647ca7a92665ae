"""The reconciler: what the camera sees, held against the game.

Players move chips with their hands; the game moves only through the engine. The reconciler turns what the
camera is sure of into the engine's actions, and everything else into something the table shows:

- A bot the camera sees on a new space during a move action becomes the engine's `Step`s: along the spaces the
  camera saw it cross, or, when it was lifted and put down, along the cheapest legal way (found with the engine
  itself, `bot_ways.py`). Cheapest ways that differ in what happens become a question with the ways as options.
- Whatever the engine refuses becomes a question naming its rule, and the chip shows as misplaced until it is put
  back or the players correct the game. The game never changes on a refusal.
- Every change the camera did not make (the corporation's turn, an undo, a correction, a dashboard action) becomes
  instructions ("move Pacer G1 from K4 to H4, facing west") that are ticked off when the camera sees them done.
- Only a new confirmed sighting ever moves a unit: a standing disagreement (after a correction, say) shows as
  misplaced and is never "fixed" by moving the game back. So corrections win over the camera.
- Doubtful sightings (between spaces, an unknown marker, a hand over the board) never change the game: they are
  questions.

Which sticker each unit wears (tracker-1 or tracker-2 for a Tracker) is the table's one assignment along the game's
record (chips.py): a unit keeps its chip while it is on the board, so a guard shut down never hands its chip to a
namesake, and the chips come back the same after an undo or a restart.

`observe` is called from the camera thread, `answer` and `correct` from the web or MQTT side, `view` from any
reader (the live feed reads it on the event loop). Two locks: the turn lets one of the reconciler's own writes run
at a time (a frame, an answer, a correction), and the picture lock keeps its picture whole, held only while the
picture is read or changed in memory, never while the session writes to the disk or a route is searched. Meanwhile
a reader gets the view published before the write (the picture is in between: the reconciler's own move would
look like someone else's), and is told (`on_news`) once the write has landed, so reading never waits for a write.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

import msgspec

from controller.rules import GameRecord, GameState
from controller.rules.actions import Correct
from controller.rules.errors import BurncycleError, RecordError
from controller.rules.record import Entry, replay
from controller.service.camera.bot_ways import MAX_STEPS, Route, RouteSearch, adjacent, cheapest, follow
from controller.service.camera.chips import ChipLedger
from controller.service.camera.reconciler_view import (
    COMPASS,
    Instruction,
    Misplaced,
    Place,
    Question,
    ReconcilerView,
    place_text,
)
from controller.service.game.session import Change, ChangeKind, GameSession
from vision.config import VisionConfig
from vision.observation import Observation, UnitState
from vision.roster import ChipRoster


class ReconcilerError(BurncycleError):
    """An answer that does not fit an open question."""

    code = "refused"


@dataclass
class _Trail:
    """One bot chip's confirmed spaces since the camera and the game last agreed."""

    last: str | None                   # the chip's confirmed space when last looked at
    spaces: list[str] = field(default_factory=list)
    lifted: bool = False               # unseen since its last confirmed space
    jumped: bool = False               # lifted somewhere along the trail: the camera did not see the way


@dataclass(frozen=True)
class _Choice:
    question: Question
    unit: str
    routes: tuple[Route, ...]
    number: int                        # the session's change number when asked


@dataclass(frozen=True)
class _Refusal:
    question: Question
    unit: str
    space: str                         # where the camera sees the chip


def placements(state: GameState) -> dict[str, Place | None]:
    """Game unit -> where its chip belongs: bots by space only, security units by space and facing."""
    out: dict[str, Place | None] = {b.id: (b.space, None) if b.on_board and b.space else None for b in state.bots}
    out.update({u.id: (u.space, u.facing) for u in state.security})
    return out


def unit_names(state: GameState) -> dict[str, str]:
    return {**{b.id: b.name for b in state.bots}, **{u.id: f"{u.chip} {u.id}" for u in state.security}}


def _is_corporation_turn(change: Change) -> bool:
    return change.kind is ChangeKind.ACTION and change.body["entry"]["action"]["action"] == "corporation_turn"


class Reconciler:
    """Feeds the session what the camera is sure of and keeps the `ReconcilerView` of everything else."""

    def __init__(self, session: GameSession, config: VisionConfig | None = None, max_steps: int = MAX_STEPS,
                 *, watched: bool = True) -> None:
        self.session = session
        self.config = config or VisionConfig()
        self.max_steps = max_steps
        # a camera watches the board (it ticks instructions off); with none, nothing can, so a new corporation
        # turn takes the players to have carried out the last one's and its own replace them
        self.watched = watched
        self._turn = threading.Lock()  # one of the reconciler's own writes at a time
        self._lock = threading.Lock()  # the picture: never held while the session writes or a route is searched
        self._away = False  # a write or a search runs with the picture unlocked: readers get `_published`
        self._behind = False  # a reader got `_published` while away: news once the write has landed
        self._listeners: list[Callable[[], object]] = []
        self._seq = 0
        self._ledger = ChipLedger(self.config)  # which chip each unit wears, along the game's record
        self._observation: Observation | None = None
        self._reset(None)
        with self._lock:
            self._sync()
            self._published = self._view()

    # -- the API --

    def on_news(self, callback: Callable[[], object]) -> None:
        """Call `callback()` (on the writer's thread) when a reader was given the view from before one of the
        reconciler's writes: the view it read is out of date now that the write has landed."""
        self._listeners.append(callback)

    def observe(self, observation: Observation) -> ReconcilerView:
        """Fold in one stable observation from the temporal filter; returns the view after it."""
        with self._writing():
            self._sync()
            # the filter updates its unit states in place, frame after frame: keep this frame's own copy
            observation = replace(observation, units={c: replace(u) for c, u in observation.units.items()})
            self._observation = observation
            if self._game is not None and observation.status.level != "error":
                state = self.session.state
                for bot in state.bots:
                    if bot.on_board and bot.id in self._chips:
                        self._follow(bot.id, observation)
            self._tick(observation)
            return self._view()

    def answer(self, question_id: str, option: int | str) -> ReconcilerView:
        """The players' answer to a question: which way a bot went (a route question), or that the game is wrong
        and the chip is right (a refused move; that is a correction)."""
        with self._writing():
            self._sync()
            choice = self._choices.get(question_id)
            refusal = next((r for r in self._refused.values() if r.question.id == question_id), None)
            if choice is None and refusal is None:
                if any(q.id == question_id for q in self._vision_questions()):
                    raise ReconcilerError(f"question {question_id!r} is about what the camera sees and needs no "
                                          f"answer: it clears when the chip stands squarely on a space")
                answerable = [q.question.id for q in self._choices.values()]
                answerable += [r.question.id for r in self._refused.values()]
                raise ReconcilerError(f"question {question_id!r} is not open (open now: {', '.join(answerable) or 'none'}"
                                      f"): it was answered, or the chip moved since")
            question = choice.question if choice is not None else refusal.question  # type: ignore[union-attr]
            index = _option_index(question, option)
            if refusal is not None:
                self._correct(refusal.unit, refusal.space, None)
                return self._view()
            assert choice is not None
            del self._choices[question_id]
            route = choice.routes[index]
            if self.session.number != choice.number:  # the game moved on since the question: check the way again
                again = follow(self.session.state, choice.unit, list(route.spaces[1:]))
                if again.refusal is not None:
                    self._refuse(choice.unit, route.spaces[0], route.spaces[-1], again.refusal)
                    return self._view()
                route = again.routes[0]
            self._apply(choice.unit, route)
            return self._view()

    def correct(self, unit: str, space: str, facing: str | None = None) -> Change:
        """The players' word on where a unit stands (logged as the engine's `Correct`); it wins over the camera."""
        with self._writing():
            return self._correct(unit, space, facing)

    @property
    def view(self) -> ReconcilerView:
        """The view now; while one of the reconciler's writes is under way, the view from before it (and news
        once it has landed). It never waits for the session's writer."""
        with self._lock:
            if self._away:
                self._behind = True
            else:
                self._sync()
                self._published = self._view()
            return self._published

    # -- the two locks --

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """One of the reconciler's own writes: its turn and the picture lock taken; the view published after it,
        and a reader that was given the one from before it told."""
        with self._turn:
            with self._lock:
                try:
                    yield
                finally:
                    self._published = self._view()
                    behind, self._behind = self._behind, False
            if behind:
                for callback in list(self._listeners):
                    callback()

    @contextlib.contextmanager
    def _unlocked(self) -> Iterator[None]:
        """Within `_writing`: run a session write or a route search with the picture unlocked, so a reader does
        not wait for it (it gets the published view). The turn is still held: no other write of the reconciler's
        changes the picture meanwhile."""
        self._away = True
        self._lock.release()
        try:
            yield
        finally:
            self._lock.acquire()
            self._away = False

    def _correct(self, unit: str, space: str, facing: str | None) -> Change:
        with self._unlocked():
            change = self.session.apply(Correct(unit=unit, space=space, facing=facing))  # type: ignore[arg-type]
        self._settle(unit)
        self._trails.pop(unit, None)
        self._sync()
        return change

    # -- keeping up with the game --

    def _reset(self, game: int | None) -> None:
        self._game = game
        self._state: GameState | None = None
        self._number = self.session.number
        self._known: dict[str, Place | None] = {}
        self._names: dict[str, str] = {}
        self._bots: set[str] = set()
        self._roster = ChipRoster.empty(self.config)  # the chips after the session's last entry
        self._chips: dict[str, str] = {}       # game unit -> chip, also for units gone (their chip may still be on)
        self._trails: dict[str, _Trail] = {}
        self._instructions: dict[str, Instruction] = {}
        self._refused: dict[str, _Refusal] = {}
        self._choices: dict[str, _Choice] = {}
        self._observation = None

    def _sync(self) -> None:
        """Take in every change the camera did not make: each unit it moved becomes an instruction."""
        s = self.session
        game = s.game_id
        if game is None:
            if self._game is not None:
                self._reset(None)
            return
        number, state = s.number, s.state
        if game != self._game:
            self._reset(game)
            self._number = number
            self._recall(game, number)
            self._take(state)
            return
        if number == self._number:
            return
        changes = s.changes_since(self._number)
        corporation = any(_is_corporation_turn(c) for c in changes)
        self._number = number
        self._roster = self._ledger.follow(s.record)
        if not self.watched and any(_is_corporation_turn(c) for c in changes[1:]) and self._state is not None \
                and all(c.kind is not ChangeKind.UNDO and c.kind is not ChangeKind.REDO for c in changes):
            # changes read together with a corporation turn among them, not first: what came before it is replaced
            # by it, so the list depends on their order: take them in one by one, each state replayed from its entry
            now, states = self._state, []
            try:
                for change in changes:
                    if change.kind is ChangeKind.ACTION:
                        entry = msgspec.convert(change.body["entry"], Entry, strict=False)
                        now = replay(GameRecord(start=now, entries=[entry]))
                        states.append((now, _is_corporation_turn(change)))
            except RecordError:  # the state last taken was read a change later than its number: take it whole
                states = [(state, True)]
            for now, corporation in states:
                self._moved(now, corporation, keep_pending=False)
            self._take(state)
            return
        self._moved(state, corporation, keep_pending=self.watched)

    def _recall(self, game: int, number: int) -> None:
        """The instructions the game's log leaves for the players, for a game this reconciler takes up with its
        changes already made (the service restarted, a past game resumed or imported): the log's changes taken
        in one by one as `_sync` takes them live, each one's state from the engine's replay of its entry. What
        the camera ticked off is not in the log: every corporation turn replaces the instructions before it, so
        the last one's moves (and what changed since) come back, not yet ticked; a camera ticks them again as it
        sees them done. The chips follow the record on the states this walk replayed (its entries are the ones
        the walk ends with), so the game is replayed once."""
        record = self.session.record
        states: list[GameState] = [record.start]
        walk: list[tuple[GameState, bool]] = []  # the state after each change, and whether it was a corporation turn
        done: list[Entry] = []
        undone: list[Entry] = []
        for change in self.session.changes_of(game):
            if change.number > number:
                break
            if change.kind is ChangeKind.ACTION:
                done.append(msgspec.convert(change.body["entry"], Entry, strict=False))
                undone.clear()
            elif change.kind is ChangeKind.UNDO and done:
                undone.append(done.pop())
                states.pop()
            elif change.kind is ChangeKind.REDO and undone:
                done.append(undone.pop())
            else:
                continue
            if len(states) <= len(done):
                states.append(replay(GameRecord(start=states[-1], entries=[done[-1]])))
            walk.append((states[-1], _is_corporation_turn(change)))
        self._roster = self._ledger.follow(record, states[1:])
        self._known = placements(record.start)
        self._names.update(unit_names(record.start))
        for state, corporation in walk:
            self._moved(state, corporation, keep_pending=False)

    def _moved(self, state: GameState, corporation: bool, *, keep_pending: bool) -> None:
        """Take in the game's new `state`: each unit it moved becomes an instruction. A new corporation turn
        first drops the instructions before it: those ticked off, or all of them (`keep_pending` false) when
        nothing can tick them off."""
        old = self._known
        self._take(state)
        if corporation:
            self._instructions = {u: i for u, i in self._instructions.items() if keep_pending and not i.done}
        for unit in sorted(set(old) | set(self._known)):
            was, now = old.get(unit), self._known.get(unit)
            if was == now:
                continue
            self._trails.pop(unit, None)
            self._settle(unit)
            prior = self._instructions.pop(unit, None)
            if prior is not None and not prior.done:  # the chip has not moved yet: it still stands where it was
                was = prior.was
            if was != now:  # (an undo before anyone moved the chip leaves nothing to do)
                self._instructions[unit] = Instruction(unit, self._instruction_text(unit, was, now), was, now)

    def _take(self, state: GameState) -> None:
        self._state = state  # the state the picture was last taken from (changes read together replay from it)
        self._known = placements(state)
        self._names.update(unit_names(state))
        self._bots = {b.id for b in state.bots}
        # the chips after the session's last entry, also for a state taken in on the way there (its units are on
        # the board now or have left since: all are in `worn`); a unit gone keeps the chip it wore, which stands
        # on the board until the players take it off, unless a unit on the board wears that chip now
        on = self._roster.chips
        gone = {u: c for u, c in self._roster.worn.items() if u not in on and c not in on.values()}
        self._chips = {**gone, **on}

    def _instruction_text(self, unit: str, was: Place | None, now: Place | None) -> str:
        name = self._names.get(unit, unit)
        if now is None:
            assert was is not None  # called only for a unit whose place changed
            return f"take {name} off the board (it was at {was[0]})"
        if was is None:
            return f"put {name} on {place_text(now)}"
        if was[0] == now[0]:
            return f"turn {name} on {now[0]} to face {COMPASS.get(now[1] or '', now[1])}"
        return f"move {name} from {was[0]} to {place_text(now)}"

    # -- bots the camera sees move --

    def _follow(self, unit: str, observation: Observation) -> None:
        seen = observation.units.get(self._chips[unit])
        if seen is None:
            return
        trail = self._trails.get(unit)
        if trail is None or trail.last is None:  # the first confirmed place of a chip is where it stands, no move
            self._trails[unit] = _Trail(seen.space)
            return
        if not seen.seen:
            trail.lifted = True
            return
        if seen.doubt is not None or seen.space is None or seen.space == trail.last:
            return
        trail.last = seen.space
        expected = self._known.get(unit)
        if expected is not None and seen.space == expected[0]:  # put back where the game has it
            trail.spaces.clear()
            trail.lifted = trail.jumped = False
            self._settle(unit)
            return
        trail.jumped |= trail.lifted
        trail.lifted = False
        trail.spaces.append(seen.space)
        if expected is not None:
            self._move(unit, expected[0], trail)

    def _move(self, unit: str, start: str, trail: _Trail) -> None:
        state = self.session.state
        way = [start, *trail.spaces]
        crossed = not trail.jumped and all(adjacent(state, a, b) for a, b in zip(way, way[1:]))
        with self._unlocked():
            found: RouteSearch = (follow(state, unit, trail.spaces) if crossed
                                  else cheapest(state, unit, trail.spaces[-1], self.max_steps))
        self._settle(unit)  # a new sighting replaces any older question about this chip
        if found.refusal is not None:
            self._refuse(unit, start, trail.spaces[-1], found.refusal)
        elif len(found.routes) == 1:
            self._apply(unit, found.routes[0])
        else:
            name = self._names.get(unit, unit)
            question = Question(self._next_id("route"), "route",
                                f"{name} went from {start} to {trail.spaces[-1]}: the cheapest legal ways differ in "
                                f"what happens; which way did it go?",
                                tuple(r.in_words(self.session.state) for r in found.routes), unit)
            self._choices[question.id] = _Choice(question, unit, found.routes, self.session.number)

    def _apply(self, unit: str, route: Route) -> None:
        for step in route.steps:
            try:
                with self._unlocked():
                    change = self.session.apply(step)
            except BurncycleError as e:  # the engine (or the log) refuses: nothing of this step happened
                self._refuse(unit, route.spaces[0], route.spaces[-1], str(e))
                break
            if change.kind is ChangeKind.DICE_REQUESTED:  # the rest waits for the faces rolled at the table
                break
        trail = self._trails.get(unit)
        if trail is not None:
            trail.spaces.clear()
            trail.jumped = trail.lifted = False
        self._known[unit] = placements(self.session.state).get(unit)
        self._instructions.pop(unit, None)  # the chip's own move supersedes where it was to be put
        self._sync()

    def _refuse(self, unit: str, start: str, space: str, rule: str) -> None:
        name = self._names.get(unit, unit)
        question = Question(self._next_id("refused"), "refused",
                            f"{name} cannot go from {start} to {space}: {rule}. Put it back on {start}, or "
                            f"correct the game", (f"correct the game: {name} is on {space}",), unit)
        self._refused[unit] = _Refusal(question, unit, space)

    def _settle(self, unit: str) -> None:
        self._refused.pop(unit, None)
        for qid in [q for q, c in self._choices.items() if c.unit == unit]:
            del self._choices[qid]

    def _next_id(self, kind: str) -> str:
        self._seq += 1
        return f"{kind}-{self._seq}"

    # -- what the table shows --

    def _tick(self, observation: Observation) -> None:
        for unit, instruction in list(self._instructions.items()):
            if not instruction.done and self._matches(observation, unit, instruction.place):
                self._instructions[unit] = replace(instruction, done=True)

    def _matches(self, observation: Observation, unit: str, place: Place | None) -> bool:
        chip = self._chips.get(unit)
        seen = observation.units.get(chip) if chip is not None else None
        if place is None:  # gone: the camera no longer places the chip
            return seen is None or seen.space is None or self._long_unseen(observation, seen)
        return seen is not None and seen.doubt is None and self._seen_place(unit, seen) == place

    def _long_unseen(self, observation: Observation, seen: UnitState) -> bool:
        return not seen.seen and (seen.last_seen is None
                                  or observation.timestamp - seen.last_seen >= self.config.filter.not_seen_seconds)

    def _seen_place(self, unit: str, seen: UnitState) -> Place | None:
        if seen.space is None:
            return None
        return seen.space, None if unit in self._bots else seen.facing

    def _view(self) -> ReconcilerView:
        return ReconcilerView(self._number, self._misplaced(), self._questions(), tuple(self._instructions.values()))

    def _misplaced(self) -> tuple[Misplaced, ...]:
        obs = self._observation
        if obs is None or self._game is None:
            return ()
        out = []
        for unit, chip in self._chips.items():
            state = obs.units.get(chip)
            seen = self._seen_place(unit, state) if state is not None else None
            expected = self._known.get(unit)
            if seen == expected:
                continue
            instruction = self._instructions.get(unit)
            if instruction is not None and not instruction.done and seen == instruction.was:
                continue  # still where it stood: the instruction is pending, not broken
            if expected is None and (seen is None or state is not None and self._long_unseen(obs, state)):
                continue
            out.append(Misplaced(unit, chip, self._names.get(unit, unit), seen, expected))
        ours = set(self._chips.values())
        for chip, state in sorted(obs.units.items()):
            if chip not in ours and state.space is not None and state.seen:
                out.append(Misplaced(None, chip, chip, (state.space, state.facing), None))
        return tuple(out)

    def _questions(self) -> tuple[Question, ...]:
        out = [c.question for c in self._choices.values()] + [r.question for r in self._refused.values()]
        return tuple(out) + self._vision_questions()

    def _vision_questions(self) -> tuple[Question, ...]:
        obs = self._observation
        if obs is None:
            return ()
        texts = list(obs.questions)
        if obs.status.level == "error":
            texts.append(f"the camera cannot place the board ({obs.status.message}): nothing on it is read")
        texts += [f"marker {m.marker} is on the table but is no chip of this table's roster: take it away"
                  for m in obs.unknown]
        covered = []
        for unit, chip in self._chips.items():
            state = obs.units.get(chip)
            if (state is not None and state.space is not None and self._known.get(unit) is not None
                    and self._long_unseen(obs, state)):
                covered.append(f"{self._names.get(unit, unit)} (last at {state.space})")
        if covered:
            texts.append(f"not seen for {self.config.filter.not_seen_seconds:g} s or more: {', '.join(covered)}; "
                         f"is a hand or something else over the board? Nothing changes until they are seen")
        return tuple(Question("vision-" + hashlib.sha1(t.encode()).hexdigest()[:10], "vision", t) for t in texts)


def _option_index(question: Question, option: int | str) -> int:
    if isinstance(option, int) and not isinstance(option, bool) and 0 <= option < len(question.options):
        return option
    if isinstance(option, str) and option in question.options:
        return question.options.index(option)
    listed = "; ".join(f"{k}: {o}" for k, o in enumerate(question.options))
    raise ReconcilerError(f"question {question.id}: {option!r} is not one of its options ({listed}): answer with "
                          f"an option's number or its text")
