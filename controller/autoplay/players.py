"""Players by name: wherever a player is chosen (`selfplay --player`, the demo, the service's auto-play), the
name is looked up here, so a new player is added once and every face offers it.

A player is anything with `choose(state) -> action`, picking among `legal_actions` for whoever is to act
(the corporation's turn included). The heuristic `AutoPlayer` is the fast player and the search's blueprint;
"search" is the blueprint searched over sampled futures (controller/autoplay/search, with `explain()`), and
"oracle" the same search allowed to see the game's dice and draws (to show a mission winnable, never to play),
and "oracle-plan" the planning oracle, which sees them too and searches whole lines of play
(controller/autoplay/search/oracle.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import msgspec

from controller.rules import Action, GameState


class Player(Protocol):
    """Chooses the next action of a game; kept for a whole game (it may remember between decisions)."""

    def choose(self, state: GameState) -> Action:
        """The next action for `state`, one of its legal actions."""
        ...


class PlayerSettings(msgspec.Struct, frozen=True, kw_only=True):
    """What a player may be given when it is made: a search's seed and budget (a heuristic ignores them).
    `iterations` and `seconds` bound one decision, whichever ends first."""

    seed: int = 0
    iterations: int | None = None
    seconds: float | None = None
    workers: int = 1


PlayerFactory = Callable[[PlayerSettings], Player]


def _heuristic(settings: PlayerSettings) -> Player:
    from controller.autoplay.player import AutoPlayer

    return AutoPlayer()


def _search(settings: PlayerSettings, oracle: bool = False) -> Player:
    from controller.autoplay.search import SearchPlayer, SearchSettings
    from controller.autoplay.search.tuning import ORACLE_HORIZON

    budget = SearchSettings(seed=settings.seed, seconds=settings.seconds, workers=settings.workers, oracle=oracle)
    if oracle:  # one future, the real one: each candidate played to the end, the best one taken
        budget = msgspec.structs.replace(budget, horizon=ORACLE_HORIZON, margin=0.0, noise=0.0)
    if settings.iterations is not None:
        budget = msgspec.structs.replace(budget, iterations=settings.iterations)
    return SearchPlayer(budget)


def _oracle(settings: PlayerSettings) -> Player:
    return _search(settings, oracle=True)


def _oracle_plan(settings: PlayerSettings) -> Player:
    from controller.autoplay.search.oracle import OraclePlanner, OracleSettings

    budget = OracleSettings(seed=settings.seed, seconds=settings.seconds)
    if settings.iterations is not None:  # a plan's lines
        budget = msgspec.structs.replace(budget, lines=settings.iterations)
    return OraclePlanner(budget)


PLAYERS: dict[str, PlayerFactory] = {"heuristic": _heuristic, "search": _search, "oracle": _oracle,
                                     "oracle-plan": _oracle_plan}
"""Every player by the name the command line, the demo and the service's config give it."""


def player_names() -> list[str]:
    return sorted(PLAYERS)


def make_player(name: str, settings: PlayerSettings | None = None) -> Player:
    """A new player of that name; a name no player has is a ValueError naming the players there are."""
    try:
        factory = PLAYERS[name]
    except KeyError:
        raise ValueError(f"no player is called {name!r}; the players are: {', '.join(player_names())}") from None
    return factory(settings or PlayerSettings())
