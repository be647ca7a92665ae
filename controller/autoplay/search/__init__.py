"""The search player (issue 35): the heuristic as a blueprint, searched over sampled futures it cannot see.

- `SearchPlayer`: a player (`choose(state)`) that keeps the heuristic's action unless another wins more often
  in the rollouts, and says why (`explain()`).
- `hint(state, ...)`: the best three actions of the players' decision, each with its chance to win, a band and
  a reason.
- `SearchSettings(oracle=True)`: the same search seeing the dice and draws, to show a mission winnable.

How it searches: search.py; what it may know: determinize.py; what it searches over: candidates.py; how a
rollout's end is scored: evaluation.py; its words: words.py. docs/autoplay.md, "Search player".
"""

from controller.autoplay.search.hints import Hint, HintAction, hint
from controller.autoplay.search.player import SearchPlayer
from controller.autoplay.search.search import Decision, Option, SearchCancelled, SearchSettings, decide

__all__ = ["Decision", "Hint", "HintAction", "Option", "SearchCancelled", "SearchPlayer", "SearchSettings",
           "decide", "hint"]
