"""Blueprint plus search: a decision's candidates, each played on by the heuristic in sampled futures.

Each future is one determinization of the position (`determinize`): dice of the search's own seed and the
unseen piles reshuffled. Every candidate is applied in every future (common futures, so two candidates are
compared on the same luck) and the blueprint (`AutoPlayer`, given the memory the game has so far) plays on to
the end of the round `horizon` rounds on, where the position is scored (`evaluation.value`). The blueprint's
own action is kept unless another one beats it, over the same futures, by more than the margin and the noise
(SPARTA's rule): the search is never worse than the heuristic beyond estimation error.

The futures are numbered and each one's seed is a function of the search's seed, the position as the table
shows it (`public_digest`) and its number, so a decision is reproducible for the same seed and iteration budget;
a seconds budget only stops it after fewer futures. With `workers` > 1 the futures are shared among processes
and merged by number, which gives the same figures as one process.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import msgspec

from controller.autoplay.memory import AutoplayMemory
from controller.autoplay.player import AutoPlayer
from controller.autoplay.search.candidates import candidates
from controller.autoplay.search.determinize import canonical, determinize, dice_key, public_digest, realign, reveal
from controller.autoplay.search.evaluation import value
from controller.autoplay.search.tuning import BOOTH_ITERATIONS, MARGIN, NOISE, RACE_BATCH, THREAT_WORRY
from controller.rules import Action, Event, GameState, apply_action

Z95 = 1.96


class SearchSettings(msgspec.Struct, frozen=True, kw_only=True):
    """A search's seed and budget. `iterations` counts rollouts (a future's rollout of each candidate counts
    once per candidate), `seconds` the time of one decision: whichever ends first. `horizon` is how many ends
    of rounds a rollout plays through before the position is scored; `margin` is how much better than the
    blueprint's action (in chance to win, over the same futures) another must be to be chosen. An `oracle`
    sees the position's own dice and piles (one future: the real one)."""

    seed: int = 0
    iterations: int = BOOTH_ITERATIONS
    seconds: float | None = None
    workers: int = 1
    horizon: int = 1
    margin: float = MARGIN
    noise: float = NOISE  # how many standard errors of the paired difference the margin adds
    oracle: bool = False
    race: bool = True  # futures in batches, each candidate dropped once it cannot reach the margin


class Option(msgspec.Struct, kw_only=True):
    """One candidate of a decision and what its futures said."""

    action: Action
    visits: int = 0
    chance: float = 0.0  # the mean of its futures' values: the estimated chance to win
    low: float = 0.0  # 95% Wilson band of the chance
    high: float = 1.0
    won: int = 0  # futures that ended in victory within the horizon
    lost: int = 0  # futures that ended in defeat within the horizon
    causes: dict[str, int] = {}  # what went wrong, in the game's words -> in how many futures


class Decision(msgspec.Struct, kw_only=True):
    """A searched decision: the candidates (the blueprint's first), the one chosen and the effort spent."""

    options: list[Option]
    chosen: int  # index into options
    futures: int
    seconds: float
    searched: bool

    @property
    def action(self) -> Action:
        return self.options[self.chosen].action

    def ranked(self) -> list[Option]:
        """The options best first (the chosen one first of all)."""
        rest = sorted((o for k, o in enumerate(self.options) if k != self.chosen), key=lambda o: -o.chance)
        return [self.options[self.chosen], *rest]


class SearchCancelled(Exception):
    """The caller's cancel flag was raised while the search ran (the game moved on)."""


Rollout = tuple[float, frozenset[str]]
"""What one candidate's future said: its value and what went wrong in it."""


def future_seed(seed: int, digest: int, number: int) -> int:
    """The seed of future `number` of a search with `seed` from the position `digest` names."""
    data = f"{seed}:{digest}:{number}".encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def blueprint_decision(state: GameState, memory: AutoplayMemory, settings: SearchSettings,
                       digest: int) -> tuple[GameState, Action, AutoplayMemory]:
    """The blueprint's action and memory, decided on a determinization (the heuristic's network step tries its
    transfers with the game's dice: on the real state it would read the future), with that determinization."""
    world = reveal(state) if settings.oracle else \
        determinize(canonical(state), random.Random(future_seed(settings.seed, digest, -1)))
    action, after = AutoPlayer().decide(world, memory)
    return world, action, after


