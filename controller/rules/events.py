"""Typed events: the one contract between the engine and every output.

LEDs, the dashboard, MQTT and the event log all consume these; none of them reaches into another. Each
event is a tagged msgspec Struct, so a list of them serializes to JSON with a "type" field. Events carry
ids (bots, security units, spaces, cards, nodes) and numbers, never a name or a card's text: those come
from the game's state when `controller.rules.phrasing` turns an event into an instruction for the players
("Move guard 3 from C4 to F4, facing east (patrol)."), so a name is written in one place and a log stays
small. A unit id is a security unit's (G3, CAP) or, where a field says so, a bot's (the command module in
Rescue Rangers' draw bag). `reason`, `why` and `detail` fields hold the rule's cause in words, with any
name in it as a reference (`bot_ref`, `unit_ref`, `card_ref` below) that phrasing fills in.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta, Struct

# The events' schema version (`burncycle-table schema event`): a release may add a field with a default
# without raising it; renaming or removing one, or changing what it means, raises it (docs/events.md).
EVENT_VERSION = 1


# -- names inside a reason ---------------------------------------------------------------------------------
# A reason that names a bot, a unit, a card, the mission or the captain holds a reference in braces instead
# of the name, and phrasing fills it in: "{bot:byte} struck {unit:G2}" reads "Byte struck guard 2".
MISSION_REF = "{mission}"  # the mission's name
CALIBRATION_REF = "{calibration}"  # the name of the mission's calibrations
CAPTAIN_REF = "{captain}"  # the captain card's name


def bot_ref(bot_id: str) -> str:
    return "{bot:" + bot_id + "}"


def unit_ref(unit_id: str) -> str:
    return "{unit:" + unit_id + "}"


def card_ref(deck: str, card_id: str) -> str:
    """`deck`: equipment, mod, imperative, network or terminal; the reference reads as the card's name."""
    return "{" + deck + ":" + card_id + "}"


Path = Annotated[list[str], Meta(min_length=1)]  # spaces or nodes in order, where it starts first


class Event(Struct, tag_field="type"):
    """An event; unknown fields are ignored on reading, so a log written by a later release still opens."""


# -- the corporation's turn: security units ---------------------------------------------------------------
class UnitMoved(Event, tag="unit_moved"):
    unit: str
    path: Path
    facing: str
    reason: str  # pursue, investigate, patrol, teleport, pushed


class UnitTurned(Event, tag="unit_turned"):
    unit: str
    space: str
    facing: str


class UnitStayed(Event, tag="unit_stayed"):
    unit: str
    space: str
    reason: str


class Attacked(Event, tag="attacked"):
    unit: str
    bot: str
    damage: int
    power: int
    distance: int = 1


class BotDetected(Event, tag="bot_detected"):
    """`unit` saw it; or `reason` detected it (striking, a keypad alarm ...), of `unit` when both are set."""

    bot: str
    space: str
    unit: str | None = None
    reason: str = ""


class BotHidden(Event, tag="bot_hidden"):
    bot: str
    space: str


class BotShutDown(Event, tag="bot_shut_down"):
    bot: str
    space: str


class AwarenessPlaced(Event, tag="awareness_placed"):
    bot: str
    space: str
    from_off_board: bool


class AwarenessCleared(Event, tag="awareness_cleared"):
    """Cleared by `unit` (it walked onto the chip) or for `reason` (equipment, a terminal)."""

    bot: str
    space: str
    unit: str | None = None
    reason: str = ""


class UnitStunEnded(Event, tag="unit_stun_ended"):
    unit: str


class UnitPlaced(Event, tag="unit_placed"):
    unit: str
    space: str
    facing: str


# -- the network -------------------------------------------------------------------------------------------
class PingMoved(Event, tag="ping_moved"):
    ping: str
    path: Path


class PingAdded(Event, tag="ping_added"):
    ping: str
    node: str


class PingRemoved(Event, tag="ping_removed"):
    ping: str
    node: str


class DieRolled(Event, tag="die_rolled"):
    die: str
    face: str
    why: str = ""


class Boot(Event, tag="boot"):
    agent: str
    node: str
    agent_level: int
    ceo_level: int
    winner: str  # "agent" or "ceo"


class LevelChanged(Event, tag="level_changed"):
    who: str  # "ceo" or an agent id
    old: int
    new: int


class IpMoved(Event, tag="ip_moved"):
    agent: str
    path: Path
    reason: str


