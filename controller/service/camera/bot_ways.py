"""Which way a bot went: its steps checked by the engine, or the cheapest legal ways found with it.

The camera sees where a chip ends up, and sometimes the spaces it crossed. The engine alone knows what a
step is allowed and what it sets off (a surveillance bead, a cache, a guard's sight), so every candidate step
here is the engine's own `Step`, applied to a copy of the state (pure and cheap: well under a millisecond).
A lifted chip put down elsewhere is searched breadth first, one engine step per level (branches that could not
reach the space with the steps left are dropped, by floor distance), so the first level that reaches it holds
exactly the cheapest legal ways; ways that end in the same state with the same events
are one way for the players, and only ways that differ need a question.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import msgspec

from controller.rules import GameState, IllegalAction, compile_floor, phrase, state_digest
from controller.rules.actions import Step, apply_action
from controller.rules.events import BotMoved, Event

MAX_STEPS = 8  # a move action's AP rarely exceeds this; the search never looks farther


@dataclass(frozen=True)
class Route:
    """One legal way from the bot's space to where the camera sees it, with what it sets off."""

    spaces: tuple[str, ...]          # from the start space to the goal
    steps: tuple[Step, ...]
    events: tuple[Event, ...]        # what happened on the way, the bot's own moves left out
    digest: str                      # the state it ends in

    @property
    def outcome(self) -> tuple[str, bytes]:
        """Two routes with the same outcome are the same to the game: no question needed between them."""
        return self.digest, msgspec.json.encode(list(self.events))

    def in_words(self, state: GameState) -> str:
        """The way and what it sets off, phrased for the players (names from `state`)."""
        way = " > ".join(self.spaces)
        happens = "; ".join(phrase(e, state) for e in self.events)
        return f"{way}: {happens}" if happens else f"{way}: nothing else happens"


@dataclass(frozen=True)
class RouteSearch:
    """The distinct cheapest routes (one per outcome), or the engine's reason there is none."""

    routes: tuple[Route, ...]
    refusal: str | None = None


def _steps(state: GameState, bot: str, to: str) -> tuple[Step, ...]:
    """The engine steps a chip seen moving to `to` may have been: the plain step (a cache on the way is taken,
    as the engine's list of legal actions offers it) and, for Nano, Reassemble through a locked door, which the
    camera cannot tell from a step (the engine refuses whichever does not apply)."""
    take = to in state.floor.caches
    plain = Step(bot=bot, to=to, take_cache=take)
    if "reassemble" in next(b.abilities for b in state.bots if b.id == bot):
        return plain, Step(bot=bot, to=to, take_cache=take, reassemble=True)
    return (plain,)


def _tried(state: GameState, bot: str, to: str) -> tuple[list[tuple[Step, GameState, list[Event]]], str | None]:
    """Each of `_steps` the engine allows, with the state and events after it; else the plain step's refusal."""
    done, refusal = [], None
    for step in _steps(state, bot, to):
        try:
            new, happened = apply_action(state, step)
        except IllegalAction as e:
            refusal = refusal or str(e)
            continue
        done.append((step, new, [e for e in happened if not isinstance(e, BotMoved)]))
    return done, None if done else refusal


def follow(state: GameState, bot: str, spaces: list[str]) -> RouteSearch:
    """The routes through exactly these spaces (the ones the camera saw the chip cross), checked step by step:
    one per distinct outcome (a step through a locked door may be a key spent or Nano's Reassemble)."""
    start = _space_of(state, bot)
    ways: list[tuple[GameState, Route]] = [(state, Route((start,), (), (), state_digest(state)))]
    for to in spaces:
        longer: list[tuple[GameState, Route]] = []
        refusal: str | None = None
        for here, route in ways:
            done, refused = _tried(here, bot, to)
            refusal = refusal or refused
            longer += [(new, Route((*route.spaces, to), (*route.steps, step), (*route.events, *happened),
                                   state_digest(new))) for step, new, happened in done]
        if not longer:
            return RouteSearch((), refusal)
        ways = longer
    distinct: dict[tuple[str, bytes], Route] = {}
    for _, route in ways:
        distinct.setdefault(route.outcome, route)
    return RouteSearch(tuple(distinct.values()))


