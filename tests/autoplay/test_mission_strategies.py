"""Each mission's own play sits behind one `MissionStrategy`, chosen by the mission's id."""

from __future__ import annotations

import msgspec
import pytest

from controller.autoplay.evaluation import game_jobs, start_of
from controller.autoplay.missions import MissionStrategy, StandardPlay, strategy_for
from controller.autoplay.missions.strategy import bead_rooms
from controller.autoplay.player import AutoPlayer
from controller.autoplay.start import chosen_setup
from controller.rules import (
    GameSetup,
    Keypad,
    Reboot,
    Resolution,
    SeededDice,
    Terminal,
    UnlockSlot,
    apply_effect,
    new_game,
)
from controller.rules.state import BagUnit, GameState
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


def test_rescue_rangers_agent_with_its_access_draws_the_bag_out_then_waits_at_a_terminal_rooms_door():
    """Rescue Rangers, before the calibration ("Each agent: Access at least one terminal"): an agent with its
    own access goes into the rooms that still hold a bead and a free terminal space while units are left in
    the draw bag ("Before surveilling a room with at least one terminal space, draw a unit from the bag"),
    drawing the guards and the captain out before the calibration adds the module, which is then the next
    unit drawn; with the bag empty it waits at a door of such a room, not home, to step in once the
    calibration bags the module; after the calibration it goes in."""
    state = new_game(CONTENT, GameSetup(mission="rescue-rangers", floor="meridian-lobby", level=1, players=2,
                                        agents=["nano", "casing"], seed=1000))
    state.progress["terminals:nano"] = 1
    table = Resolution(state, SeededDice(0), apply_effect, copy=False)
    floor, nano = table.floor, state.bot("nano")
    rooms = bead_rooms(table, terminal=True)
    assert state.draw_bag and AutoPlayer().routes.targets(table, nano) == rooms
    state.draw_bag.clear()
    waits = AutoPlayer().routes.targets(table, nano)
    assert waits and all(i not in rooms and any((i, j) in floor.door_edges for j in rooms) for i in waits)
    assert not any(floor.in_safe_zone(i) for i in waits)
    state.calibrated = True
    state.draw_bag.append(BagUnit(unit="module"))  # the calibration's result: "Add the command module to the draw bag."
    assert AutoPlayer().routes.targets(table, nano) == rooms


def test_rescue_rangers_calibrating_access_waits_while_the_team_mate_draws_the_bag_out():
    """Rescue Rangers: the calibration adds the module to the draw bag and "Each agent loses 1 power at the
    start of their turn until the command module is drawn". Casing on his terminal, whose access would
    calibrate (Nano has his), waits there while any unit is left in the bag and Nano, up, draws them out; he
    accesses with the bag empty, or once a guard sees him, or with Nano shut down."""
    def casings_turn() -> GameState:
        state = new_game(CONTENT, GameSetup(mission="rescue-rangers", floor="meridian-lobby", level=1, players=2,
                                            agents=["nano", "casing"], seed=1000))
        state.progress["terminals:nano"] = 1
        state.bot("casing").space, state.bot("nano").space = "J14", "E10"
        state.floor.surveillance.remove("G11")  # Casing's room, surveilled as he came in
        state.burncycle.slots = chips("physical", "general", "general", "general")
        return in_turn(state, order=["casing", "nano"], basic=3)

    state = casings_turn()
    assert len(state.draw_bag) == 4
    assert not isinstance(AutoPlayer().choose(state), Terminal)
    del state.draw_bag[2:]
    assert not isinstance(AutoPlayer().choose(state), Terminal)
    del state.draw_bag[1:]
    assert not isinstance(AutoPlayer().choose(state), Terminal)
    state.draw_bag.clear()
    assert AutoPlayer().choose(state) == Terminal(bot="casing", options=[1])
    seen = casings_turn()
    seen.bot("casing").awareness = "J14"  # a guard sees him
    assert isinstance(AutoPlayer().choose(seen), Terminal)
    alone = casings_turn()
    alone.bot("nano").power, alone.bot("nano").shut_down = 0, True
    assert isinstance(AutoPlayer().choose(alone), Terminal)


