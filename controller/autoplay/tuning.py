"""The auto-player's tuning constants, in one place.

The auto-player is a heuristic tuned by measuring seeded self-play: each constant below was kept because it
played more wins (or calibrations) than the values tried beside it, over the same seeds. Each docstring says
what was measured; the whole diary, the rules that were tried and not kept included, is docs/autoplay.md.
Figures are wins out of games unless they say otherwise; "the lobby", "the annex" and "the labs" are the
shipped Meridian floors.
"""

from __future__ import annotations

TEAM = ("nano", "casing", "byte", "bit")
"""The agents the auto-player picks when the players name none, first to last: Nano, whose Reassemble takes
him through locked doors (no keypad's dice, inputs or alarms), then Casing, whose pressure die adds move AP,
then the box's order. Data Heist, seeds 100-159, against the box's first agents (Byte, Casing, Bit): alone on
the lobby, the annex and the labs 19 -> 46, 11 -> 18 and 1 -> 11 of 60; two players (Nano with Casing)
32 -> 38 on the lobby and 21 -> 33 on the annex, where Nano with Byte, Bit, Memory or Interface won 13-32."""

CHIP_PREFERENCE = ("physical", "utility", "tech", "general")
"""The order in which reserve chips replace degraded slots: physical first, for its +2 AP on every move."""

HOP_CHIP_PREFERENCE = ("utility", "tech", "physical", "general")
"""Preconnaissance: the order for a bot waiting on a terminal space a hop leaves from, which needs a utility
or tech chip to hop on."""

REBOOT_AT = 1
"""The team reboots before a turn with at most this many usable chips: one action is most often too few to
get a bot out of a guard's reach or through a door, and the reboot's threat (the player count) costs less than
the turn. Data Heist on the lobby and the annex, seeds 1000-1199: alone 23 -> 36 and 53 -> 79, two players
77 -> 82 and 90 -> 124, three 21 -> 27 and 27 -> 32; seeds 2000-2299 alone 47 -> 76 and 70 -> 92. Rebooting
at 2 was worse with one and three players (one player on the lobby: 79 -> 61 of 200)."""

CUT_OFF_REACH = 4
"""How near a security unit stands to an agent without push that it counts as holding the agent's only way
to its target (`Routes.cut_off`): the agent then buys push from BOXED_PUSH_POWER, as one boxed in does."""

BOXED_PUSH_POWER = 2
"""The power from which an agent boxed in by guards (a unit on each of its shortest steps) buys push (1 power,
keeping 1): the guards converging on a detected agent's awareness chip stand beside it, in a dead end or in the
safe zone's doorway, and attack it round after round while it waits (before, push was bought only by an agent
with 4 power). Data Heist, two players, seeds 3000-3999, wins of 1000: the lobby 794 -> 812, the annex
769 -> 813, the labs 160 -> 221, the tower run 111 -> 131 (docs/autoplay.md, "Boxed in")."""

MODULE_BOXED_PUSH_POWER = 3
"""The power from which the command module boxed in by guards buys push (before, only from 5 power once a guard
had stood in its way): the fourth slot leaves it 3, and beside the North stairs' doorway of the annex it waited
for the guard there until shut down. Two players, seeds 3000-3999, wins of 1000, against BOXED_PUSH_POWER alone:
the lobby 812 -> 818, the annex 813 -> 824 (the module shut down 82 -> 67 times), the labs 221 -> 237, the tower
run 131 -> 140; from 4 power 816, 815 (docs/autoplay.md, "Boxed in")."""

PREY_MARGIN = 1
"""AP short of a win task's unit's durability that a strike on it may still expect on average (else it waits
for a better chip)."""

LONE_AGENT_LOW = 3
"""One player: the power at which the module repairs the lone agent (a lone agent shut down leaves the table
no turns at all). Data Heist alone on the lobby and the annex: 123 -> 144 of 800 games, seeds 2000-2399, and
92 -> 98 of 600, seeds 1000-1299; from 4 power, 120 of 800. Two players keep 1, as their repairer is a
team-mate whose own dice it costs."""

LONE_AGENT_TOP_UP = 8
"""One player: the module staying in the team's safe zone, where no guard outside sees it, tops the lone
agent up to this power, keeping 1. Data Heist alone on the lobby and the annex: 101 -> 109, 109 -> 112 and
118 -> 126 of 600 games, seeds 1000-1299, 2000-2299 and 3000-3299."""

