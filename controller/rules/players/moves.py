"""Move actions: the AP check, steps split between the agent and the command module, caches, surveillance
and keys.

"The player distributes the accumulated AP between their agent and the command module in any combination.
Each AP allows a bot to move 1 space orthogonally." A move action is rolled first (`start_move`), then
spent one step at a time (`step`), which is how the table sees it happen and how the players may
"interleave steps between their agent and the command module freely".
"""

from __future__ import annotations

from controller.rules.action_types import Move, Push, Step, Swap, Trade
from controller.rules.board.awareness import place_awareness, recheck, step_bot, step_unit
from controller.rules.board.geometry import edge_id
from controller.rules.cards.imperatives import draw_imperative
from controller.rules.cards.inventory import LIMIT, discard_card, draw_equipment, trade_cards
from controller.rules.cards.mods import mod_bonus
from controller.rules.characters.interface import check_disguised_step, count_step
from controller.rules.characters.proprietary_dice import announce_check, pool_dice, roll_proprietary
from controller.rules.corporation.deploy import spawn_guard
from controller.rules.errors import DiceWanted, IllegalAction
from controller.rules.events import (
    BeadRemoved,
    BotMoved,
    CacheTaken,
    DieRolled,
    DoorChanged,
    KeyTaken,
    StepStarted,
    TerminalChanged,
    UnitMoved,
    bot_ref,
)
from controller.rules.legal import Choice, Cost, LegalAction, dice_label, pool_choices
from controller.rules.missions import draw_bag, special_rules
from controller.rules.players.ap import OPTIMIZED_BONUS, roll_ap
from controller.rules.players.power_gain import gain_power
from controller.rules.players.steps import active_agent
from controller.rules.resolution import Resolution, unit_label
from controller.rules.state import Bot, DicePool, PendingMove, SecurityUnit

SURVEILLANCE_FACES = ("guard", "mainframe", "powercell", "autolock", "imperative", "guard")


def current_chip_kind(resolution: Resolution) -> str | None:
    """The kind of chip under the tracker, for optimizing; None for the extra action an optimized network
    card grants ("an extra unoptimized action")."""
    if resolution.state.turn.extra_action:
        return None
    bc = resolution.state.burncycle
    chip = bc.slots[bc.tracker] if bc.tracker < len(bc.slots) else None
    return chip.kind if chip is not None and not chip.degraded else None


def start_move(resolution: Resolution, dice: DicePool) -> None:
    """"If optimized, add +2 AP to the total rolled." (">> If a move action is optimized, the bot may move
    using the 2 bonus AP without rolling any dice from the pool.")"""
    turn = resolution.state.turn
    optimized = current_chip_kind(resolution) == "physical"
    agent = active_agent(resolution.state)
    # an installed move_ap mod adds to the AP check of its agent's move actions
    bonus = (OPTIMIZED_BONUS if optimized else 0) + mod_bonus(agent, "move_ap")
    announce_check(resolution, agent, dice, "move", "move action")
    # Casing's pressure die: AP only the agent may spend
    agent_ap = roll_proprietary(resolution, agent, dice, "move", "move action")
    ap = roll_ap(resolution, pool_dice(dice), bonus, "move action")
    turn.pending = PendingMove(ap=ap, optimized=optimized, agent_ap=agent_ap)
    resolution.emit(StepStarted(step="move", bot=agent.id, ap=ap, optimized=optimized, agent_ap=agent_ap))


def ap_for(resolution: Resolution, bot: Bot) -> int:
    """AP of the move action under way that this bot may spend: the agent spends its proprietary die's AP too
    (">> Powers that explicitly modify agent movement ... cannot be applied to the command module")."""
    pending = resolution.state.turn.move()
    return pending.ap + (pending.agent_ap if bot.kind == "agent" else 0)


def ap_left(resolution: Resolution) -> int:
    """AP of the move action under way that a bot able to move now may still spend (0 ends the action)."""
    bots = movers(resolution)
    return max((ap_for(resolution, b) for b in bots), default=0)


def spend_ap(resolution: Resolution, bot: Bot, ap: int) -> None:
    """The agent spends its own AP (the proprietary die's) first: the shared AP stay for the module."""
    pending = resolution.state.turn.move()
    own = min(pending.agent_ap, ap) if bot.kind == "agent" else 0
    pending.agent_ap -= own
    pending.ap -= ap - own