def test_rescue_rangers_one_agent_draws_the_module_when_it_is_the_last_unit_in_the_bag():
    """Rescue Rangers after the calibration: the module comes out where a terminal room is surveilled ("Before
    surveilling a room with at least one terminal space, draw a unit from the bag"). With the module the bag's
    last unit, the agent nearest such a room (Casing, by the Vault) goes to draw it and Nano, out in the
    hallway, heads for the team's safe zone, where the walk the draw starts ends; with a guard still in the bag
    both go in (two draws to make), and with Casing shut down Nano draws."""
    state = new_game(CONTENT, GameSetup(mission="rescue-rangers", floor="meridian-lobby", level=1, players=2,
                                        agents=["nano", "casing"], seed=1000))
    state.progress["terminals:nano"] = state.progress["terminals:casing"] = 1
    state.calibrated = True
    state.bot("nano").space, state.bot("casing").space = "E10", "O14"
    state.draw_bag[:] = [BagUnit(unit="module")]
    table = Resolution(state, SeededDice(0), apply_effect, copy=False)
    floor, nano, casing = table.floor, state.bot("nano"), state.bot("casing")
    rooms = bead_rooms(table, terminal=True)
    assert AutoPlayer().routes.targets(table, casing) == rooms
    home = AutoPlayer().routes.targets(table, nano)
    assert home and all(floor.in_safe_zone(i) for i in home)
    state.draw_bag.insert(0, BagUnit(unit="guard"))
    assert AutoPlayer().routes.targets(table, nano) == rooms
    del state.draw_bag[0]
    casing.power, casing.shut_down = 0, True
    assert AutoPlayer().routes.targets(table, nano) == rooms


def test_rescue_rangers_agents_wait_at_the_door_of_a_terminal_room_that_gets_its_bead_back():
    """Rescue Rangers after the calibration: "At the end of each round, every unoccupied surveilled room becomes
    unsurveilled (place a surveillance bead if it gets one)". Besides the rooms that hold a bead, an agent's
    goals are the doors of the surveilled terminal rooms nobody stands in (the Office, G11, surveilled when
    Casing left it): at the round's end it gets its bead back, and stepping in then draws the next unit. With
    Casing standing in it, it keeps no bead, and its doors are no goal."""
    def table(casing_at: str) -> Resolution:
        state = new_game(CONTENT, GameSetup(mission="rescue-rangers", floor="meridian-lobby", level=1, players=2,
                                            agents=["nano", "casing"], seed=1000))
        state.progress["terminals:nano"] = state.progress["terminals:casing"] = 1
        state.calibrated = True
        state.bot("nano").space, state.bot("casing").space = "E10", casing_at
        state.draw_bag[:] = [BagUnit(unit="guard"), BagUnit(unit="module")]
        state.floor.surveillance.remove("G11")
        return Resolution(state, SeededDice(0), apply_effect, copy=False)

    empty, occupied = table("O14"), table("J14")
    floor = empty.floor
    office = set(floor.area(floor.index["J14"]).spaces)
    rooms = bead_rooms(empty, terminal=True)
    targets = AutoPlayer().routes.targets(empty, empty.state.bot("nano"))
    assert rooms < targets
    assert all(i not in office and any((i, j) in floor.door_edges for j in office) for i in targets - rooms)
    assert AutoPlayer().routes.targets(occupied, occupied.state.bot("nano")) == bead_rooms(occupied, terminal=True)


