"""Speed of the corporation turn (issue "Rules engine core").

Prints, for one full corporation turn on a 300+ space floor with 12 guards, a captain, 4 bots and 6 pings:
median and p99 time, against a baseline measured in the same process (copying the state, which any pure
`apply(state) -> state` must do); then the time of 10,000 consecutive corporation turns of automated play
(bots random-walk between turns, a finished game is replaced by a fresh copy), and the state's size.

    .venv/bin/python bench/bench_corp_turn.py [--turns 10000] [--samples 2000]
"""

from __future__ import annotations

import argparse
import random
import time

from stats import report, time_pairs

from controller.library import floor_text, load_content
from controller.rules import GameSetup, SeededDice, copy_state, corporation_turn, encode_state, new_game
from controller.rules.board.awareness import step_bot
from controller.rules.board.geometry import compile_floor
from controller.rules.corporation.deploy import captain_unit, guard_unit
from controller.rules.corporation.threat_effects import apply_effect
from controller.rules.resolution import Resolution
from controller.rules.state import GameState, Ping


def bench_state(seed: int = 1) -> GameState:
    """4 bots, 12 guards, the captain and 6 pings on the 320-space lobby floor, at the corporation's turn."""
    content = load_content()
    text, src = floor_text("meridian-lobby")
    state = new_game(content, GameSetup(floor=src, floor_text=text, players=3, captain="fauxbia", seed=seed))
    table = Resolution(state, SeededDice(seed), apply_effect, copy=False)
    rng = random.Random(seed)
    free = [i for i in range(len(table.floor.ids)) if i not in table.occupant]
    rng.shuffle(free)
    guards = [u for u in state.security if u.rank == "guard"]
    while len(guards) < 12:
        chip = state.guard_bag.pop(rng.randrange(len(state.guard_bag)))
        if chip.name == "Ghost":
            continue
        space = free.pop()
        unit = guard_unit(chip, state.next_unit, table.floor.ids[space], rng.choice("NESW"))
        state.next_unit += 1
        state.security.append(unit)
        table.occupant[space] = unit
        guards.append(unit)
    if not any(u.rank == "captain" for u in state.security):
        space = free.pop()
        state.security.append(captain_unit(state.captain, table.floor.ids[space], "S"))
    nodes = [n.id for n in state.network.mat.nodes if n.kind not in ("core",)]
    taken = {p.node for p in state.network.pings}
    while len(state.network.pings) < 6:
        node = rng.choice(nodes)
        if node not in taken:
            taken.add(node)
            state.network.pings.append(Ping(id=f"P{len(state.network.pings) + 1}", node=node))
    # the corporation's turn follows the player with the corporation marker
    state.turn.step, state.turn.active = "corporation", state.turn.order.index(state.turn.marker)
    return state


def wander(state: GameState, rng: random.Random) -> GameState:
    """Stand-in for the players' turn: each active bot takes up to 2 random legal steps."""
    table = Resolution(state, SeededDice(0), apply_effect, copy=False)
    for bot in table.active_bots():
        for _ in range(2):
            here = table.floor.index[bot.space]
            options = [j for _, j in table.floor.bot_neighbours(here, table.unlocked, table.destroyed)
                       if j not in table.occupant]
            if not options or table.over:
                break
            step_bot(table, bot, rng.choice(options))
    return table.state


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()

    base = bench_state()
    size = len(encode_state(base))
    # warm the floor's precomputed tables, as a running table would have
    corporation_turn(base)

    rng = random.Random(7)
    starts = []
    for k in range(args.samples):
        s = copy_state(base)
        s.seed = k
        starts.append(wander(s, rng) if k % 2 else s)

    turn_times, copy_times = time_pairs(starts, corporation_turn, copy_state)
    print(f"floor: {len(base.floor.text)} chars, {len(compile_floor(base.floor.text).ids)} spaces; guards: "
          f"{sum(u.rank == 'guard' for u in base.security)}, captain: "
          f"{sum(u.rank == 'captain' for u in base.security)}, bots: {len(base.bots)}, pings: {len(base.network.pings)}")
    print(f"state size: {size} bytes of JSON")
    report(f"one corporation turn ({args.samples} samples)", turn_times, "copy of the state", copy_times)

    rng = random.Random(11)
    state = copy_state(base)
    games = 1
    t0 = time.perf_counter()
    for _ in range(args.turns):
        if state.outcome is not None:
            state = copy_state(base)
            state.seed = games
            games += 1
        state = wander(state, rng)
        if state.outcome is None:
            state, _ = corporation_turn(state)
    total = time.perf_counter() - t0
    print(f"{args.turns} consecutive corporation turns of automated play (with the bots' random walk, "
          f"{games} games): {total:.2f} s ({args.turns / total:.0f} turns/s)")


if __name__ == "__main__":
    main()
