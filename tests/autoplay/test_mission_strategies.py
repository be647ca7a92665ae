"""Each mission's own play sits behind one `MissionStrategy`, chosen by the mission's id."""

from __future__ import annotations

import msgspec

from controller.autoplay.missions import MissionStrategy, StandardPlay, strategy_for
from controller.autoplay.player import AutoPlayer
from controller.rules import UnlockSlot
from tests.support.rules_scenarios import CONTENT, bot, make_state, module
from tests.support.turn_scenarios import chips, in_turn


def test_each_shipped_mission_has_a_strategy_of_its_own():
    strategies = {mission: strategy_for(mission) for mission in CONTENT.missions}
    assert len({type(s) for s in strategies.values()}) == len(CONTENT.missions)
    assert all(type(s) is not StandardPlay for s in strategies.values())
    hooks = [name for name in dir(MissionStrategy) if not name.startswith("_")]
    assert hooks and all(callable(getattr(s, h)) for s in strategies.values() for h in hooks)


def tsm_routing(mission_id: str):
    """The first route step of a lone agent's TSM-103C game, its mission content kept, under `mission_id`."""
    s = make_state(bots=[bot("byte", "A1", power=5), module("B1", power=6)], slots=chips("general", "general",
                   "general"), module_slot_costs=[4, 6], players=1)
    s.mission = msgspec.structs.replace(CONTENT.missions["tsm-103c"], id=mission_id)
    return in_turn(s, step="route")


def test_the_missions_play_follows_its_id_and_a_mission_without_one_gets_the_standard_play():
    """TSM-103C's module pays the fourth slot for its chip, one player too; the same content under an id the
    auto-player has no strategy for is played by its own rules only: the lone agent pays, keeping 3, so with
    5 power the slot waits."""
    assert AutoPlayer().choose(tsm_routing("tsm-103c")) == UnlockSlot(payers={"module": 3, "byte": 1})
    assert type(strategy_for("a-new-mission")) is StandardPlay
    assert not isinstance(AutoPlayer().choose(tsm_routing("a-new-mission")), UnlockSlot)
