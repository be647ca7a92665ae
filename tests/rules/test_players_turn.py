"""The players' turn, rule by rule: turn flow, dice and AP checks, moves, strikes, repair and upgrades, the
burncycle (degrade, reboot, alter, slot unlocks) and IP movement. Keypads and terminals are in
test_keypad.py and test_terminal.py.

Every test quotes the sentence it checks. Scripted results are given in the order the engine asks for
them.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.actions import (
    Alter,
    BeginActions,
    BuyUpgrade,
    CorporationTurn,
    EndMove,
    EndTurn,
    Move,
    NetworkStep,
    Pass,
    Reboot,
    Repair,
    Step,
    Strike,
    StrikeWall,
    UnlockSlot,
    legal_actions,
)
from controller.rules.errors import IllegalAction
from controller.rules.phrasing import phrase
from controller.rules.state import DicePool, Mission
from tests.support.rules_scenarios import CONTENT, bot, captain, floor_text, guard, make_state, module, network, of_type
from tests.support.turn_scenarios import DOORS, act, chips, illegal, in_turn


def two_players(step: str = "route", slots=None, **kw):
    s = make_state(bots=[bot("byte", "A1"), bot("casing", "F1"), module("C3")], players=2,
                   difficulty="simplified", slots=slots or chips("general", "general"), **kw)
    return in_turn(s, step=step, basic=0)


# == turn flow =====================================================================================
def test_turn_steps_route_actions_network_end():
    """The five steps: power routing (1), the dice pool (2), actions along the burncycle (3), the network (4)
    and the end of the turn (5): "players proceed through active burncycle slots from left to right".
    Also: "For every active chip, the player may perform one action or choose to pass."
    """
    s = two_players()
    s, events = act(s, BeginActions())
    assert s.turn.step == "actions" and s.burncycle.tracker == 0
    s, _ = act(s, Pass())
    assert s.turn.step == "actions" and s.burncycle.tracker == 1
    s, events = act(s, Pass())
    assert s.turn.step == "network"
    s, _ = act(s, NetworkStep())
    assert s.turn.step == "end"
    s, events = act(s, EndTurn(), ["1"])
    assert s.turn.step == "route" and s.turn.order[s.turn.active] == "casing"
    assert of_type(events, "turn_started")[0].agent == "casing"


def test_corporation_turn_after_the_marker_holder_then_first_player():
    """"The corporation turn follows the player with the corporation marker chip"; then the next round
    starts with the player after the marker holder."""
    s = two_players(step="end")
    s.turn.active = 1  # casing holds the marker
    s, events = act(s, EndTurn(), ["1"])
    assert s.turn.step == "corporation"
    illegal(s, BeginActions(), "corporation")
    s, events = act(s, CorporationTurn())
    assert s.turn.step == "route" and s.turn.order[s.turn.active] == "byte"


def test_marker_holder_not_last_in_order():
    """"The corporation turn follows the player with the corporation marker chip": with the marker on the
    first player the corporation acts after them and the second player opens the next round."""
    s = two_players(step="end")
    s.turn.marker = "byte"
    s, _ = act(s, EndTurn(), ["1"])
    assert s.turn.step == "corporation"
    s, _ = act(s, CorporationTurn())
    assert s.turn.order[s.turn.active] == "casing"


def test_dice_pool_from_power_and_upgrades():
    """"a player builds their dice pool: 1 basic die for each current power point, plus advanced and elite
    dice matching their activated upgrades.\""""
    s = two_players()
    s.bot("byte").power, s.bot("byte").advanced_dice, s.bot("byte").elite_dice = 4, 2, 1
    new, _ = act(s, BeginActions())
    assert (new.turn.pool.basic, new.turn.pool.advanced, new.turn.pool.elite) == (4, 2, 1)


def test_degraded_chips_are_skipped():
    """"Degraded chips are skipped.\"
    Also: "The player advances the burncycle tracker token from left to right along the active chips currently
    installed in the burncycle track."
    """
    s = two_players(slots=chips("-", "general", "-", "general"))
    new, events = act(s, BeginActions())
    assert new.burncycle.tracker == 1
    new, events = act(new, Pass())
    assert new.burncycle.tracker == 3


def test_captain_chip_event_when_reached_even_on_a_pass():
    """"Captain Action Chip: Its designated event on the Captain card must be executed immediately when
    reached, even if the player passes on taking an action with the chip.\""""
    s = two_players()
    s.burncycle.slots = chips("general", "captain")
    s, _ = act(s, BeginActions())
    s, events = act(s, Pass())
    assert len(of_type(events, "captain_chip_reached")) == 1


def test_shut_down_agent_turn_passes():
    """"Bot Shut Down: ... Cannot act ... until repaired": its turn passes at once."""
    s = two_players(step="end")
    s.bot("casing").power, s.bot("casing").shut_down = 0, True
    s.turn.marker = "byte"
    s.turn.order = ["byte", "casing"]
    s, _ = act(s, EndTurn(), ["1"])
    assert s.turn.step == "corporation"
    s, events = act(s, CorporationTurn())
    assert s.turn.order[s.turn.active] == "byte" and s.turn.step == "route"


def test_end_of_turn_spend_down_to_the_bank():
    """"Agents must spend down to their power bank limit at the end of step 5.\""""
    s = two_players(step="end")
    s.bot("byte").bank, s.bot("byte").power = 5, 8
    new, _ = act(s, EndTurn(), ["1"])
    assert new.bot("byte").power == 5


