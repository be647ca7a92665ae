"""Speed of finding which way a lifted bot went (the reconciler's route search), against one engine step.

A bot lifted and put down is searched breadth first with the engine's own Step; this is the costly part of
`Reconciler.observe`, paid once per chip put down, on the camera thread. Over states met in the auto-player's
seeded games with a move under way: for each mover, every space it could reach with its AP left, timed against
the baseline of applying one legal step (run side by side in the same process).

    .venv/bin/python bench/bench_reconciler.py [--games 20]
"""

from __future__ import annotations

import argparse
import random

from stats import report, time_pairs

from controller.autoplay.player import play
from controller.library import floor_text, load_content
from controller.rules import compile_floor, copy_state, new_game
from controller.rules.actions import Step, apply_action, legal_actions
from controller.service.camera.bot_ways import cheapest


def cases(games: int, seed: int = 3) -> list[tuple]:
    """(state, bot, goal, one legal step) for goals within the bot's AP, on floor distance alone."""
    content = load_content()
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        text, src = floor_text(rng.choice(sorted(content.floors)))
        start = new_game(content, text, src, players=rng.randint(1, 4), seed=rng.randrange(10**6))
        for _, _, state in play(start):
            if state.turn is None or state.turn.pending is None or rng.random() > 0.3:
                continue
            state = copy_state(state)  # self-play hands its state on and changes it in place
            floor = compile_floor(state.floor.text, state.floor.name)
            steps = [a.action for a in legal_actions(state) if isinstance(a.action, Step) and a.action.bot != "joan"]
            for step in steps[:1]:
                bot = next(b for b in state.bots if b.id == step.bot)
                ap = state.turn.pending.ap + (state.turn.pending.agent_ap if bot.kind == "agent" else 0)
                near, frontier = {bot.space}, {bot.space}
                for _ in range(ap):
                    frontier = {floor.ids[j] for s in frontier for j, _ in floor.neighbour[floor.index[s]].values()}
                    near |= frontier
                for goal in sorted(near - {bot.space}):
                    out.append((state, bot.id, goal, step))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    items = cases(args.games)
    searching, stepping = time_pairs(items, lambda c: cheapest(c[0], c[1], c[2]),
                                     lambda c: apply_action(c[0], c[3]))
    found = sum(1 for c in items[:500] if cheapest(c[0], c[1], c[2]).routes)
    report(f"route search over {len(items)} (state, bot, space) cases", searching, "one engine step", stepping)
    print(f"of the first {min(500, len(items))} cases, {found} have a legal way (the rest end in the rule refused)")


if __name__ == "__main__":
    main()
