"""Content as data: guard chips, captains, bots, the network mat, threat cards, dice and missions.

This module turns the text of content files into validated values; it does no I/O (controller.library
reads the files). An error names the file, the line (found from the field's path) and the field, so a
hobbyist editing a TOML file sees exactly what to fix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Annotated, TypeVar

import msgspec
from msgspec import Meta, Struct

from controller.rules.errors import ContentError
from controller.rules.missions.objectives import task_problem
from controller.rules.players.burncycle import MAX_SLOTS
from controller.rules.state import (
    TERMINAL_OPTIONS,
    CaptainCard,
    DiceUpgrade,
    EquipmentCard,
    GuardChip,
    ImperativeCard,
    KeypadCard,
    KeypadColumn,
    KeypadInput,
    Mission,
    ModCard,
    NetworkCard,
    NetworkMat,
    NetworkNode,
    Power,
    ProprietaryDie,
    TerminalCard,
    ThreatCard,
    describe_validation_error,
)

# Agent-card special rules the engine applies (Robophobia's NANO (Wildcard))
ABILITIES = ("transfer_learning", "asterisk", "reassemble", "risky_click")
# Security units' and captains' special abilities the engine applies (a captain's pass to its unit)
SECURITY_ABILITIES = ("l453r",)
CAPTAIN_ABILITIES = (*SECURITY_ABILITIES, "next_escalation")


class GuardEntry(GuardChip, forbid_unknown_fields=True):
    count: Annotated[int, Meta(ge=1, le=10)] = 1  # chips of this kind in the box


class AgentCard(Struct, forbid_unknown_fields=True):
    id: str
    name: str
    power: Power
    bank: Power
    upgrades: list[DiceUpgrade] = []  # the card's dice upgrade track, bought left to right
    abilities: list[str] = []
    die: ProprietaryDie | None = None  # its proprietary die (characters/proprietary_dice.py): Casing's pressure die


class ModuleCard(Struct, forbid_unknown_fields=True):
    name: str
    power: Power
    active_slots: Annotated[int, Meta(ge=1, le=MAX_SLOTS)]
    slot_costs: Annotated[list[Power], Meta(max_length=MAX_SLOTS)] = []


class _Guards(Struct, forbid_unknown_fields=True):
    guard: list[GuardEntry]


class _Captains(Struct, forbid_unknown_fields=True):
    captain: list[CaptainCard]


class _Bots(Struct, forbid_unknown_fields=True):
    agent: list[AgentCard]
    module: ModuleCard


class _Network(Struct, forbid_unknown_fields=True):
    name: str
    node: list[NetworkNode]
    ping_supply: Annotated[int, Meta(ge=1, le=20)] = 6
    start_pings: list[str] = []


class _Threat(Struct, forbid_unknown_fields=True):
    standard: ThreatCard
    simplified: ThreatCard


class _Missions(Struct, forbid_unknown_fields=True):
    mission: list[Mission]


class _Dice(Struct, forbid_unknown_fields=True):
    dice: dict[str, list[str]]


class _KeypadColumnEntry(Struct, forbid_unknown_fields=True):
    inputs: list[KeypadInput] = []
    dice: Annotated[int, Meta(ge=0, le=6)] = 0
    jam: bool = False


class _KeypadEntry(Struct, forbid_unknown_fields=True):
    id: str
    floor1: _KeypadColumnEntry
    floor2: _KeypadColumnEntry
    floor3: _KeypadColumnEntry


class _Keypads(Struct, forbid_unknown_fields=True):
    brute_force: list[Annotated[int, Meta(ge=1, le=99)]]  # AP by floor level
    keypad: list[_KeypadEntry]


class _Terminals(Struct, forbid_unknown_fields=True):
    terminal: list[TerminalCard]


class _NetworkCards(Struct, forbid_unknown_fields=True):
    card: list[NetworkCard]


class _Equipment(Struct, forbid_unknown_fields=True):
    equipment: list[EquipmentCard]


class _Mods(Struct, forbid_unknown_fields=True):
    mod: list[ModCard]


class _Imperatives(Struct, forbid_unknown_fields=True):
    imperative: list[ImperativeCard]


FILES = {
    "guards.toml": _Guards,
    "captains.toml": _Captains,
    "bots.toml": _Bots,
    "network.toml": _Network,
    "threat_cards.toml": _Threat,
    "missions.toml": _Missions,
    "dice.toml": _Dice,
    "keypads.toml": _Keypads,
    "terminals.toml": _Terminals,
    "network_cards.toml": _NetworkCards,
    "equipment.toml": _Equipment,
    "mods.toml": _Mods,
    "imperatives.toml": _Imperatives,
}


@dataclass
class Content:
    guards: list[GuardChip]
    captains: dict[str, CaptainCard]
    agents: list[AgentCard]
    module: ModuleCard
    network: NetworkMat
    threat_cards: dict[str, ThreatCard]
    missions: dict[str, Mission]
    dice: dict[str, list[str]]
    floors: dict[str, str] = field(default_factory=dict)  # floor id -> floor text
    keypads: list[KeypadCard] = field(default_factory=list)  # the keypad deck
    terminals: list[TerminalCard] = field(default_factory=list)  # the terminal deck
    network_cards: list[NetworkCard] = field(default_factory=list)  # the network deck
    equipment: list[EquipmentCard] = field(default_factory=list)  # the equipment deck
    mods: list[ModCard] = field(default_factory=list)  # the mod deck
    imperatives: list[ImperativeCard] = field(default_factory=list)  # the imperative deck


def locate(text: str, path: str) -> int:
    """Best line number for a msgspec error path such as `$.guard[3].patrol` or
    `$.captain[0].security_detail[1][0].level` in TOML text: table headers lead to the table, then a key's
    value is followed into its inline arrays and tables, so the line is the one holding the field."""
    lines = text.splitlines()
    pos = 0
    parts = re.findall(r"\.([A-Za-z_]\w*)(?:\[(\d+)\])?|\[(\d+)\]", path)
    prefix = ""
    for k, (name, index, _) in enumerate(parts):
        if not name:
            continue
        if index:
            header = re.compile(r"^\s*\[\[\s*" + re.escape(prefix + name) + r"\s*\]\]")
            seen = -1
            for n in range(pos, len(lines)):
                if header.match(lines[n]):
                    seen += 1
                    if seen == int(index):
                        pos = n
                        break
            else:  # no such array of tables: an inline array (`name = [...]`), followed below
                return _inline_line(text, lines, pos, parts[k:])
            prefix = ""
        else:
            key = re.compile(r"^\s*" + re.escape(name) + r"\s*=")
            table = re.compile(r"^\s*\[\s*" + re.escape(prefix + name) + r"\s*\]")
            for n in range(pos, len(lines)):
                if table.match(lines[n]):
                    pos = n
                    break
                if key.match(lines[n]):
                    return _inline_line(text, lines, n, parts[k:])
            prefix += name + "."
    return pos + 1


def _inline_line(text: str, lines: list[str], line: int, parts: list[tuple[str, str, str]]) -> int:
    """The line of the value at `parts` (the first a key on or after `line`), following inline arrays and tables
    (`key = [[{ level = 2 }]]`); the key's own line when the value is not found."""
    name = parts[0][0]
    found = re.compile(r"^\s*" + re.escape(name) + r"\s*=", re.M).search(text, sum(len(x) + 1 for x in lines[:line]))
    if found is None:
        return line + 1
    at = found.end()
    steps: list[str | int] = [int(i) for i in (parts[0][1],) if i]
    for key, index, bare in parts[1:]:
        steps += [key] if key else []
        steps += [int(n) for n in (index, bare) if n]
    for step in steps:
        next_at = _inline_step(text, at, step)
        if next_at is None:
            break
        at = next_at
    return text.count("\n", 0, at) + 1