# == dice and AP checks ============================================================================
def moving(slots=None, basic=5, advanced=0, elite=0, bots=None, text="", units=None, **kw):
    s = make_state(text, bots=bots or [bot("byte", "A1"), module("F5")], units=units,
                   slots=slots or chips("general", "general", "general"), **kw)
    return in_turn(s, basic=basic, advanced=advanced, elite=elite)


@pytest.mark.parametrize("faces,ap", [(["1", "2"], 3), (["blank", "blank"], 1), (["blank", "blank", "blank"], 1),
                                      (["2", "blank"], 2)])
def test_basic_dice_and_blanks_in_pairs(faces, ap):
    """"Basic Dice (1, 1, 1, 1, 2, blank)"; "Unused blanks from basic dice can be spent in pairs (2 blanks = 1
    AP)\""""
    s = moving()
    new, _ = act(s, Move(dice=DicePool(basic=len(faces))), faces)
    assert new.turn.pending.ap == ap


def test_advanced_and_elite_dice():
    """"Advanced Dice (1, 1, 2, 2, 2, 3)"; "Elite Dice (2, 2, 2, 2, 3, reroll)\""""
    s = moving(advanced=1, elite=1)
    new, _ = act(s, Move(dice=DicePool(advanced=1, elite=1)), ["3", "3"])
    assert new.turn.pending.ap == 6


def test_elite_reroll_rerolls_a_die_before_totaling():
    """"Reroll symbols on elite dice allow rerolling any die before totaling AP." (The engine rerolls the die
    showing the least: the basic blank.)"""
    s = moving(elite=1)
    new, events = act(s, Move(dice=DicePool(basic=1, elite=1)), ["blank", "reroll", "2"])
    assert new.turn.pending.ap == 2
    assert of_type(events, "die_rolled")[-1].why.endswith("reroll")


def test_rolled_dice_leave_the_pool():
    """"Rolled dice return to the supply once spent." A check cannot roll more dice than the pool holds.
    Also: "When declaring a move action, the player performs an AP check by rolling any desired quantity of
    action dice from their dice pool:"
    """
    s = moving(basic=2)
    new, _ = act(s, Move(dice=DicePool(basic=2)), ["1", "1"])
    assert new.turn.pool.basic == 0
    illegal(moving(basic=2), Move(dice=DicePool(basic=3)), "holds 2 basic dice")


def test_optimized_move_adds_two():
    """"If optimized, add +2 AP to the total rolled." (a move on a physical chip)
    Also: "AP is generated by rolling action dice or from optimization bonuses." "Matching Chip Type: Performing
    an action matching the chip optimizes it."
    """
    s = moving(slots=chips("physical", "general"))
    new, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    assert new.turn.pending.ap == 3 and new.turn.pending.optimized


def test_optimized_move_without_rolling():
    """">> If a move action is optimized, the bot may move using the 2 bonus AP without rolling any dice from
    the pool.\"
    Also: "Dice can be rolled in any quantity (including 0) when performing AP checks."
    """
    s = moving(slots=chips("physical", "general"))
    new, _ = act(s, Move())
    assert new.turn.pending.ap == 2 and new.turn.pool.basic == 5


def test_unoptimized_move_with_no_dice_ends_at_once():
    """"Rolled AP cannot be saved across actions or turns": a move with 0 AP is over."""
    s = moving()
    new, _ = act(s, Move())
    assert new.turn.pending is None and new.burncycle.tracker == 1


def test_ap_not_saved_across_actions():
    """"Rolled AP cannot be saved across actions or turns." "Players may choose to utilize less AP than
    rolled.\""""
    s = moving()
    s, _ = act(s, Move(dice=DicePool(basic=2)), ["2", "2"])
    s, _ = act(s, Step(bot="byte", to="B1"))
    s, _ = act(s, EndMove())
    assert s.turn.pending is None and s.burncycle.tracker == 1
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    assert s.turn.pending.ap == 1


# == moves =========================================================================================
def test_ap_split_and_interleaved_between_agent_and_module():
    """"The player distributes the accumulated AP between their agent and the command module in any
    combination." ">> Players may interleave steps between their agent and the command module freely
    during a single move action.\""""
    s = moving()
    s, _ = act(s, Move(dice=DicePool(basic=2)), ["2", "1"])
    s, _ = act(s, Step(bot="byte", to="B1"))
    s, _ = act(s, Step(bot="module", to="E5"))
    s, events = act(s, Step(bot="byte", to="C1"))
    assert (s.bot("byte").space, s.bot("module").space) == ("C1", "E5")
    assert s.turn.pending is None and s.burncycle.tracker == 1


def test_only_the_active_agent_and_the_module_move():
    """"The player distributes the accumulated AP between their agent and the command module\"
    Also: "Agents are individual bots controlled by specific players."
    """
    s = moving(bots=[bot("byte", "A1"), bot("casing", "A3"), module("F5")])
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["2"])
    illegal(s, Step(bot="casing", to="A4"), "cannot move now")


