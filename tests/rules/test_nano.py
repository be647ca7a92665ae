"""Nano (Robophobia, "NANO (Wildcard)"): Transfer Learning, Asterisk, Reassemble, Risky Click."""

from __future__ import annotations

from controller.rules import GameSetup, new_game
from controller.rules.actions import Discard, Move, NetworkStep, Step, legal_actions
from controller.rules.state import DicePool
from tests.support.rules_scenarios import CONTENT, bot, make_state, module, network, of_type
from tests.support.turn_scenarios import DOORS, act, chips, illegal, in_turn

MODS = {c.id: c for c in CONTENT.mods}
CARDS = {c.id: c for c in CONTENT.network_cards}
ABILITIES = ["transfer_learning", "asterisk", "reassemble", "risky_click"]


def nano(space: str = "A1", innate: str | None = "M01", **kw):
    b = bot("nano", space, **kw)
    b.abilities = list(ABILITIES)
    b.innate = MODS[innate].__copy__() if innate else None
    return b


def nano_state(text: str = "", space: str = "A1", step: str = "actions", slots=None, **kw):
    s = make_state(text, bots=[nano(space), module("F5" if not text else "F1")],
                   slots=slots or chips("general", "general", "general"), **kw)
    return in_turn(s, step=step)


def test_nano_starts_with_a_random_innate_mod_outside_the_inventory():
    """"Nano starts with a random innate installed mod. This mod does not take up an inventory slot." """
    s = new_game(CONTENT, GameSetup(floor="meridian-lobby", players=1, agents=["nano"], seed=5))
    n = s.bot("nano")
    assert n.innate is not None and n.innate.id in MODS and n.inventory == 0
    assert n.abilities == ABILITIES and n.innate.id not in [m.id for m in s.mod_deck]


def test_the_innate_mod_counts_as_installed():
    """"innate installed mod": M01 adds its AP to Nano's move actions."""
    s = nano_state()
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    assert s.turn.pending.ap == 2


def test_the_innate_mod_cannot_be_discarded():
    """"Nano's innate mod cannot be discarded voluntarily or by another in-game effect." """
    illegal(nano_state(), Discard(bot="nano", card="M01"), "cannot be discarded voluntarily")


def test_first_completed_network_card_each_turn_replaces_the_innate_mod():
    """"The first time Nano completes a network card on each turn, his innate mod is discarded and a new mod is
    drawn and installed in its place." (two cards completed: one replacement)"""
    s = nano_state(step="network", net=network(["nano"]), mod_deck=[MODS["M05"], MODS["M06"]],
                   network_hands={"nano": [CARDS["N01"], CARDS["N01"].__copy__()]}, threat=5)
    s.network_hands["nano"][1].id = "N01b"
    s, events = act(s, NetworkStep(), ["M05"])
    assert s.bot("nano").innate.id == "M05" and [m.id for m in s.mod_discard] == ["M01"]
    assert s.progress["network_card:nano"] == 2 and [m.id for m in s.mod_deck] == ["M06"]


def test_asterisk_treats_one_chip_as_general_in_the_network_step():
    """"Once per turn during the network step of his turn, Nano may treat one chip in the burncycle as a general
    action chip." (a general chip moves the IP 1 node; a tech chip moves it on to the next tech node)"""
    s = nano_state(step="network", net=network(["nano"]), slots=chips("tech"))
    start = s.network.ips[0].node
    after_one = next(n.next for n in CONTENT.network.nodes if n.id == start)
    plain, _ = act(s, NetworkStep())
    starred, _ = act(s, NetworkStep(asterisk=1))
    assert starred.network.ips[0].node == after_one and plain.network.ips[0].node != after_one


def test_only_nano_has_asterisk():
    s = make_state(bots=[bot("byte", "A1"), module("F5")], slots=chips("tech"))
    illegal(in_turn(s, step="network"), NetworkStep(asterisk=1), "only Nano")


def test_reassemble_moves_through_a_locked_door_shedding_the_inventory():
    """"Nano may move through locked doors. When he does so, all keys, equipment, and mods (not including his
    innate mod) in his inventory are discarded." """
    s = nano_state(DOORS, space="B2")
    n = s.bot("nano")
    n.keys = 2
    n.equipment = [CONTENT.equipment[3].__copy__()]
    n.mods = [MODS["M04"].__copy__()]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    listed = [la.action for la in legal_actions(s)]
    assert Step(bot="nano", to="B3", reassemble=True) in listed
    s, events = act(s, Step(bot="nano", to="B3", reassemble=True))
    n = s.bot("nano")
    assert n.space == "B3" and "B2/B3" not in s.floor.unlocked_doors  # through, not opened
    assert n.keys == 0 and n.inventory == 0 and n.innate.id == "M01"
    assert n.power == 8  # "discarding awards printed power" for the uninstalled M04 (3), however it is discarded


def test_only_nano_reassembles():
    s = make_state(DOORS, bots=[bot("byte", "B2"), module("F1")], slots=chips("general"))
    s = in_turn(s)
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    illegal(s, Step(bot="byte", to="B3", reassemble=True), "only Nano")


def test_risky_click_ignores_a_card_and_resolves_a_new_one():
    """"When resolving a network card, Nano may ignore its effect, draw a new network card, and must resolve the
    new card effect if possible. Nano does not discard his innate mod when using this ability." (N01 lowers
    threat by 1; the new card N03 gives power instead)"""
    s = nano_state(step="network", net=network(["nano"]), mod_deck=[MODS["M05"]], threat=5,
                   network_hands={"nano": [CARDS["N01"]]}, network_deck=[CARDS["N03"]])
    s, events = act(s, NetworkStep(risky=["N01"]), ["N03"])
    assert s.threat == 5 and s.bot("nano").power == 5 + CARDS["N03"].amount
    assert [c.card for c in of_type(events, "network_card_drawn")] == ["N03"]
    assert s.bot("nano").innate.id == "M01"  # no Transfer Learning on a Risky Click
    assert "N01" in [c.id for c in s.network_discard]


def test_only_nano_takes_risky_clicks():
    s = make_state(bots=[bot("byte", "A1"), module("F5")], network_hands={"byte": [CARDS["N01"]]})
    illegal(in_turn(s, step="network"), NetworkStep(risky=["N01"]), "only Nano")

