"""The burncycle track: creating it from the bag, reserves, rebooting, altering and unlocking slots."""

from __future__ import annotations

from controller.rules.action_types import Alter, Reboot, UnlockSlot
from controller.rules.corporation.pings import access_point
from controller.rules.corporation.threat import change_threat
from controller.rules.errors import IllegalAction
from controller.rules.events import ChipChanged, IpMoved, LevelChanged, ReserveChanged
from controller.rules.legal import Cost, LegalAction
from controller.rules.resolution import Resolution
from controller.rules.state import Bot, Chip, ChipKind, GameState

MAX_SLOTS = 5
RESERVE_CHOICES: tuple[ChipKind, ...] = ("physical", "tech", "utility")


def active_slot_count(state: GameState) -> int:
    """Slots with a peg (a chip, active or degraded): what a reboot fills and the next unlock adds to."""
    return sum(1 for c in state.burncycle.slots if c is not None)


def draw_burncycle(resolution: Resolution, active: int) -> None:
    """"Place the captain chip and general action chips into the bag equal to the number of active slots.
    Draw and place them left-to-right.\""""
    generals: list[ChipKind] = ["general"] * (active - 1)
    bag: list[ChipKind] = ["captain", *generals]
    slots: list[Chip | None] = []
    while bag:
        slots.append(Chip(kind=bag.pop(resolution.dice.draw("burncycle bag", bag))))
    slots += [None] * (MAX_SLOTS - active)
    resolution.state.burncycle.slots = slots
    resolution.state.burncycle.tracker = 0


def regenerate_reserves(resolution: Resolution, start_of_game: bool = False) -> None:
    """"Reserves are created during burncycle creation and reboots from outdoor spaces and occupied rooms":
    a bot standing in a room or outdoor segment whose infobar shows a chip adds it to its reserve (agents to
    their personal reserve, the command module to the team reserve, which is its reserve). An Adaptable
    mission's safe zones grant their chips only `start_of_game` (setup), never on a reboot."""
    state, floor = resolution.state, resolution.floor
    team: list[ChipKind] = []
    personal: dict[str, list[ChipKind]] = {}
    for bot in state.bots:
        if not bot.on_board:
            continue
        area = floor.area(floor.index[bot.at])
        if area.reserve:
            (team if bot.kind == "module" else personal.setdefault(bot.id, [])).append(area.reserve)
    if state.mission.adaptable and start_of_game:
        # "When generating the team reserve at the start of the game, each safe zone that has at least 1 bot
        # occupying it will grant 1 action chip of the team's choice to the team's reserve."
        zones = sorted({floor.area_of[floor.index[b.at]] for b in state.bots
                        if b.on_board and floor.in_safe_zone(floor.index[b.at])})
        team += [RESERVE_CHOICES[k % len(RESERVE_CHOICES)] for k in range(len(zones))]
    state.burncycle.team_reserve = team
    state.burncycle.personal_reserves = personal


def add_to_reserve(resolution: Resolution, bot: Bot, chip: ChipKind) -> None:
    """A chip into the bot's reserve: an agent's personal one, or the team reserve for the command module
    ("The team reserve serves as the command module's reserve")."""
    bc = resolution.state.burncycle
    owner = "team" if bot.kind == "module" else bot.id
    reserve = bc.team_reserve if owner == "team" else bc.personal_reserves.setdefault(bot.id, [])
    reserve.append(chip)
    resolution.emit(ReserveChanged(owner=owner, chips=list(reserve)))