def test_moves_are_orthogonal_and_blocked_by_walls_locked_doors_and_units():
    """"Each AP allows a bot to move 1 space orthogonally." "Bots cannot move through walls, locked doors,
    or other units\""""
    s = moving(text=DOORS, bots=[bot("byte", "B2"), module("A1")], units=[guard("G1", "C2", "S", awareness=0)])
    s, _ = act(s, Move(dice=DicePool(basic=2)), ["2", "2"])
    illegal(s, Step(bot="byte", to="C3"), "not adjacent")
    illegal(s, Step(bot="byte", to="B3"), "locked")
    illegal(s, Step(bot="byte", to="C2"), "occupied")
    t = moving(text=DOORS, bots=[bot("byte", "C3"), module("A1")])
    t, _ = act(t, Move(dice=DicePool(basic=1)), ["1"])
    illegal(t, Step(bot="byte", to="D3"), "wall")


def test_key_opens_a_door_during_a_move():
    """Keys are "spent during move actions to open adjacent doors on the fly.\"
    Also: "Unlocking requires a keypad action or spending a key."
    """
    s = moving(text=DOORS, bots=[bot("byte", "B2"), module("A1")])
    s.bot("byte").keys = 1
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, events = act(s, Step(bot="byte", to="B3"))
    assert s.bot("byte").space == "B3" and "B2/B3" in s.floor.unlocked_doors and s.bot("byte").keys == 0


def test_unlocked_door_lets_bots_through():
    """"Unlocked doors and destroyed walls do not block adjacency.\""""
    s = moving(text=DOORS, bots=[bot("byte", "B2"), module("A1")], unlocked=["B2/B3"])
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="byte", to="B3"))
    assert s.bot("byte").space == "B3"


def test_caches_entered_and_picked_up_optionally():
    """"Bots ... may enter and pass through spaces containing caches or terminals." "During movement, a bot
    may pick up any cache it enters (optional).\""""
    s = moving()
    s.floor.caches = ["B1", "C1"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["2"])
    s, _ = act(s, Step(bot="byte", to="B1"))
    s, events = act(s, Step(bot="byte", to="C1", take_cache=True))
    assert s.floor.caches == ["B1"] and [c.space for c in of_type(events, "cache_taken")] == ["C1"]


VAULT = floor_text("""
+-+-+-+-+-+-+
|E . . . . .|
+ + + + + + +
|. . . . . .|
+-+D+-+-+-+-+
|. . A . T .|
+ + + + + + +
|. . B . . .|
+-+-+-+-+-+-+
""", """
A1 hallway "Hall"
A3 room "Vault" surveillance=1
""")


def surveilled(face_rolls: list[str], surveillance: int = 1, terminal: bool = True):
    text = VAULT.replace("surveillance=1", f"surveillance={surveillance}")
    s = moving(text=text, bots=[bot("byte", "B2"), module("A1")], unlocked=["B2/B3"])
    s.floor.surveillance = ["A3"]
    if terminal:
        s.floor.terminals = {"E3": "standard"}
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["2"])
    return act(s, Step(bot="byte", to="B3"), face_rolls)


def test_surveillance_on_entering_and_the_move_resumes():
    """"Entering a room with a surveillance bead requires immediate surveillance: remove the bead, check the
    infobar for the number of surveillance dice (1 or 2), roll and resolve them, then resume the move
    action.\""""
    new, events = surveilled(["imperative", "imperative"], surveillance=2)
    assert new.floor.surveillance == []
    assert len([e for e in of_type(events, "die_rolled") if e.die == "surveillance die"]) == 2
    assert new.turn.pending.ap == 1
    new, _ = act(new, Step(bot="byte", to="B4"))
    assert new.bot("byte").space == "B4"


def test_surveillance_guard_spawns_at_post_a():
    """"Guard: Spawn a floor-level guard at room post A (then B).\""""
    new, events = surveilled(["guard", "1"])
    placed = of_type(events, "unit_placed")
    assert [p.space for p in placed] == ["C3"] and new.security[0].level == 1


def test_surveillance_mainframe():
    """"Mainframe: Upgrade a terminal in the room to a mainframe terminal.\""""
    new, _ = surveilled(["mainframe"])
    assert new.floor.terminals == {"E3": "mainframe"}


def test_surveillance_powercell():
    """"Powercell: Surveilling bot gains 1 power.\""""
    new, _ = surveilled(["powercell"])
    assert new.bot("byte").power == 6


def test_surveillance_autolock():
    """"Autolock: Lock all doors leading into this room immediately.\""""
    new, events = surveilled(["autolock"])
    assert new.floor.unlocked_doors == []
    assert of_type(events, "door_changed")[0].unlocked is False


def test_surveillance_imperative():
    """"Imperative: The surveilling agent draws 1 imperative card.\""""
    s = moving(text=VAULT, bots=[bot("byte", "B2"), module("A1")], unlocked=["B2/B3"],
               imperative_deck=list(CONTENT.imperatives[:2]))
    s.floor.surveillance = ["A3"]
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["2"])
    new, events = act(s, Step(bot="byte", to="B3"), ["imperative", CONTENT.imperatives[1].id])
    assert new.bot("byte").imperative is not None and new.bot("byte").imperative.id == CONTENT.imperatives[1].id
    assert [e.card for e in of_type(events, "card_drawn")] == [CONTENT.imperatives[1].id]


