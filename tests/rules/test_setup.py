"""Setup (`new_game`): "Security Posts & Units", surveillance, caches, terminals, burncycle creation,
reserves, and the Robophobia Adaptable missions' setup."""

from __future__ import annotations

import pytest

from controller.rules import (
    GameSetup,
    Reboot,
    RulesError,
    apply_action,
    check_setup,
    encode_state,
    new_game,
    state_problems,
)
from controller.rules.board.geometry import compile_floor
from tests.support.rules_scenarios import CONTENT, floor_text

LOBBY, LABS = CONTENT.floors["meridian-lobby"], CONTENT.floors["meridian-labs"]


def game(floor="lobby", players=2, difficulty="standard", captain="fauxbia", mission="data-heist", seed=5,
         level=None, **kw):
    text = {"lobby": LOBBY, "labs": LABS}.get(floor, floor)
    return new_game(CONTENT, GameSetup(floor=f"{floor}.floor", floor_text=text, mission=mission, level=level,
                                       players=players, difficulty=difficulty, captain=captain, seed=seed, **kw))


def units_on(state, feature):
    f = compile_floor(state.floor.text, state.floor.name)
    return [u for u in state.security if f.feature[f.space(u.space)] == feature]


def feature_spaces(state, feature):
    f = compile_floor(state.floor.text, state.floor.name)
    return [f.ids[i] for i in f.posts.get(feature, ())]


# -- security detail --------------------------------------------------------------------------------
@pytest.mark.parametrize("floor,level,row", [("lobby", None, 0), ("labs", None, 1),
                                             ("lobby", 3, 2)])
def test_hallway_posts_follow_captain_security_detail(floor, level, row):
    """"Hallway Posts (1-3): Populated according to the Captain's security detail chart.\" (Fauxbia's
    card: rows are layers 1 to 3, columns posts 1 to 3; the layer is the floor's level)"""
    mission = "data-heist" if level is None else "rescue-rangers"
    s = game(floor, level=level, mission=mission)
    detail = CONTENT.captains["fauxbia"].security_detail[row]
    for k, slot in enumerate(detail, 1):
        on_post = units_on(s, f"post{k}")
        if slot is None or (not slot.colour and not slot.captain):
            assert on_post == [], f"post{k} stays empty"
        elif slot.captain:
            # Rescue Rangers: "If the captain is in the security detail, use a level 2 guard in its place."
            assert on_post[0].rank == "guard" and on_post[0].level == 2
        else:
            u = on_post[0]
            chip = next(c for c in CONTENT.guards if c.name == u.chip)
            assert (u.level, chip.colour, u.key) == (slot.level, slot.colour, slot.key), f"post{k}"


def test_security_detail_fauxbia_layer_one():
    """Fauxbia's security detail, layer 1: "yellow 2 | (empty) | blue 1, key\""""
    s = game("lobby")
    (p1,), p2, (p3,) = units_on(s, "post1"), units_on(s, "post2"), units_on(s, "post3")
    assert (p1.level, p1.key) == (2, False)
    assert p2 == []
    assert (p3.level, p3.key) == (1, True)


def test_security_detail_captain_on_layer_three():
    """Fauxbia's security detail, layer 3: "red 3 | yellow 2 | pink diamond\": the captain stands on
    post 3."""
    s = game("lobby", level=3, mission="rescue-rangers", captain="overseer")
    assert all(u.rank == "guard" for u in s.security)  # Rescue Rangers swaps the captain for a guard
    s = game("lobby", level=3, mission="tsm-103c")
    cap = [u for u in s.security if u.rank == "captain"]
    assert len(cap) == 1 and cap[0].space == feature_spaces(s, "post3")[0]
    assert cap[0].chip == "Fauxbia" and cap[0].durability == 25 and cap[0].damage == 3
    assert units_on(s, "post1")[0].level == 3 and units_on(s, "post2")[0].level == 2


def test_mandatory_star_posts_get_floor_level_guards():
    """"Mandatory Posts (Star): Populated during setup with a guard of the current floor level.\""""
    for floor, level in (("lobby", 1), ("labs", 2)):
        s = game(floor)
        stars = units_on(s, "star")
        assert len(stars) == len(feature_spaces(s, "star")) == 2
        assert all(u.level == level and u.rank == "guard" for u in stars)


