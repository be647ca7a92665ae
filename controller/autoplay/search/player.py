"""The search player: the heuristic's play, searched where the team chooses what to do."""

from __future__ import annotations

from controller.autoplay.memory import AutoplayMemory
from controller.autoplay.search.search import Decision, SearchSettings, decide
from controller.autoplay.search.words import explain
from controller.rules import Action, CorporationTurn, GameState


class SearchPlayer:
    """Chooses among the legal actions by searching the blueprint's rollouts (controller/autoplay/search).

    Kept for a whole game, it carries the blueprint's memory (`memory`, an `AutoplayMemory`) from decision to
    decision, and keeps the last searched decision (`last`) and its reason (`explain()`)."""

    def __init__(self, settings: SearchSettings | None = None, memory: AutoplayMemory | None = None) -> None:
        self.settings = settings or SearchSettings()
        self.memory = memory or AutoplayMemory()
        self.last: Decision | None = None
        self._reason: str | None = None

    def choose(self, state: GameState) -> Action:
        """The next action for `state`, one of its legal actions."""
        if state.turn.step == "corporation":
            self.last, self._reason = None, None
            return CorporationTurn()
        decision, self.memory = decide(state, self.memory, self.settings)
        self.last = decision
        self._reason = explain(decision, state)
        return decision.action

    def explain(self) -> str | None:
        """Why the last action was chosen, in the game's words; None when it was the only sensible one."""
        return self._reason