# == strikes =======================================================================================
def striking(units, slots=None, basic=10, bots=None, text="", **kw):
    return moving(text=text, bots=bots or [bot("byte", "C3"), module("F5")], units=units, slots=slots,
                  basic=basic, **kw)


def level_guard(level: int, space: str = "C4", key: bool = False):
    g = guard("G1", space, "S", level=level, awareness=0, key=key)
    g.durability = {1: 10, 2: 15, 3: 20}[level]
    return g


@pytest.mark.parametrize("level,durability", [(1, 10), (2, 15), (3, 20)])
def test_guard_durability_by_level(level, durability):
    """"Level 1 Guard: 10 AP / Level 2 Guard: 15 AP / Level 3 Guard: 20 AP" and "Shut Down: If rolled AP
    equals or exceeds durability, the guard chip is discarded and the striking bot gains 1 power.\"
    Also: "Durability depends on the unit's level:"
    """
    s = striking([level_guard(level)])
    n = (durability + 1) // 2
    new, events = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=n)), ["2"] * n)
    assert new.security == [] and new.bot("byte").power == 6
    assert of_type(events, "unit_struck")[0].result == "shut down"


def test_guard_units_entering_play_get_their_level_durability():
    """"Level 1 Guard: 10 AP / Level 2 Guard: 15 AP / Level 3 Guard: 20 AP\""""
    from controller.rules.corporation.deploy import guard_unit
    chips_by_level = {c.level: c for c in CONTENT.guards}
    assert [guard_unit(chips_by_level[k], 1, "A1", "N").durability for k in (1, 2, 3)] == [10, 15, 20]


def test_captain_durability_from_the_card():
    """"Captain: Value printed on the Captain card\""""
    cap = captain("C4", "S", awareness=0)
    s = striking([cap])
    d = cap.durability
    need = (d + 1) // 2
    s.turn.pool.basic = need
    new, events = act(s, Strike(bot="byte", unit="CAP", dice=DicePool(basic=need)), ["2"] * need)
    assert new.security == []


def test_stun_within_five():
    """"Stun: If the strike fails but comes within 5 AP of the durability value, the attacker may choose to
    stun the unit instead." "A key held by a stunned guard is also claimed by the striking bot.\""""
    s = striking([level_guard(1, key=True)])
    new, events = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=3)), ["2", "2", "1"])
    assert new.security[0].stunned and new.bot("byte").keys == 1


def test_more_than_five_short_has_no_effect_but_threat_and_detection():
    """"Striking a security unit always advances threat by 1 and immediately causes the striking bot to
    become detected, regardless of success.\""""
    s = striking([level_guard(1)])
    new, events = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=2)), ["2", "2"])
    assert of_type(events, "unit_struck")[0].result == "no effect"
    assert new.threat == 1 and new.bot("byte").detected and not new.security[0].stunned


def test_choose_to_stun_instead_of_shutting_down():
    """">> Players may intentionally use less than the rolled AP, such as electing to stun a guard instead of
    destroying it.\""""
    s = striking([level_guard(1)])
    new, _ = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=5), stun_only=True), ["2"] * 5)
    assert new.security[0].stunned


def test_shut_down_takes_the_key():
    """"If the guard carries a key, the bot takes the key into its inventory.\"
    Also: "Security Unit Shut Down: Discard unit chip; attacker gains 1 power and claims any carried key."
    """
    s = striking([level_guard(1, key=True)])
    new, _ = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=5)), ["2"] * 5)
    assert new.bot("byte").keys == 1 and new.threat == 1
    assert new.security == [] and new.bot("byte").power == 6


def test_optimized_strike_adds_two():
    """"When activated on a physical action chip, they are optimized and provide an extra +2 AP\"
    Also: "If the action is optimized, add +2 AP to the total rolled." (8 rolled + 2 = 10, the durability)
    """
    s = striking([level_guard(1)], slots=chips("physical", "general"))
    new, _ = act(s, Strike(bot="byte", unit="G1", dice=DicePool(basic=4)), ["2"] * 4)
    assert new.security == []


def test_strike_needs_bot_adjacency():
    """"A bot adjacent to a security unit may spend a strike action"; "Bots: Locked doors block bot
    adjacency.\""""
    s = striking([guard("G1", "B3", "S", awareness=0)], text=DOORS, bots=[bot("byte", "B2"), module("A1")])
    illegal(s, Strike(bot="byte", unit="G1"), "not adjacent")


def test_wall_strike_destroys_and_moves_through():
    """"Durability: 10 AP." "Success: Place a destroyed wall chip ... The striking bot becomes detected and
    may immediately take a free move through the opening into an empty space.\"
    Also: "A bot adjacent to a wall may attempt to destroy it with a strike action:" "Striking a wall with 10+
    AP places a destroyed wall chip."
    """
    s = striking([], text=DOORS, bots=[bot("byte", "C3"), module("A1")])
    new, events = act(s, StrikeWall(bot="byte", beyond="D3", dice=DicePool(basic=5)), ["2"] * 5)
    assert new.floor.destroyed_walls == ["C3/D3"] and new.bot("byte").space == "D3"
    assert new.bot("byte").awareness == "C3"  # detected on striking, then it moved


