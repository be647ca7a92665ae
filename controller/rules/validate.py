"""Invariants of a game state that its types alone cannot express.

A state file can be well-typed and still impossible: two units on one space, a guard inside a wall, an IP
on a node the mat does not have. `check_state` finds every such problem and names where it is.
"""

from __future__ import annotations

from collections import Counter

from controller.rules.board.geometry import MAX_DESTROYED_WALLS, compile_floor
from controller.rules.cards.inventory import LIMIT, LIMIT_TEXT
from controller.rules.characters.interface import INTERFACE
from controller.rules.characters.proprietary_dice import USE
from controller.rules.errors import FloorError, StateError
from controller.rules.players.burncycle import MAX_SLOTS
from controller.rules.players.dice_upgrades import activated
from controller.rules.resolution import MEMORY
from controller.rules.state import GameState


def state_problems(state: GameState) -> list[str]:
    problems: list[str] = []
    try:
        floor = compile_floor(state.floor.text, state.floor.name)
    except FloorError as e:
        return [f"floor.text: {e}"]
    spaces = floor.index

    def on_floor(where: str, space: str | None) -> bool:
        if space is not None and space not in spaces:
            problems.append(f"{where}: {space!r} is not a space of {floor.name} (a wall or off the floor)")
            return False
        return True

    taken: dict[str, str] = {}
    ids: set[str] = set()
    for k, bot in enumerate(state.bots):
        where = f"bots[{k}] ({bot.id})"
        if bot.id in ids:
            problems.append(f"{where}: the id {bot.id!r} is used twice")
        ids.add(bot.id)
        if bot.on_board and on_floor(f"{where}.space", bot.space):
            if bot.space in taken:
                problems.append(f"{where}: {bot.space} is already taken by {taken[bot.space]}; one unit per space")
            taken[bot.at] = bot.id
        on_floor(f"{where}.awareness", bot.awareness)
        if bot.hidden and (bot.space is None or floor.feature[spaces.get(bot.space, 0)] != "hiding"):
            problems.append(f"{where}: hidden, but {bot.space} is not a hiding spot")
        if bot.shut_down and bot.power != 0:
            problems.append(f"{where}: shut down with {bot.power} power; a bot shuts down at 0")
        if bot.dice_bought > len(bot.dice_track):
            problems.append(f"{where}: {bot.dice_bought} dice upgrades activated, but its card prints "
                            f"{len(bot.dice_track)}")
        elif bot.dice_track and activated(bot) != (bot.advanced_dice, bot.elite_dice):
            problems.append(f"{where}: {bot.advanced_dice} advanced and {bot.elite_dice} elite dice, but its "
                            f"activated upgrades give {activated(bot)[0]} and {activated(bot)[1]}")
        if bot.disguise is not None and bot.id != INTERFACE:
            problems.append(f"{where}: only Interface wears a guard disguise")
        if bot.disguise is not None and bot.shut_down:
            problems.append(f"{where}: shut down but disguised; a shut-down bot's chip is flipped, without disguise")
    if sum(1 for b in state.bots if b.kind == "module") > 1:
        problems.append("bots: more than one command module")
    if state.joan is not None:
        on_floor("joan.space", state.joan.space)
        if MEMORY not in ids:
            problems.append("joan: Joan the drone is in play only with Memory")
    for k, unit in enumerate(state.security):
        where = f"security[{k}] ({unit.id})"
        if unit.id in ids:
            problems.append(f"{where}: the id {unit.id!r} is used twice")
        ids.add(unit.id)
        if on_floor(f"{where}.space", unit.space):
            if unit.space in taken:
                problems.append(f"{where}: {unit.space} is already taken by {taken[unit.space]}; one unit per space")
            taken[unit.space] = unit.id
    if sum(1 for u in state.security if u.rank == "captain") > 1:
        problems.append("security: more than one captain")

    fs = state.floor
    for door in fs.unlocked_doors:
        if door not in floor.doors:
            problems.append(f"floor.unlocked_doors: {door!r} is not a door of {floor.name}")
    if len(fs.destroyed_walls) > MAX_DESTROYED_WALLS:
        problems.append(f"floor.destroyed_walls: {len(fs.destroyed_walls)} walls destroyed; "
                        f"only {MAX_DESTROYED_WALLS} walls can be destroyed per floor")
    for wall in fs.destroyed_walls:
        if wall not in floor.interior_walls and wall not in floor.exterior_walls:
            problems.append(f"floor.destroyed_walls: {wall!r} is neither a wall between two spaces of {floor.name} "
                            f"nor an exterior wall")
    for space in list(fs.terminals) + fs.caches:
        on_floor("floor.terminals/caches", space)
    for space in fs.surveillance:
        if on_floor("floor.surveillance", space) and floor.area(spaces[space]).kind != "room":
            problems.append(f"floor.surveillance: {space} is not in a room")

    net = state.network
    nodes = {n.id for n in net.mat.nodes}
    for ip in net.ips:
        if ip.banned != (ip.node is None):
            problems.append(f"network.ips ({ip.agent}): a banned IP is off the mat and only a banned one")
        if ip.node is not None and ip.node not in nodes:
            problems.append(f"network.ips ({ip.agent}): {ip.node!r} is not a node of the mat")
    seen_pings: set[str] = set()
    for p in net.pings:
        if p.node not in nodes:
            problems.append(f"network.pings ({p.id}): {p.node!r} is not a node of the mat")
        if p.id in seen_pings:
            problems.append(f"network.pings: the id {p.id!r} is used twice")
        seen_pings.add(p.id)
    if len(net.pings) > net.mat.ping_supply:
        problems.append(f"network.pings: {len(net.pings)} pings, but the supply has {net.mat.ping_supply}")

    # Adaptable missions
    for k, entry in enumerate(state.draw_bag):
        if (entry.unit == "guard") != (entry.guard is not None):
            problems.append(f"draw_bag[{k}]: a guard entry holds its guard chip and only a guard entry does")
    for kind in ("captain", "module"):
        if sum(1 for u in state.draw_bag if u.unit == kind) > 1:
            problems.append(f"draw_bag: more than one {kind}")
    if any(u.unit == "captain" for u in state.draw_bag) and any(u.rank == "captain" for u in state.security):
        problems.append("draw_bag: the captain is both in the draw bag and on the floor")
    if any(u.unit == "module" for u in state.draw_bag) and any(b.kind == "module" and b.on_board for b in state.bots):
        problems.append("draw_bag: the command module is both in the draw bag and on the floor")
    on_floor("captain_start", state.captain_start)
    if len(set(state.objective_beads)) != len(state.objective_beads):
        problems.append("objective_beads: a command module space is used twice")
    for space in state.objective_beads:
        if on_floor("objective_beads", space) and floor.feature[spaces[space]] != "module":
            problems.append(f"objective_beads: {space} is not a command module space")

    problems.extend(_inventory_problems(state))
    problems.extend(_reference_problems(state, ids))
    problems.extend(_later_floor_problems(state))
    problems.extend(_proprietary_problems(state))
    if state.turn.degraded and state.turn.step != "end":
        problems.append(f"turn.degraded: the burncycle degrades in step 5 (the end of the turn), not during "
                        f"{state.turn.step}")
    if len(state.burncycle.slots) > MAX_SLOTS:
        problems.append(f"burncycle.slots: {len(state.burncycle.slots)} slots; the burncycle has up to {MAX_SLOTS}")
    if len(state.fired_events) != len(set(state.fired_events)) or any(
            not 0 <= i < len(state.threat_card.events) for i in state.fired_events):
        problems.append("fired_events: each entry must name a threat event of the card once")
    return problems