class IpBanned(Event, tag="ip_banned"):
    agent: str
    node: str


# -- threat ------------------------------------------------------------------------------------------------
class ThreatChanged(Event, tag="threat_changed"):
    old: int
    new: int
    reason: str


class ThreatEventFired(Event, tag="threat_event_fired"):
    """The threat card's event `index` (0-based, as listed), at `threshold`: its text is on the card."""

    threshold: int
    index: int


class EscalationActive(Event, tag="escalation_active"):
    """The threat card's escalation `index` (0-based, as listed), from `threshold`: its text is on the card."""

    threshold: int
    index: int


class PowerChanged(Event, tag="power_changed"):
    bot: str
    old: int
    new: int
    reason: str


class Defeat(Event, tag="defeat"):
    reason: str


class PhaseStarted(Event, tag="phase_started"):
    phase: str


# -- the players' turn -------------------------------------------------------------------------------------
class TurnStarted(Event, tag="turn_started"):
    agent: str


class StepStarted(Event, tag="step_started"):
    """A step of the turn, or a table chore no other event names; `step` says which and what the rest holds:
    "actions" (the dice pool of `bot`), "move" (`ap`, `optimized`, `agent_ap` only `bot` may spend),
    "network", "end", "corporation" (`new_floor`), "skip" (`bot` is "shut down" or "gone": `reason`),
    "revived" (`bot`), "pool" (`dice` added to `bot`'s pool), "stunned" (`unit`), "calibrated"."""

    step: str
    bot: str | None = None
    unit: str | None = None
    dice: dict[str, int] = {}  # basic / advanced / elite / proprietary -> how many
    ap: int = 0
    agent_ap: int = 0
    optimized: bool = False
    new_floor: bool = False
    reason: str = ""


class SlotReached(Event, tag="slot_reached"):
    slot: int  # 1-5, as printed
    chip: str


class CaptainChipReached(Event, tag="captain_chip_reached"):
    """The tracker reaches the captain chip: the state's captain card says what it does."""


class BotMoved(Event, tag="bot_moved"):
    bot: str
    path: Path


class DoorChanged(Event, tag="door_changed"):
    door: str
    unlocked: bool
    reason: str


class WallDestroyed(Event, tag="wall_destroyed"):
    wall: str  # 'C4/C5' between two spaces, or 'A1/N' for the exterior wall on a side of a space


class CacheTaken(Event, tag="cache_taken"):
    bot: str
    space: str


class TerminalChanged(Event, tag="terminal_changed"):
    space: str
    kind: str  # "mainframe" or "discarded"


class BeadRemoved(Event, tag="bead_removed"):
    room: str
    space: str


class ChipChanged(Event, tag="chip_changed"):
    slot: int  # 1-5
    chip: str  # kind, or "none" for an emptied slot
    degraded: bool
    reason: str


class ReserveChanged(Event, tag="reserve_changed"):
    owner: str  # "team" or an agent id
    chips: list[str]


class UnitStruck(Event, tag="unit_struck"):
    unit: str
    bot: str
    ap: int
    durability: int
    result: str  # "shut down", "stunned", "no effect"


class WallHeld(Event, tag="wall_held"):
    """A strike on a wall that fell short of its durability: "No chip is placed and the bot remains undetected."."""

    wall: str  # as in wall_destroyed: 'C4/C5', or 'A1/N' for an exterior wall
    bot: str
    ap: int
    durability: int


class UnitRemoved(Event, tag="unit_removed"):
    unit: str
    space: str


class KeyTaken(Event, tag="key_taken"):
    bot: str
    keys: int  # the keys the bot holds now
    change: int = 1  # keys taken (negative: discarded, as Nano's Reassemble does)


class KeypadCardPlaced(Event, tag="keypad_card_placed"):
    door: str
    card: str
    level: int
    inputs: list[str]
    dice: int
    jam: bool


class KeypadResolved(Event, tag="keypad_resolved"):
    door: str
    card: str
    bot: str
    approach: str  # "unlock" (a keypad die), "inputs", "brute_force", "key", "abort"
    unlocked: bool
    detail: str = ""


class TerminalAccessed(Event, tag="terminal_accessed"):
    space: str
    card: str
    bot: str
    options: list[int]  # chosen, 1-3 as printed
    ap: int
    resolved: list[int]
    mainframe: bool = False


class NetworkCardDrawn(Event, tag="network_card_drawn"):
    agent: str
    card: str