def test_wall_strike_failure_leaves_bot_undetected():
    """"Failure: No chip is placed and the bot remains undetected.\""""
    s = striking([], text=DOORS, bots=[bot("byte", "C3"), module("A1")])
    new, _ = act(s, StrikeWall(bot="byte", beyond="D3", dice=DicePool(basic=4)), ["2"] * 4 + [])
    assert new.floor.destroyed_walls == [] and not new.bot("byte").detected and new.threat == 0


def test_no_strike_on_a_door_segment():
    """">> Bots cannot strike a wall segment that already contains a door.\""""
    s = striking([], text=DOORS, bots=[bot("byte", "B2"), module("A1")])
    illegal(s, StrikeWall(bot="byte", beyond="B3"), "already contains a door")


def test_at_most_three_walls_per_floor():
    """">> Maximum limit: Only 3 walls can be destroyed per floor.\""""
    s = striking([], text=DOORS, bots=[bot("byte", "C3"), module("A1")],
                 destroyed=["A2/A3", "C2/C3", "D2/D3"])
    illegal(s, StrikeWall(bot="byte", beyond="D3"), "only 3 walls")


def test_destroyed_wall_is_an_unlocked_door_for_movement():
    """">> Destroyed walls are treated as unlocked doors for movement and adjacency.\"
    Also: "Destroyed walls act as unlocked doors."
    """
    s = moving(text=DOORS, bots=[bot("byte", "C2"), module("A1")], destroyed=["C2/C3"])
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    s, _ = act(s, Step(bot="byte", to="C3"))
    assert s.bot("byte").space == "C3"


def test_free_move_through_the_wall_into_a_surveilled_room_surveils_it():
    """"Entering an unsurveilled room (containing a surveillance bead) halts movement on the first space to
    roll the surveillance dice": the free move through a broken wall enters the room too."""
    s = striking([], text=VAULT, bots=[bot("byte", "C2"), module("A1")])
    s.floor.surveillance = ["A3"]
    new, events = act(s, StrikeWall(bot="byte", beyond="C3", dice=DicePool(basic=5)), ["2"] * 5 + ["powercell"])
    assert new.bot("byte").space == "C3" and new.floor.surveillance == [] and new.bot("byte").power == 6


# == repair and upgrades ===========================================================================
def repairing(actor_power=5, target_power=3, target_shut=False):
    s = moving(bots=[bot("byte", "A1", power=actor_power), bot("casing", "F1", power=target_power,
                                                                shut_down=target_shut), module("F5")])
    s.bot("byte").upgrades = ["repair"]
    return s


def test_repair_transfers_power_anywhere():
    """"a bot may spend a general action to transfer power to another bot anywhere on the board (range is
    unlimited and line of sight is not required)\"
    Also: "The acting bot reduces its power bank by any chosen amount and increases the target bot's power by
    that same amount."
    Also: "Repair (1 Power): Use a general action to transfer power to any bot on the map."
    """
    new, events = act(repairing(), Repair(bot="byte", target="casing", amount=2))
    assert (new.bot("byte").power, new.bot("casing").power) == (3, 5) and new.burncycle.tracker == 1


def test_repair_keeps_one_power():
    """"The acting bot must retain at least 1 power.\""""
    illegal(repairing(actor_power=3), Repair(bot="byte", target="casing", amount=3), "retain at least 1 power")


def test_repair_up_to_ten():
    """"A bot's power may exceed its power bank capacity (up to the absolute maximum of 10).\""""
    new, _ = act(repairing(actor_power=9, target_power=6), Repair(bot="byte", target="casing", amount=4))
    assert new.bot("casing").power == 10
    illegal(repairing(actor_power=9, target_power=6), Repair(bot="byte", target="casing", amount=5),
            "absolute maximum is 10")


def test_repair_revives_a_shut_down_bot():
    """"Repairing a shut-down bot reactivates it immediately.\""""
    new, _ = act(repairing(target_power=0, target_shut=True), Repair(bot="byte", target="casing", amount=1))
    assert not new.bot("casing").shut_down and new.bot("casing").power == 1


def test_repair_needs_the_upgrade():
    """"With the repair ability unlocked (by routing 1 power to it)\"
    Also: "The primary general action is Repair, available once a bot activates its repair upgrade."
    """
    s = repairing()
    s.bot("byte").upgrades = []
    illegal(s, Repair(bot="byte", target="casing"), "not unlocked repair")


def test_universal_upgrades_cost_one_power():
    """"Bots can acquire universal upgrades for 1 power each: Swap, Push, Repair\""""
    s = two_players()
    new, _ = act(s, BuyUpgrade(bot="byte", upgrade="push"))
    assert new.bot("byte").upgrades == ["push"] and new.bot("byte").power == 4
    illegal(new, BuyUpgrade(bot="byte", upgrade="push"), "already has")
    s.bot("byte").power = 1
    illegal(s, BuyUpgrade(bot="byte", upgrade="swap"), "power is health")


# == the burncycle =================================================================================
def ending(slots, **kw):
    s = make_state(bots=[bot("byte", "A1"), module("F5")], slots=slots, **kw)
    return in_turn(s, step="end")


def test_degrade_the_rolled_slot():
    """"At the end of every turn, roll the burncycle die to degrade a slot: flip the matching slot's chip to
    its degraded face.\""""
    new, _ = act(ending(chips("general", "physical", "general")), EndTurn(), ["2"])
    assert [c.degraded for c in new.burncycle.slots[:3]] == [False, True, False]


