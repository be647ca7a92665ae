"""Operation Preconnaissance's hop into cyberspace: from terminal space to terminal space along straight lines.

"As an optimized utility action, a bot may take an optimized tech action to hop into cyberspace. This allows
them to pick up their bot chip and move it to another unoccupied terminal space that is in a straight
orthogonal or diagonal line from the terminal space they were on. They may then either hop into cyberspace
again (within the same action) or jump out of cyberspace. If they jump out, they become detected, surveil the
room they are in if it is unsurveilled, and end the action."

A hop action names every terminal space hopped to, in order; the bot jumps out on the last one. It is taken
on a utility or a tech chip (either way optimized); walls and units between two terminal spaces do not stop
a hop, only an occupied landing space does.
"""

from __future__ import annotations

from controller.rules.action_types import Hop
from controller.rules.board.awareness import place_awareness, step_bot
from controller.rules.board.geometry import Floor
from controller.rules.errors import IllegalAction
from controller.rules.events import BotMoved
from controller.rules.legal import LegalAction
from controller.rules.missions import special_rules
from controller.rules.missions.draw_bag import TERMINAL_SPACES
from controller.rules.players.moves import current_chip_kind, movers, surveil
from controller.rules.resolution import Resolution
from controller.rules.state import Bot

HOP_CHIPS = ("utility", "tech")


def can_hop_now(resolution: Resolution) -> bool:
    """The mission allows hops (Preconnaissance, until calibrated) and the tracker is on a chip that hops."""
    state = resolution.state
    return state.mission.rule(state.calibrated).hop and current_chip_kind(resolution) in HOP_CHIPS


def in_line(floor: Floor, a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = floor.coords[a], floor.coords[b]
    return a != b and (ra == rb or ca == cb or abs(ra - rb) == abs(ca - cb))


def landings(resolution: Resolution, frm: int) -> list[int]:
    """Unoccupied terminal spaces in a straight orthogonal or diagonal line from `frm`."""
    floor = resolution.floor
    return [s for s in floor.posts.get("terminal", ()) + floor.posts.get("mainframe", ())
            if s not in resolution.occupant and in_line(floor, frm, s)
            and not special_rules.safe_zone_closed(resolution, s)]


def hop_paths(resolution: Resolution, frm: int) -> dict[int, list[int]]:
    """Every terminal space one hop action can end on, with the fewest hops that reach it (breadth first over
    the landings). A floor has a handful of terminal spaces, so this stays a few dozen line checks; longer
    paths to the same space only differ in where the chip passes through cyberspace, which nobody sees."""
    paths: dict[int, list[int]] = {frm: []}
    frontier = [frm]
    while frontier:
        nxt = []
        for at in frontier:
            for to in landings(resolution, at):
                if to not in paths:
                    paths[to] = paths[at] + [to]
                    nxt.append(to)
        frontier = nxt
    del paths[frm]
    return paths


def hop(resolution: Resolution, bot_id: str, path: list[str]) -> None:
    state, floor = resolution.state, resolution.floor
    if not state.mission.rule(state.calibrated).hop:
        raise IllegalAction(f"{state.mission.name} has no hop into cyberspace"
                            + (" (its special rules ended with the calibration)" if state.calibrated else ""))
    if current_chip_kind(resolution) not in HOP_CHIPS:
        raise IllegalAction("hopping into cyberspace is an optimized utility (or optimized tech) action: the "
                            "tracker must stand on a utility or tech chip")
    bot: Bot | None = next((b for b in movers(resolution) if b.id == bot_id), None)
    if bot is None:
        raise IllegalAction(f"{bot_id} cannot act now: the active player's agent or the command module hops")
    here = floor.index[bot.at]
    if floor.feature[here] not in TERMINAL_SPACES:
        raise IllegalAction(f"{bot.name} is not on a terminal space: a hop starts from the terminal space the "
                            f"bot is on")
    if not path:
        raise IllegalAction("a hop names at least one terminal space to move to")
    start, at = bot.at, here
    for to in path:
        if to not in floor.index:
            raise IllegalAction(f"{to} is not a space of {floor.name}")
        nxt = floor.index[to]
        if floor.feature[nxt] not in TERMINAL_SPACES:
            raise IllegalAction(f"{to} is not a terminal space: a hop moves the bot to another terminal space")
        if not in_line(floor, at, nxt):
            raise IllegalAction(f"{to} is not in a straight orthogonal or diagonal line from {floor.ids[at]}")
        occupant = resolution.occupant.get(nxt)
        if occupant is not None and occupant is not bot:
            raise IllegalAction(f"{to} is occupied: a hop lands on an unoccupied terminal space")
        special_rules.check_enter(resolution, nxt)
        at = nxt
    # out of cyberspace on the last space: it is seen there, and nowhere along the way
    if at != here:
        step_bot(resolution, bot, at)
    resolution.emit(BotMoved(bot=bot.id, path=[start, *path]))
    place_awareness(resolution, bot, "jumping out of cyberspace")
    area = floor.area(at)
    if floor.ids[area.spaces[0]] in state.floor.surveillance and not resolution.over:
        surveil(resolution, bot, area.index)


def legal_hops(resolution: Resolution) -> list[LegalAction]:
    """One hop per terminal space the action can end on, by the fewest hops, from each bot on a terminal."""
    if not can_hop_now(resolution):
        return []
    out = []
    floor = resolution.floor
    for bot in movers(resolution):
        here = floor.index[bot.at]
        if floor.feature[here] in ("terminal", "mainframe"):
            for path in hop_paths(resolution, here).values():
                hops = f"{len(path)} hops" if len(path) > 1 else "1 hop"
                out.append(LegalAction(Hop(bot=bot.id, path=[floor.ids[k] for k in path]),
                                       f"{hops}; jumping out on {floor.ids[path[-1]]}: detected, surveils the room"))
    return out
