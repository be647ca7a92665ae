"""Show threat: where the guards may stand, and what they may see, after the next corporation turn.

A player's view, so only the rules' front door: from a state in the players' turn, N corporation turns are
played as if the players ended their turn now, each on its own dice, and the map says for each space the share
of those futures in which a guard stands there and in which a guard sees it (with the rules' own sight,
`security_sight`), and which guards did. The futures never read what the players cannot know: every sample
rolls `SeededDice` seeded from a generator of its own (seeded by `seed`, never the game's seed or roll count),
and the unseen decks and bags are put in one canonical order first, so the map is the same whatever the
game's hidden future holds. Same state, seed and sample count: the same map.

"After" means the board the players come back to: each unit's space, and its sight from there with its facing
and awareness (a unit stunned now skips the turn where it stands, "Reactivates at end of corporation turn",
and sees again). The players' remaining steps (the rest of the chips, the network step, the burncycle die of
step 5) are not played: the corporation turn runs on the board as it stands.
"""

from __future__ import annotations

import random

import msgspec

from controller.autoplay.tuning import THREAT_SAMPLES
from controller.rules import (
    DicePool,
    GameState,
    Resolution,
    SeededDice,
    apply_effect,
    copy_state,
    corporation_turn,
    security_sight,
)

_UNSEEN = ("guard_bag", "draw_bag", "keypad_deck", "network_deck", "terminal_deck", "equipment_deck", "mod_deck",
          "imperative_deck")  # the decks and bags whose order the players do not know


class SpaceThreat(msgspec.Struct, frozen=True):
    """One space's danger after the next corporation turn: the share of sampled futures (0 to 1) in which a
    guard stands on it and in which a guard sees it, and the units that did in any of them."""

    guard: float = 0.0
    seen: float = 0.0
    guards: tuple[str, ...] = ()


class ThreatMap(msgspec.Struct, frozen=True):
    """Every space of the floor (by its name) with its `SpaceThreat`, from `samples` corporation turns."""

    samples: int
    seed: int
    spaces: dict[str, SpaceThreat]

    def at(self, space: str) -> SpaceThreat:
        """The threat on a space; a name the floor does not have is a KeyError naming it."""
        try:
            return self.spaces[space]
        except KeyError:
            raise KeyError(f"the floor has no space {space!r}") from None

    def shares(self) -> dict[str, tuple[float, float]]:
        """Space name -> (guard share, seen share): what a heat overlay shades."""
        return {name: (s.guard, s.seen) for name, s in self.spaces.items()}


def threat_map(state: GameState, samples: int = THREAT_SAMPLES, seed: int = 0) -> ThreatMap:
    """Sample `samples` corporation turns from `state` as if the players ended their turn now (the state is
    left as it was); ValueError for a finished game or fewer than one sample."""
    if samples < 1:
        raise ValueError(f"a threat map needs at least one sampled corporation turn, not {samples}")
    if state.outcome is not None:
        raise ValueError(f"the game is over ({state.outcome}): no corporation turn is coming")
    start = hidden_future_forgotten(state)
    names = Resolution(start, SeededDice(0), apply_effect, copy=False).floor.ids
    standing: dict[str, int] = {}
    seeing: dict[str, int] = {}
    who: dict[str, set[str]] = {}
    futures = random.Random(seed)
    for _ in range(samples):
        after, _events = corporation_turn(start, SeededDice(futures.getrandbits(32)))
        for unit in after.security:
            standing[unit.space] = standing.get(unit.space, 0) + 1
            who.setdefault(unit.space, set()).add(unit.id)
        seen_now: set[str] = set()  # a space two guards see counts once: the share is of futures
        for unit_id, seen in security_sight(after).items():
            seen_now.update(seen)
            for space in seen:
                who.setdefault(space, set()).add(unit_id)
        for space in seen_now:
            seeing[space] = seeing.get(space, 0) + 1
    return ThreatMap(samples=samples, seed=seed, spaces={
        name: SpaceThreat(guard=standing.get(name, 0) / samples, seen=seeing.get(name, 0) / samples,
                          guards=tuple(sorted(who.get(name, ())))) for name in names})


def hidden_future_forgotten(state: GameState) -> GameState:
    """A copy of the state at the corporation's step, as if the players ended their turn now, that knows no
    more than the players: no game seed or roll count, and the unseen decks and bags in one canonical order."""
    start = copy_state(state)
    turn = start.turn
    if turn.step != "corporation":
        turn.step, turn.active, turn.pending, turn.pool = "corporation", turn.order.index(turn.marker), None, DicePool()
    start.seed, start.rolls = 0, 0
    for name in _UNSEEN:
        setattr(start, name, sorted(getattr(start, name), key=msgspec.json.encode))
    return start