@pytest.mark.parametrize("card, calibrated, aborts", [
    ("K03", False, True),  # utility, 1 keypad die: no zone chip pays it, 2 dice do not force 4 AP; the die may
    ("K10", False, False),  # utility, no keypad die: nothing to roll, he waits for the dice to force it
    ("K03", True, False),  # after the calibration the play is as before
])
def test_rescue_rangers_casing_shut_in_his_zone_rolls_the_keypad_die(card, calibrated, aborts):
    """Rescue Rangers: "Agents start on any safe zone space", Casing in the West zone, whose one door D15/E15
    is locked. A card asking a utility input, which neither zone's chip pays, and 4 AP his 2 dice cannot force,
    shut him in for rounds (K03: out in rounds 3-8). But a keypad action rolls the card's keypad dice before
    any approach, and their unlock face opens the door whatever the card asks: he aborts for it, chip after
    chip, as on the labs, and the door is no longer shut for his paths."""
    state = new_game(CONTENT, GameSetup(mission="rescue-rangers", floor="meridian-lobby", level=1, players=2,
                                        agents=["nano", "casing"], seed=1000))
    state.bot("casing").space, state.bot("nano").space = "D15", "Q4"
    state.bot("casing").power = 2
    state.keypads["D15/E15"] = next(c for c in CONTENT.keypads if c.id == card)
    state.calibrated = calibrated
    state.burncycle.team_reserve = ["tech"]
    s = in_turn(state, order=["casing", "nano"], basic=2)
    player = AutoPlayer()
    player.notes.recall(player.memory)
    assert ("D15/E15" not in player.paths.jammed(Resolution(s, SeededDice(0), apply_effect, copy=False))) is aborts
    assert (AutoPlayer().choose(s) == Keypad(bot="casing", beyond="E15", approach="abort")) is aborts


@pytest.mark.parametrize("mission, casing_power, kept", [
    ("rescue-rangers", 5, True),  # Casing's 5 dice force K09's 4 AP: the team keeps its zone on Nano's turn
    ("rescue-rangers", 1, False),  # nobody's dice force it, and no tech chip pays it: the zone is given up
    ("data-heist", 5, False),  # Data Heist judges the door by the active agent's dice, as before
])
def test_rescue_rangers_keeps_its_zone_for_a_door_the_teams_dice_force(mission, casing_power, kept):
    """Rescue Rangers on the lobby, the module drawn and the team on its way home to the West zone, whose one
    door D15/E15 is locked: its card (K09: one tech input, 4 AP by brute force) was judged by the active
    agent's dice, and the calibration's drain ("Each agent loses 1 power at the start of their turn until the
    command module is drawn") leaves an agent with a pool of 1 or 2 just then, so on that agent's turn the team
    gave the zone up for the East one across the floor, though its team-mate's dice force the card. The kept
    zone is judged by the team's strongest dice."""
    def position(card: bool) -> GameState:
        state = new_game(CONTENT, GameSetup(mission=mission, floor="meridian-lobby", players=2,
                                            level=None if mission == "data-heist" else 1,
                                            agents=["nano", "casing"], seed=1000))
        state.progress["terminals:nano"] = state.progress["terminals:casing"] = 1
        state.calibrated = True
        state.draw_bag[:] = []
        nano, casing = state.bot("nano"), state.bot("casing")
        nano.space, casing.space, state.bot("module").space = "F13", "E12", "E13"
        nano.power, nano.advanced_dice, nano.elite_dice, casing.power = 1, 0, 0, casing_power
        state.burncycle.team_reserve = []
        state.burncycle.personal_reserves = {}
        if card:
            state.keypads["D15/E15"] = next(c for c in CONTENT.keypads if c.id == "K09")
        return in_turn(state, order=["nano", "casing"], basic=1)

    player = AutoPlayer()
    before = position(card=False)
    player.choose(before)
    player.notes.recall(player.memory)
    table = Resolution(before, SeededDice(0), apply_effect, copy=False)
    assert table.floor.index["A13"] in player.paths.team_safe_zone(table)  # the West zone, the team's
    player.notes.recall(player.memory)
    table = Resolution(position(card=True), SeededDice(0), apply_effect, copy=False)
    assert (table.floor.index["A13"] in player.paths.team_safe_zone(table)) is kept