def _check_ap(resolution: Resolution, bot: Bot, ap: int) -> None:
    """Refuse a step the bot has no AP for, naming the agent-only AP when that is what is left."""
    if ap_for(resolution, bot) >= ap:
        return
    pending = resolution.state.turn.move()
    if pending.agent_ap:
        agent = active_agent(resolution.state)
        raise IllegalAction(f"{pending.ap} AP left that {bot.name} may spend: the {pending.agent_ap} AP of "
                            f"{agent.name}'s {agent.proprietary_die} die move only {agent.name} (powers that "
                            f"explicitly modify agent movement cannot be applied to the command module)")
    raise IllegalAction(f"this needs {ap} AP of the move action; {pending.ap} left")


def movers(resolution: Resolution) -> list[Bot]:
    """The active agent and the command module, when they can move."""
    agent = active_agent(resolution.state)
    out = [b for b in resolution.state.bots
           if (b is agent or b.kind == "module") and b.on_board and not b.shut_down]
    return out


def check_step(resolution: Resolution, bot_id: str, to: str,
               reassemble: bool = False) -> tuple[Bot, int, int, str | None]:
    """Validate one step; returns (bot, from, to, door to open with a key or None). With `reassemble`, Nano
    moves through a locked door without opening it."""
    state, floor = resolution.state, resolution.floor
    turn = state.turn
    if turn.pending is None:
        raise IllegalAction("no move action is under way: roll a move action first")
    if turn.pending.ap + turn.pending.agent_ap < 1:
        raise IllegalAction("no AP left in this move action: each AP allows a bot to move 1 space")
    bot = next((b for b in movers(resolution) if b.id == bot_id), None)
    if bot is None:
        raise IllegalAction(f"{bot_id} cannot move now: the player distributes the AP between their agent "
                            f"and the command module")
    _check_ap(resolution, bot, 1)
    check_disguised_step(resolution, bot)
    if to not in floor.index:
        raise IllegalAction(f"{to} is not a space of {floor.name}")
    frm, dest = floor.index[bot.at], floor.index[to]
    kind = floor.edge_between(frm, dest)
    if kind is None:
        raise IllegalAction(f"{bot.space} and {to} are not adjacent: adjacency applies strictly orthogonally "
                            f"(never diagonally)")
    door = None
    edge = edge_id(bot.at, to)
    if kind == "wall" and edge not in resolution.destroyed:
        raise IllegalAction(f"a wall stands between {bot.space} and {to}: walls block adjacency")
    if reassemble and (kind != "door" or edge in resolution.unlocked):
        raise IllegalAction(f"no locked door stands between {bot.space} and {to}: Nano reassembles through "
                            f"locked doors")
    if reassemble and "reassemble" not in bot.abilities:
        raise IllegalAction(f"{bot.name} cannot reassemble: only Nano may move through locked doors")
    if kind == "door" and edge not in resolution.unlocked and not reassemble:
        if bot.keys < 1:
            raise IllegalAction(f"the door {edge} is locked: locked doors block bot adjacency")
        door = edge
    if dest in resolution.occupant:
        raise IllegalAction(f"{to} is occupied: bots cannot move through other units")
    special_rules.check_enter(resolution, dest)
    return bot, frm, dest, door


def step(resolution: Resolution, bot_id: str, to: str, take_cache: bool = False, chip: str | None = None,
         reassemble: bool = False, discard: list[str] | None = None) -> None:
    bot, frm, dest, door = check_step(resolution, bot_id, to, reassemble)
    if reassemble:
        shed(resolution, bot)
    if door is not None:
        # Keys "spent during move actions to open adjacent doors on the fly"
        bot.keys -= 1
        unlock_door(resolution, door, f"{bot_ref(bot.id)} spends a key")
    spend_ap(resolution, bot, 1)
    count_step(resolution, bot)
    start = bot.at
    mark = len(resolution.events)
    step_bot(resolution, bot, dest)
    resolution.events.insert(mark, BotMoved(bot=bot.id, path=[start, bot.at]))
    entered(resolution, bot, take_cache, chip, discard or [])