STRAGGLER_TOP_UP = 6
"""On the way home, an agent in the team's safe zone gives a team-mate still out with less power than this
its power (an agent's power is its dice pool: the last one home used to crawl). Data Heist, two and
three players on the lobby and the annex: 224 -> 256 of 1200 games, seeds 1000-1299, and 202 -> 250 of 1200,
seeds 2000-2299 (the team-mate topped up to this; 3, 5, 7 or 9 measured no better). Since, the agent and the
module home give all but STRAGGLER_KEEP (the module 1): two players, seeds 3000-3999, the lobby 777 -> 794 and
the annex 744 -> 769 of 1000 (docs/autoplay.md, "Every straggler")."""

STRAGGLER_KEEP = 1
"""What that agent keeps of its own power: the 1 the rules ask for (keeping 2 or 3 measured no better)."""

SPARE_TRIP = 18
"""Steps: with three players or more, an agent the team's terminal task does not need goes ahead home when
its round trip (to its nearest terminal, then the team's safe zone) is longer. Data Heist with three players on
the lobby: 24 -> 40, 40 -> 46 and 30 -> 35 of 300 games, seeds 1000-1299, 2000-2299 and 3000-3299 (the
annex's short trips play the same games); sending every agent not needed home lost the annex 9 of 900."""

DRAW_CHIP_THREAT = 11
"""TSM-103C: the threat up to which a chip with nothing better to do draws a physical chip for 5 threat (the
mission's start, 6, plus one draw). 240 games on the three floors, one and two players, seeds 100-139: the
module's three terminals 0 -> 15 and the first calibrations, 4; drawing up to threat 16, 11 terminals and no
calibration; up to 22, 3."""

PUSH_BUY = 3
"""TSM-103C: steps from a unit to push through a door within which an agent buys the push upgrade (its power,
its dice, kept till then). Measured with PUSH_ON_THE_WAY, below."""

PUSH_ON_THE_WAY = 1
"""TSM-103C: steps from a unit to push through a door within which an agent pushes it at once, before the
module has its terminals. 1200 games on the three floors, one and two players: calibrations 8 -> 16 on seeds
100-299 and 10 -> 18 on seeds 300-499; within 2 steps 15 and 14, within 4 steps 11."""

MODULE_ZONE_DETOUR = 6
"""Steps farther than the team's safe zone the other zone the command module heads for, when a guard holds its
way into the team's, may lie (Data Heist's `module_zone_detour`, `PathCosts.module_safe_zone`): beside the
annex's North stairs (K5) the South stairs are as near, beside the labs' North zone (F6) the South zone is 7
steps farther, beside the lobby's West zone (E14) the East zone 20, where the module walked across the floor
while the guard moved on (docs/autoplay.md, "The module held across the lobby")."""

MODULE_CROSSING = 10
"""Data Heist: steps from the team's safe zone beyond which the command module, before the calibration, walks
before the agents in any round while no guard sees its way (`Routes.crosses_first`, the mission's
`module_crossing`): across the lobby to the East zone, taken for a West door whose card states "Jam", the module
walked on the agents' spare AP and came to the East door some four rounds after the calibration, where it waited
outside in the guards' way (docs/autoplay.md, "The module across the lobby first"). Two players, wins of 1000
(seeds 3000-3999): the lobby 845 -> 847 with 10 steps, 839 with 6, 844 with 14."""

HIDING_REACH = 4
"""Do-While-End: steps from the captain's terminal of a hiding spot the module waits on until the IP can land
on the core."""

MODULE_REACH = 4
"""Do-While-End: steps from the captain within which the module pushes and strikes it (the calibration leaves
the module in the captain's room)."""

RESCUE_SLOT_KEEP = 2
"""Rescue Rangers: the power each agent keeps when the agents share the fourth slot (there is no module on the
floor to pay it); 3, as elsewhere, is more than Nano's 4 and Casing's 5 can pay, so the slot never came and the
team rebooted about every round. Two players on the lobby, with the agents waiting outside a terminal room
(`RescueRangers.task_targets`): wins 2 -> 7 of 200 (seeds 1000-1199), 0 -> 5 (2000-2199), the games 9.4 -> 13.2
rounds long; without the waiting 2 and 0 (keeping 3 with the waiting: 1 of 200); Nano paying 2 so that Casing
keeps 3 for the doors: 5."""

