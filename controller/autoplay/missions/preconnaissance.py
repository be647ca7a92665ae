"""Preconnaissance: every room surveilled, each door opened costing 3 threat, the module on three command
module spaces.

Nano walks into the rooms through their locked doors, the other agents (who would open them) wait in the safe
zone while he is on the floor, and a bot on a terminal space hops through cyberspace into a room still to be
surveilled; the module walks to command module spaces not yet used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.autoplay.abilities import passes_doors
from controller.autoplay.missions.strategy import StandardPlay, bead_rooms, floor_view, terminal_spaces
from controller.autoplay.tuning import CHIP_PREFERENCE, HOP_CHIP_PREFERENCE
from controller.rules import Action, Bot, GameState, Hop, Objective, Resolution, hop_paths, movers

if TYPE_CHECKING:
    from controller.autoplay.paths import PathCosts


class Preconnaissance(StandardPlay):
    """Preconnaissance's play (docs/autoplay.md, "The Adaptable tasks" and "Preconnaissance")."""

    def alter_preference(self, state: GameState) -> tuple[str, ...]:
        """A bot on a terminal space a hop leaves from needs a utility or tech chip."""
        return HOP_CHIP_PREFERENCE if waiting_to_hop(state) else CHIP_PREFERENCE

    def task_targets(self, paths: PathCosts, table: Resolution, bot: Bot, open_tasks: list[Objective]) -> set[int]:
        """The module to a command module space not yet used; the agents into the rooms still holding a bead,
        or to the terminal spaces a hop into one leaves from."""
        state, floor = table.state, table.floor
        mine = {o.task.split(":")[0] for o in open_tasks if (o.qualifier == "module") == (bot.kind == "module")}
        if "module_spaces" in mine:
            # "occupy a command module space; the same space cannot be used twice"
            return {s for s in floor.posts.get("module", ()) if floor.ids[s] not in state.objective_beads}
        if "no_unsurveilled_rooms" in mine:
            if passes_doors(bot) and not hop_chip_at_hand(state, bot):
                # Nano walks into the rooms through their locked doors (no door opened, no threat) rather than
                # wait on a terminal space for a chip to hop on
                return bead_rooms(table, terminal=False)
            if bot.kind == "agent" and not passes_doors(bot) and any(
                    passes_doors(b) for b in state.bots if b.on_board and not b.shut_down):
                # the rooms are Nano's: each door another agent opens costs 3 threat, so it waits in the safe
                # zone, moving the module, and is home when the calibration comes
                return set()
            return bead_rooms(table, terminal=False) | hop_launches(table, bot)
        return set()

    def walks_first(self, table: Resolution, bot: Bot) -> bool:
        """With two players or more, Nano gets a move's AP first while rooms are still to be surveilled: the
        module's walk to its command module spaces is the longer, so it took the team's AP first, before he
        reached the rooms. A lone Nano's pool is the module's only one, and it is left to the module as before
        (docs/autoplay.md, "Preconnaissance")."""
        state = table.state
        return state.players >= 2 and bot.kind == "agent" and passes_doors(bot) and not state.calibrated \
            and bool(state.floor.surveillance)

    def action(self, table: Resolution, legal: list) -> Action | None:
        """"Hop into cyberspace" from the terminal space a bot stands on to one in a room that still holds a
        surveillance bead; jumping out there "surveil[s] the room they are in" without opening a door
        ("Whenever a non-safe zone door is unlocked ... advance threat by 3")."""
        state, floor = table.state, table.floor
        beads = set(state.floor.surveillance)
        if not beads:
            return None
        best = None
        for la in legal:
            action = la.action
            if not isinstance(action, Hop):
                continue
            room = floor.area(floor.index[action.path[-1]])
            if room.kind == "room" and floor.ids[room.spaces[0]] in beads and \
                    (best is None or len(action.path) < len(best.path)):
                best = action
        return best


def waiting_to_hop(state: GameState) -> bool:
    """A bot stands on a terminal space from which a hop lands in a room still to be surveilled."""
    if not state.mission.rule(state.calibrated).hop or not state.floor.surveillance:
        return False
    table = floor_view(state)
    return any(b.on_board and table.floor.index[b.at] in hop_launches(table, b)
               for b in movers(table))


def hop_launches(table: Resolution, bot: Bot) -> set[int]:
    """The terminal spaces from which a hop lands in a room that still holds a bead."""
    state, floor = table.state, table.floor
    if not state.mission.rule(state.calibrated).hop:
        return set()
    beads = set(state.floor.surveillance)
    launches = set()
    for start in terminal_spaces(table):
        if table.occupant.get(start) not in (None, bot):
            continue
        for end in hop_paths(table, start):
            room = floor.area(end)
            if end != start and room.kind == "room" and floor.ids[room.spaces[0]] in beads \
                    and start not in room.spaces:
                launches.add(start)
                break
    return launches


def hop_chip_at_hand(state: GameState, bot: Bot) -> bool:
    """A utility or tech chip, which a hop is taken on, in the burncycle or the bot's reserves."""
    kinds = {"utility", "tech"}
    return any(c is not None and not c.degraded and c.kind in kinds for c in state.burncycle.slots) or \
        any(k in kinds for k in state.burncycle.team_reserve) or \
        any(k in kinds for k in state.burncycle.personal_reserves.get(bot.id, []))