def test_room_posts_empty_at_setup():
    """"Room Posts (A/B): Populated when a guard icon is rolled on surveillance dice.\": not at setup."""
    s = game("lobby")
    assert units_on(s, "postA") == [] and units_on(s, "postB") == []


def test_guards_drawn_from_the_bag():
    """Every guard placed at setup comes out of the guard bag (limited security unit chips)."""
    s = game("labs")
    guards = [u for u in s.security if u.rank == "guard"]
    assert len(s.guard_bag) == len(CONTENT.guards) - len(guards)


# -- floor components --------------------------------------------------------------------------------
def test_surveillance_beads_in_every_surveilled_room():
    """"Entering an unsurveilled room (containing a surveillance bead)\": setup puts a bead in every room
    whose infobar shows surveillance dice, none in hallways, outdoor spaces or safe zones."""
    for floor in ("lobby", "labs"):
        s = game(floor)
        f = compile_floor(s.floor.text, s.floor.name)
        expected = sorted(f.ids[a.spaces[0]] for a in f.areas if a.kind == "room" and a.surveillance > 0)
        assert sorted(s.floor.surveillance) == expected
        assert all(f.area(f.space(x)).kind == "room" for x in s.floor.surveillance)
    f = compile_floor(LABS, "labs")
    storage = next(a for a in f.areas if a.name == "Storage")
    assert storage.surveillance == 0 and f.ids[storage.spaces[0]] not in game("labs").floor.surveillance


def test_caches_populate_cache_spaces():
    """"Orange cache chips populate cache spaces during setup.\""""
    s = game("lobby")
    assert sorted(s.floor.caches) == sorted(feature_spaces(s, "cache"))
    assert len(s.floor.caches) == 6


def test_terminals_standard_and_mainframe():
    """Terminal chips on terminal spaces; "Terminals flipped to their mainframe side\" where the floor
    prints one (M)."""
    s = game("lobby")
    assert {k for k, v in s.floor.terminals.items() if v == "standard"} == set(feature_spaces(s, "terminal"))
    assert {k for k, v in s.floor.terminals.items() if v == "mainframe"} == set(feature_spaces(s, "mainframe"))
    assert "mainframe" in s.floor.terminals.values()


def test_bots_start_on_entrance():
    """Bots enter the floor at the entrance; the command module is placed with the agents."""
    s = game("labs", players=4)
    entrance = feature_spaces(s, "entrance")
    assert [b.kind for b in s.bots] == ["module", "agent", "agent", "agent", "agent"]
    assert all(b.space in entrance for b in s.bots)
    assert all(b.awareness is None and not b.detected for b in s.bots)
    assert [b.power for b in s.bots] == [CONTENT.module.power] + [a.power for a in CONTENT.agents[:4]]


def test_network_setup_ips_on_access_points():
    """"Agents are represented by colored IP pegs\": each agent's IP starts on its access point at level 1;
    the CEO at level 1 with the mat's starting pings."""
    s = game("lobby", players=3)
    assert len(s.network.ips) == 3
    nodes = {n.id: n for n in s.network.mat.nodes}
    for ip in s.network.ips:
        assert nodes[ip.node].kind == "access" and nodes[ip.node].agent == ip.agent and ip.level == 1
    assert s.network.ceo_level == 1
    assert [p.node for p in s.network.pings] == CONTENT.network.start_pings


# -- burncycle and reserves --------------------------------------------------------------------------
def test_burncycle_created_from_bag_with_captain_chip():
    """"Place the captain chip and general action chips into the bag equal to the number of active slots.
    Draw and place them left-to-right.\""""
    orders = set()
    for seed in range(12):
        s = game("lobby", seed=seed)
        slots = s.burncycle.slots
        assert len(slots) == 5
        active = [c for c in slots if c is not None]
        assert len(active) == CONTENT.module.active_slots
        assert sorted(c.kind for c in active) == ["captain"] + ["general"] * (len(active) - 1)
        assert all(not c.degraded for c in active) and slots[len(active):] == [None] * (5 - len(active))
        orders.add(tuple(c.kind for c in active))
    assert len(orders) > 1  # the bag is drawn, not laid out in a fixed order