def decide(state: GameState, memory: AutoplayMemory, settings: SearchSettings, wide: bool = False,
           progress: Callable[[float], None] | None = None,
           cancel: Callable[[], bool] | None = None) -> tuple[Decision, AutoplayMemory]:
    """Search the decision at `state` (the players' side) and return it with the blueprint memory to carry on."""
    start = time.perf_counter()
    digest = public_digest(state)
    world, blueprint, after = blueprint_decision(state, memory, settings, digest)
    actions = candidates(world, blueprint, wide=wide)
    if len(actions) == 1:
        only = Option(action=blueprint)
        return Decision(options=[only], chosen=0, futures=0, seconds=time.perf_counter() - start,
                        searched=False), after
    deadline = None if settings.seconds is None else start + settings.seconds
    job = _Job(state=state if settings.oracle else canonical(state), actions=actions, memory=after,
               seed=settings.seed, digest=digest, horizon=settings.horizon, oracle=settings.oracle)
    seen: list[dict[int, Rollout]] = [{} for _ in actions]  # each candidate's rollouts by future number
    live = list(range(len(actions)))  # the candidates still raced (the blueprint's, 0, always)
    spent, number = 0, 0
    batch = 1 if settings.oracle else max(1, math.ceil(settings.iterations / len(actions)))
    if settings.race and not settings.oracle:
        batch = min(batch, RACE_BATCH)
    while True:
        if cancel is not None and cancel():
            raise SearchCancelled()
        futures = min(batch, (settings.iterations - spent) // len(live)) if number else batch
        if futures <= 0 or (deadline is not None and number and time.perf_counter() >= deadline):
            break
        some = msgspec.structs.replace(job, actions=[actions[k] for k in live])
        done = _run(some, list(range(number, number + futures)), settings.workers, deadline, cancel,
                    progress, spent, settings.iterations, len(live))
        for at, rollouts in done:
            for k, got in zip(live, rollouts, strict=True):
                seen[k][at] = got
        spent += len(done) * len(live)
        number += futures
        if len(done) < futures or settings.oracle or not settings.race:
            break
        live = _raced(seen, live, settings)
        if len(live) == 1:
            break
    options = [_option(action, list(seen[k].values())) for k, action in enumerate(actions)]
    chosen = _choose(seen, live, settings)
    return Decision(options=options, chosen=chosen, futures=len(seen[0]), seconds=time.perf_counter() - start,
                    searched=True), after


def _run(job: _Job, numbers: list[int], workers: int, deadline: float | None, cancel: Callable[[], bool] | None,
         progress: Callable[[float], None] | None, spent: int, budget: int,
         width: int) -> list[tuple[int, list[Rollout]]]:
    """The job's futures of these numbers, in order and with no gap (a deadline may cut them short)."""
    if workers > 1 and len(numbers) > 1:
        return _in_workers(job, numbers, workers, deadline, cancel)
    out: list[tuple[int, list[Rollout]]] = []
    for k, number in enumerate(numbers):
        if cancel is not None and cancel():
            raise SearchCancelled()
        if (k > 0 or number > 0) and deadline is not None and time.perf_counter() >= deadline:
            break
        out.append((number, job.future(number)))
        if progress is not None:
            progress(min(1.0, (spent + (k + 1) * width) / max(1, budget)))
    return out


class _Job(msgspec.Struct, kw_only=True):
    """One decision's rollouts, as a worker process gets them."""

    state: GameState  # canonical (the oracle: the real position)
    actions: list[Action]
    memory: AutoplayMemory
    seed: int
    digest: int
    horizon: int
    oracle: bool

    def future(self, number: int) -> list[Rollout]:
        world = reveal(self.state) if self.oracle else \
            determinize(self.state, random.Random(future_seed(self.seed, self.digest, number)))
        player = AutoPlayer()
        return [rollout(world, action, self.memory, self.horizon, player, common_dice=not self.oracle)
                for action in self.actions]


def rollout(world: GameState, action: Action, memory: AutoplayMemory, horizon: int,
            player: AutoPlayer, common_dice: bool = True) -> Rollout:
    """Apply `action` in this future and let the blueprint play on until `horizon` rounds have ended; the value
    of where it stops and what went wrong on the way. With `common_dice` each later step of a turn rolls dice of
    its own (`realign`), the same in this future whatever the action; the oracle plays the game's own dice."""
    stop = world.round + horizon
    state, events = apply_action(world, action)
    causes: set[str] = set()
    _note(state, events, causes)
    at = dice_key(world)
    for _ in range(5000):
        if state.outcome is not None or state.round >= stop:
            break
        if common_dice and dice_key(state) != at:
            at = dice_key(state)
            realign(state, world.seed)
        step, memory = player.decide(state, memory)
        state, events = apply_action(state, step, in_place=True)
        _note(state, events, causes)
    if state.outcome is not None and not state.outcome.won:
        causes.add(_DEFEATS.get(state.outcome.cause, state.outcome.text))
    elif state.outcome is None and state.threat >= THREAT_WORRY:
        causes.add(f"the threat reaches {state.threat}")
    return value(state), frozenset(causes)


_DEFEATS = {"threat_maxed": "the threat reaches 26", "module_shut_down": "the command module is shut down",
            "module_abandoned": "the command module is left behind"}


def _tag(event: Event) -> str:
    return str(type(event).__struct_config__.tag)


def _note(state: GameState, events: list[Event], causes: set[str]) -> None:
    """What went wrong in these events, in the game's words."""
    for event in events:
        tag = _tag(event)
        if tag == "bot_detected":
            unit = getattr(event, "unit", None)
            who = _bot_name(state, getattr(event, "bot", ""))
            causes.add(f"{who} is seen by {unit_name(unit)}" if unit else f"{who} is detected")
        elif tag == "bot_shut_down":
            causes.add(f"{_bot_name(state, getattr(event, 'bot', ''))} is shut down")


def _bot_name(state: GameState, bot_id: str) -> str:
    return next((b.name for b in state.bots if b.id == bot_id), bot_id)


def unit_name(unit_id: str) -> str:
    """A security unit as the players call it: "guard 3", "the captain"."""
    if unit_id.startswith("G") and unit_id[1:].isdigit():
        return f"guard {unit_id[1:]}"
    return "the captain" if unit_id.lower().startswith("c") else unit_id


def _option(action: Action, rollouts: list[Rollout]) -> Option:
    values = [v for v, _ in rollouts]
    n = len(values)
    mean = sum(values) / n if n else 0.0
    low, high = wilson(mean, n)
    causes = Counter(c for _, cs in rollouts for c in cs)
    return Option(action=action, visits=n, chance=mean, low=low, high=high,
                  won=sum(v == 1.0 for v in values), lost=sum(v == 0.0 for v in values),
                  causes=dict(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0]))))