_SPACE = re.compile(r"(?:\s|#[^\n]*)*")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'')


def _skip_value(text: str, at: int) -> int:
    """Past one inline value (a string, an array, an inline table or a bare word) starting at `at`."""
    depth = 0
    while at < len(text):
        quoted = _STRING.match(text, at)
        if quoted:
            at = quoted.end()
        elif text[at] in "[{":
            depth, at = depth + 1, at + 1
        elif text[at] in "]}":
            if depth == 0:
                return at
            depth, at = depth - 1, at + 1
        elif depth == 0 and text[at] in ",\n":
            return at
        elif text[at] == "#":
            at = _SPACE.match(text, at).end()  # type: ignore[union-attr]  # (the pattern matches the empty string)
        else:
            at += 1
    return at


def _inline_step(text: str, at: int, step: str | int) -> int | None:
    """The start of element `step` of the inline array, or of key `step`'s value in the inline table, whose
    value starts at `at` (after `=` or a separator); None when the text has no such element."""
    at = _SPACE.match(text, at).end()  # type: ignore[union-attr]
    opening = "[" if isinstance(step, int) else "{"
    if at >= len(text) or text[at] != opening:
        return None
    at += 1
    count = 0
    while True:
        at = _SPACE.match(text, at).end()  # type: ignore[union-attr]
        if at >= len(text) or text[at] in "]}":
            return None
        if isinstance(step, str):
            key = re.compile(r"(\w+)\s*=\s*").match(text, at)
            if key is None:
                return None
            if key.group(1) == step:
                return key.end()
            at = key.end()
        elif count == step:
            return at
        at = _skip_value(text, at)
        at = _SPACE.match(text, at).end()  # type: ignore[union-attr]
        if at < len(text) and text[at] == ",":
            at += 1
        count += 1