HELD_BAG = 1
"""Rescue Rangers: the units left in the draw bag from which the agent whose terminal access would calibrate
waits on its terminal while its team-mate draws them out (`RescueRangers.holds_access`). Two players on the
lobby, wins of 1000 (seeds 3000-3999): 100 without; holding from 1 unit 133, 2 140, 3 122; holding though a
guard sees the agent (bag of 3 or more) 116, or only with no guard within 3 steps 115. With the reboot of
`RESERVE_REBOOT`: 163, and from 3 units 144. From 1 unit (any unit left), with the agents waiting at the doors of
the surveilled terminal rooms nobody stands in after the calibration (`RescueRangers.task_targets`): 171 -> 183
(seeds 5000-5999 146 -> 149; seeds 1000-1199 25 -> 25 of 200)."""

RESERVE_REBOOT = 2
"""The bots standing where a reboot puts a chip in a reserve (a room or outdoor segment whose infobar shows
one) with which the team reboots at REBOOT_AT + 1 usable chips (`StandardPlay.reboot_at`, in the missions that
set `reboots_for_reserves`). Rescue Rangers, two players on the lobby, wins of 1000 (seeds 3000-3999): 140
without; with 2 bots 163, with 1 158, with 2 bots at REBOOT_AT + 2, 158. The tower run, two players, wins of
1000 (seeds 3000-3999): 143 -> 152 (on the labs only 148, on the lobby only 147; with 1 bot 125); on main
e32c15a 143 -> 150, on c6a322c 143 -> 152."""

CORE_REACH = 12
"""Nodes from the core beyond which no network step is tried for a landing there (each try copies the game)."""

NETWORK_POWER_WEIGHT = 5
"""What a point of the active agent's power is worth in the network step, where a point of threat is worth 3
(a layer 3 hub or a power card against a layer 2 hub or a threat card): an agent's power is its dice pool for
every turn after, and the walk home after the calibration is paid in dice. Data Heist, two players, 200 games
a floor (lobby, annex, labs): seeds 1000-1199 125 -> 129, 101 -> 122, 16 -> 24; seeds 2000-2199
118 -> 132, 94 -> 112, 24 -> 29; one player on the lobby and the annex 139 -> 143, 98 -> 104; the tower run
1 -> 2. At 1 (the weight before) a hub's -1 threat always beat +1 power; 3 won less (128, 114, 21 on seeds
1000-1199), 8 no more (126, 125, 23)."""

LATE_THREAT = 16
"""From this threat on, after the calibration, the network step weighs a point of the agent's power
LATE_POWER_WEIGHT instead of NETWORK_POWER_WEIGHT (see there)."""

LATE_POWER_WEIGHT = 2
"""A point of the agent's power in the network step late in the way home (LATE_THREAT): the threat is then
nearly out, and a lost game's last bot is often a few steps from a safe zone (docs/autoplay.md, "Where the
rounds and the threat go"). Data Heist, two players, against 5: seeds 3000-3999, wins of 1000, lobby
701 -> 712, annex 607 -> 608, labs 121 -> 126; seeds 1000-1199, wins of 200, 134 -> 136, 130 -> 130, 25 -> 25;
the tower run 9 -> 9, Rescue Rangers (lobby, level 1) 4 -> 4."""

AVERAGE_AP = {"basic": 13 / 12, "advanced": 11 / 6, "elite": 2.3, "proprietary": 2.0}
"""Average AP a die adds: a pair of basic blanks makes 1 AP; the elite reroll lifts its die a little."""

WATCHED_COST = 8
"""Path cost of a step into a space some guard sees now (a plain step costs 1)."""

WATCH_REACH = 5
"""How far from a bot (in steps) a space some guard sees now costs WATCHED_COST on its paths: beyond, the
guards will have moved before it gets there. The tower run weighs the whole path instead (`TowerRun.watch_reach`:
wins 64 -> 77 of 1000 there)."""

UNIT_COST = 8
"""Path cost added for a security unit in the way: walked around unless that is longer, then pushed aside."""

DOOR_COST = 5
"""Path cost added for a locked door (opening it takes an action and dice); also how much dearer than its
steps the module's first-round way home may be for it to cross first (docs/autoplay.md, "Who gets the AP")."""

WALL_COST = 12
"""Path cost added for breaking a wall (10 AP): only for a bot that has no other way."""