def cheapest(state: GameState, bot: str, goal: str, max_steps: int = MAX_STEPS) -> RouteSearch:
    """Every cheapest legal way for `bot` to reach `goal` now, one per distinct outcome, within its AP left."""
    floor = compile_floor(state.floor.text, state.floor.name)
    start = _space_of(state, bot)
    limit = max(1, min(max_steps, _ap_for(state, bot)))
    frontier: list[tuple[GameState, Route]] = [(state, Route((start,), (), (), state_digest(state)))]
    seen = {(start, frontier[0][1].digest)}
    away = _distances_to(state, goal)
    first_refusals: set[str] = set()
    first_moves = 0
    into_goal: str | None = None
    for depth in range(1, limit + 1):
        arrived: dict[tuple[str, bytes], Route] = {}
        nxt: list[tuple[GameState, Route]] = []
        for here, route in frontier:
            for j, _ in floor.neighbour[floor.index[route.spaces[-1]]].values():
                to = floor.ids[j]
                if depth > 1 and away[j] > limit - depth:  # cannot reach the goal with the steps left
                    continue
                done, refusal = _tried(here, bot, to)
                if refusal is not None:
                    if depth == 1:
                        first_refusals.add(refusal)
                    if to == goal:
                        into_goal = refusal
                    continue
                first_moves += depth == 1
                for step, new, happened in done:
                    digest = state_digest(new)
                    if (to, digest) in seen:
                        continue
                    seen.add((to, digest))
                    longer = Route((*route.spaces, to), (*route.steps, step), (*route.events, *happened), digest)
                    if to == goal:
                        arrived.setdefault(longer.outcome, longer)
                    else:
                        nxt.append((new, longer))
        if arrived:
            return RouteSearch(tuple(arrived.values()))
        if not nxt:
            break
        frontier = nxt
    if not first_moves and len(first_refusals) == 1:  # every first step refused for one reason: that is the rule
        return RouteSearch((), first_refusals.pop())
    why = f"no legal way from {start} to {goal} in at most {limit} step{'s' * (limit != 1)} (the AP left)"
    return RouteSearch((), f"{why}; the last step into {goal}: {into_goal}" if into_goal else why)


def _distances_to(state: GameState, goal: str) -> list[float]:
    """Steps from each space to `goal` through anything but standing walls: never more than a bot needs, so
    a branch farther than its steps left can be dropped without losing a legal way."""
    floor = compile_floor(state.floor.text, state.floor.name)
    destroyed = set(state.floor.destroyed_walls)
    away = [math.inf] * len(floor.ids)
    away[floor.index[goal]] = 0
    frontier = [floor.index[goal]]
    while frontier:
        nxt = []
        for i in frontier:
            for j, kind in floor.neighbour[i].values():
                if away[j] == math.inf and (kind != "wall" or floor.edge_name[(i, j)] in destroyed):
                    away[j] = away[i] + 1
                    nxt.append(j)
        frontier = nxt
    return away


def adjacent(state: GameState, a: str, b: str) -> bool:
    floor = compile_floor(state.floor.text, state.floor.name)
    return any(floor.ids[j] == b for j, _ in floor.neighbour[floor.index[a]].values())


def _space_of(state: GameState, bot: str) -> str:
    space = next(b.space for b in state.bots if b.id == bot)
    assert space is not None, f"{bot} is not on the floor"
    return space


def _ap_for(state: GameState, bot: str) -> int:
    """The AP this bot may still spend in the move under way (0 when none is)."""
    pending = state.turn.pending if state.turn is not None else None
    if pending is None:
        return 0
    kind = next(b.kind for b in state.bots if b.id == bot)
    return pending.ap + (pending.agent_ap if kind == "agent" else 0)