def test_setup_is_deterministic_per_seed():
    """Randomness only through the dice: the same seed builds the same table."""
    assert encode_state(game("labs", seed=9)) == encode_state(game("labs", seed=9))


def test_reserves_from_outdoor_spaces_and_occupied_rooms():
    """"Reserves are created during burncycle creation and reboots from outdoor spaces and occupied
    rooms.\": a bot starting in an area with a reserve icon adds that chip (the command module to the team
    reserve, an agent to its personal reserve)."""
    text = floor_text("""
    +-+-+-+-+
    |E E E .|
    +-+-+-+-+
    """, 'A1 outdoor "Yard" reserve=utility')
    s = new_game(CONTENT, GameSetup(floor="yard.floor", floor_text=text, players=2, difficulty="standard",
                                    captain="overseer", seed=1))
    assert s.burncycle.team_reserve == ["utility"]
    assert s.burncycle.personal_reserves == {"byte": ["utility"], "casing": ["utility"]}
    s = game("lobby")  # the lobby's entrance is in a hallway: no reserve
    assert s.burncycle.team_reserve == [] and s.burncycle.personal_reserves == {}


def test_setup_state_is_legal():
    """Setup builds a legal starting state for every shipped floor, captain, difficulty and mission."""
    for floor in ("lobby", "labs"):
        for captain in ("fauxbia", "overseer"):
            for difficulty in ("simplified", "standard", "seasoned"):
                s = game(floor, captain=captain, difficulty=difficulty, players=4)
                assert state_problems(s) == []
            for mission in ("tsm-103c", "rescue-rangers", "preconnaissance", "ghost-in-the-dell"):
                for level in (1, 2, 3):
                    s = game(floor, captain=captain, mission=mission, level=level)
                    assert state_problems(s) == [] and s.floor.level == level


def test_bad_setup_arguments_are_refused():
    """Setup refuses what the rules do not allow, with a message."""
    with pytest.raises(RulesError, match="player count"):
        game(players=5)
    with pytest.raises(RulesError, match="difficulty"):
        game(difficulty="nightmare")
    with pytest.raises(RulesError, match="only Adaptable missions"):
        game(level=2)
    with pytest.raises(RulesError, match="unknown captain"):
        game(captain="nobody")


def test_every_bad_choice_is_named_at_once_with_what_to_choose():
    """`check_setup` is the one check of a setup's names (the command line, table.toml and the dashboard all
    ask it): every problem at once, each naming the field, the value, the choices and the likely typo."""
    setup = GameSetup(floor="meridian-lobbby", mission="data-hiest", agents=["byte", "bytte"], players=2,
                      difficulty="hard", captain="fauxbya", level=2)
    found = check_setup(CONTENT, setup)
    assert [(p.field, p.value) for p in found] == [
        ("floor", "meridian-lobbby"), ("mission", "data-hiest"), ("agents", "bytte"), ("difficulty", "hard"),
        ("captain", "fauxbya")]
    by_field = {p.field: str(p) for p in found}
    assert by_field["floor"] == ("unknown floor 'meridian-lobbby': expected one of meridian-annex, meridian-labs, "
                                 "meridian-lobby (did you mean 'meridian-lobby'?)")
    assert by_field["mission"].endswith("(did you mean 'data-heist'?)")
    assert by_field["agents"].startswith("unknown agent 'bytte': expected one of bit, byte, casing")
    assert by_field["captain"] == ("unknown captain 'fauxbya': expected one of fauxbia, overseer "
                                   "(did you mean 'fauxbia'?)")
    with pytest.raises(RulesError) as refused:
        new_game(CONTENT, setup)
    assert str(refused.value) == "; ".join(str(p) for p in found)