T = TypeVar("T")


def decode_file(name: str, text: str, kind: type[T]) -> T:
    """A content file decoded as `kind`; a file that breaks its type is a ContentError naming the line."""
    try:
        return msgspec.toml.decode(text.encode(), type=kind)
    except msgspec.ValidationError as e:
        path, message = describe_validation_error(e)
        line = locate(text, "$." + path) if path else 0
        where = f"{name}:{line}" if line else name
        raise ContentError(f"{where}: {path}: {message}" if path else f"{where}: {message}") from None
    except msgspec.DecodeError as e:
        raise ContentError(f"{name}: not valid TOML: {e}") from None


def check_network(mat: NetworkMat, name: str = "network.toml") -> None:
    ids = [n.id for n in mat.nodes]
    known = set(ids)
    if len(known) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise ContentError(f"{name}: node {dup!r} is listed twice")
    cores = [n for n in mat.nodes if n.kind == "core"]
    if len(cores) != 1:
        raise ContentError(f"{name}: the network needs exactly one core node, found {len(cores)}")
    for n in mat.nodes:
        for what in ("next", "outward", "inward"):
            target = getattr(n, what)
            if target is not None and target not in known:
                raise ContentError(f"{name}: node {n.id!r}: {what} = {target!r} is not a node of the mat")
        if n.kind == "access" and n.layer != 1:
            raise ContentError(f"{name}: node {n.id!r}: access points stand on layer 1")
        if n.kind != "core" and n.next is None:
            raise ContentError(f"{name}: node {n.id!r}: every ring node needs its clockwise 'next' node")
    for p in mat.start_pings:
        if p not in known:
            raise ContentError(f"{name}: start ping on {p!r}, which is not a node of the mat")


