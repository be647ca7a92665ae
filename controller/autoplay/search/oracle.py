"""The planning oracle: a player that sees the game's dice and draws and searches whole lines of play.

Issue 35 asks that every shipped mission be shown winnable: "An oracle run of the search that may see the dice
and draws must win every shipped mission in a fair share of seeds". The engine's virtual dice are a pure
function of the game's seed and roll count, and every draw from a deck or a bag takes an index those dice give,
so from the real position a line of actions plays the same every time it is played: a line found winning is a
won game, and the oracle only has to find one and play it.

The one-step oracle (`SearchSettings(oracle=True)`) leaves the blueprint for one action at a time and keeps the
blueprint's game after it. This one searches lines, as iterated local search over action sequences (the
"go-explore" manner of planning in a deterministic world): it plays the blueprint (`AutoPlayer`) to the end,
then again and again from a decision of the best line so far, leaving the blueprint there for another
candidate (`candidates`: a chip's whole action; at the other decisions, the route step, a step of a move, the
network step, every legal action needing no choice) and, later in the line, now and then again (`epsilon`).
A line is worth 10 when won, else what it got done (`worth`: the calibration, the mission's counters, the
rooms surveilled, the rounds it lasted, and the evaluation's chance at its last round start); a line worth as
much or more replaces the best one (so the search also drifts along lines that are as good). The search stops
at the first won line or when the budget (`lines`, `seconds`) is spent, and the oracle then plays the best line
it has, action by action, searching again from wherever the game leaves it (it never does: the line is the
game's own future).

It reads the future, so it is for showing a mission winnable (`bench/bench_oracle.py`), never for playing.
"""

from __future__ import annotations

import hashlib
import random
import time

import msgspec

from controller.autoplay.memory import AutoplayMemory
from controller.autoplay.player import AutoPlayer
from controller.autoplay.search.candidates import candidates, searched
from controller.autoplay.search.evaluation import value
from controller.rules import Action, GameState, apply_action, copy_state, encode_state

_WON = 10.0
"""A won line's worth: above any lost line's (`worth`)."""

_LINE_LIMIT = 5000
"""The most actions a line is played for (no shipped mission's self-play comes near it)."""


class OracleSettings(msgspec.Struct, frozen=True, kw_only=True):
    """The planning oracle's seed (its own choices of where and how to leave the blueprint) and budget: at
    most `lines` lines played, or `seconds` of search (whichever ends first), for one plan. `epsilon` is the
    chance that a line, after its deviation, leaves the blueprint again at a chip's action; `wide` the share
    of deviations at a chip's action taken among every legal action rather than the grouped candidates."""

    seed: int = 0
    lines: int = 300
    seconds: float | None = None
    epsilon: float = 0.03
    wide: float = 0.3


class Line(msgspec.Struct, kw_only=True):
    """One line of play from the planned position: its actions, the blueprint's memory before each, where it
    could be left (indices of the players' decisions), what it is worth and how it ended."""

    actions: list[Action]
    memories: list[AutoplayMemory]
    branches: list[int]
    worth: float
    won: bool
    ending: str


class Plan(msgspec.Struct, kw_only=True):
    """What a search found: the best line and the effort it took."""

    line: Line
    lines: int
    seconds: float


def worth(start: GameState, end: GameState, last_round: GameState) -> float:
    """What a lost line got done, from its start to its end: the calibration (1), the rounds it lasted (0.02
    each, at most 20), the mission's counters (terminals, caches, network cards, pushes, command module spaces,
    units shut down: 0.01 each, at most 25), the rooms it surveilled (0.01 each, at most 10) and the
    evaluation's chance to win at the start of its last round (times 0.2). The terms below the calibration's
    add up to less than 1, so a calibrated line is worth more than any line that never was. The rounds weigh
    most of them: with the counters first (0.015 each, the rounds 0.005) the best lines of TSM-103C lost the
    module in rounds 2 to 5 (seeds 1000-1003, 600 lines); with the rounds first, on seeds 1000 and 1001, they
    lasted 9 and 8 rounds, the module reached its three terminals in both, and in the second Nano's push and
    both agents' network cards were done too."""
    counters = min(sum(end.progress.values()), 25)
    rooms = min(max(0, len(start.floor.surveillance) - len(end.floor.surveillance)), 10)
    rounds = min(end.round - start.round, 20)
    return float(end.calibrated) + 0.02 * rounds + 0.01 * counters + 0.01 * rooms + 0.2 * value(last_round)