def test_rescue_rangers_reboots_a_chip_sooner_where_the_reboot_fills_the_reserves():
    """"Reserves are created during burncycle creation and reboots from outdoor spaces and occupied rooms":
    with two usable chips left, the team reboots when both agents stand in rooms whose infobar shows a chip
    (the Server room's tech chip, the Office's physical one), and not with one of them in the hallway, nor in
    Data Heist, whose module fills the team reserve (at one chip left every mission reboots)."""
    def route(nano: str, casing: str, mission: str = "rescue-rangers", live: int = 2) -> GameState:
        state = new_game(CONTENT, GameSetup(mission=mission, floor="meridian-lobby", players=2,
                                            level=None if mission == "data-heist" else 1,
                                            agents=["nano", "casing"], seed=1000))
        state.bot("nano").space, state.bot("casing").space = nano, casing
        state.burncycle.slots = chips(*["-"] * (4 - live), *["general"] * live)
        state.burncycle.team_reserve = []  # the safe zones' chips, altered in long ago
        return in_turn(state, step="route", order=["nano", "casing"], basic=3)

    assert AutoPlayer().choose(route("H6", "J12")) == Reboot()
    assert AutoPlayer().choose(route("E10", "J12")) != Reboot()
    assert AutoPlayer().choose(route("H6", "J12", "data-heist")) != Reboot()
    assert AutoPlayer().choose(route("E10", "J12", live=1)) == Reboot()


def test_tower_run_reboots_a_chip_sooner_where_the_reboot_fills_the_reserves():
    """The tower run as Rescue Rangers: with two usable chips left the team reboots when both agents stand in
    rooms whose infobar shows a chip (the lobby's Server room, the Office), each chip altered in for a degraded
    slot later; not with one of them in the hallway (the module, on its entrance in the Main hallway, fills no
    reserve), and at one chip left it reboots anyway."""
    def route(nano: str, casing: str, live: int = 2) -> GameState:
        state = new_game(CONTENT, GameSetup(mission="tower-run", players=2, agents=["nano", "casing"], seed=1000))
        state.bot("nano").space, state.bot("casing").space = nano, casing
        state.burncycle.slots = chips(*["-"] * (4 - live), *["general"] * live)
        return in_turn(state, step="route", order=["nano", "casing"], basic=3)

    assert AutoPlayer().choose(route("H6", "J12")) == Reboot()
    assert AutoPlayer().choose(route("E10", "J12")) != Reboot()
    assert AutoPlayer().choose(route("E10", "J12", live=1)) == Reboot()


def rescue_rangers(floor: str, **kw) -> GameSetup:
    return GameSetup(floor=floor, mission="rescue-rangers", level=1, agents=["nano", "casing"], seed=3000, **kw)


def test_rescue_rangers_team_starts_spread_with_casing_in_the_zone_nearest_the_terminals():
    """"Agents start on any safe zone space." and "each safe zone that has at least 1 bot occupying it will
    grant 1 action chip of the team's choice to the team's reserve": the auto-player's team starts in both of
    the lobby's safe zones (two chips), Casing, who opens doors with a keypad, in the West one, nearer the
    rooms with terminals, Nano, who reassembles through doors, in the East one, each by its zone's door."""
    start = new_game(CONTENT, chosen_setup(CONTENT, rescue_rangers("meridian-lobby")))
    assert {b.id: b.space for b in start.bots} == {"module": None, "nano": "Q4", "casing": "D15"}
    assert len(start.burncycle.team_reserve) == 2
    reading_order = new_game(CONTENT, rescue_rangers("meridian-lobby"))
    assert {b.id: b.space for b in reading_order.bots} == {"module": None, "nano": "Q3", "casing": "R3"}
    assert len(reading_order.burncycle.team_reserve) == 1
    job = game_jobs(rescue_rangers("meridian-labs"), [3000], "heuristic")[0]
    assert {b.id: b.space for b in start_of(job).bots} == {"module": None, "nano": "D12", "casing": "E6"}


def test_the_auto_player_leaves_the_start_alone_where_the_rules_give_no_choice_or_it_is_made():
    """Data Heist and an Adaptable mission on level 1 start at the entrance; a start the setup names is kept."""
    for setup in (GameSetup(seed=3000), GameSetup(mission="tsm-103c", level=1, seed=3000),
                  rescue_rangers("meridian-lobby", start={"casing": "A13"})):
        assert chosen_setup(CONTENT, setup) is setup