DASH_SLACK = 4
"""On a level 2 floor, how many AP short of the team's opened safe zone a move action may leave the module
still on its entrance for it to set off: it crosses the guarded hallway in as few moves as it can (the labs,
two players, seeds 3000-3999, with the zone opened first: 131 of 1000 setting off only with the whole way, 136
with 2 AP short; with the team's strongest dice judging the doors too, 136 with 0, 143 with 2, 144 with 8, that
is at once). With the doorway held too (docs/autoplay.md, "The dash's slack"): 160 with 2, 164 with 3, 173 with
4 and 5, 165 with 6; a move of Nano's 3-4 dice seldom came within 2 AP of the 7-8 steps in, so the module
waited on its entrance with the door open until the calibration, then crossed among the stirred guards."""

OPENER_HOLD = 3
"""Steps from a locked door of the team's shut safe zone within which the agent going to open it (`Routes.
zone_opener`: Casing on the labs), its pool spent in the move under way, stops short of a step into a guard's
sight (`Routes.opener_holds`). Arriving with no dice left it drew the door's card with inputs only, and guard 1
(post H6, beside the labs' North door) struck it for 2 before its next turn: with 3 dice it no longer forces a
level 2 keypad's 6 AP, the team gave the North zone up, and an agent shut down lost the game (95 games of 200,
1 won). Out of sight it comes with a whole pool next turn. Two players, the labs, wins of 1000 (seeds
3000-3999): 240 -> 272; of 400 (seeds 3000-3399) 93 -> 109, 110, 111 within 2, 3, 4 steps."""

OPENER_APPROACH = 2
"""Steps to the zone's locked door the opener walks with its own die only (Casing's pressure die, AP only it
may spend) when the rest of its pool can force the door (`ActionStep`): it then draws the card and, the card
not opening, forces it in the same turn and steps in, instead of rolling its whole pool on two steps. With
`OPENER_HOLD`, the labs 272 -> 286 of 1000. After the calibration the module on its entrance waits while an
agent that opens keypads stands within as many steps of the zone's locked door (`Routes.zone_still_shut`)."""

FORCE_MARGIN = 1
"""A brute force is tried when the dice come within this many AP of the keypad's durability on average (3
basic dice against 4 succeed about 3 times in 10, and a door left shut costs more). Data Heist on the lobby and
the annex, one and two players, 2800 games: 635 -> 650 (the labs, two players: calibrations 20% -> 26%)."""

THREAT_SAMPLES = 50
"""Corporation turns sampled for "Show threat" when none is given (`threat_map`). A share from 50 futures is
within about 0.14 of its true value 95 times in 100 (1.96 x sqrt(0.25 / 50)), enough to shade a space, and it
costs what 50 corporation turns cost: 24 ms of CPU on average over 88 positions of two-player games on the
Meridian floors on this machine (bench/bench_threat_map.py)."""

TOWER_ZONE_WEIGHT = 3
"""The tower run: path cost a zone's stairwell adds for each step its landing on the next floor lies from
that floor's nearest entrance and nearest terminal (`TowerRun.zone_cost`). The labs' North zone lies 9 such
steps out, the South zone 20, so any weight from 1 sends the team to the lobby's East zone: two players,
seeds 3000-3399, wins 5 -> 19 of 400 (the West zone reached the labs more often, 277 games against 225, but
its landing is 13 steps from the way out); weights 1, 3 and 6 play the same games."""

TOWER_HANDOVER_SLACK = 2
"""The tower run's last floor, one terminal access left: the steps more than Casing's within which Nano takes
a terminal whose room still holds a surveillance bead (`TowerRun.spare_agent`); the agent left without it walks
to an entrance. Entering such a room rolls its surveillance, and "Autolock: Lock all doors leading into this
room" shut Casing in the labs' Break room behind level 2 keypads while the threat ran out (Nano reassembles
through). With the agents waiting for the module to escape (`TowerRun.agents_escape_first`), two players, wins
of 1000, seeds 3000-3999: 111 -> 115; of 200, seeds 1000-1199: 11 -> 12. Within 0, 4 or 8 steps, or any
distance: docs/autoplay.md, "The tower run"."""

GUARD_BESIDE = 1
"""Steps from a guard within which the labs' module, on its entrance, does not end its move short of the team's
zone (`Routes.stops_by_guard`): a level 2 guard beside it strikes it for 2 in the next corporation turn. Two
players, the labs, wins of 1000 (seeds 3000-3999): 373 -> 385 with 1; 349 with 2 (the module waits on its
entrance, where the hallway's guards come by)."""