def reboot(resolution: Resolution) -> None:
    """"Clear all chips from the burncycle and all reserves to the supply. Place the captain chip and general
    action chips into the bag ... Regenerate team and personal reserves. Advance threat by the player count.
    Return banned IPs to the network at level 1.\""""
    state = resolution.state
    if state.mission.no_reboot:
        raise IllegalAction(f"{state.mission.name}: the burncycle cannot be rebooted")
    active = active_slot_count(resolution.state)
    draw_burncycle(resolution, active)
    for k, chip in enumerate(state.burncycle.slots):
        if chip is not None:
            resolution.emit(ChipChanged(slot=k + 1, chip=chip.kind, degraded=False, reason="reboot"))
    regenerate_reserves(resolution)
    resolution.emit(ReserveChanged(owner="team", chips=list(state.burncycle.team_reserve)))
    for owner, chips in state.burncycle.personal_reserves.items():
        resolution.emit(ReserveChanged(owner=owner, chips=list(chips)))
    change_threat(resolution, state.players, f"reboot: threat advances by the player count ({state.players})")
    for ip in state.network.ips:
        if ip.banned:
            ip.banned = False
            ip.node = access_point(resolution, ip.agent)
            if ip.level != 1:
                resolution.emit(LevelChanged(who=ip.agent, old=ip.level, new=1))
            ip.level = 1
            if ip.node is not None:
                resolution.emit(IpMoved(agent=ip.agent, path=[ip.node], reason="banned IP returns at level 1"))


def alter(resolution: Resolution, agent: Bot, slot: int, kind: str, source: str) -> None:
    """"a player may swap any chip in the burncycle track with an available action chip taken from either
    the team reserve or their personal reserve ... If the captain action chip is removed and replaced before
    it has degraded, threat immediately advances by 2.\""""
    bc = resolution.state.burncycle
    if not 0 <= slot < len(bc.slots) or bc.slots[slot] is None:
        raise IllegalAction(f"slot {slot + 1} holds no chip: only chips in the burncycle track can be swapped")
    reserve = bc.team_reserve if source == "team" else bc.personal_reserves.get(agent.id, [])
    if source not in ("team", agent.id):
        raise IllegalAction("a player alters the burncycle from the team reserve or their own personal reserve")
    if kind not in reserve:
        raise IllegalAction(f"the {'team' if source == 'team' else 'personal'} reserve holds no {kind} chip")
    reserve.remove(kind)
    old = bc.chip(slot)
    bc.slots[slot] = Chip(kind=kind)  # "always placed ... on its active face"
    resolution.emit(ChipChanged(slot=slot + 1, chip=kind, degraded=False, reason=f"altered from the {source} reserve"))
    if old.kind == "captain" and not old.degraded:
        change_threat(resolution, 2, "the captain chip was replaced before it degraded")


def next_slot_cost(state: GameState) -> int:
    """The power printed on the command module card for the next slot (the last costs are printed in order)."""
    unlocked = active_slot_count(state)
    if unlocked >= MAX_SLOTS:
        raise IllegalAction(f"all {MAX_SLOTS} burncycle slots are already unlocked")
    costs = state.module_slot_costs
    index = unlocked - (MAX_SLOTS - len(costs))
    if not 0 <= index < len(costs):
        raise IllegalAction("the command module card prints no cost for another slot")
    return costs[index]


def unlock_slot(resolution: Resolution, payers: dict[str, int], active: Bot) -> None:
    """"Players can unlock new slots during the power routing step by paying the power cost printed on the
    command module card. Unlocked slots immediately receive a general action chip from the supply." The cost
    may come from any bots, "provided at least 1 power is paid by the command module or the active
    player's agent"."""
    state = resolution.state
    bc = state.burncycle
    cost = next_slot_cost(state)
    free = [k for k, c in enumerate(bc.slots) if c is None] + list(range(len(bc.slots), MAX_SLOTS))
    if sum(payers.values()) != cost:
        raise IllegalAction(f"the next slot costs {cost} power, not {sum(payers.values())}")
    if payers.get(active.id, 0) + payers.get("module", 0) < 1:
        raise IllegalAction("at least 1 power must be paid by the command module or the active player's agent")
    bots = {b.id: b for b in state.bots}
    for bot_id, amount in payers.items():
        bot = bots.get(bot_id)
        if bot is None or amount < 0:
            raise IllegalAction(f"{bot_id} cannot pay for the slot")
        if amount and (not bot.on_board or bot.shut_down):  # the reading legal_unlock offers: bots in play
            why = "has escaped" if bot.escaped else ("is shut down" if bot.shut_down else "is off the board")
            raise IllegalAction(f"{bot.name} {why} and cannot pay for the slot (docs/rules-interpretations.md)")
        if bot.power - amount < 1:
            raise IllegalAction(f"{bot.name} has {bot.power} power: paying {amount} would shut it down")
    for bot_id, amount in payers.items():
        bots[bot_id].power -= amount
    slot = free[0]
    while len(bc.slots) <= slot:
        bc.slots.append(None)
    bc.slots[slot] = Chip(kind="general")
    resolution.emit(ChipChanged(slot=slot + 1, chip="general", degraded=False,
                                reason=f"slot unlocked for {cost} power"))


