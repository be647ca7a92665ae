"""Hints for the players ("What would the table do?"): the search's best three actions for the position.

Every decision of the players' side is searched for a hint (a step of a move too), over every legal action
that needs no choice beside the grouped candidates, with the game's future unseen (`determinize`). The same
position, seed and iteration budget give the same hint; `seconds` only cuts it short (then it may differ).
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from controller.autoplay.memory import AutoplayMemory
from controller.autoplay.search.search import SearchSettings, decide
from controller.autoplay.search.tuning import HINT_ITERATIONS
from controller.autoplay.search.words import describe, reason, trouble
from controller.rules import Action, GameState, LegalAction, legal_actions


class HintAction(msgspec.Struct, kw_only=True):
    """One action of a hint: what to do, its estimated chance to win with a 95% band, and why."""

    action: Action
    text: str  # what it does, in the game's words
    chance: float
    low: float
    high: float
    futures: int
    reason: str  # one sentence: its chance, the runner-up's, and what went wrong most in its futures
    trouble: str | None = None  # that last part alone ("Casing is seen by guard 2 in 4 futures of 10")
    at: str | None = None  # the space the action aims at, where a board lights it (as `legal_actions` says)


class Hint(msgspec.Struct, kw_only=True):
    """The best actions (up to three, best first) and the effort spent."""

    actions: list[HintAction]
    futures: int
    seconds: float
    searched: bool  # False when there was one sensible action only


def hint(state: GameState, seconds: float | None = None, iterations: int = HINT_ITERATIONS, seed: int = 0,
         memory: AutoplayMemory | None = None, progress: Callable[[float], None] | None = None,
         cancel: Callable[[], bool] | None = None, horizon: int = 1, best: int = 3) -> Hint:
    """The search's best `best` actions for the players' decision at `state`. `progress` is called with the
    share of the futures done; `cancel` is asked between futures and, when it answers True, the search stops
    with SearchCancelled. A game over, or the corporation's turn, has no hint (ValueError)."""
    if state.outcome is not None:
        raise ValueError(f"the game is over ({state.outcome})")
    if state.turn.step == "corporation":
        raise ValueError("it is the corporation's turn: there is nothing for the players to choose")
    settings = SearchSettings(seed=seed, iterations=iterations, seconds=seconds, horizon=horizon, margin=0.0,
                              noise=0.0, race=False)
    decision, _ = decide(state, memory or AutoplayMemory(), settings, wide=True, progress=progress, cancel=cancel)
    ranked = decision.ranked()
    listing = legal_actions(state)
    top = ranked[:best]
    out = []
    for k, option in enumerate(top):
        against = ranked[1] if k == 0 and len(ranked) > 1 else (ranked[0] if k > 0 else None)
        out.append(HintAction(action=option.action, text=describe(option.action, state), chance=option.chance,
                              low=option.low, high=option.high, futures=option.visits,
                              reason=reason(option, state, against), trouble=trouble(option),
                              at=aimed_at(option.action, listing)))
    return Hint(actions=out, futures=decision.futures, seconds=decision.seconds, searched=decision.searched)


def aimed_at(action: Action, listing: list[LegalAction]) -> str | None:
    """The space the legal action `action` fills in aims at: the one listed with the same fields the player
    does not choose."""
    for la in listing:
        if type(la.action) is type(action) and all(getattr(la.action, f) == getattr(action, f)
                                                   for f in type(action).__struct_fields__ if f not in la.choose):
            return la.at
    return None