def test_degrade_chooser_face():
    """"A result lets the player choose which chip degrades.\""""
    new, _ = act(ending(chips("general", "physical", "general")), EndTurn(choose=1), ["choose"])
    assert [c.degraded for c in new.burncycle.slots[:3]] == [True, False, False]


def test_degrade_advances_clockwise_past_degraded_and_inactive():
    """"If the rolled slot is already degraded or inactive, advance clockwise to the next active chip\""""
    new, _ = act(ending(chips("general", "-", "general")), EndTurn(), ["2"])
    assert new.burncycle.slots[2].degraded


def test_degrade_wraps_from_slot_five_to_slot_one():
    """"(slot 5 wraps to slot 1)\" Slots 4 and 5 have no peg: a 4 wraps round to slot 1."""
    new, _ = act(ending(chips("general", "-", "-")), EndTurn(), ["4"])
    assert new.burncycle.slots[0].degraded


def reboot_state(players=1, banned=False, no_reboot=False):
    agents = ["byte", "casing"][:players]
    s = make_state(bots=[bot(a, f"A{k + 1}") for k, a in enumerate(agents)] + [module("F5")], players=players,
                   slots=chips("-", "-general", "general"), difficulty="simplified",
                   net=network(agents, ips={"byte": None} if banned else None, levels={"byte": 3}))
    s.mission = Mission(id="test", name="Test", no_reboot=no_reboot)
    return in_turn(s, step="route")


@pytest.mark.parametrize("players", [1, 2])
def test_reboot_advances_threat_by_player_count(players):
    """"Clear all chips from the burncycle ... Draw and place them left-to-right. ... Advance threat by the
    player count.\""""
    s = reboot_state(players)
    new, events = act(s, Reboot(), ["captain", "1", "1"])
    assert new.threat == players
    assert [c.kind for c in new.burncycle.slots[:3]] == ["captain", "general", "general"]
    assert not any(c.degraded for c in new.burncycle.slots[:3])


def test_reboot_returns_banned_ips_at_level_one():
    """"Return banned IPs to the network at level 1.\""""
    new, _ = act(reboot_state(banned=True), Reboot(), ["captain", "1", "1"])
    ip = new.network.ips[0]
    assert not ip.banned and ip.node == "L1-01" and ip.level == 1


def test_no_reboot_on_missions_that_forbid_it():
    """Missions may forbid it ("no_reboot"): the reboot is refused."""
    illegal(reboot_state(no_reboot=True), Reboot(), "cannot be rebooted")


def test_reboot_only_before_a_turn():
    """"Rebooting can be declared before any player's turn (not before the corporation's turn)\""""
    s = reboot_state()
    s.turn.acted = True
    illegal(s, Reboot(), "before a player's turn")
    s.turn.step = "corporation"
    illegal(s, Reboot(), "corporation")


def altering(slots, team=("physical",), step="actions"):
    s = make_state(bots=[bot("byte", "A1"), module("F5")], slots=slots)
    s.burncycle.team_reserve = list(team)
    return in_turn(s, step=step)


def test_alter_swaps_a_reserve_chip_in_active():
    """"a player may swap any chip in the burncycle track with an available action chip taken from either the
    team reserve or their personal reserve ... The incoming reserve chip is always placed into the burncycle
    on its active face.\""""
    new, _ = act(altering(chips("general", "-")), Alter(slot=2, chip="physical"))
    assert new.burncycle.slots[1].kind == "physical" and not new.burncycle.slots[1].degraded
    assert new.burncycle.team_reserve == [] and new.threat == 0


def test_alter_captain_chip_before_it_degrades_costs_two_threat():
    """"If the captain action chip is removed and replaced before it has degraded, threat immediately
    advances by 2.\""""
    new, _ = act(altering(chips("general", "captain")), Alter(slot=2, chip="physical"))
    assert new.threat == 2
    new, _ = act(altering(chips("general", "-captain")), Alter(slot=2, chip="physical"))
    assert new.threat == 0


def test_no_alter_during_a_move():
    """">> Free actions cannot interrupt movement within an ongoing move action.\"
    Also: "They can occur at any point on a player's turn, except during another ongoing action, die roll
    resolution, or card effect resolution."
    """
    s = altering(chips("general", "general"))
    s, _ = act(s, Move(dice=DicePool(basic=1)), ["1"])
    illegal(s, Alter(slot=2, chip="physical"), "move action is under way")


def test_alter_needs_the_chip_in_reserve():
    """"an available action chip taken from either the team reserve or their personal reserve\""""
    illegal(altering(chips("general"), team=()), Alter(slot=1, chip="tech"), "holds no tech chip")


def unlocking(module_power=6, agent_power=5, other_power=5):
    s = make_state(bots=[bot("byte", "A1", power=agent_power), bot("casing", "B1", power=other_power),
                         module("F5", power=module_power)], players=2, slots=chips("general", "general", "general"),
                   module_slot_costs=[4, 6])
    return in_turn(s, step="route")


def test_unlock_slot_pays_the_printed_cost_and_gets_a_general_chip():
    """"Players can unlock new slots during the power routing step by paying the power cost printed on the
    command module card. Unlocked slots immediately receive a general action chip from the supply.\""""
    new, _ = act(unlocking(), UnlockSlot(payers={"module": 2, "casing": 2}))
    assert new.burncycle.slots[3].kind == "general"
    assert (new.bot("module").power, new.bot("casing").power) == (4, 3)