def shed(resolution: Resolution, bot: Bot) -> None:
    """Nano's Reassemble: "When he does so, all keys, equipment, and mods (not including his innate mod) in his
    inventory are discarded.\""""
    if bot.keys:
        discarded, bot.keys = bot.keys, 0
        resolution.emit(KeyTaken(bot=bot.id, keys=0, change=-discarded))
    for card in [c.id for c in bot.equipment + bot.mods + bot.installed]:
        discard_card(resolution, bot, card, "Nano reassembles through a locked door")


def entered(resolution: Resolution, bot: Bot, take_cache: bool = False, chip: str | None = None,
            discard: list[str] | None = None) -> None:
    """What entering a space brings: its cache (if wanted) and the surveillance of an unsurveilled room."""
    state, floor = resolution.state, resolution.floor
    if take_cache and bot.space in state.floor.caches:
        # "When a bot moves onto a cache, it may collect it: discard the chip and draw 1 equipment card into
        # inventory."
        state.floor.caches.remove(bot.at)
        resolution.emit(CacheTaken(bot=bot.id, space=bot.at))
        key = f"caches:{bot.id}"
        state.progress[key] = state.progress.get(key, 0) + 1
        draw_equipment(resolution, bot, discard or [])
        if resolution.over:
            return
        special_rules.chip_for_access(resolution, bot, chip)
    area = floor.area(floor.index[bot.at])
    anchor = floor.ids[area.spaces[0]]
    if anchor in state.floor.surveillance and not resolution.over:
        surveil(resolution, bot, area.index)


def _neighbour_of(resolution: Resolution, bot: Bot, other_space: str, what: str) -> int:
    """The index of `other_space` when it is adjacent to the bot from the bot's point of view."""
    floor = resolution.floor
    here = floor.index[bot.at]
    there = floor.index[other_space]
    if there not in {j for _, j in floor.bot_neighbours(here, resolution.unlocked, resolution.destroyed)}:
        raise IllegalAction(f"{what} on {other_space} is not adjacent to {bot.name}: walls and locked doors "
                            f"block bot adjacency")
    return there


def swap(resolution: Resolution, bot_id: str, other_id: str) -> None:
    """"Swap (1 Power): Move into an adjacent bot's space, swapping positions simultaneously.\""""
    bot = _mover_with_ap(resolution, bot_id, 1)
    if "swap" not in bot.upgrades:
        raise IllegalAction(f"{bot.name} has not bought the swap upgrade (1 power)")
    other = next((b for b in resolution.state.bots if b.id == other_id and b.on_board), None)
    if other is None or other is bot:
        raise IllegalAction(f"there is no other bot {other_id} on the floor to swap with")
    there = _neighbour_of(resolution, bot, other.at, other.name)
    special_rules.check_enter(resolution, there)
    here = resolution.floor.index[bot.at]
    spend_ap(resolution, bot, 1)
    count_step(resolution, bot)
    a, b = bot.at, other.at
    # simultaneous: lift both, then put each on the other's space, then look
    del resolution.occupant[here], resolution.occupant[there]
    bot.space, other.space = b, a
    resolution.occupant[there], resolution.occupant[here] = bot, other
    resolution.emit(BotMoved(bot=bot.id, path=[a, b]))
    resolution.emit(BotMoved(bot=other.id, path=[b, a]))
    entering = bot if resolution.state.joan is not None and resolution.state.joan.space == b else other
    resolution.pass_joan(entering, a if entering is bot else b)
    for moved in (bot, other):
        moved.hidden = False
    recheck(resolution)
    entered(resolution, bot)


