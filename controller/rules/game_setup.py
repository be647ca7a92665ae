"""Setup: a legal starting state from a floor, a team, a difficulty, a captain and a mission.

Every draw (guard chips, the burncycle bag) goes through the dice, so the same seed builds the same table.
Where the rulebook leaves the bots' start to the players ("bots start on a safe zone space of their choice";
Rescue Rangers: "Agents start on any safe zone space"), the setup's `start` names each bot's space; a bot it
does not name takes the first free option in reading order. Other choices (which chip a safe zone grants, where
Ghost in the Dell's Ghosts stand) take the first option in reading order.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Collection
from typing import Literal

from msgspec import Struct

from controller.rules.board.awareness import recheck
from controller.rules.board.geometry import Floor, compile_floor
from controller.rules.cards.imperatives import draw_imperatives
from controller.rules.cards.inventory import replace_innate
from controller.rules.characters.memory_drone import place_joan
from controller.rules.content import Content
from controller.rules.corporation.deploy import best_facing, captain_unit, draw_guard, enlist, station
from controller.rules.corporation.threat import events_passed_at_start
from controller.rules.corporation.threat_effects import apply_effect
from controller.rules.dice import Dice, SeededDice
from controller.rules.errors import RulesError
from controller.rules.missions.draw_bag import fill_draw_bag
from controller.rules.players.burncycle import MAX_SLOTS, draw_burncycle, regenerate_reserves
from controller.rules.players.steps import initial_turn
from controller.rules.resolution import Resolution
from controller.rules.state import (
    IP,
    MAX_POWER,
    Bot,
    Burncycle,
    Difficulty,
    FloorState,
    GameState,
    GuardSlot,
    LaterFloor,
    Mission,
    Network,
    NetworkMat,
    Ping,
    copy_state,
)

DIFFICULTIES: tuple[Difficulty, ...] = ("simplified", "standard", "seasoned")
LEVELS = (1, 2, 3)  # an Adaptable mission's levels: the floor number its rules play at


class GameSetup(Struct, kw_only=True, forbid_unknown_fields=True):
    """Everything the players choose before a game, as one serializable value: the first floor (a floor of
    the content by name, or a custom floor's text with the name its file is reported by), the mission and,
    for Adaptable missions, its level, the team, the difficulty, the captain and the seed of the virtual
    dice. A service stores it beside the game record; `new_game` builds the same table from it every time."""

    floor: str = "meridian-lobby"  # a floor of the content by name, or a custom floor's file name with floor_text
    floor_text: str | None = None  # a custom floor's text (the .floor format)
    mission: str = "data-heist"
    level: int | None = None  # Adaptable missions: the level to play; others use the floor's own
    players: int = 2
    agents: list[str] | None = None  # agent ids in turn order; None: the first `players` agents of the content
    difficulty: str = "standard"
    captain: str = "fauxbia"
    seed: int = 0
    start: dict[str, str] | None = None
    """Where bots start when the rules give the choice (a safe zone space of the team's choice: Adaptable
    missions on levels 2 and 3, Rescue Rangers, Ghost in the Dell's agents): bot id (an agent's, or "module"
    where the module is placed so) -> space id. A bot not named takes the first free space in reading order;
    None: every bot does."""


class SetupProblem(Struct, frozen=True):
    """One choice of a `GameSetup` the content cannot play: the field, the value given, what is wrong and what
    is expected (the choices, and the closest one when the value looks like a typo). A caller that knows where
    the value came from (a key of table.toml, a field of a request) names that place before `expected`; the
    rest read `str(problem)`."""

    field: str  # the GameSetup field: floor, mission, level, players, agents, difficulty, captain or start
    value: str | int | list[str] | None  # start: the bot and its space, "byte=Q3"
    problem: str  # what is wrong, naming the value: "unknown mission 'data-hiest'"
    expected: str  # what would do: "one of data-heist, tower-run (did you mean 'data-heist'?)"
    mismatch: bool = False  # each choice is the content's, but they do not fit together (a level and its mission,
    # a start space and the floor, mission or team)

    def __str__(self) -> str:
        return f"{self.problem}: expected {self.expected}"


def check_setup(content: Content, setup: GameSetup, floors: Collection[str] = ()) -> list[SetupProblem]:
    """Every choice of `setup` the content cannot play, all at once, in the order of the setup's fields; empty
    when `new_game` can build it. `floors` are the floors the caller can play besides the content's (a table's
    saved floors), offered among the choices. A custom floor's text is not checked here: compiling it names
    its line."""
    problems: list[SetupProblem] = []
    if setup.floor_text is None and setup.floor not in content.floors and setup.floor not in floors:
        problems.append(_unknown("floor", setup.floor, [*content.floors, *floors]))
    quest = content.missions.get(setup.mission)
    if quest is None:
        problems.append(_unknown("mission", setup.mission, list(content.missions)))
    if setup.level is not None and setup.level not in LEVELS:
        problems.append(SetupProblem(field="level", value=setup.level, problem=f"level {setup.level}",
                                     expected="1, 2 or 3"))
    elif setup.level is not None and quest is not None and not quest.adaptable:
        problems.append(SetupProblem(
            field="level", value=setup.level, problem=f"level {setup.level}", mismatch=True,
            expected=f"no level: {quest.id} is not an Adaptable mission (only Adaptable missions choose a level; "
                     f"the others use the floor's own)"))
    problems += _team_problems(content, setup)
    if setup.difficulty not in DIFFICULTIES:
        problems.append(_unknown("difficulty", setup.difficulty, list(DIFFICULTIES)))
    if setup.captain.lower() not in content.captains:
        problems.append(_unknown("captain", setup.captain, list(content.captains)))
    if setup.start and quest is not None and not any(p.field in ("level", "agents", "players") for p in problems):
        problems += _start_problems(content, setup, quest)
    return problems


def _unknown(field: str, value: str, known: list[str], what: str | None = None) -> SetupProblem:
    """A name the content does not have, with the names it has and the closest of them."""
    close = difflib.get_close_matches(value, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return SetupProblem(field=field, value=value, problem=f"unknown {what or field} {value!r}",
                        expected=f"one of {', '.join(sorted(known))}{hint}")


def _team_problems(content: Content, setup: GameSetup) -> list[SetupProblem]:
    """The player count, and the agents named for the players: each known, each once, one per player."""
    problems: list[SetupProblem] = []
    if not 1 <= setup.players <= 4:
        problems.append(SetupProblem(field="players", value=setup.players, problem=f"player count {setup.players}",
                                     expected="1 to 4 players, one agent each"))
    agents = setup.agents
    if not agents:  # the content's first agents, one per player
        return problems
    known = [a.id for a in content.agents]
    problems += [_unknown("agents", a, known, "agent") for a in agents if a not in known]
    twice = next((a for a in agents if agents.count(a) > 1), None)
    if twice is not None:
        problems.append(SetupProblem(field="agents", value=list(agents), problem=f"agent {twice!r} named twice",
                                     expected="different agents: each agent card is played by one player"))
    if len(agents) != setup.players and 1 <= setup.players <= 4:
        named = f"{len(agents)} {'agent' if len(agents) == 1 else 'agents'}"
        players = f"{setup.players} {'player' if setup.players == 1 else 'players'}"
        problems.append(SetupProblem(field="agents", value=list(agents), problem=f"{named} named for {players}",
                                     expected="one agent per player"))
    return problems


def _setup_floor(content: Content, setup: GameSetup) -> Floor | None:
    """The setup's floor, compiled; None when it cannot be had here (a caller's saved floor given by name only,
    a custom floor whose text does not compile: `new_game` names its line)."""
    text = setup.floor_text if setup.floor_text is not None else content.floors.get(setup.floor)
    if text is None:
        return None
    try:
        return compile_floor(text, setup.floor if setup.floor_text is not None else f"{setup.floor}.floor")
    except RulesError:
        return None


def starts_in_safe_zones(mission: Mission, level: int) -> bool:
    """Whether the mission's bots start in safe zones at this level (the first floor's number, or an Adaptable
    mission's chosen level): "Unless otherwise stated, bots start on a safe zone space of their choice when
    playing on floors 2 and 3" (Adaptable missions; on level 1, the entrance), or the mission says so itself
    (Rescue Rangers: "Agents start on any safe zone space")."""
    return mission.setup.safe_zone_start or (mission.adaptable and level >= 2)


def players_place_module(mission: Mission) -> bool:
    """Whether the players place the command module at setup as they place their agents (so, where the bots start
    in safe zones, choose its space too): not where the mission leaves it off the floor (Rescue Rangers: "Do not
    place the command module") or places it itself (Ghost in the Dell: "The command module must start on the
    hiding spot furthest away from the captain")."""
    return mission.setup.command_module and not mission.setup.module_start


def _start_problems(content: Content, setup: GameSetup, mission: Mission) -> list[SetupProblem]:
    """The chosen start spaces: each bot in the team and placed by the players, each space a safe zone space of
    the floor, one bot per space; and a choice at all only where the rules give it."""
    start = setup.start or {}
    floor = _setup_floor(content, setup)
    if floor is None:
        return []
    level = setup.level or floor.level
    if not starts_in_safe_zones(mission, level):
        where = f"level {level}" if mission.adaptable else floor.name
        return [SetupProblem(
            field="start", value=_pairs(start), mismatch=True,
            problem=f"start spaces chosen for {mission.name} on {where}, where the bots start at the entrance",
            expected="no start: the team chooses its start spaces only where the bots start in safe zones (an "
                     "Adaptable mission on level 2 or 3: \"bots start on a safe zone space of their choice\"; "
                     "Rescue Rangers and Ghost in the Dell on any level)")]
    problems: list[SetupProblem] = []
    team = setup.agents or [a.id for a in content.agents[:setup.players]]
    placed = [*team, "module"] if players_place_module(mission) else team
    zones = [a for a in floor.areas if a.kind == "safe"]
    choices = " or ".join(f"{a.name} ({floor.ids[a.spaces[0]]} to {floor.ids[a.spaces[-1]]})" for a in zones)
    for bot, space in start.items():
        pair = f"{bot}={space}"
        if bot not in placed:
            why = ("the command module is not placed at setup (\"Do not place the command module\")"
                   if bot == "module" and not mission.setup.command_module else
                   "the command module starts on the hiding spot furthest from the captain"
                   if bot == "module" else f"{bot!r} is not in the team")
            problems.append(SetupProblem(field="start", value=pair, mismatch=True,
                                         problem=f"start space {space} for {bot}: {why}",
                                         expected=f"the team's bots placed by the players: {', '.join(placed)}"))
        elif space not in floor.index:
            problems.append(SetupProblem(field="start", value=pair, mismatch=True,
                                         problem=f"unknown space {space!r} for {bot} on {floor.name}",
                                         expected=f"a safe zone space: {choices}"))
        elif not floor.in_safe_zone(floor.index[space]):
            problems.append(SetupProblem(
                field="start", value=pair, mismatch=True,
                problem=f"{bot}'s start space {space} is not in a safe zone",
                expected=f"a safe zone space ({mission.name} starts the bots on safe zone spaces of the team's "
                         f"choice): {choices}"))
    taken: dict[str, str] = {}
    for bot, space in start.items():
        if space in taken:
            problems.append(SetupProblem(field="start", value=f"{bot}={space}", mismatch=True,
                                         problem=f"{taken[space]} and {bot} both start on {space}",
                                         expected="a space each: one bot per space"))
        taken.setdefault(space, bot)
    return problems


def _pairs(start: dict[str, str]) -> str:
    return ",".join(f"{bot}={space}" for bot, space in start.items())


def new_game(content: Content, setup: GameSetup, dice: Dice | None = None) -> GameState:
    """A legal starting state for `setup`; every draw comes from `dice` (the setup's seeded dice when None).
    The state owns copies of the content's cards, so changing one game never changes another."""
    problems = check_setup(content, setup)
    if problems:
        raise RulesError("; ".join(str(p) for p in problems))
    if setup.floor_text is not None:
        floor = compile_floor(setup.floor_text, setup.floor)
    else:
        floor = compile_floor(content.floors[setup.floor], f"{setup.floor}.floor")
    players, difficulty, mission = setup.players, setup.difficulty, setup.mission
    seed, agents, level = setup.seed, setup.agents, setup.level
    rated = next(d for d in DIFFICULTIES if d == difficulty)
    card = content.captains[setup.captain.lower()]
    quest = content.missions[mission]
    # Adaptable: "Use the level chosen as the floor number for all rules and game effects that rely on
    # floor number (including security detail, keypad level, and guard durability)."
    level = level or floor.level
    dice = dice or SeededDice(seed)
    roster = _choose_agents(content, players, agents)
    later = _later_floors(content, quest)

    state = GameState(
        floor=floor_state(floor, level),
        bots=[], security=[], network=_network(content.network, roster),
        threat=quest.setup.start_threat,
        threat_card=content.threat_cards["simplified" if difficulty == "simplified" else "standard"],
        burncycle=Burncycle(slots=[]), players=players, difficulty=rated,
        captain=card, mission=quest, guard_bag=list(content.guards), seed=seed,
        turn=initial_turn([a.id for a in roster]),
        keypad_deck=list(content.keypads), terminal_deck=list(content.terminals),
        network_deck=list(content.network_cards), equipment_deck=list(content.equipment),
        mod_deck=list(content.mods), imperative_deck=list(content.imperatives), later_floors=later)
    # Publisher's FAQ: starting above 0, the events already passed never trigger (escalations stay active).
    state.fired_events = events_passed_at_start(state)
    resolution = Resolution(state, dice, apply_effect, copy=False)
    place_security(resolution, level)
    _place_bots(resolution, content, roster, setup.start or {})
    _build_burncycle(resolution, content)
    _equip(resolution)
    fill_draw_bag(resolution)  # Rescue Rangers: "After all other setup, place the captain in the draw bag"
    recheck(resolution)
    counted = dice.game_rolls(seed)
    if counted is not None:
        state.rolls = counted
    # the content's mission, captain, threat card, guard chips and cards were put in as they are: a state owns
    # its data, so one game's changes never reach the content or the next game
    return copy_state(state)


def _later_floors(content: Content, mission: Mission) -> list[LaterFloor]:
    """The floors after the first, as the mission's floor plan names them (the players choose the first)."""
    later = []
    for k, step in enumerate(mission.floor_plan[1:], 2):
        text = content.floors.get(step.floor)
        if text is None:
            raise RulesError(f"mission {mission.id} plays floor {k} on {step.floor!r}, which the content does not "
                             f"have; floors: {', '.join(sorted(content.floors)) or 'none'}")
        later.append(LaterFloor(name=f"{step.floor}.floor", text=text))
    return later


def _choose_agents(content: Content, players: int, agents: list[str] | None):
    """The agents named (`check_setup` has checked them), or the content's first, one per player."""
    if agents:
        by_id = {a.id: a for a in content.agents}
        return [by_id[a] for a in agents]
    return content.agents[:players]


def floor_state(floor: Floor, level: int) -> FloorState:
    terminals: dict[str, Literal["standard", "mainframe"]] = {}
    for i, f in enumerate(floor.feature):
        if f in ("terminal", "mainframe"):
            terminals[floor.ids[i]] = "mainframe" if f == "mainframe" else "standard"
    return FloorState(
        name=floor.name, level=level, text=floor.source, terminals=terminals,
        caches=[floor.ids[i] for i, f in enumerate(floor.feature) if f == "cache"],
        surveillance=[floor.ids[a.spaces[0]] for a in floor.areas if a.kind == "room" and a.surveillance > 0])


def _network(mat: NetworkMat, roster) -> Network:
    """Each agent takes the next free seat's access point; its IP starts there at level 1."""
    nodes = [copy.copy(n) for n in mat.nodes]
    seats = sorted((n for n in nodes if n.kind == "access"), key=lambda n: n.agent or "")
    if len(seats) < len(roster):
        raise RulesError(f"the network mat has {len(seats)} access points for {len(roster)} agents")
    for node, agent in zip(seats, roster):
        node.agent = agent.id
    for node in seats[len(roster):]:
        node.agent = None
    ips = [IP(agent=a.id, node=node.id) for node, a in zip(seats, roster)]
    pings = [Ping(id=f"P{k}", node=n) for k, n in enumerate(mat.start_pings, 1)]
    return Network(mat=NetworkMat(name=mat.name, nodes=nodes, ping_supply=mat.ping_supply,
                                  ping_die=list(mat.ping_die), start_pings=list(mat.start_pings)),
                   ips=ips, pings=pings)


def _new_guard(resolution: Resolution, slot_level: int, colour: str | None, space: int, key: bool = False) -> None:
    chip = draw_guard(resolution, slot_level, colour) or draw_guard(resolution, slot_level)
    if chip is None:
        raise RulesError(f"the guard bag has no level {slot_level} chip left for {resolution.floor.ids[space]}")
    enlist(resolution, chip, space, key)


def _captain_space(resolution: Resolution, where: str) -> int:
    floor = resolution.floor
    if where == "captain":
        # Ghost in the Dell: "place the captain on its captain space [of the executive office]. If not, place
        # the captain on any captain space in a room with a terminal."
        spaces = floor.posts.get("captain", ())
        office = [s for s in spaces if "executive" in floor.area(s).name.lower()]
        with_terminal = [s for s in spaces if any(floor.feature[x] in ("terminal", "mainframe")
                                                   for x in floor.area(s).spaces)]
        choice = (office or with_terminal or list(spaces))
        if not choice:
            raise RulesError(f"the mission places the captain on a captain space, but {floor.name} has none")
        return choice[0]
    posts = floor.posts.get(where, ())
    if not posts:
        raise RulesError(f"the mission places the captain on {where}, but {floor.name} has none")
    return posts[0]


def place_security(resolution: Resolution, level: int) -> None:
    state, floor = resolution.state, resolution.floor
    setup = state.mission.setup
    if setup.captain_post:
        space = _captain_space(resolution, setup.captain_post)
        station(resolution, captain_unit(state.captain, floor.ids[space], best_facing(resolution, space)))
        state.captain_start = floor.ids[space]
    # Ghost in the Dell: "Place two level 3 Ghosts on ghost spaces of your choice."
    ghost_spaces = [s for s in floor.posts.get("ghost", ()) if s not in resolution.occupant]
    for name in setup.extra_units:
        if not ghost_spaces:
            raise RulesError(f"{floor.name} has too few ghost spaces (G) for the mission's {name}s")
        chip = next((c for c in state.guard_bag if c.name == name), None)
        if chip is None:
            raise RulesError(f"the guard bag has no {name} chip left")
        state.guard_bag.remove(chip)
        enlist(resolution, chip, ghost_spaces.pop(0))
    # "Hallway Posts (1-3): Populated according to the Captain's security detail chart."
    row: list[GuardSlot | None] = state.captain.security_detail[level - 1] if state.captain.security_detail else []
    for k, slot in enumerate(row, 1):
        post = f"post{k}"
        spaces = [s for s in floor.posts.get(post, ()) if s not in resolution.occupant]
        if slot is None or (not slot.colour and not slot.captain) or not spaces:
            continue
        if setup.captain_post == post:
            continue  # "Place the captain on hallway security post 3 instead of following the security detail"
        if slot.captain:
            if setup.captain_replacement_level:
                # "If the captain is in the security detail, use a level N guard in its place."
                _new_guard(resolution, setup.captain_replacement_level, None, spaces[0])
            elif not any(u.rank == "captain" for u in state.security):
                station(resolution, captain_unit(state.captain, floor.ids[spaces[0]],
                                                 best_facing(resolution, spaces[0])))
                state.captain_start = floor.ids[spaces[0]]
            continue
        _new_guard(resolution, slot.level or level, slot.colour, spaces[0], slot.key)
    # "Mandatory Posts (Star): Populated during setup with a guard of the current floor level."
    for space in floor.posts.get("star", ()):
        if space not in resolution.occupant:
            _new_guard(resolution, level, None, space)


def _start_spaces(resolution: Resolution, bots: list[Bot], in_safe_zones: bool, chosen: dict[str, str]) -> list[int]:
    """Each bot's start space: the one chosen for it (`check_setup` has checked it), else the first free one in
    reading order."""
    floor = resolution.floor
    taken = {floor.index[space] for space in chosen.values()}
    for space in taken:
        if space in resolution.occupant:
            raise RulesError(f"the chosen start space {floor.ids[space]} is taken at setup by "
                             f"{resolution.occupant[space].id}")
    count = len(bots) - sum(1 for b in bots if b.id in chosen)
    if in_safe_zones:
        spaces = [s for a in floor.areas if a.kind == "safe" for s in a.spaces]
        where = "safe zone"
    else:
        spaces = list(floor.posts.get("entrance", ()))
        where = "entrance"
    free = [s for s in spaces if s not in resolution.occupant and s not in taken]
    if len(free) < count:
        spaces_word = "space" if len(free) == 1 else "spaces"
        raise RulesError(f"{floor.name} has {len(free)} free {where} {spaces_word} for {count} "
                         f"{'bot' if count == 1 else 'bots'}")
    left = iter(free)
    return [floor.index[chosen[b.id]] if b.id in chosen else next(left) for b in bots]


def _place_bots(resolution: Resolution, content: Content, roster, chosen: dict[str, str]) -> None:
    state, floor = resolution.state, resolution.floor
    setup = state.mission.setup
    # Rescue Rangers: "Do not place the command module." and "The command module's mat and card function as
    # normal": the module is in the game but off the floor until it is drawn from the draw bag.
    module = content.module
    bots: list[Bot] = [Bot(id="module", kind="module", name=module.name, space=None, power=module.power,
                           bank=MAX_POWER)]
    for a in roster:
        bots.append(Bot(id=a.id, kind="agent", name=a.name, space=None, power=a.power, bank=a.bank,
                        dice_track=list(a.upgrades),
                        # Rescue Rangers: "All agents start with the push ability at no cost."
                        upgrades=["push"] if setup.agents_push else [], abilities=list(a.abilities),
                        proprietary_die=a.die))
    placed = bots if setup.command_module else bots[1:]
    if setup.module_start == "hiding_furthest_from_captain" and setup.command_module:
        # "The command module must start on the hiding spot furthest away from the captain."
        captain = next((u for u in state.security if u.rank == "captain"), None)
        hiding = [s for s in floor.posts.get("hiding", ()) if s not in resolution.occupant]
        if captain is None or not hiding:
            raise RulesError(f"{floor.name} needs a captain and a free hiding spot for this mission's setup")
        D = resolution.distances()
        c = floor.index[captain.space]
        bots[0].space = floor.ids[max(hiding, key=lambda s: (D[c][s], -s))]
        resolution.occupant[floor.index[bots[0].space]] = bots[0]
        # Hiding spots: "When entered by an undetected bot (or outside enemy awareness), the bot hides and
        # cannot be detected via awareness." The module is put there undetected, so it starts hidden.
        bots[0].hidden = True
        placed = bots[1:]
    # Adaptable missions: "Unless otherwise stated, bots start on a safe zone space of their choice when
    # playing on floors 2 and 3" (the chosen level is the floor number); on level 1 they start at the
    # entrance, unless the mission itself starts them in safe zones.
    in_safe_zones = starts_in_safe_zones(state.mission, state.floor.level)
    for bot, space in zip(placed, _start_spaces(resolution, placed, in_safe_zones, chosen)):
        bot.space = floor.ids[space]
        resolution.occupant[space] = bot
    state.bots = bots
    place_joan(state)


def _build_burncycle(resolution: Resolution, content: Content) -> None:
    """Burncycle creation and the first reserves."""
    state = resolution.state
    state.burncycle = Burncycle(slots=[])
    draw_burncycle(resolution, min(MAX_SLOTS, state.mission.setup.active_slots or content.module.active_slots))
    regenerate_reserves(resolution, start_of_game=True)
    state.module_slot_costs = list(content.module.slot_costs)


def _equip(resolution: Resolution) -> None:
    """Nano's Transfer Learning: "Nano starts with a random innate installed mod"; then the floor's imperatives:
    "Agents lacking an imperative card draw one" (every floor starts so, the first included)."""
    for bot in resolution.state.bots:
        if "transfer_learning" in bot.abilities:
            replace_innate(resolution, bot)
    draw_imperatives(resolution)