def test_the_team_is_checked_against_the_player_count():
    """Each agent card is played by one player: a named agent twice, or more or fewer agents than players, is
    refused before any chip is drawn; a floor the caller holds besides the content's is a choice too."""
    twice = check_setup(CONTENT, GameSetup(players=2, agents=["byte", "byte"]))
    assert [str(p) for p in twice] == ["agent 'byte' named twice: expected different agents: each agent card is "
                                       "played by one player"]
    three = check_setup(CONTENT, GameSetup(players=2, agents=["byte", "bit", "nano"]))
    assert [str(p) for p in three] == ["3 agents named for 2 players: expected one agent per player"]
    one = check_setup(CONTENT, GameSetup(players=1, agents=["byte", "bit"]))
    assert [str(p) for p in one] == ["2 agents named for 1 player: expected one agent per player"]
    assert [str(p) for p in check_setup(CONTENT, GameSetup(players=0, agents=[]))] == [
        "player count 0: expected 1 to 4 players, one agent each"]
    assert check_setup(CONTENT, GameSetup(floor="my-annex"), floors=["my-annex"]) == []
    assert check_setup(CONTENT, GameSetup(floor="x.floor", floor_text="drawn elsewhere")) == []
    assert check_setup(CONTENT, GameSetup(captain="Fauxbia")) == []  # the captain's card, however it is written


# -- Adaptable missions -----------------------------------------------------------------------------
def test_adaptable_level_replaces_floor_number():
    """"Use the level chosen as the floor number for all rules and game effects that rely on floor number
    (including security detail, keypad level, and guard durability).\""""
    s = game("lobby", mission="preconnaissance", level=2)
    assert s.floor.level == 2
    assert all(u.level == 2 for u in units_on(s, "star"))
    post1 = units_on(s, "post1")[0]
    assert post1.level == 2 and post1.durability == 15  # "Level 2 Guard: 15 AP"


def test_adaptable_bots_start_in_safe_zones_on_levels_two_and_three():
    """"Unless otherwise stated, bots start on a safe zone space of their choice when playing on floors 2
    and 3.\" (on level 1, the entrance)"""
    for mission in ("tsm-103c", "preconnaissance"):
        s = game("lobby", mission=mission, level=2)
        f = compile_floor(s.floor.text, s.floor.name)
        assert all(f.in_safe_zone(f.space(b.space)) for b in s.bots), mission
        s = game("lobby", mission=mission, level=1)
        assert all(b.space in feature_spaces(s, "entrance") for b in s.bots), mission


def test_adaptable_team_reserve_one_chip_per_occupied_safe_zone():
    """"When generating the team reserve at the start of the game, each safe zone that has at least 1 bot
    occupying it will grant 1 action chip of the team's choice to the team's reserve.\""""
    s = game("lobby", mission="tsm-103c", level=2, players=2)
    assert len(s.burncycle.team_reserve) == 1  # all three bots in one safe zone
    s = game("lobby", mission="tsm-103c", level=1, players=2)
    assert s.burncycle.team_reserve == []


def test_adaptable_safe_zone_chips_come_at_the_start_of_the_game_only():
    """"When generating the team reserve at the start of the game, each safe zone that has at least 1 bot
    occupying it will grant 1 action chip of the team's choice to the team's reserve." A reboot regenerates
    the reserves ("Regenerate team and personal reserves.") but is not the start of the game: the safe zone
    grants nothing then (it used to grant its chip at every reboot)."""
    s = game("lobby", mission="preconnaissance", level=2, players=2)
    assert len(s.burncycle.team_reserve) == 1  # all three bots in one safe zone
    s, _ = apply_action(s, Reboot())
    f = compile_floor(s.floor.text, s.floor.name)
    assert all(f.in_safe_zone(f.space(b.space)) for b in s.bots)  # still there, and the safe zone has no chip
    assert s.burncycle.team_reserve == []


def test_the_team_chooses_its_safe_zone_start_spaces():
    """"Unless otherwise stated, bots start on a safe zone space of their choice when playing on floors 2 and
    3." and, for Rescue Rangers, "Agents start on any safe zone space.": the setup's `start` puts each bot named
    on its space; a bot not named takes the first free safe zone space in reading order, as without a choice."""
    s = game("lobby", mission="rescue-rangers", level=1, start={"byte": "D15", "casing": "T6"})
    assert {b.id: b.space for b in s.bots} == {"module": None, "byte": "D15", "casing": "T6"}
    s = game("lobby", mission="rescue-rangers", level=1, start={"casing": "Q3"})
    assert {b.id: b.space for b in s.bots} == {"module": None, "byte": "R3", "casing": "Q3"}
    s = game("lobby", mission="preconnaissance", level=2, start={"module": "A13", "byte": "B13"})
    assert {b.id: b.space for b in s.bots} == {"module": "A13", "byte": "B13", "casing": "Q3"}
    s = game("lobby", mission="ghost-in-the-dell", level=1, start={"byte": "A16"})  # "All other bots start in
    assert next(b.space for b in s.bots if b.id == "byte") == "A16"                 # safe zones of their choice"


