"""Network card actions: drawing, the hand limit, resolution in the network step, the optimized extra action."""

from __future__ import annotations

import pytest

from controller.rules import IllegalAction
from controller.rules.actions import EndTurn, Move, NetworkCardAction, NetworkStep, Pass, legal_actions
from controller.rules.cards.network_cards import draw_network_card
from controller.rules.state import DicePool
from tests.support.rules_scenarios import CONTENT, bot, make_state, module, network, of_type, table
from tests.support.turn_scenarios import act, chips, illegal, in_turn

CARDS = {c.id: c for c in CONTENT.network_cards}


def with_cards(deck_ids, slots=None, hand=None, ips=None, threat=5, step="actions"):
    s = make_state(bots=[bot("byte", "A1"), module("F5")], threat=threat,
                   slots=slots or chips("general", "general", "general"),
                   net=network(["byte"], ips=ips), network_deck=[CARDS[i] for i in deck_ids],
                   network_hands={"byte": [CARDS[i] for i in hand]} if hand else {})
    return in_turn(s, step=step)


def test_an_agent_draws_one_card_and_the_tracker_moves_on():
    """"Draw 1 network card and place it faceup near your agent mat." """
    s = with_cards(["N01"])
    s, events = act(s, NetworkCardAction(), ["N01"])
    assert [c.id for c in s.network_hands["byte"]] == ["N01"] and not s.network_deck
    assert of_type(events, "network_card_drawn") and s.burncycle.tracker == 1


def test_hand_limit_three_excess_discarded_at_once():
    """"Agent hand limit is 3 network cards; excess cards must be discarded immediately." """
    s = with_cards(["N04"], hand=["N01", "N02", "N03"])
    s, events = act(s, NetworkCardAction(discard=1), ["N04"])
    assert [c.id for c in s.network_hands["byte"]] == ["N01", "N03", "N04"]
    assert [c.id for c in s.network_discard] == ["N02"]


def test_cards_resolve_in_the_network_step_and_count_as_completed():
    """"Network cards are resolved during the network step of the turn." (N01: lower threat by 1)"""
    s = with_cards([], hand=["N01"], step="network")
    s, events = act(s, NetworkStep(transfers={}))
    assert s.threat == 4 and s.progress["network_card:byte"] == 1
    assert not s.network_hands["byte"] and [c.id for c in s.network_discard] == ["N01"]


def test_a_card_whose_condition_fails_is_discarded_at_the_end_of_the_turn():
    """"At the end of your turn, all unplayed network cards are discarded and do not carry over." (N02 needs
    the IP on layer 2)"""
    s = with_cards([], hand=["N02"], step="network")
    s, _ = act(s, NetworkStep(transfers={}))
    assert [c.id for c in s.network_hands["byte"]] == ["N02"] and s.threat == 5
    s, events = act(s, EndTurn(), ["1"])
    assert "byte" not in s.network_hands and [c.id for c in s.network_discard] == ["N02"]
    assert not s.progress.get("network_card:byte")


def test_the_command_module_cannot_take_a_network_card_action():
    """"An agent may execute a network card action from any position on the floor; the command module cannot
    take this action" """
    s = with_cards(["N01"])
    t = table(s)
    with pytest.raises(IllegalAction, match="command module cannot"):
        draw_network_card(t, t.state.bot("module"), None)


def test_a_shut_down_agent_cannot_draw_a_network_card():
    """"Bot Shut Down: ... Cannot act or advance floors until repaired." The listing never offered it; the engine
    took it all the same (found by test_legal_actions once the network step's listing changed its random walk)."""
    s = with_cards(["N01"])
    s.bot("byte").shut_down = True
    assert not [la for la in legal_actions(s) if isinstance(la.action, NetworkCardAction)]
    illegal(s, NetworkCardAction(), "Byte is shut down")


def test_optimized_grants_an_extra_unoptimized_action_on_the_same_chip():
    """"Optimized: In addition to drawing the card, the player may immediately take an extra unoptimized
    action without moving the burncycle tracker." """
    s = with_cards(["N01"], slots=chips("tech", "general"))
    s, _ = act(s, NetworkCardAction(), ["N01"])
    assert s.burncycle.tracker == 0 and s.turn.extra_action
    s, _ = act(s, Pass())
    assert s.burncycle.tracker == 1 and not s.turn.extra_action


def test_the_extra_action_is_unoptimized():
    """"... an extra unoptimized action": a move on the extra action gets no +2 even on a physical chip
    (here the extra action sits on the tech chip; nothing optimizes it)."""
    s = with_cards(["N01"], slots=chips("tech", "general"))
    s, _ = act(s, NetworkCardAction(), ["N01"])
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    assert s.turn.pending is not None and s.turn.pending.ap == 1 and not s.turn.pending.optimized


def test_backdoor_moves_the_ip_inward():
    """N09 "Backdoor": the IP moves inward along a white line from its node."""
    s = with_cards([], hand=["N09"], step="network", ips={"byte": "L1-04"}, slots=chips(None, None, None))
    s, _ = act(s, NetworkStep(transfers={}))
    ip = s.network.ips[0]
    assert ip.node == "L2-03"