class NetworkCardDone(Event, tag="network_card_done"):
    agent: str
    card: str
    completed: bool
    reason: str = ""


# -- missions ----------------------------------------------------------------------------------------------
class FloorChanged(Event, tag="floor_changed"):
    floor: str
    level: int
    number: int
    kept: dict[str, str]  # unit or bot id -> its space in the corresponding safe zone


class BotEscaped(Event, tag="bot_escaped"):
    bot: str
    space: str


class BeadPlaced(Event, tag="bead_placed"):
    """A surveilled room becomes unsurveilled again (Rescue Rangers, at the end of a round)."""

    room: str
    space: str


class UnitBagged(Event, tag="unit_bagged"):
    unit: str  # a security unit's id or the command module's bot id
    reason: str


class UnitDrawn(Event, tag="unit_drawn"):
    """A unit drawn from the draw bag onto a terminal space of the room about to be surveilled."""

    unit: str  # a security unit's id or the command module's bot id
    space: str
    facing: str | None = None  # security units only


class ObjectiveBeadPlaced(Event, tag="objective_bead_placed"):
    space: str
    why: str


class GameWon(Event, tag="game_won"):
    reason: str


# -- special characters and agent dice upgrades ---------------------------------------------------------------
class DiceUpgradeBought(Event, tag="dice_upgrade_bought"):
    bot: str
    die: str
    cost: int


class DisguiseChanged(Event, tag="disguise_changed"):
    bot: str
    chip: str  # the guard chip's name, as printed
    worn: bool
    reason: str


class JoanMoved(Event, tag="joan_moved"):
    path: Path
    reason: str


class JoanCharge(Event, tag="joan_charge"):
    charged: bool
    reason: str


class JoanStunned(Event, tag="joan_stunned"):
    unit: str
    space: str


# -- inventory: equipment, mods, imperatives ------------------------------------------------------------------
class CardDrawn(Event, tag="card_drawn"):
    bot: str
    deck: str  # "equipment", "mod" or "imperative"
    card: str


class CardDiscarded(Event, tag="card_discarded"):
    bot: str
    deck: str
    card: str
    reason: str


class CardTraded(Event, tag="card_traded"):
    bot: str
    to: str
    card: str


class ModInstalled(Event, tag="mod_installed"):
    bot: str
    card: str
    innate: bool = False


class EquipmentUsed(Event, tag="equipment_used"):
    bot: str
    card: str
    die: int | None = None  # a counter's equipment die after the use


class ImperativeResolved(Event, tag="imperative_resolved"):
    bot: str
    card: str
    completed: bool
    reason: str



class UnitCorrected(Event, tag="unit_corrected"):
    """The players put a unit where it really stands (a manual correction, which wins over the camera)."""

    unit: str
    was: str | None
    space: str
    facing: str | None


AnyEvent = (CardDrawn | CardDiscarded | CardTraded | ModInstalled | EquipmentUsed | ImperativeResolved
            | TurnStarted | StepStarted | SlotReached | CaptainChipReached | BotMoved | DoorChanged
            | WallDestroyed | WallHeld | CacheTaken | TerminalChanged | BeadRemoved | ChipChanged | ReserveChanged
            | UnitStruck | UnitRemoved | KeyTaken | GameWon | FloorChanged | BotEscaped | NetworkCardDrawn
            | NetworkCardDone | KeypadCardPlaced | KeypadResolved | TerminalAccessed | UnitMoved | UnitTurned
            | UnitStayed | Attacked | BotDetected | BotHidden | BotShutDown | AwarenessPlaced | AwarenessCleared
            | UnitStunEnded | UnitPlaced | PingMoved | PingAdded | PingRemoved | DieRolled | Boot | LevelChanged
            | IpMoved | IpBanned | ThreatChanged | ThreatEventFired | EscalationActive | PowerChanged | Defeat
            | PhaseStarted | DiceUpgradeBought | DisguiseChanged | JoanMoved | JoanCharge | JoanStunned
            | BeadPlaced | UnitBagged | UnitDrawn | ObjectiveBeadPlaced | UnitCorrected)

_list_encoder = msgspec.json.Encoder()
_list_decoder = msgspec.json.Decoder(list[AnyEvent])


def encode_events(events: list[Event]) -> bytes:
    return _list_encoder.encode(events)


def decode_events(data: bytes | str) -> list[Event]:
    """Decode a list of events; fields this release does not know are ignored, an unknown type is an error."""
    return list(_list_decoder.decode(data))