def parse_content(texts: dict[str, str]) -> Content:
    """Validate the content files given by name -> text (all of FILES must be present)."""
    missing = [n for n in FILES if n not in texts]
    if missing:
        raise ContentError(f"content is missing {', '.join(missing)}")
    guards = decode_file("guards.toml", texts["guards.toml"], _Guards)
    captains = decode_file("captains.toml", texts["captains.toml"], _Captains)
    bots = decode_file("bots.toml", texts["bots.toml"], _Bots)
    net = decode_file("network.toml", texts["network.toml"], _Network)
    threat = decode_file("threat_cards.toml", texts["threat_cards.toml"], _Threat)
    missions = decode_file("missions.toml", texts["missions.toml"], _Missions)
    dice = decode_file("dice.toml", texts["dice.toml"], _Dice)
    mat = NetworkMat(name=net.name, nodes=net.node, ping_supply=net.ping_supply,
                     ping_die=dice.dice.get("ping", []), start_pings=net.start_pings)
    check_network(mat)
    chips: list[GuardChip] = []
    for g in guards.guard:
        chips.extend(GuardChip(name=g.name, colour=g.colour, level=g.level, awareness=g.awareness,
                               movement=g.movement, patrol=g.patrol, abilities=list(g.abilities))
                     for _ in range(g.count))
    for c in captains.captain:
        if len(c.security_detail) != 3 or any(len(row) != 3 for row in c.security_detail):
            raise ContentError(f"captains.toml: {c.name}: the security detail must be 3 rows (floor levels) "
                               f"of 3 posts")
    keypads = _keypad_cards(decode_file("keypads.toml", texts["keypads.toml"], _Keypads))
    terminals = _terminal_cards(decode_file("terminals.toml", texts["terminals.toml"], _Terminals))
    content = Content(guards=chips, captains={c.name.lower(): c for c in captains.captain}, agents=bots.agent,
                   module=bots.module, network=mat, threat_cards={"standard": threat.standard,
                                                                   "simplified": threat.simplified},
                   missions={m.id: m for m in missions.mission}, dice=dice.dice)
    content.keypads, content.terminals = keypads, terminals
    cards = decode_file("network_cards.toml", texts["network_cards.toml"], _NetworkCards)
    ids = [c.id for c in cards.card]
    if len(set(ids)) != len(ids):
        raise ContentError(f"network_cards.toml: card {next(i for i in ids if ids.count(i) > 1)!r} is listed twice")
    content.network_cards = cards.card
    _check_abilities(texts, "bots.toml", "agent", [a.abilities for a in bots.agent], ABILITIES)
    _check_abilities(texts, "guards.toml", "guard", [g.abilities for g in guards.guard], SECURITY_ABILITIES)
    _check_abilities(texts, "captains.toml", "captain", [c.abilities for c in captains.captain], CAPTAIN_ABILITIES)
    _check_tasks(texts["missions.toml"], missions.mission)
    content.equipment = _equipment_cards(decode_file("equipment.toml", texts["equipment.toml"], _Equipment))
    mods = decode_file("mods.toml", texts["mods.toml"], _Mods)
    imperatives = decode_file("imperatives.toml", texts["imperatives.toml"], _Imperatives)
    content.mods = _unique("mods.toml", "mod", mods.mod)
    content.imperatives = _imperative_cards(imperatives.imperative)
    return content


def _line_after(text: str, line: int, needle: str) -> int:
    """The first line from `line` on (1-based) that holds `needle`: where a name stands in its table."""
    lines = text.splitlines()
    return next((k + 1 for k in range(max(0, line - 1), len(lines)) if needle in lines[k]), line)


def _check_abilities(texts: dict[str, str], name: str, table: str, abilities: list[list[str]],
                     known: tuple[str, ...]) -> None:
    """Ability names are code the engine runs: an unknown one would load and then do nothing."""
    for k, names in enumerate(abilities):
        for ability in names:
            if ability not in known:
                line = _line_after(texts[name], locate(texts[name], f"$.{table}[{k}].abilities"), f'"{ability}"')
                raise ContentError(f"{name}:{line}: {table}[{k}].abilities: unknown ability {ability!r}; the "
                                   f"engine knows {', '.join(known)}")


def _check_tasks(text: str, missions: list[Mission]) -> None:
    """Each objective's task is one the engine judges: a misspelt one ("termnals:2") never completes."""
    name = "missions.toml"
    for k, mission in enumerate(missions):
        start = locate(text, f"$.mission[{k}]")
        lists = [("calibrations", mission.calibrations), ("win", mission.win)]
        lists += [(f"floor_plan[{f}].objectives", step.objectives) for f, step in enumerate(mission.floor_plan)]
        for field_name, objectives in lists:
            for j, objective in enumerate(objectives):
                why = task_problem(objective.task)
                if why is not None:
                    line = _line_after(text, start, f'task = "{objective.task}"') if objective.task else start
                    raise ContentError(f"{name}:{line}: mission {mission.id}: {field_name}[{j}].task: {why}")