def test_unlock_slot_needs_one_power_from_module_or_active_agent():
    """"provided at least 1 power is paid by the command module or the active player's agent\""""
    illegal(unlocking(), UnlockSlot(payers={"casing": 4}), "at least 1 power")
    new, _ = act(unlocking(), UnlockSlot(payers={"byte": 1, "casing": 3}))
    assert new.bot("byte").power == 4


def test_unlock_slot_wrong_cost_refused():
    illegal(unlocking(), UnlockSlot(payers={"module": 3}), "costs 4 power")


def test_unlock_slot_is_listed_with_its_cost_and_a_legal_split():
    """The next slot is offered during power routing at its printed cost, and the proposed split is legal."""
    offered = [la for la in legal_actions(unlocking()) if isinstance(la.action, UnlockSlot)]
    assert len(offered) == 1 and offered[0].cost.power == 4 and offered[0].choose == ["payers"]
    new, _ = act(unlocking(), offered[0].action)
    assert new.burncycle.slots[3].kind == "general"
    # nobody can pay without shutting down: not offered
    broke = unlocking(module_power=1, agent_power=1, other_power=1)
    assert not [la for la in legal_actions(broke) if isinstance(la.action, UnlockSlot)]
    full = unlocking()
    full.burncycle.slots = chips("general", "general", "general", "general", "general")
    assert not [la for la in legal_actions(full) if isinstance(la.action, UnlockSlot)]


def test_unlock_slot_takes_power_only_from_bots_in_play_as_the_legal_list_offers():
    """"Upgrades on the command module can be purchased using power from any combination of bots, provided at
    least 1 power is paid by the command module or the active player's agent." The legal list offers the bots
    on the board; the action took any bot, an escaped one too. Both now read "any bots" as the bots in play
    (docs/rules-interpretations.md)."""
    s = unlocking()
    s.bot("casing").escaped = True
    assert "casing" not in next(la for la in legal_actions(s) if isinstance(la.action, UnlockSlot)).payers
    illegal(s, UnlockSlot(payers={"byte": 1, "casing": 3}), "Casing has escaped and cannot pay for the slot")
    s = unlocking()
    s.bot("casing").space = None
    illegal(s, UnlockSlot(payers={"byte": 1, "casing": 3}), "Casing is off the board and cannot pay")
    new, _ = act(s, UnlockSlot(payers={"byte": 1, "module": 3}))
    assert new.burncycle.slots[3].kind == "general"


@settings(max_examples=60, deadline=None)
@given(powers=st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6)),
       away=st.sampled_from([None, "escaped", "off"]), split=st.lists(st.integers(0, 5), min_size=3, max_size=3))
def test_unlock_slot_accepts_exactly_the_splits_the_legal_list_allows(powers, away, split):
    """The action and its listing agree on who may pay and how much: a split of the offered payers within their
    offered maxima that pays the cost with 1 power from the module or the agent is taken, any other refused."""
    s = unlocking(module_power=powers[0], agent_power=powers[1], other_power=powers[2])
    if away == "escaped":
        s.bot("casing").escaped = True
    elif away == "off":
        s.bot("casing").space = None
    payers = {b: n for b, n in zip(("module", "byte", "casing"), split) if n}
    offered = [la for la in legal_actions(s) if isinstance(la.action, UnlockSlot)]
    fits = bool(offered) and sum(payers.values()) == 4 and payers.get("module", 0) + payers.get("byte", 0) >= 1 \
        and all(n <= offered[0].payers.get(b, 0) for b, n in payers.items())
    if fits:
        act(s, UnlockSlot(payers=payers))
    else:
        with pytest.raises(IllegalAction):
            act(s, UnlockSlot(payers=payers))


# == IP movement ===================================================================================
def networking(slots, ips=None, pings=None, levels=None, power=5, threat=3):
    s = make_state(bots=[bot("byte", "A1", power=power), module("F5")], slots=slots, threat=threat,
                   net=network(["byte"], ips=ips, pings=pings, levels=levels))
    return in_turn(s, step="network")


def ip_of(state):
    return state.network.ips[0]


def test_general_chip_moves_one_node():
    """"General and captain chips allow an IP to move 1 node\""""
    new, _ = act(networking(chips("general", "-physical")), NetworkStep())
    assert ip_of(new).node == "L1-02"


def test_ip_instructions_name_the_agent():
    """Agents are represented by coloured IP pegs: the instructions name the agent ("Byte's IP"), the events
    keep its id for the machines that read them."""
    new, events = act(networking(chips("tech")), NetworkStep())
    texts = [phrase(e, new) for e in events]
    assert "Set Byte's network level to 2." in texts
    assert of_type(events, "level_changed")[0].who == "byte"


def test_extended_movement_stops_at_a_hub():
    """"physical, tech, and utility chips grant extended movement" "Movement proceeds clockwise until
    reaching a hub, ping, or matching action node." "Layer 1 Hub: Increase network level by 1.\""""
    new, _ = act(networking(chips("tech")), NetworkStep())
    assert ip_of(new).node == "L1-03" and ip_of(new).level == 2


