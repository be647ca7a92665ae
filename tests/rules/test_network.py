"""Rulebook "Network Cyberspace": "Ping Activation & Boots", "Resolving a Boot" and "Banned IPs".

The shipped mat (controller/content/network.toml): layer 1 runs L1-01 (access, seat 1) .. L1-16 with hubs
at L1-03 and L1-11; layer 2 runs L2-01 .. L2-12 with hubs at L2-02 and L2-08 and white lines out from
L2-03 (to L1-04) and L2-09 (to L1-12); layer 3 runs L3-01 .. L3-08 with hubs L3-02, L3-06 and white lines
out from L3-04 (to L2-06) and L3-08 (to L2-12); the core's white line leads out to L3-01. In these
scenarios agent k plays seat k+1: byte's access point is L1-01, bit's L1-05.
"""

from __future__ import annotations

import pytest

from controller.rules import DiceNeeded, DiceWanted
from controller.rules.corporation.pings import PING_FACES, resolve_ping_face
from tests.support.rules_scenarios import bot, make_state, network, of_type, table, turn


def pings_at(state) -> dict[str, str]:
    return {p.id: p.node for p in state.network.pings}


def ping_paths(events) -> list[list[str]]:
    return [e.path for e in of_type(events, "ping_moved")]


# -- Ping Activation ---------------------------------------------------------------------------------
def test_pings_move_clockwise_up_to_three_nodes():
    """"During the corporation's turn, pings move clockwise up to 3 nodes\""""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], pings=["L2-03"]))
    new, events = turn(s)
    assert ping_paths(events) == [["L2-03", "L2-04", "L2-05", "L2-06"]]
    assert pings_at(new) == {"P1": "L2-06"}


def test_pings_stop_at_hubs():
    """"... stopping at hubs ...\" (and the die is rolled for the occupied hub)"""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], pings=["L2-01"]))
    new, events = turn(s, ["threat"])
    assert ping_paths(events) == [["L2-01", "L2-02"]]
    assert pings_at(new) == {"P1": "L2-02"}


def test_ping_on_a_hub_moves_off_it():
    """"pings move clockwise up to 3 nodes, stopping at hubs\": a ping that starts its move on a hub leaves
    it (the hub stops a ping entering it)."""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], pings=["L2-02"]))
    new, events = turn(s)
    assert ping_paths(events) == [["L2-02", "L2-03", "L2-04", "L2-05"]]


def test_pings_stop_at_ips():
    """"... stopping at hubs, IPs, or before other pings.\" (at an IP: a boot follows)"""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], ips={"byte": "L2-04"}, pings=["L2-03"]))
    new, events = turn(s)
    assert ping_paths(events) == [["L2-03", "L2-04"]]
    assert of_type(events, "boot")


def test_pings_stop_before_other_pings():
    """"... or before other pings.\""""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], pings=["L2-03", "L2-05"]))
    new, events = turn(s, ["threat"])
    assert ping_paths(events) == [["L2-03", "L2-04"], ["L2-05", "L2-06", "L2-07", "L2-08"]]
    assert pings_at(new) == {"P1": "L2-04", "P2": "L2-08"}


def test_ping_blocked_at_once_does_not_move():
    """"... or before other pings.\": a ping with another right ahead stays."""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], pings=["L2-04", "L2-05"]))
    new, events = turn(s, ["threat"])
    assert pings_at(new)["P1"] in ("L2-04",)
    assert ping_paths(events)[0][0] == "L2-05"


def test_one_ping_die_roll_per_occupied_hub():
    """"If pings occupy hubs, roll the ping die once per occupied hub\": two hubs, two rolls; none, none."""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], pings=["L2-01", "L3-05"]))
    new, events = turn(s, ["threat", "ceo"])
    rolls = of_type(events, "die_rolled")
    assert [r.face for r in rolls] == ["threat", "ceo"]
    assert [r.why for r in rolls] == ["ping on hub L2-02", "ping on hub L3-06"]
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], pings=["L2-03"]))
    new, events = turn(s)  # no die in the script: none may be rolled
    assert of_type(events, "die_rolled") == []