def push(resolution: Resolution, bot_id: str, unit_id: str, to: str) -> None:
    """"Push (1 Power): Spend +1 AP during a move action to shove a security unit to an adjacent empty
    space, entering its space (causes detection).\""""
    state = resolution.state
    free = state.mission.setup.free_push  # Rescue Rangers: "Using push does not require the additional AP."
    bot = _mover_with_ap(resolution, bot_id, 1 if free else 2)
    if "push" not in bot.upgrades:
        raise IllegalAction(f"{bot.name} has not bought the push upgrade (1 power)")
    unit = next((u for u in state.security if u.id == unit_id), None)
    if unit is None:
        raise IllegalAction(f"there is no security unit {unit_id} on the floor")
    there = _neighbour_of(resolution, bot, unit.space, unit_label(unit))
    special_rules.check_enter(resolution, there)
    if to not in resolution.floor.index:
        raise IllegalAction(f"{to} is not a space of {resolution.floor.name}")
    target = resolution.floor.index[to]
    if target not in {j for _, j in resolution.floor.security_neighbours(there, resolution.destroyed)}:
        raise IllegalAction(f"{to} is not adjacent to {unit_label(unit)}: a push shoves it to an adjacent space")
    if target in resolution.occupant:
        raise IllegalAction(f"{to} is occupied: a push shoves the unit to an adjacent empty space")
    spend_ap(resolution, bot, 1 if free else 2)
    count_step(resolution, bot)
    start, through_door = unit.space, resolution.floor.edge_between(there, target) == "door"
    facing = unit.facing
    step_unit(resolution, unit, target)
    unit.facing = facing  # shoved, not walking: it keeps its facing
    recheck(resolution)
    resolution.emit(UnitMoved(unit=unit.id, path=[start, to], facing=unit.facing, reason="pushed"))
    if through_door:
        key = f"push_through_door:{bot.id}"
        state.progress[key] = state.progress.get(key, 0) + 1
    frm = bot.at
    step_bot(resolution, bot, there)
    resolution.emit(BotMoved(bot=bot.id, path=[frm, start]))
    place_awareness(resolution, bot, "pushing", unit)
    entered(resolution, bot)


def _mover_with_ap(resolution: Resolution, bot_id: str, ap: int) -> Bot:
    turn = resolution.state.turn
    if turn.pending is None:
        raise IllegalAction("swap and push happen during a move action: roll a move action first")
    bot = next((b for b in movers(resolution) if b.id == bot_id), None)
    if bot is None:
        raise IllegalAction(f"{bot_id} cannot move now: the player distributes the AP between their agent "
                            f"and the command module")
    _check_ap(resolution, bot, ap)
    check_disguised_step(resolution, bot)
    return bot


def trade(resolution: Resolution, giver_id: str, taker_id: str, keys: int, cards: list[str] | None = None,
          discard: list[str] | None = None) -> None:
    """"As a free action, an agent or command module may trade with any adjacent bot. Bots can exchange any
    quantity of keys, equipment cards, and uninstalled mod cards currently stored in their inventory." One
    trade hands things one way; an exchange is a trade each way."""
    bots = {b.id: b for b in resolution.state.bots}
    giver, taker = bots.get(giver_id), bots.get(taker_id)
    if giver is None or taker is None or giver is taker or not giver.on_board or not taker.on_board:
        raise IllegalAction("a trade is between two different bots on the floor")
    _neighbour_of(resolution, giver, taker.at, taker.name)
    if keys < 0 or giver.keys < keys:
        raise IllegalAction(f"{giver.name} holds {giver.keys} keys, not {keys}")
    if not keys and not cards:
        raise IllegalAction("a trade hands over keys, equipment cards or uninstalled mod cards: name some")
    if keys:
        giver.keys -= keys
        taker.keys += keys
        resolution.emit(KeyTaken(bot=taker.id, keys=taker.keys, change=keys))
    if cards:
        trade_cards(resolution, giver, taker, list(cards), list(discard or []))


def unlock_door(resolution: Resolution, door: str, reason: str) -> None:
    """Put an unlocked door peg in; a keypad card left by the door is discarded (it opened, however)."""
    card = resolution.state.keypads.pop(door, None)
    if card is not None:
        resolution.state.keypad_discard.append(card)
    resolution.state.floor.unlocked_doors.append(door)
    resolution.unlocked = frozenset(resolution.state.floor.unlocked_doors)
    special_rules.door_changed(resolution, door, unlocked=True)
    resolution.emit(DoorChanged(door=door, unlocked=True, reason=reason))


