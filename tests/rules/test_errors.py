"""One error tree with machine-readable codes, and the structured error for dice the players must still roll."""

from __future__ import annotations

import pytest

from controller.errors import UserError
from controller.leds.gpio import GpioConfigError
from controller.leds.strip_layout import LayoutError
from controller.rules import (
    BadFace,
    BeginActions,
    BurncycleError,
    ContentError,
    DiceNeeded,
    DiceWanted,
    FloorError,
    GameSetup,
    IllegalAction,
    Move,
    RecordError,
    RulesError,
    ScriptedDice,
    StateError,
    apply,
    new_game,
)
from controller.rules.players.ap import FACES
from controller.rules.state import DicePool
from tests.support.rules_scenarios import CONTENT


def _memory_moves():
    state = new_game(CONTENT, GameSetup(agents=["memory", "byte"], seed=4))
    state, _ = apply(state, BeginActions())
    return state


def test_dice_the_players_have_not_rolled_are_asked_for_as_data():
    """Faces typed in at the table that run out: which dice, how many, for what, before any is rolled."""
    state = _memory_moves()
    with pytest.raises(DiceNeeded) as err:
        apply(state, Move(dice=DicePool(basic=3)), ScriptedDice([]))
    assert err.value.dice == [DiceWanted(die="basic die", count=3, faces=FACES["basic"])]
    assert err.value.purpose == "Memory's move action" and err.value.code == "dice_needed"
    assert str(err.value) == "Memory's move action: still needed: 3 basic dice" and not err.value.follow_up
    with pytest.raises(DiceNeeded) as err:
        apply(state, Move(dice=DicePool(basic=3)), ScriptedDice(["1"]))
    assert err.value.dice == [DiceWanted(die="basic die", count=2, faces=FACES["basic"])]
    assert str(err.value) == "Memory's move action: 1 face given; still needed: 2 basic dice"
    moved, _ = apply(state, Move(dice=DicePool(basic=3)), ScriptedDice(["1", "2", "1"]))
    assert moved.turn.pending is not None


def test_a_face_that_is_not_on_the_die_is_its_own_error():
    with pytest.raises(BadFace, match=r"result 1 \('banana'\) is not a face of the basic die") as err:
        apply(_memory_moves(), Move(dice=DicePool(basic=1)), ScriptedDice(["banana"]))
    assert err.value.code == "bad_face"


@pytest.mark.parametrize("kind,code", [
    (RulesError, "rules_error"), (IllegalAction, "illegal_action"), (StateError, "state_error"),
    (ContentError, "content_error"), (FloorError, "floor_error"), (DiceNeeded, "dice_needed"),
    (BadFace, "bad_face"), (RecordError, "record_error"), (UserError, "user_error"),
    (LayoutError, "led_layout"), (GpioConfigError, "gpio_config"),
])
def test_every_error_belongs_to_one_tree_and_has_a_code(kind, code):
    assert issubclass(kind, BurncycleError) and kind.code == code
    assert not issubclass(kind, UserError) or kind is UserError  # the command line's error is its own edge