def test_no_start_chosen_keeps_the_reading_order_placement():
    """Without a choice every bot takes the first free safe zone space in reading order, as every recorded game
    was set up (an empty choice is no choice)."""
    for start in (None, {}):
        s = game("lobby", mission="rescue-rangers", level=1, start=start)
        assert [b.space for b in s.bots] == [None, "Q3", "R3"]
    assert game("lobby", mission="tsm-103c", level=2) == game("lobby", mission="tsm-103c", level=2, start={})


def test_a_team_in_two_safe_zones_gets_two_chips():
    """"When generating the team reserve at the start of the game, each safe zone that has at least 1 bot
    occupying it will grant 1 action chip of the team's choice to the team's reserve.\""""
    together = game("lobby", mission="rescue-rangers", level=1, start={"byte": "Q3", "casing": "R3"})
    apart = game("lobby", mission="rescue-rangers", level=1, start={"byte": "Q3", "casing": "D15"})
    assert len(together.burncycle.team_reserve) == 1
    assert len(apart.burncycle.team_reserve) == 2


def test_a_bad_start_choice_says_what_where_and_why():
    """Each chosen start is checked before any chip is drawn: the bot is in the team and placed by the players,
    the space is on the floor and in a safe zone, one bot per space; and a choice at all only where the rules
    give it (on level 1 an Adaptable mission's bots start at the entrance: "Unless otherwise stated, bots start
    on a safe zone space of their choice when playing on floors 2 and 3")."""
    def said(mission="rescue-rangers", level=1, **start):
        return [str(p) for p in check_setup(CONTENT, GameSetup(mission=mission, level=level, start=start))]

    zones = "East safe zone (Q3 to T6) or West safe zone (A13 to D16)"
    assert said(byte="Z99") == [f"unknown space 'Z99' for byte on Meridian Tower, Lobby: expected a safe zone "
                                f"space: {zones}"]
    assert said(byte="P4") == [
        f"byte's start space P4 is not in a safe zone: expected a safe zone space (Adaptable: Operation Rescue "
        f"Rangers starts the bots on safe zone spaces of the team's choice): {zones}"]
    assert said(byte="Q3", casing="Q3") == ["byte and casing both start on Q3: expected a space each: one bot per "
                                            "space"]
    assert said(nano="Q3") == ["start space Q3 for nano: 'nano' is not in the team: expected the team's bots "
                               "placed by the players: byte, casing"]
    assert said(module="Q3") == [
        "start space Q3 for module: the command module is not placed at setup (\"Do not place the command "
        "module\"): expected the team's bots placed by the players: byte, casing"]
    assert said("ghost-in-the-dell", None, module="Q3") == [
        "start space Q3 for module: the command module starts on the hiding spot furthest from the captain: "
        "expected the team's bots placed by the players: byte, casing"]
    entrance = said("tsm-103c", 1, byte="Q3")
    assert entrance == [
        "start spaces chosen for Adaptable: Operation Module TSM-103C on level 1, where the bots start at the "
        "entrance: expected no start: the team chooses its start spaces only where the bots start in safe zones "
        "(an Adaptable mission on level 2 or 3: \"bots start on a safe zone space of their choice\"; Rescue "
        "Rangers and Ghost in the Dell on any level)"]
    assert check_setup(CONTENT, GameSetup(start={"byte": "Q3"}))[0].mismatch  # Data Heist: the entrance
    assert said("tsm-103c", 2, byte="Q3", module="D15") == []
    with pytest.raises(RulesError, match="not in a safe zone"):
        game("lobby", mission="rescue-rangers", level=1, start={"byte": "P4"})


def test_tsm_103c_setup():
    """Operation Module TSM-103C: "Set exactly 3 burncycle slots to active instead of the number indicated
    by the command module's card. Place the captain on hallway security post 3 instead of following the
    security detail for that post. Set threat to 6.\""""
    s = game("labs", mission="tsm-103c", level=1)
    assert len([c for c in s.burncycle.slots if c is not None]) == 3
    cap = next(u for u in s.security if u.rank == "captain")
    assert cap.space == feature_spaces(s, "post3")[0]
    assert len(units_on(s, "post3")) == 1
    assert s.threat == 6