def _reference_problems(state: GameState, ids: set[str]) -> list[str]:
    """Every place a state names a bot by id names one that is in the game: the engine looks them up and
    crashes on an id it cannot find (a turn order of an agent that is not there, an IP of nobody)."""
    problems: list[str] = []
    agents = {b.id for b in state.bots if b.kind == "agent"}
    bots = {b.id for b in state.bots}

    def known(where: str, bot_id: str, among: set[str], what: str) -> None:
        if bot_id not in among:
            problems.append(f"{where}: {bot_id!r} is not {what} of this game ({', '.join(sorted(among)) or 'none'})")

    turn = state.turn
    for k, agent in enumerate(turn.order):
        known(f"turn.order[{k}]", agent, agents, "an agent")
    if len(set(turn.order)) != len(turn.order):
        problems.append("turn.order: an agent takes two turns in one round; each agent is listed once")
    if turn.order:
        known("turn.marker", turn.marker, set(turn.order), "an agent in turn.order")
        if not 0 <= turn.active < len(turn.order):
            problems.append(f"turn.active: {turn.active} is not a player of turn.order (0 to {len(turn.order) - 1})")
    elif agents:  # with no agent on the team (a scenario of security alone) nobody takes a turn
        problems.append(f"turn.order: empty; each agent of the game ({', '.join(sorted(agents))}) takes a turn")
    if turn.pending is not None:
        for bot_id in turn.pending.steps:
            known("turn.pending.steps", bot_id, bots, "a bot")
    for node in state.network.mat.nodes:
        if node.agent is not None:
            known(f"network.mat.nodes ({node.id}).agent", node.agent, agents, "an agent")
    for ip in state.network.ips:
        known("network.ips", ip.agent, agents, "an agent")
    for agent in state.network_hands:
        known("network_hands", agent, agents, "an agent")
    for bot_id in state.burncycle.personal_reserves:
        known("burncycle.personal_reserves", bot_id, bots, "a bot")
    return problems