def surveil(resolution: Resolution, bot: Bot, area_index: int, where: str | None = None) -> None:
    """"Entering a room with a surveillance bead requires immediate surveillance: remove the bead, check the
    infobar for the number of surveillance dice (1 or 2), roll and resolve them, then resume the move."
    `where` is the space the surveillance is made from when it is not the bot's (Joan's remote surveillance)."""
    state, floor = resolution.state, resolution.floor
    area = floor.areas[area_index]
    # the unit drawn and the dice are known at once: the players draw and roll them together
    drawn = [DiceWanted(die="draw bag", count=1, faces=tuple(draw_bag.label(state, u) for u in state.draw_bag))
             ] if draw_bag.free_terminals(resolution, area) else []
    dice = [DiceWanted(die="surveillance die", count=area.surveillance, faces=SURVEILLANCE_FACES)
            ] if area.surveillance else []
    if drawn or dice:
        resolution.dice.expect(drawn + dice, f"the surveillance of the {area.name}")
    draw_bag.draw_onto_terminal(resolution, area)
    state.floor.surveillance.remove(floor.ids[area.spaces[0]])
    resolution.emit(BeadRemoved(room=area.name, space=where or bot.space or "-"))
    for _ in range(area.surveillance):
        face = resolution.dice.roll("surveillance die", SURVEILLANCE_FACES)
        resolution.emit(DieRolled(die="surveillance die", face=face, why=f"surveillance of the {area.name}"))
        if face == "guard":
            # "Spawn a floor-level guard at room post A (then B)."
            members = set(area.spaces)
            for post_kind in ("postA", "postB"):
                if spawn_guard(resolution, post_kind, state.floor.level, within=members):
                    break
        elif face == "mainframe":
            # "Upgrade a terminal in the room to a mainframe terminal."
            for s in area.spaces:
                name = floor.ids[s]
                if state.floor.terminals.get(name) == "standard":
                    state.floor.terminals[name] = "mainframe"
                    resolution.emit(TerminalChanged(space=name, kind="mainframe"))
                    break
        elif face == "powercell":
            gain_power(resolution, bot, 1, "surveillance powercell")  # "Surveilling bot gains 1 power."
        elif face == "autolock":
            # "Lock all doors leading into this room immediately."
            members = set(area.spaces)
            for door in list(state.floor.unlocked_doors):
                a, b = door.split("/")
                if (floor.index[a] in members) != (floor.index[b] in members):
                    state.floor.unlocked_doors.remove(door)
                    resolution.unlocked = frozenset(state.floor.unlocked_doors)
                    resolution.emit(DoorChanged(door=door, unlocked=False, reason="surveillance autolock"))
                    special_rules.door_changed(resolution, door, unlocked=False)
        elif face == "imperative":
            draw_imperative(resolution, bot)  # "The surveilling agent draws 1 imperative card."
        if resolution.over:
            return


# -- what is legal now (composed by actions.legal_actions) ---------------------------------------------------

def move_bonus(resolution: Resolution) -> int:
    """The AP a move action gets without rolling: +2 when optimized, and an installed move_ap mod's."""
    optimized = current_chip_kind(resolution) == "physical"
    return (OPTIMIZED_BONUS if optimized else 0) + mod_bonus(active_agent(resolution.state), "move_ap")


def legal_move(resolution: Resolution) -> list[LegalAction]:
    """A move action, when a bot can move. "Dice can be rolled in any quantity (including 0)", so it is legal
    with the pool spent too; the label then says it has no AP (it ends at once, like a pass)."""
    turn = resolution.state.turn
    agent = active_agent(resolution.state)
    if not movers(resolution):
        return []
    choices = pool_choices(turn.pool, agent, "move")
    bonus = move_bonus(resolution)
    if choices:
        label = f"choose the dice: {dice_label(choices)}" + (f"; +{bonus} AP without rolling" if bonus else "")
    else:
        label = f"no dice left in the pool: {bonus} AP without rolling" if bonus else \
            "no dice left in the pool and no bonus: 0 AP, the move ends at once (like a pass)"
    everything = DicePool(**{c.field: c.most for c in choices})  # the default: roll every die the move may roll
    return [LegalAction(Move(dice=everything), label, bot=agent.id, choose=["dice"] if choices else [],
                        dice=choices)]


def legal_steps(resolution: Resolution) -> list[LegalAction]:
    """Within a move action: each bot's steps (Nano's through locked doors too), swaps and pushes."""
    state, floor = resolution.state, resolution.floor
    out: list[LegalAction] = []
    for bot in movers(resolution):
        here = floor.index[bot.at]
        for _, j in floor.security_neighbours(here, resolution.destroyed):
            to = floor.ids[j]
            try:
                check_step(resolution, bot.id, to)
            except IllegalAction:
                continue
            cache = to in state.floor.caches
            label = f"1 AP; cards to discard if the cache's card makes {LIMIT + 1}" if cache else "1 AP"
            out.append(LegalAction(Step(bot=bot.id, to=to, take_cache=cache), cost=Cost(ap=1), label=label))
        if "reassemble" in bot.abilities:
            out.extend(_reassembles(resolution, bot))
        out.extend(_shoves(resolution, bot))
    return out


