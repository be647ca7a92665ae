"""Nano through a locked door: the camera sees the chip on the far side, and the only legal way there is
Nano's Reassemble. The reconciler's routes must find that step (it was refused as "the door is locked",
so the demo's camera could not confirm such a move and the players were asked to put Nano back)."""

from __future__ import annotations

from controller.autoplay.player import AutoPlayer
from controller.library import load_content
from controller.rules import GameSetup, GameState, Step, apply_action, new_game, state_digest
from controller.service.camera.bot_ways import cheapest, follow


def before_a_reassemble() -> tuple[GameState, Step]:
    """The auto-player's seeded game (the demo's seed 3) up to its first step through a locked door."""
    state = new_game(load_content(), GameSetup(floor="meridian-lobby", mission="data-heist", players=2,
                                               agents=["nano", "casing"], seed=3))
    player = AutoPlayer()
    for _ in range(2000):
        action = player.choose(state)
        if isinstance(action, Step) and action.reassemble:
            return state, action
        state, _ = apply_action(state, action)
    raise AssertionError("the seeded game has no reassemble step")


def test_a_seen_step_through_a_locked_door_is_a_reassemble() -> None:
    state, step = before_a_reassemble()
    found = follow(state, step.bot, [step.to])
    assert found.refusal is None
    assert [s.reassemble for s in found.routes[0].steps] == [True]
    through = Step(bot=step.bot, to=step.to, take_cache=step.take_cache, reassemble=True)
    assert found.routes[0].digest == state_digest(apply_action(state, through)[0])


def test_a_chip_put_down_beyond_a_locked_door_finds_the_reassemble() -> None:
    state, step = before_a_reassemble()
    found = cheapest(state, step.bot, step.to)
    assert found.refusal is None, found.refusal
    assert any(s.reassemble for route in found.routes for s in route.steps)