def _later_floor_problems(state: GameState) -> list[str]:
    """The floors a mission climbs to must compile: changing floors would fail halfway otherwise."""
    problems: list[str] = []
    for k, later in enumerate(state.later_floors):
        try:
            compile_floor(later.text, later.name)
        except FloorError as e:
            problems.append(f"later_floors[{k}] ({later.name}).text: {e}")
    return problems


def _proprietary_problems(state: GameState) -> list[str]:
    """Agents' proprietary dice: on agent cards only, in the pool of their own agent's turn, and
    agent-only move AP only from a die that modifies movement."""
    problems: list[str] = []
    for k, bot in enumerate(state.bots):
        if bot.proprietary_die is not None and bot.kind != "agent":
            problems.append(f"bots[{k}] ({bot.id}): a proprietary die on the command module; proprietary dice are "
                            f"only used when playing as an agent")
    turn = state.turn
    if turn.step == "corporation" or not 0 <= turn.active < len(turn.order):
        return problems
    agent = next((b for b in state.bots if b.id == turn.order[turn.active]), None)
    die = agent.proprietary_die if agent is not None else None
    if turn.pool.proprietary and die is None:
        problems.append("turn.pool.proprietary: a proprietary die in the pool of an agent whose card has none")
    if turn.pending is not None and turn.pending.agent_ap and (die is None or USE[die] != "move"):
        problems.append("turn.pending.agent_ap: AP only the agent may spend, but its card has no die that "
                        "modifies movement")
    return problems


def _inventory_problems(state: GameState) -> list[str]:
    """Inventories and the decks of equipment, mods and imperatives (feature: equipment)."""
    problems: list[str] = []
    places: dict[str, list[str]] = {"equipment": [], "mod": [], "imperative": []}
    for deck in places:
        for pile in ("deck", "discard"):
            places[deck] += [c.id for c in getattr(state, f"{deck}_{pile}")]
    for k, bot in enumerate(state.bots):
        where = f"bots[{k}] ({bot.id})"
        if bot.inventory > LIMIT:
            problems.append(f"{where}: {bot.inventory} cards in inventory; {LIMIT_TEXT}")
        if bot.kind == "module" and (bot.installed or bot.innate is not None):
            problems.append(f"{where}: installed mods on the command module, which cannot activate equipment or mods")
        if bot.kind == "module" and bot.imperative is not None:
            problems.append(f"{where}: an imperative on the command module; command modules never draw imperatives")
        for card in bot.equipment:
            if (card.category == "counter") != (card.die is not None) or (
                    card.die is not None and not 1 <= card.die <= card.charges):
                problems.append(f"{where}: equipment {card.id}: a counter's die shows 1-{card.charges} charges, "
                                f"other cards have no die")
            if card.category == "discard":
                problems.append(f"{where}: equipment {card.id} is a discard card, which never stays in inventory")
        places["equipment"] += [c.id for c in bot.equipment]
        places["mod"] += [c.id for c in bot.mods + bot.installed] + ([bot.innate.id] if bot.innate else [])
        places["imperative"] += [bot.imperative.id] if bot.imperative else []
    for deck, ids in places.items():
        twice = sorted(i for i, n in Counter(ids).items() if n > 1)  # counted once: a deck can be 100,000 cards
        if twice:
            problems.append(f"{deck} card {twice[0]} is in two places at once (decks, discards, inventories)")
    return problems


def check_state(state: GameState) -> None:
    problems = state_problems(state)
    if problems:
        raise StateError("; ".join(problems))