def test_ping_die_roll_needs_a_result():
    """Scripted dice: a roll the players did not type in is asked for, not invented."""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], pings=["L2-01"]))
    with pytest.raises(DiceNeeded) as err:
        turn(s, [])
    assert err.value.dice == [DiceWanted(die="ping die", count=1, faces=PING_FACES)] and err.value.code == "dice_needed"


# -- the six faces of the ping die ------------------------------------------------------------------
def resolve(state, face):
    t = table(state)
    resolve_ping_face(t, face)
    return t.state, t.events


def test_ping_die_has_the_six_faces_of_the_rulebook():
    """The six faces listed under "Ping Activation & Boots", in order."""
    assert PING_FACES == ("threat", "threat+transfer", "ceo", "ceo+transfer", "ping", "ping+transfer")
    from tests.support.rules_scenarios import CONTENT
    assert tuple(CONTENT.network.ping_die) == PING_FACES


def test_face_advance_threat():
    """"Advance threat by 1.\""""
    s = make_state(threat=2, net=network([], pings=["L3-04"]))
    new, events = resolve(s, "threat")
    assert new.threat == 3 and pings_at(new) == {"P1": "L3-04"}


def test_face_advance_threat_then_transfer():
    """"Advance threat by 1, then all eligible pings transfer outwards.\""""
    s = make_state(threat=2, net=network([], pings=["L3-04", "L2-09", "L2-05"]))
    new, events = resolve(s, "threat+transfer")
    assert new.threat == 3
    assert pings_at(new) == {"P1": "L2-06", "P2": "L1-12", "P3": "L2-05"}  # L2-05 has no white line


def test_face_ceo_level():
    """"Increase CEO network level by 1.\""""
    s = make_state(net=network([], pings=["L3-04"], ceo_level=2))
    new, events = resolve(s, "ceo")
    assert new.network.ceo_level == 3 and pings_at(new) == {"P1": "L3-04"}


def test_face_ceo_level_then_transfer():
    """"Increase CEO network level by 1, then all eligible pings transfer outwards.\""""
    s = make_state(net=network([], pings=["L3-08"], ceo_level=2))
    new, events = resolve(s, "ceo+transfer")
    assert new.network.ceo_level == 3 and pings_at(new) == {"P1": "L2-12"}


def test_ceo_level_capped_at_six():
    """"Network levels range from 1 to 6.\""""
    s = make_state(net=network([], ceo_level=6))
    new, events = resolve(s, "ceo")
    assert new.network.ceo_level == 6


def test_face_add_ping_to_core():
    """"Add 1 ping to the core.\""""
    s = make_state(net=network([], pings=["L3-04"]))
    new, events = resolve(s, "ping")
    assert pings_at(new) == {"P1": "L3-04", "P2": "CORE"}
    assert of_type(events, "ping_added")[0].node == "CORE"


def test_face_add_ping_then_transfer():
    """"Add 1 ping to the core, then all eligible pings transfer outwards.\": the new ping leaves the core
    along its white line too."""
    s = make_state(net=network([], pings=["L3-04"]))
    new, events = resolve(s, "ping+transfer")
    assert sorted(pings_at(new).values()) == ["L2-06", "L3-01"]


def test_transfer_not_onto_another_ping():
    """"all eligible pings transfer outwards\": a ping whose outward node holds a ping is not eligible."""
    s = make_state(net=network([], pings=["L3-04", "L2-06"]))
    new, events = resolve(s, "threat+transfer")
    assert pings_at(new) == {"P1": "L3-04", "P2": "L2-06"}


def test_ping_supply_is_limited():
    """"Limited: ... pings\": with all pings on the mat, "add 1 ping" adds none."""
    supply = network([]).mat.ping_supply
    nodes = ["L3-01", "L3-02", "L3-03", "L3-04", "L3-05", "L3-06", "L3-07", "L3-08"][:supply]
    s = make_state(net=network([], pings=nodes))
    new, events = resolve(s, "ping")
    assert len(new.network.pings) == supply and of_type(events, "ping_added") == []


