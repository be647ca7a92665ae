"""Helpers for the players'-turn scenario tests (test_players_turn.py, test_keypad.py, test_terminal.py).

A state from `rules_scenarios.make_state` gets a `TurnState` (whose turn, which step, the dice pool) and
every action goes through `apply_action` with scripted dice, so a test reads like the rulebook: "roll these
faces, do this, look at the table".
"""

from __future__ import annotations

import pytest

from controller.rules import IllegalAction, ScriptedDice, copy_state, state_problems
from controller.rules.actions import apply_action
from controller.rules.state import Chip, DicePool, GameState, TurnState
from tests.support.rules_scenarios import CONTENT, floor_text

# A hallway over two rooms; the doors B2/B3 (into the Lab) and E2/E3 (into the Office) start locked.
DOORS = floor_text("""
+-+-+-+-+-+-+
|E . . . . .|
+ + + + + + +
|. . . . . .|
+-+D+-+-+D+-+
|. . .|. T .|
+ + + + + + +
|. . .|. . .|
+-+-+-+-+-+-+
""", """
A1 hallway "Hall"
A3 room "Lab"
D3 room "Office"
""")


def chips(*kinds: str) -> list[Chip | None]:
    """Burncycle slots from chip kinds ("-" = a degraded general chip, None = no peg), padded to 5."""
    out: list[Chip | None] = []
    for k in kinds:
        if k is None:
            out.append(None)
        elif k.startswith("-"):
            out.append(Chip(kind=k[1:] or "general", degraded=True))  # type: ignore[arg-type]
        else:
            out.append(Chip(kind=k))  # type: ignore[arg-type]
    return out + [None] * (5 - len(out))


def in_turn(state: GameState, step: str = "actions", basic: int = 5, advanced: int = 0, elite: int = 0,
            tracker: int = 0, order: list[str] | None = None, marker: str | None = None,
            active: int = 0) -> GameState:
    """Put the state in a player's turn: the first agent's, at `step`, with that dice pool."""
    agents = order or [b.id for b in state.bots if b.kind == "agent"]
    state.turn = TurnState(order=agents, marker=marker or agents[-1], active=active, step=step,  # type: ignore[arg-type]
                           pool=DicePool(basic=basic, advanced=advanced, elite=elite))
    state.burncycle.tracker = tracker
    return state


def decks(**kw) -> dict:
    """The shipped keypad and terminal decks, for make_state(**decks())."""
    return dict(keypad_deck=list(CONTENT.keypads), terminal_deck=list(CONTENT.terminals), **kw)


def act(state: GameState, action, rolls: list[str] | None = None):
    """Apply one action with exactly these scripted results (all must be used)."""
    dice = ScriptedDice(rolls or [])
    new, events = apply_action(state, action, dice)
    assert dice.rolls == len(rolls or []), f"only {dice.rolls} of {len(rolls or [])} scripted results used"
    assert state_problems(new) == [], state_problems(new)
    return new, events


def illegal(state: GameState, action, match: str, rolls: list[str] | None = None) -> None:
    before = copy_state(state)
    with pytest.raises(IllegalAction, match=match):
        apply_action(state, action, ScriptedDice(rolls or []))
    assert state == before


def tags(events) -> list[str]:
    return [type(e).__struct_config__.tag for e in events]