def _unique(name: str, what: str, cards: list) -> list:
    """Card ids name one card each (inventories, trades and discards refer to cards by id)."""
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise ContentError(f"{name}: {what} {next(i for i in ids if ids.count(i) > 1)!r} is listed twice")
    if not cards:
        raise ContentError(f"{name}: the {what} deck needs at least one card")
    return list(cards)


# effects that need a target or the action step, which a card triggering "immediately when drawn" has not
TARGETED_EFFECTS = ("stun", "unlock_door", "bonus_move", "pool_dice")


def _equipment_cards(data: _Equipment) -> list[EquipmentCard]:
    name = "equipment.toml"
    cards = _unique(name, "equipment", data.equipment)
    for card in cards:
        where = f"{name}: equipment {card.id}"
        effect = card.effect
        if (effect.kind == "reserve_chip") != (effect.chip is not None):
            raise ContentError(f"{where}: `chip` is given for reserve_chip effects and only for them")
        if (effect.kind == "pool_dice") != (effect.die is not None):
            raise ContentError(f"{where}: `die` (advanced or elite) is given for pool_dice effects and only for them")
        if (card.category == "counter") != (card.charges > 0):
            raise ContentError(f"{where}: `charges` (1-6) is given for counter cards and only for them")
        if effect.amount_from_die and card.category != "breakable":
            raise ContentError(f"{where}: only breakable cards roll the equipment die (`amount_from_die`)")
        if card.category == "discard" and effect.kind in TARGETED_EFFECTS:
            raise ContentError(f"{where}: a discard card triggers immediately when drawn, so its effect cannot be "
                               f"{effect.kind}")
        if card.die is not None:
            raise ContentError(f"{where}: `die` is the counter's state in play, not printed content")
    return cards


def _imperative_cards(cards: list[ImperativeCard]) -> list[ImperativeCard]:
    name = "imperatives.toml"
    for card in _unique(name, "imperative", cards):
        if (card.fail == "threat") != (card.threshold is not None):
            raise ContentError(f"{name}: imperative {card.id}: `threshold` is given for fail = \"threat\" and only "
                               f"for it")
    return list(cards)


def _keypad_cards(data: _Keypads) -> list[KeypadCard]:
    """Keypad cards with each floor's brute force durability ("Level 1: 4 AP / Level 2: 6 AP / Level 3: 8 AP")."""
    name = "keypads.toml"
    if len(data.brute_force) != 3:
        raise ContentError(f"{name}: brute_force must list 3 durabilities (floor levels 1-3), 1-99 AP each")
    cards: list[KeypadCard] = []
    seen: set[str] = set()
    for entry in data.keypad:
        if entry.id in seen:
            raise ContentError(f"{name}: keypad {entry.id!r} is listed twice")
        seen.add(entry.id)
        columns = []
        for level, col in enumerate((entry.floor1, entry.floor2, entry.floor3), 1):
            if not 0 <= col.dice <= 6:
                raise ContentError(f"{name}: keypad {entry.id}: floor{level}: dice must be 0-6, not {col.dice}")
            columns.append(KeypadColumn(inputs=list(col.inputs), dice=col.dice, jam=col.jam,
                                        durability=data.brute_force[level - 1]))
        cards.append(KeypadCard(id=entry.id, columns=columns))
    if not cards:
        raise ContentError(f"{name}: the keypad deck needs at least one card")
    return cards


def _terminal_cards(data: _Terminals) -> list[TerminalCard]:
    name = "terminals.toml"
    seen: set[str] = set()
    for card in data.terminal:
        if card.id in seen:
            raise ContentError(f"{name}: terminal {card.id!r} is listed twice")
        seen.add(card.id)
        if len(card.options) != TERMINAL_OPTIONS:
            raise ContentError(f"{name}: terminal {card.id}: a terminal card presents {TERMINAL_OPTIONS} options, not "
                               f"{len(card.options)}")
        for k, option in enumerate(card.options, 1):
            if (option.effect.kind == "reserve_chip") != (option.effect.chip is not None):
                raise ContentError(f"{name}: terminal {card.id}: option {k}: `chip` is given for reserve_chip "
                                   f"effects and only for them")
    if not data.terminal:
        raise ContentError(f"{name}: the terminal deck needs at least one card")
    return list(data.terminal)