def test_transfer_faces_in_a_turn():
    """The faces in play: a ping reaching a hub rolls "threat+transfer"; another ping stopped on a white
    line moves out."""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], pings=["L2-01", "L3-03", "L3-05"]))
    new, events = turn(s, ["threat+transfer", "threat"])
    # P1 -> L2-02 (hub); P2 stops at L3-04 before P3; P3 -> L3-06 (hub); then P2 transfers out to L2-06
    assert pings_at(new) == {"P1": "L2-02", "P2": "L2-06", "P3": "L3-06"}
    assert new.threat == 1 + 1 + 1  # two ping-die threats and the end of the round


# -- Resolving a Boot ---------------------------------------------------------------------------------
def boot_state(ip_level, ceo_level, bots=None, **kw):
    bots = bots if bots is not None else [bot("byte", "A5")]
    return make_state(bots=bots, net=network(["byte"], ips={"byte": "L2-04"}, pings=["L2-03"],
                                             ceo_level=ceo_level, levels={"byte": ip_level}), **kw)


def test_boot_lower_level_agent_is_booted():
    """"When an IP and ping occupy the same node, compare network levels. The lower level is booted; the
    winner reduces network level by 1.\" (the CEO wins: the IP returns to its access point)"""
    new, events = turn(boot_state(ip_level=2, ceo_level=4))
    boot = of_type(events, "boot")[0]
    assert (boot.winner, boot.agent_level, boot.ceo_level, boot.node) == ("ceo", 2, 4, "L2-04")
    assert new.network.ceo_level == 3
    ip = new.network.ips[0]
    assert ip.node == "L1-01" and ip.level == 2 and not ip.banned
    assert pings_at(new) == {"P1": "L2-04"}


def test_boot_lower_level_ping_is_booted():
    """"The lower level is booted; the winner reduces network level by 1.\" (the agent wins: the ping is
    removed)"""
    new, events = turn(boot_state(ip_level=5, ceo_level=3))
    assert of_type(events, "boot")[0].winner == "agent"
    assert new.network.pings == []
    assert new.network.ips[0].level == 4 and new.network.ips[0].node == "L2-04"
    assert new.network.ceo_level == 3
    assert of_type(events, "ping_removed")[0].node == "L2-04"


def test_boot_ceo_wins_ties():
    """"CEO wins ties (except at level 6, where the agent wins).\" (a tie below 6)"""
    for level in (1, 3, 5):
        new, events = turn(boot_state(ip_level=level, ceo_level=level))
        assert of_type(events, "boot")[0].winner == "ceo", level
        assert new.network.ips[0].node == "L1-01"


def test_boot_agent_wins_tie_at_six():
    """"CEO wins ties (except at level 6, where the agent wins).\""""
    new, events = turn(boot_state(ip_level=6, ceo_level=6))
    assert of_type(events, "boot")[0].winner == "agent"
    assert new.network.ips[0].level == 5 and new.network.pings == []
    assert new.network.ceo_level == 6


def test_boot_winner_level_never_below_one():
    """"the winner reduces network level by 1\" within "Network levels range from 1 to 6": a level-1 CEO
    winning a tie stays at 1."""
    new, events = turn(boot_state(ip_level=1, ceo_level=1))
    assert of_type(events, "boot")[0].winner == "ceo"
    assert new.network.ceo_level == 1


def test_booted_agent_detected_on_the_floor():
    """"An agent booted by a ping is immediately detected on the floor.\""""
    new, events = turn(boot_state(ip_level=1, ceo_level=3))
    b = new.bot("byte")
    assert b.detected and b.awareness == "A5"
    det = of_type(events, "bot_detected")[0]
    assert det.reason == "a boot on the network" and det.unit is None


def test_boot_detection_counts_for_seasoned():
    """Detection by a boot places the awareness chip from off-board: "On Seasoned difficulty, threat
    increases by +1 whenever an awareness chip enters the board from off-board.\""""
    new, events = turn(boot_state(ip_level=1, ceo_level=3, difficulty="seasoned"))
    reasons = [c.reason for c in of_type(events, "threat_changed")]
    assert any("Seasoned" in r for r in reasons)
    assert new.threat == 2


