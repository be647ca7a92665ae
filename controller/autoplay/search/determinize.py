"""What the search may know of a position: everything on the table, nothing of the future.

The engine's virtual dice are a pure function of the game's seed and roll count, and every draw from a deck or
a bag takes an index the dice give: the seed, the count and the order of each unseen pile are the future. The
search never reads them. `public_digest` names a position by what the players can see (the piles as sets), and
`determinize` makes one possible future of it: the piles put into a canonical order and reshuffled, and a seed
of the search's own (`rolls` from 0), so the engine's own dice, which `apply_action` uses when it is given none,
roll a future the search invented. The oracle (`reveal`) is the same search allowed to see: it plays the
position's own seed and piles.
"""

from __future__ import annotations

import hashlib
import random

import msgspec

from controller.rules import GameState, copy_state, encode_state

UNSEEN_PILES = ("keypad_deck", "network_deck", "terminal_deck", "guard_bag", "draw_bag", "equipment_deck",
                "mod_deck", "imperative_deck")
"""The state's piles whose order is the future: what is still to be drawn (discards and hands are seen)."""

_encode = msgspec.json.Encoder().encode


def canonical(state: GameState) -> GameState:
    """A copy with the future taken out: seed and roll count 0, every unseen pile sorted by its items' text."""
    public = copy_state(state)
    public.seed, public.rolls = 0, 0
    for pile in UNSEEN_PILES:
        items = getattr(public, pile)
        items.sort(key=_encode)
    return public


def public_digest(state: GameState) -> int:
    """A number naming the position as the table shows it: the same for two states that differ only in their
    seed, roll count or the order of unseen piles."""
    return int.from_bytes(hashlib.blake2b(encode_state(canonical(state)), digest_size=8).digest(), "big")


def determinize(public: GameState, rng: random.Random) -> GameState:
    """One possible future of a canonical position (`canonical`): its unseen piles shuffled and a fresh seed,
    both from `rng`. The position given is left as it was."""
    world = copy_state(public)
    for pile in UNSEEN_PILES:
        rng.shuffle(getattr(world, pile))
    world.seed, world.rolls = rng.getrandbits(31), 0
    return world


def reveal(state: GameState) -> GameState:
    """The oracle's future: the position's own seed, roll count and piles (a copy)."""
    return copy_state(state)
