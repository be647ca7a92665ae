"""Agent-card dice upgrades (power routing in steps 1 and 5) and the captain action chip's event.

Every test quotes the sentence it checks. Scripted results are given in the order the engine asks for them.
"""

from __future__ import annotations

from controller.rules import GameSetup, new_game
from controller.rules.actions import BeginActions, BuyDiceUpgrade, EndTurn, Keypad, Move, Pass, Step, legal_actions
from controller.rules.phrasing import phrase
from controller.rules.state import DicePool, DiceUpgrade
from tests.support.rules_scenarios import CONTENT, bot, guard, make_state, module, of_type
from tests.support.turn_scenarios import DOORS, act, chips, decks, illegal, in_turn

TRACK = [DiceUpgrade(cost=2, die="advanced"), DiceUpgrade(cost=3, die="elite")]


def with_track(step: str = "route", power: int = 6, **kw):
    byte = bot("byte", "A1", power=power)
    byte.dice_track = list(TRACK)
    s = make_state(bots=[byte, bot("casing", "F1"), module("C3")], players=2, difficulty="simplified",
                   slots=chips("general", "general"), **kw)
    return in_turn(s, step=step, basic=0)


# == agent-card dice upgrades ========================================================================
def test_agent_cards_print_dice_upgrade_tracks():
    """Agent cards carry their upgrade tracks as data (bots.toml), and setup gives each agent its card's."""
    cards = {a.id: a for a in CONTENT.agents}
    assert cards["byte"].upgrades[0] == DiceUpgrade(cost=2, die="advanced")
    assert any(u.die == "elite" for u in cards["byte"].upgrades)
    s = new_game(CONTENT, GameSetup(floor="meridian-lobby", players=2, agents=["byte", "casing"]))
    assert s.bot("byte").dice_track == cards["byte"].upgrades and s.bot("byte").dice_bought == 0


def test_buying_a_dice_upgrade_in_step_1_adds_its_die_to_the_pool():
    """"Power ... currency for upgrades ... Players route power during steps 1 and 5 of their turn to activate
    abilities or purchase upgrades" and "a player builds their dice pool: 1 basic die for each current power
    point, plus advanced and elite dice matching their activated upgrades.\""""
    s = with_track()
    s, events = act(s, BuyDiceUpgrade(bot="byte"))
    byte = s.bot("byte")
    assert (byte.power, byte.advanced_dice, byte.elite_dice, byte.dice_bought) == (4, 1, 0, 1)
    assert of_type(events, "dice_upgrade_bought")[0].die == "advanced"
    assert of_type(events, "power_changed")[0].new == 4
    s, _ = act(s, BeginActions())
    assert (s.turn.pool.basic, s.turn.pool.advanced, s.turn.pool.elite) == (4, 1, 0)


def test_dice_upgrades_are_bought_left_to_right():
    """The track is activated in order: the second purchase is the elite die at its own cost."""
    s = with_track(power=7)
    s, _ = act(s, BuyDiceUpgrade(bot="byte"))
    s, events = act(s, BuyDiceUpgrade(bot="byte"))
    byte = s.bot("byte")
    assert (byte.power, byte.advanced_dice, byte.elite_dice) == (2, 1, 1)
    illegal(s, BuyDiceUpgrade(bot="byte"), "activated every upgrade")


def test_dice_upgrade_in_step_5_counts_from_the_next_pool():
    """"Players route power during steps 1 and 5 of their turn": bought at the end of the turn, the die joins
    the pool built in step 2 of the agent's next turn; it may not be bought during the action step."""
    s = with_track(step="end")
    illegal(in_turn(with_track(), step="actions"), BuyDiceUpgrade(bot="byte"), "belongs to power routing")
    s, _ = act(s, BuyDiceUpgrade(bot="byte"))
    assert s.bot("byte").advanced_dice == 1
    assert s.bot("byte").power == 4  # bank 10 in scenario bots: no spend-down
    s, _ = act(s, EndTurn(), ["1"])
    assert s.turn.order[s.turn.active] == "casing"