def _digest(state: GameState) -> bytes:
    return hashlib.blake2b(encode_state(state), digest_size=16).digest()


def play_line(start: GameState, prefix: list[Action], memory: AutoplayMemory, rng: random.Random,
              settings: OracleSettings, deviate: bool) -> Line | None:
    """The line that plays `prefix` from `start`, then (when `deviate`) leaves the blueprint for a random other
    candidate, then lets the blueprint (with `memory`, the memory it had after `prefix`) play to the end,
    leaving it again at a chip's action with chance `epsilon`; without `deviate`, the blueprint's own line.
    None when the deviation has no other candidate."""
    world = copy_state(start)
    for action in prefix:
        world, _ = apply_action(world, action, in_place=True)
    player = AutoPlayer()
    actions, memories, branches = list(prefix), [], []
    last_round = copy_state(world)
    round_seen = world.round
    first = deviate
    for _ in range(_LINE_LIMIT):
        if world.outcome is not None:
            break
        if world.round != round_seen:
            round_seen, last_round = world.round, copy_state(world)
        blueprint, after = player.decide(world, memory)
        action = blueprint
        if world.turn.step != "corporation":
            if first or (deviate and settings.epsilon and searched(world) and rng.random() < settings.epsilon):
                wide = not searched(world) or rng.random() < settings.wide
                others = candidates(world, blueprint, wide=wide)[1:]
                if others:
                    action = rng.choice(others)
                elif first:
                    return None
                first = False
            branches.append(len(actions))
        memories.append(memory)
        memory = after
        actions.append(action)
        world, _ = apply_action(world, action, in_place=True)
    won = world.outcome is not None and world.outcome.won
    ending = world.outcome.text if world.outcome is not None else "unfinished"
    return Line(actions=actions, memories=memories, branches=branches,
                worth=_WON if won else worth(start, world, last_round), won=won, ending=ending)


def plan(state: GameState, memory: AutoplayMemory, settings: OracleSettings) -> Plan:
    """The best line from `state` the budget finds (the first won one, if any)."""
    start = time.perf_counter()
    rng = random.Random(settings.seed)
    best = play_line(state, [], memory, rng, settings, deviate=False)
    if best is None:  # a line without a deviation always plays
        raise RuntimeError("the blueprint's own line could not be played")
    played = 1
    while played < settings.lines and not best.won:
        if settings.seconds is not None and time.perf_counter() - start >= settings.seconds:
            break
        if not best.branches:
            break
        k = rng.randrange(len(best.branches))
        at = best.branches[k]
        # the memory the blueprint had before that decision: line memories are kept per action
        line = play_line(state, best.actions[:at], best.memories[at], rng, settings, deviate=True)
        played += 1
        if line is not None and line.worth >= best.worth:
            # the new line shares best's first `at` actions: their memories and branch points too
            line.memories = best.memories[:at] + line.memories
            line.branches = [b for b in best.branches if b < at] + line.branches
            best = line
    return Plan(line=best, lines=played, seconds=time.perf_counter() - start)


class OraclePlanner:
    """A player that plans a line with the game's own future (`plan`) and plays it; kept for a whole game.

    `last` is the last plan made; `explain()` says what it found."""

    def __init__(self, settings: OracleSettings | None = None, memory: AutoplayMemory | None = None) -> None:
        self.settings = settings or OracleSettings()
        self.memory = memory or AutoplayMemory()
        self.last: Plan | None = None
        self._next: dict[bytes, tuple[Action, AutoplayMemory]] = {}
        self.plans = 0

    def choose(self, state: GameState) -> Action:
        """The next action for `state`: the plan's, planning (again) when the position is not on it."""
        key = _digest(state)
        if key not in self._next:
            self._replan(state)
        action, self.memory = self._next[key]
        return action

    def _replan(self, state: GameState) -> None:
        self.last = plan(state, self.memory, self.settings)
        self.plans += 1
        line = self.last.line
        world = copy_state(state)
        self._next = {}
        for action, memory in zip(line.actions, line.memories, strict=True):
            self._next.setdefault(_digest(world), (action, memory))
            world, _ = apply_action(world, action, in_place=True)

    def explain(self) -> str | None:
        """What the last plan found, in a sentence."""
        if self.last is None:
            return None
        line = self.last.line
        found = "a won line" if line.won else f"no won line (the best: {line.ending})"
        return f"the oracle found {found} of {len(line.actions)} actions in {self.last.lines} lines"