def test_extended_movement_stops_at_a_matching_node():
    """"until reaching ... matching action node\" (a physical chip from L1-04 stops on the physical node
    L1-07; a tech chip would go on to the hub L1-11.)"""
    new, _ = act(networking(chips("physical"), ips={"byte": "L1-04"}), NetworkStep())
    assert ip_of(new).node == "L1-07"
    new, _ = act(networking(chips("tech"), ips={"byte": "L1-04"}), NetworkStep())
    assert ip_of(new).node == "L1-11"


def test_extended_movement_stops_at_a_ping():
    """"until reaching a hub, ping\" (and the two resolve a boot)"""
    new, events = act(networking(chips("utility"), pings=["L1-02"], levels={"byte": 3}), NetworkStep())
    assert of_type(events, "boot")[0].node == "L1-02" and new.network.pings == []


def test_movement_left_to_right_one_step_per_active_chip():
    """"Driven by the burncycle chips from left to right." Degraded chips give no movement."""
    new, _ = act(networking(chips("general", "-tech", "general")), NetworkStep())
    assert ip_of(new).node == "L1-03"


def test_layer_two_hub_reduces_threat():
    """"Layer 2 Hub: Reduce threat by 1.\""""
    new, events = act(networking(chips("general"), ips={"byte": "L2-01"}), NetworkStep())
    assert ip_of(new).node == "L2-02" and new.threat == 2
    # the players read the bot's name, never its id ("byte's IP on a layer 2 hub")
    assert of_type(events, "threat_changed")[0].reason == "{bot:byte}'s IP on a layer 2 hub"
    assert "Set threat to 2 (was 3): Byte's IP on a layer 2 hub." in [phrase(e, new) for e in events]


def test_layer_three_hub_gains_power():
    """"Layer 3 Hub: Gain 1 power.\""""
    new, _ = act(networking(chips("general"), ips={"byte": "L3-01"}), NetworkStep())
    assert ip_of(new).node == "L3-02" and new.bot("byte").power == 6


def test_the_core_gives_all_three_then_back_to_access_point():
    """"Layer 4 (The Core): Gain all three benefits, then return IP to access point.\""""
    new, events = act(networking(chips("general"), ips={"byte": "L3-01"}), NetworkStep(transfers={1: "in"}))
    ip = ip_of(new)
    assert ip.node == "L1-01" and ip.level == 2 and new.threat == 2 and new.bot("byte").power == 6
    assert "Set threat to 2 (was 3): Byte's IP reached the core." in [phrase(e, new) for e in events]


def test_the_core_reached_by_winning_a_boot_still_gives_all_three():
    """"When an IP and ping occupy the same node, compare network levels." with "Layer 4 (The Core): Gain all
    three benefits, then return IP to access point.": an IP that wins the boot on the core has reached it (it
    was left standing in the core, where no clockwise line leads on, for the rest of the game)."""
    s = networking(chips("general"), ips={"byte": "L3-01"}, pings=["CORE"], levels={"byte": 4})
    new, events = act(s, NetworkStep(transfers={1: "in"}))
    assert of_type(events, "boot")[0].winner == "agent" and new.network.pings == []
    ip = ip_of(new)
    assert ip.node == "L1-01" and ip.level == 4 and new.threat == 2 and new.bot("byte").power == 6


def test_a_hub_reached_by_winning_a_boot_gives_its_benefit():
    """"Movement proceeds clockwise until reaching a hub, ping" "Layer 3 Hub: Gain 1 power.": the IP that wins
    the boot on a hub stands on the hub and gains its benefit."""
    s = networking(chips("general"), ips={"byte": "L3-01"}, pings=["L3-02"], levels={"byte": 4})
    new, events = act(s, NetworkStep())
    assert of_type(events, "boot")[0].winner == "agent"
    assert ip_of(new).node == "L3-02" and new.bot("byte").power == 6


def test_an_ip_booted_on_a_hub_gains_nothing_there():
    """"The lower level is booted": a booted IP goes back to its access point and the hub gives it nothing."""
    s = networking(chips("general"), ips={"byte": "L3-01"}, pings=["L3-02"], levels={"byte": 1})
    new, events = act(s, NetworkStep())
    assert of_type(events, "boot")[0].winner == "ceo"
    assert ip_of(new).node == "L1-01" and new.bot("byte").power == 5


def test_transfer_along_a_white_line_then_move_clockwise():
    """"IPs can transfer across layers along white lines once per movement step." (The transfer comes before
    the chip's clockwise movement: L1-04 in to L2-03, then one node to L2-04.)"""
    new, _ = act(networking(chips("general"), ips={"byte": "L1-04"}), NetworkStep(transfers={1: "in"}))
    assert ip_of(new).node == "L2-04"


def test_transfer_needs_a_white_line():
    """"along white lines\""""
    illegal(networking(chips("general")), NetworkStep(transfers={1: "in"}), "no white line")
    illegal(networking(chips("general")), NetworkStep(transfers={2: "in"}), "no movement step 2")


# == legal actions =================================================================================
def test_legal_actions_in_the_action_step():
    """The legal actions of step 3 list a move, strikes on adjacent units, walls, and a pass."""
    s = striking([level_guard(1, "C4")], text=DOORS, bots=[bot("byte", "C3"), module("A1")])
    names = {type(a.action).__name__ for a in legal_actions(s)}
    assert {"Move", "Strike", "Pass", "StrikeWall"} <= names