def test_agent_winning_boot_is_not_detected():
    """"An agent booted by a ping is immediately detected\": an agent that wins the boot is not."""
    new, events = turn(boot_state(ip_level=4, ceo_level=2))
    assert not new.bot("byte").detected


def test_booted_hidden_agent_detected():
    """"An agent booted by a ping is immediately detected on the floor.\": even hiding."""
    from tests.support.rules_scenarios import floor_text
    text = floor_text("""
    +-+-+-+
    |E . H|
    +-+-+-+
    """, "A1 hallway")
    s = make_state(text, bots=[bot("byte", "C1", hidden=True)],
                   net=network(["byte"], ips={"byte": "L2-04"}, pings=["L2-03"], ceo_level=3))
    new, events = turn(s)
    assert new.bot("byte").detected and not new.bot("byte").hidden


# -- Banned IPs ---------------------------------------------------------------------------------------
def test_ping_passing_empty_access_point_bans_ip():
    """"If a ping passes an empty access point, that IP is banned (removed from the mat until a burncycle
    reboot).\""""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], ips={"byte": "L2-04"}, pings=["L1-15"]))
    new, events = turn(s)
    assert ping_paths(events) == [["L1-15", "L1-16", "L1-01", "L1-02"]]
    ip = new.network.ips[0]
    assert ip.banned and ip.node is None
    assert of_type(events, "ip_banned")[0].node == "L1-01"


def test_ping_meeting_ip_on_its_access_point_boots_instead_of_ban():
    """"If a ping passes an empty access point\": an access point with its IP on it is not empty; the ping
    stops there and a boot is resolved."""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], pings=["L1-15"], ceo_level=2))
    new, events = turn(s)
    assert not new.network.ips[0].banned
    assert of_type(events, "ip_banned") == [] and of_type(events, "boot")


def test_access_point_of_unused_seat_bans_nobody():
    """"that IP is banned\": an access point without an agent has no IP to ban."""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], pings=["L1-03"]))
    new, events = turn(s, ["threat"])
    assert of_type(events, "ip_banned") == []
    assert ping_paths(events) == [["L1-03", "L1-04", "L1-05", "L1-06"]]  # L1-05: seat 2, unused


def test_banned_ip_stays_off_the_mat():
    """"(removed from the mat until a burncycle reboot)\": a banned IP is not booted or banned again."""
    s = make_state(bots=[bot("byte", "A5")], net=network(["byte"], ips={"byte": None}, pings=["L1-15"]))
    new, events = turn(s)
    assert of_type(events, "ip_banned") == [] and of_type(events, "boot") == []
    assert new.network.ips[0].banned and new.network.ips[0].node is None


@pytest.mark.parametrize("face,threat,ceo,moved", [
    ("threat", 3, 1, {"P2": "L3-04"}),
    ("threat+transfer", 3, 1, {"P2": "L2-06"}),
    ("ceo", 2, 2, {"P2": "L3-04"}),
    ("ceo+transfer", 2, 2, {"P2": "L2-06"}),
    ("ping", 2, 1, {"P2": "L3-04", "P4": "CORE"}),
    ("ping+transfer", 2, 1, {"P2": "L2-06", "P4": "L3-01"}),
])
def test_every_ping_die_face_in_a_corporation_turn(face, threat, ceo, moved):
    """The six faces of the ping die, typed in at the table (ScriptedDice), in a corporation turn: P1 reaches
    hub L2-02 (first roll: the face under test), P2 is held on L3-04 (white line out to L2-06) by P3, which
    then reaches hub L3-06 (second roll: "threat")."""
    s = make_state(bots=[bot("byte", "A5")], players=1, difficulty="simplified",
                   net=network(["byte"], pings=["L2-01", "L3-04", "L3-05"]))
    new, events = turn(s, [face, "threat"])
    assert [r.face for r in of_type(events, "die_rolled")] == [face, "threat"]
    assert pings_at(new) == {"P1": "L2-02", "P3": "L3-06", **moved}
    assert new.threat == threat and new.network.ceo_level == ceo
