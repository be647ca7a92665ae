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


def dice_key(state: GameState) -> tuple[int, int, str]:
    """Which step of which turn `state` is at: the round, the active player and the turn's step (the
    corporation's turn is a step of its own). Finer, a key for each chip of the burncycle, was noisier."""
    return state.round, state.turn.active, state.turn.step


def realign(state: GameState, future: int) -> None:
    """Give the step `state` is at dice of its own: a seed made of the future's and `dice_key`, rolls from 0.

    Two candidates' rollouts in one future should differ by what the candidates do, not by luck. The engine's
    dice follow the roll count, so a candidate that rolls one die more than another would shift every later
    die of its future, and from there the two play unrelated luck. Dealt afresh at each step of each turn, the
    dice there are the same for every candidate that reaches it (common random numbers): the paired
    differences' spread falls by a quarter to a third (docs/autoplay.md, "Common dice").
    The dice stay a future the search made up, never the game's."""
    key = f"{future}:{dice_key(state)}".encode()
    state.seed = int.from_bytes(hashlib.blake2b(key, digest_size=4).digest(), "big") & 0x7FFFFFFF
    state.rolls = 0


def reveal(state: GameState) -> GameState:
    """The oracle's future: the position's own seed, roll count and piles (a copy)."""
    return copy_state(state)