def test_dice_upgrade_refused_when_it_would_spend_the_last_power():
    """"Power serves as bot health (0 power = shut down)": an upgrade may not spend a bot's last power."""
    s = with_track(power=2)
    illegal(s, BuyDiceUpgrade(bot="byte"), "power is health")
    assert not any(isinstance(la.action, BuyDiceUpgrade) for la in legal_actions(s))


def test_command_module_has_no_dice_upgrades():
    """"Rules affecting “agents” do not apply to the command module": agent-card upgrades are agents' only."""
    s = with_track()
    illegal(s, BuyDiceUpgrade(bot="module"), "agent cards")
    illegal(s, BuyDiceUpgrade(bot="casing"), "not the active player's agent")


def test_legal_actions_list_the_next_dice_upgrade_with_its_cost():
    s = with_track()
    offers = [la for la in legal_actions(s) if isinstance(la.action, BuyDiceUpgrade)]
    assert [(o.bot, o.cost.power, o.label) for o in offers] == [("byte", 2, "2 power: +1 advanced die")]
    end = [la for la in legal_actions(with_track(step="end")) if isinstance(la.action, BuyDiceUpgrade)]
    assert len(end) == 1


# == the captain action chip ==========================================================================
def test_captain_chip_event_executed_when_reached():
    """"Captain Action Chip: Its designated event on the Captain card must be executed immediately when
    reached, even if the player passes on taking an action with the chip." Overseer's event places a ping
    on the core."""
    s = make_state(bots=[bot("byte", "A1"), module("C3")], slots=chips("general", "captain"),
                   captain_card="overseer")
    s = in_turn(s, step="route", basic=0)
    s, events = act(s, BeginActions())
    assert of_type(events, "ping_added") == [] and s.network.pings == []
    s, events = act(s, Pass())
    reached = of_type(events, "captain_chip_reached")[0]
    assert phrase(reached, s).endswith(CONTENT.captains["overseer"].burncycle_action)
    assert len(of_type(events, "ping_added")) == 1 and len(s.network.pings) == 1


def test_captain_chip_event_executed_each_time_it_is_reached():
    """"must be executed immediately when reached": every time the tracker reaches it (each turn), while a
    degraded captain chip is skipped and executes nothing ("Degraded chips are skipped")."""
    s = make_state(bots=[bot("byte", "A1"), module("C3")], slots=chips("captain", "general"),
                   captain_card="overseer")
    s, events = act(in_turn(s, step="route", basic=0), BeginActions())
    assert len(s.network.pings) == 1
    s = make_state(bots=[bot("byte", "A1"), module("C3")], slots=chips("-captain", "general"),
                   captain_card="overseer")
    s, events = act(in_turn(s, step="route", basic=0), BeginActions())
    assert s.network.pings == [] and of_type(events, "captain_chip_reached") == []


def test_captain_chip_jumped_over_for_a_keypad_input_is_reached():
    """"jump the burncycle tracker ahead to a matching chip to the right of the current slot (forfeiting
    skipped actions)": a captain chip passed over is reached, so its event is executed."""
    s = make_state(DOORS, bots=[bot("byte", "B2"), module("F1")], slots=chips("general", "captain", "tech"),
                   captain_card="overseer", **decks())
    s, events = act(in_turn(s), Keypad(bot="byte", beyond="B3"), ["K09"])
    assert len(of_type(events, "captain_chip_reached")) == 1 and len(s.network.pings) == 1


def test_fauxbia_chip_event_is_lasting_not_executed():
    """Fauxbia: "While this chip is active in the burncycle, the next threat escalation is considered
    active": her card has no one-off event, so reaching the chip changes nothing but the escalation holds
    in the players' turn too: a guard with awareness 3 sees 4 ahead, and a bot stepping into the 4th space
    is detected."""
    s = make_state(bots=[bot("byte", "A1"), module("F5")],
                   units=[guard("G1", "C5", "N", awareness=3, movement=0)],
                   slots=chips("captain", "general"), captain_card="fauxbia")
    s = in_turn(s, step="route", basic=1)
    s, events = act(s, BeginActions())
    assert of_type(events, "captain_chip_reached") and s.network.pings == []
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["2"])
    s, _ = act(s, Step(bot="byte", to="B1"))
    s, events = act(s, Step(bot="byte", to="C1"))
    assert s.bot("byte").detected  # C1 is 4 spaces ahead of the guard on C5