def test_rescue_rangers_setup():
    """Operation Rescue Rangers: "If the captain is in the security detail, use a level 2 guard in its
    place. Agents start on any safe zone space. Do not place the command module.\""""
    s = game("lobby", mission="rescue-rangers", level=3, captain="fauxbia")
    assert all(u.rank == "guard" for u in s.security)
    assert units_on(s, "post3")[0].level == 2
    # "The command module's mat and card function as normal": it is in the game, off the floor
    assert [b.space for b in s.bots if b.kind == "module"] == [None]
    agents = [b for b in s.bots if b.kind == "agent"]
    f = compile_floor(s.floor.text, s.floor.name)
    assert all(f.in_safe_zone(f.space(b.space)) for b in agents)
    s1 = game("lobby", mission="rescue-rangers", level=1)
    # "Agents start on any safe zone space"
    assert all(f.in_safe_zone(f.space(b.space)) for b in s1.bots if b.kind == "agent")


def test_preconnaissance_setup():
    """Operation Preconnaissance: "Mission Setup: Place the captain on hallway security post 3 instead of
    following the security detail for that post. Set threat to 8.\""""
    s = game("labs", mission="preconnaissance", level=1)
    cap = next(u for u in s.security if u.rank == "captain")
    assert cap.space == feature_spaces(s, "post3")[0]
    assert s.threat == 8
    assert s.fired_events == [0, 1]  # the FAQ: events at 4 and 8 already passed


def test_ghost_in_the_dell_setup():
    """Operation Ghost in the Dell: "if the executive office is in the floorplan, place the captain on its
    captain space ... Place two level 3 Ghosts on ghost spaces of your choice. If the captain is in the
    security detail, use a level 3 guard in its place. The command module must start on the hiding spot
    furthest away from the captain. All other bots start in safe zones of their choice.\""""
    s = game("lobby", mission="ghost-in-the-dell", level=3)
    f = compile_floor(s.floor.text, s.floor.name)
    cap = next(u for u in s.security if u.rank == "captain")
    assert f.area(f.space(cap.space)).name == "Executive office" and f.feature[f.space(cap.space)] == "captain"
    ghosts = units_on(s, "ghost")
    assert len(ghosts) == 2 and all(g.chip == "Ghost" and g.level == 3 for g in ghosts)
    assert len([u for u in s.security if u.rank == "captain"]) == 1
    assert units_on(s, "post3")[0].rank == "guard" and units_on(s, "post3")[0].level == 3
    module = s.bot("module")
    D = f.distances(frozenset())
    c = f.space(cap.space)
    hiding = f.posts["hiding"]
    assert f.feature[f.space(module.space)] == "hiding"
    assert D[c][f.space(module.space)] == max(D[c][h] for h in hiding)
    assert all(f.in_safe_zone(f.space(b.space)) for b in s.bots if b.kind == "agent")


def test_ghost_in_the_dell_module_starts_hidden_on_its_hiding_spot():
    """"The command module must start on the hiding spot furthest away from the captain." with Hiding
    Spots: "When entered by an undetected bot (or outside enemy awareness), the bot hides and cannot be
    detected via awareness." The module is put on the spot undetected, so it starts hidden (it used to start
    in the open, and the Ghosts' Closest Bot patrol made for it from the first corporation turn)."""
    for level in (1, 2, 3):
        s = game("lobby", mission="ghost-in-the-dell", level=level)
        module = s.bot("module")
        assert module.hidden and not module.detected
    s = game("lobby", mission="data-heist")
    assert not any(b.hidden for b in s.bots)  # no other mission starts a bot on a hiding spot


def test_all_doors_start_locked():
    """"Doors are marked with . All doors start locked.\" (and no wall is destroyed yet)"""
    for floor in ("lobby", "labs"):
        s = game(floor)
        f = compile_floor(s.floor.text, s.floor.name)
        assert f.doors and s.floor.unlocked_doors == [] and s.floor.destroyed_walls == []