def _reassembles(resolution: Resolution, bot: Bot) -> list[LegalAction]:
    """Nano's steps through the locked doors next to him (Reassemble)."""
    out: list[LegalAction] = []
    floor = resolution.floor
    here = floor.index[bot.at]
    for j, kind in floor.neighbour[here].values():
        door = edge_id(bot.at, floor.ids[j])
        if kind != "door" or door in resolution.unlocked or j in resolution.occupant:
            continue
        try:
            check_step(resolution, bot.id, floor.ids[j], reassemble=True)  # the step's own rules (a closed zone)
        except IllegalAction:
            continue
        out.append(LegalAction(Step(bot=bot.id, to=floor.ids[j], reassemble=True), cost=Cost(ap=1),
                               label="1 AP; discards all keys, equipment and mods but the innate mod"))
    return out


def push_ap(resolution: Resolution) -> int:
    """A push's AP: 2, or 1 on missions where "using push does not require the additional AP"."""
    return 1 if resolution.state.mission.setup.free_push else 2


def _shoves(resolution: Resolution, bot: Bot) -> list[LegalAction]:
    """Swaps and pushes the bot can make now within its move action."""
    pending = resolution.state.turn.move()
    out: list[LegalAction] = []
    shove_ap = push_ap(resolution)
    if bot.disguise is not None and pending.steps.get(bot.id, 0) >= bot.disguise.movement:
        return out  # "moves up to the disguise's movement value"
    here = resolution.floor.index[bot.at]
    for _, j in resolution.floor.bot_neighbours(here, resolution.unlocked, resolution.destroyed):
        if special_rules.safe_zone_closed(resolution, j):
            continue  # both enter the space: "Bots cannot enter safe zones for the remainder of the mission"
        other = resolution.occupant.get(j)
        if isinstance(other, Bot) and "swap" in bot.upgrades and ap_for(resolution, bot) >= 1:
            out.append(LegalAction(Swap(bot=bot.id, other=other.id), "1 AP", cost=Cost(ap=1)))
        if isinstance(other, SecurityUnit) and "push" in bot.upgrades and ap_for(resolution, bot) >= shove_ap:
            for _, k in resolution.floor.security_neighbours(j, resolution.destroyed):
                if k not in resolution.occupant:
                    out.append(LegalAction(Push(bot=bot.id, unit=other.id, to=resolution.floor.ids[k]),
                                           f"{shove_ap} AP; causes detection", cost=Cost(ap=shove_ap)))
    return out


def legal_trades(resolution: Resolution) -> list[LegalAction]:
    """Free trades of the active agent and the command module with the bots next to them."""
    agent = active_agent(resolution.state)
    out: list[LegalAction] = []
    for bot in resolution.state.bots:
        cards = [(c.id, c.name) for c in bot.equipment + bot.mods]
        if (bot is not agent and bot.kind != "module") or not bot.on_board or bot.shut_down or (
                bot.keys < 1 and not cards):
            continue
        here = resolution.floor.index[bot.at]
        for _, j in resolution.floor.bot_neighbours(here, resolution.unlocked, resolution.destroyed):
            other = resolution.occupant.get(j)
            if isinstance(other, Bot):
                if bot.keys:
                    out.append(LegalAction(Trade(bot=bot.id, to=other.id, keys=1), f"free; keys 1-{bot.keys}",
                                           choose=["keys"] if bot.keys > 1 else [],
                                           options={"keys": [*range(1, bot.keys + 1)]}))
                for card, name in cards:
                    full = other.inventory >= LIMIT
                    held: list[Choice] = [card]
                    held += [c.id for c in other.equipment + other.mods]
                    out.append(LegalAction(
                        Trade(bot=bot.id, to=other.id, cards=[card]),
                        f"free; {name}" + ("; the card to discard: a bot holds at most 2 equipment and mods"
                                           if full else ""),
                        choose=["discard"] if full else [],
                        options={"discard": held} if full else {}))
    return out