def wilson(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion p over n trials (values in [0, 1] count as fractions)."""
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _paired(seen: list[dict[int, Rollout]], k: int) -> tuple[float, float, int]:
    """Candidate k's lead over the blueprint's over the futures both were played in: the mean of the paired
    differences, its standard error and how many futures."""
    diffs = [got[0] - seen[0][at][0] for at, got in seen[k].items() if at in seen[0]]
    n = len(diffs)
    if n == 0:
        return 0.0, 0.0, 0
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) / math.sqrt(n) if n > 1 else 0.0
    return mean, spread, n


def _raced(seen: list[dict[int, Rollout]], live: list[int], settings: SearchSettings) -> list[int]:
    """The candidates worth more futures: the blueprint's, and each other one whose lead could still reach the
    margin (its mean lead plus the noise's standard errors). Once one beats the blueprint's by the margin
    and the noise the race is over: it alone stays beside the blueprint's."""
    leads = {k: _paired(seen, k) for k in live[1:]}
    clear = [k for k, (mean, spread, n) in leads.items() if n > 1 and mean > settings.margin + settings.noise * spread]
    if clear:
        return [0, max(clear, key=lambda k: (leads[k][0], -k))]
    return [0] + [k for k, (mean, spread, n) in leads.items()
                  if n < 2 or mean + settings.noise * spread >= settings.margin]


def _choose(seen: list[dict[int, Rollout]], live: list[int], settings: SearchSettings) -> int:
    """The blueprint's candidate (0) unless another still raced beats it over the same futures by the margin
    and the noise."""
    if len(seen[0]) == 0 or (len(seen[0]) == 1 and settings.noise > 0):
        return 0  # one future tells no luck from worth (the oracle's is the real one)
    leads = {k: _paired(seen, k) for k in live[1:]}
    if not leads:
        return 0
    best = max(leads, key=lambda k: (leads[k][0], -k))
    mean, spread, _ = leads[best]
    return best if mean > settings.margin + settings.noise * spread else 0


_pools: dict[int, ProcessPoolExecutor] = {}


def _pool(workers: int) -> ProcessPoolExecutor:
    if workers not in _pools:
        _pools[workers] = ProcessPoolExecutor(max_workers=workers)
    return _pools[workers]


def _share(job: _Job, numbers: list[int], deadline: float | None) -> list[tuple[int, list[Rollout]]]:
    out = []
    for k, number in enumerate(numbers):
        if k > 0 and deadline is not None and time.perf_counter() >= deadline:
            break
        out.append((number, job.future(number)))
    return out


def _in_workers(job: _Job, numbers: list[int], workers: int, deadline: float | None,
                cancel: Callable[[], bool] | None) -> list[tuple[int, list[Rollout]]]:
    """The futures shared among `workers` processes (the k-th number to worker k mod workers), merged by number:
    the first futures with no gap, so the figures are those of one process given the same futures."""
    shares = [numbers[w::workers] for w in range(workers)]
    done = [_pool(workers).submit(_share, job, share, deadline) for share in shares if share]
    got: dict[int, list[Rollout]] = {}
    for handle in done:
        if cancel is not None and cancel():
            raise SearchCancelled()
        got.update(handle.result())
    out = []
    for number in numbers:
        if number not in got:
            break
        out.append((number, got[number]))
    return out