def deactivate_slot(resolution: Resolution, reason: str) -> None:
    """"If an event deactivates a slot, remove its peg and return its chip to the supply." The event takes the
    rightmost slot that has a peg (the last one unlocked, which unlocking buys back at its printed cost) and
    leaves the last peg in place, so the burncycle keeps a slot to act on."""
    slots = resolution.state.burncycle.slots
    pegged = [k for k, chip in enumerate(slots) if chip is not None]
    if len(pegged) < 2:
        return
    slot = pegged[-1]
    chip = resolution.state.burncycle.chip(slot)
    slots[slot] = None
    resolution.emit(ChipChanged(slot=slot + 1, chip="none", degraded=False,
                                reason=f"{reason}: its peg is removed and its {chip.kind} chip returns to the supply"))


# -- what is legal now (composed by actions.legal_actions) ---------------------------------------------------

def legal_reboot(state: GameState) -> list[LegalAction]:
    """A reboot, declared before the player's first action, on missions that allow one."""
    turn = state.turn
    if turn.acted or state.mission.no_reboot:
        return []
    return [LegalAction(Reboot(), f"+{state.players} threat", cost=Cost(threat=state.players))]


def legal_unlock(state: GameState, agent: Bot) -> list[LegalAction]:
    """The next burncycle slot, when the bots can pay its printed cost without shutting down; the action
    proposes the active agent and the module as payers, `payers` gives the most each bot may pay."""
    try:
        cost = next_slot_cost(state)
    except IllegalAction:
        return []
    spare = {b.id: b.power - 1 for b in state.bots if b.on_board and not b.shut_down and b.power > 1}
    if sum(spare.values()) < cost or spare.get(agent.id, 0) + spare.get("module", 0) < 1:
        return []
    payers: dict[str, int] = {}
    for bot_id in (agent.id, "module", *spare):
        take = min(spare.get(bot_id, 0), cost - sum(payers.values()))
        if take > 0 and bot_id not in payers:
            payers[bot_id] = take
    return [LegalAction(UnlockSlot(payers=payers),
                        f"{cost} power; who pays: any bots, at least 1 power from the command module or the "
                        f"active agent", bot=agent.id, choose=["payers"],
                        payers={b: min(p, cost) for b, p in spare.items()}, cost=Cost(power=cost))]


def legal_alters(state: GameState, agent: Bot) -> list[LegalAction]:
    """Each chip of the burncycle swapped for each kind of chip in the team and the agent's reserves."""
    bc = state.burncycle
    out = []
    sources = [("team", bc.team_reserve), (agent.id, bc.personal_reserves.get(agent.id, []))]
    for k, chip in enumerate(bc.slots):
        if chip is None:
            continue
        captain = chip.kind == "captain" and not chip.degraded
        for source, reserve in sources:
            for kind in sorted(set(reserve)):
                if kind != "captain":
                    out.append(LegalAction(Alter(slot=k + 1, chip=kind, source=source),
                                           "+2 threat: the captain chip is replaced before it degraded" if captain
                                           else "free", bot=agent.id, cost=Cost(threat=2 if captain else 0)))
    return out
