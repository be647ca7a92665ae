"""Typed events: the one contract between the engine and every output.

LEDs, the dashboard, MQTT and the event log all consume these; none of them reaches into another. Each
event is a tagged msgspec Struct, so a list of them serializes to JSON with a "type" field, and each can
phrase itself as an instruction to the players ("Move guard 3 from C4 to F4, facing east").
"""

from __future__ import annotations

import msgspec
from msgspec import Struct

from controller.rules.board.geometry import DIRECTION_WORDS


class Event(Struct, tag_field="type", forbid_unknown_fields=True):
    def instruction(self) -> str:
        raise NotImplementedError


class UnitMoved(Event, tag="unit_moved"):
    unit: str
    who: str
    path: list[str]
    facing: str
    reason: str  # pursue, investigate, patrol, teleport

    def instruction(self) -> str:
        how = "Teleport" if self.reason == "teleport" else "Move"
        return (f"{how} {self.who} from {self.path[0]} to {self.path[-1]}, facing "
                f"{DIRECTION_WORDS[self.facing]} ({self.reason}).")


class UnitTurned(Event, tag="unit_turned"):
    unit: str
    who: str
    space: str
    facing: str

    def instruction(self) -> str:
        return f"Turn {self.who} on {self.space} to face {DIRECTION_WORDS[self.facing]}."


class UnitStayed(Event, tag="unit_stayed"):
    unit: str
    who: str
    space: str
    reason: str

    def instruction(self) -> str:
        return f"{self.who.capitalize()} stays on {self.space} ({self.reason})."


class Attacked(Event, tag="attacked"):
    unit: str
    who: str
    bot: str
    bot_name: str
    damage: int
    power: int
    distance: int = 1

    def instruction(self) -> str:
        return (f"{self.who.capitalize()} attacks {self.bot_name}: {self.bot_name} loses {self.damage} power "
                f"(now {self.power}).")


class BotDetected(Event, tag="bot_detected"):
    bot: str
    bot_name: str
    space: str
    by: str

    def instruction(self) -> str:
        return f"{self.bot_name} is detected on {self.space} by {self.by}."


class BotHidden(Event, tag="bot_hidden"):
    bot: str
    bot_name: str
    space: str

    def instruction(self) -> str:
        return f"{self.bot_name} hides on {self.space}."


class BotShutDown(Event, tag="bot_shut_down"):
    bot: str
    bot_name: str
    space: str

    def instruction(self) -> str:
        return f"{self.bot_name} is shut down on {self.space}: flip its chip."


class AwarenessPlaced(Event, tag="awareness_placed"):
    bot: str
    bot_name: str
    space: str
    from_off_board: bool

    def instruction(self) -> str:
        return f"Place {self.bot_name}'s awareness chip on {self.space}."


class AwarenessCleared(Event, tag="awareness_cleared"):
    bot: str
    bot_name: str
    space: str
    by: str

    def instruction(self) -> str:
        return f"{self.by.capitalize()} clears {self.bot_name}'s awareness chip from {self.space}: return it to the bot's mat."


class UnitStunEnded(Event, tag="unit_stun_ended"):
    unit: str
    who: str

    def instruction(self) -> str:
        return f"Flip {self.who} face up: it is no longer stunned."


class UnitPlaced(Event, tag="unit_placed"):
    unit: str
    who: str
    space: str
    facing: str

    def instruction(self) -> str:
        return f"Place {self.who} on {self.space}, facing {DIRECTION_WORDS[self.facing]}."


class PingMoved(Event, tag="ping_moved"):
    ping: str
    path: list[str]

    def instruction(self) -> str:
        return f"Move ping {self.ping} from {self.path[0]} to {self.path[-1]}."


class PingAdded(Event, tag="ping_added"):
    ping: str
    node: str

    def instruction(self) -> str:
        return f"Add ping {self.ping} to {self.node}."


class PingRemoved(Event, tag="ping_removed"):
    ping: str
    node: str

    def instruction(self) -> str:
        return f"Remove ping {self.ping} from {self.node}."


class DieRolled(Event, tag="die_rolled"):
    die: str
    face: str
    why: str = ""

    def instruction(self) -> str:
        return f"The {self.die} shows {self.face}" + (f" ({self.why})." if self.why else ".")


class Boot(Event, tag="boot"):
    agent: str
    node: str
    agent_level: int
    ceo_level: int
    winner: str  # "agent" or "ceo"
    agent_name: str = ""  # the agent's name, for the instruction (older logs: the id)

    def instruction(self) -> str:
        if self.winner == "ceo":
            return (f"Boot on {self.node}: the CEO (level {self.ceo_level}) beats {self.agent_name or self.agent}'s IP "
                    f"(level {self.agent_level}); return the IP to its access point.")
        return (f"Boot on {self.node}: {self.agent_name or self.agent}'s IP (level {self.agent_level}) beats the ping "
                f"(CEO level {self.ceo_level}); remove the ping.")


class LevelChanged(Event, tag="level_changed"):
    who: str  # "ceo" or an agent id
    old: int
    new: int
    who_name: str = ""  # the agent's name, for the instruction

    def instruction(self) -> str:
        whose = "the CEO's" if self.who == "ceo" else f"{self.who_name or self.who}'s"
        return f"Set {whose} network level to {self.new}."


class IpMoved(Event, tag="ip_moved"):
    agent: str
    path: list[str]
    reason: str
    agent_name: str = ""  # the agent's name, for the instruction (older logs: the id)

    def instruction(self) -> str:
        return f"Move {self.agent_name or self.agent}'s IP from {self.path[0]} to {self.path[-1]} ({self.reason})."


class IpBanned(Event, tag="ip_banned"):
    agent: str
    node: str
    agent_name: str = ""  # the agent's name, for the instruction (older logs: the id)

    def instruction(self) -> str:
        return f"A ping passed {self.agent_name or self.agent}'s empty access point {self.node}: remove {self.agent_name or self.agent}'s IP (banned until a reboot)."


class ThreatChanged(Event, tag="threat_changed"):
    old: int
    new: int
    reason: str

    def instruction(self) -> str:
        return f"Set threat to {self.new} (was {self.old}): {self.reason}."


class ThreatEventFired(Event, tag="threat_event_fired"):
    threshold: int
    text: str

    def instruction(self) -> str:
        return f"Threat event at {self.threshold}: {self.text}"


class EscalationActive(Event, tag="escalation_active"):
    threshold: int
    text: str

    def instruction(self) -> str:
        return f"Escalation from {self.threshold} is now active: {self.text}"


class PowerChanged(Event, tag="power_changed"):
    bot: str
    bot_name: str
    old: int
    new: int
    reason: str

    def instruction(self) -> str:
        return f"Set {self.bot_name}'s power to {self.new} ({self.reason})."


class Defeat(Event, tag="defeat"):
    reason: str

    def instruction(self) -> str:
        return f"The game is lost: {self.reason}."


class PhaseStarted(Event, tag="phase_started"):
    phase: str

    def instruction(self) -> str:
        return f"-- {self.phase} --"


class TurnStarted(Event, tag="turn_started"):
    agent: str
    agent_name: str

    def instruction(self) -> str:
        return f"{self.agent_name}'s turn: route power, then take actions along the burncycle."


class StepStarted(Event, tag="step_started"):
    step: str
    text: str

    def instruction(self) -> str:
        return self.text


class SlotReached(Event, tag="slot_reached"):
    slot: int  # 1-5, as printed
    chip: str

    def instruction(self) -> str:
        return f"Move the tracker to slot {self.slot} ({self.chip} chip)."


class CaptainChipReached(Event, tag="captain_chip_reached"):
    captain: str
    text: str

    def instruction(self) -> str:
        return f"The captain chip is reached: {self.captain}: {self.text or 'no event'}"


class BotMoved(Event, tag="bot_moved"):
    bot: str
    bot_name: str
    path: list[str]

    def instruction(self) -> str:
        return f"Move {self.bot_name} from {self.path[0]} to {self.path[-1]}."


class DoorChanged(Event, tag="door_changed"):
    door: str
    unlocked: bool
    reason: str

    def instruction(self) -> str:
        if self.unlocked:
            return f"Put an unlocked door peg in the door {self.door} ({self.reason})."
        return f"Take the unlocked door peg out of the door {self.door}: it is locked ({self.reason})."


class WallDestroyed(Event, tag="wall_destroyed"):
    wall: str  # 'C4/C5' between two spaces, or 'A1/N' for the exterior wall on a side of a space

    def instruction(self) -> str:
        space, _, side = self.wall.partition("/")
        sides = {"N": "north", "E": "east", "S": "south", "W": "west"}
        if side in sides:
            return (f"Place a destroyed wall chip on the exterior wall {sides[side]} of {space} (the opening "
                    f"leads nowhere).")
        return f"Place a destroyed wall chip on the wall {self.wall}."


class CacheTaken(Event, tag="cache_taken"):
    bot: str
    bot_name: str
    space: str

    def instruction(self) -> str:
        return f"{self.bot_name} collects the cache on {self.space}: discard the chip and draw 1 equipment card."


class TerminalChanged(Event, tag="terminal_changed"):
    space: str
    kind: str  # "mainframe" or "discarded"

    def instruction(self) -> str:
        if self.kind == "discarded":
            return f"Discard the terminal chip on {self.space}."
        return f"Flip the terminal on {self.space} to its mainframe side."


class BeadRemoved(Event, tag="bead_removed"):
    room: str
    space: str

    def instruction(self) -> str:
        return f"Remove the surveillance bead of the {self.room} (entered at {self.space}) and roll its surveillance dice."


class ChipChanged(Event, tag="chip_changed"):
    slot: int  # 1-5
    chip: str  # kind, or "none" for an emptied slot
    degraded: bool
    reason: str

    def instruction(self) -> str:
        if self.chip == "none":
            return f"Empty burncycle slot {self.slot} ({self.reason})."
        face = "degraded" if self.degraded else "active"
        return f"Burncycle slot {self.slot}: {self.chip} chip, {face} face up ({self.reason})."


class ReserveChanged(Event, tag="reserve_changed"):
    owner: str  # "team" or an agent id
    chips: list[str]

    def instruction(self) -> str:
        whose = "The team reserve" if self.owner == "team" else f"{self.owner}'s personal reserve"
        return f"{whose} now holds: {', '.join(self.chips) or 'nothing'}."


class UnitStruck(Event, tag="unit_struck"):
    unit: str
    who: str
    bot_name: str
    ap: int
    durability: int
    result: str  # "shut down", "stunned", "no effect"

    def instruction(self) -> str:
        return f"{self.bot_name} strikes {self.who} with {self.ap} AP against durability {self.durability}: {self.result}."


class WallHeld(Event, tag="wall_held"):
    """A strike on a wall that fell short of its durability: "No chip is placed and the bot remains undetected."."""

    wall: str
    bot: str
    bot_name: str
    ap: int
    durability: int

    def instruction(self) -> str:
        return (f"{self.bot_name} strikes the wall {self.wall} with {self.ap} AP against durability "
                f"{self.durability}: the wall holds; no chip is placed and {self.bot_name} stays undetected.")


class UnitRemoved(Event, tag="unit_removed"):
    unit: str
    who: str
    space: str

    def instruction(self) -> str:
        return f"Discard {self.who} from {self.space}: it is shut down."


class KeyTaken(Event, tag="key_taken"):
    bot: str
    bot_name: str
    keys: int  # the keys the bot holds now
    change: int = 1  # keys taken (negative: discarded, as Nano's Reassemble does)

    def instruction(self) -> str:
        n = abs(self.change)
        what = "a key" if n == 1 else f"{n} keys"
        verb = "takes" if self.change > 0 else "discards"
        return f"{self.bot_name} {verb} {what} (now {self.keys})."


class KeypadCardPlaced(Event, tag="keypad_card_placed"):
    door: str
    card: str
    level: int
    inputs: list[str]
    dice: int
    jam: bool

    def instruction(self) -> str:
        shown = ", ".join(self.inputs) or "no inputs"
        return (f"Draw keypad card {self.card} and place it faceup by the door {self.door}: floor {self.level} "
                f"column shows {shown}, {self.dice} keypad {'die' if self.dice == 1 else 'dice'}"
                + (", Jam." if self.jam else "."))


class KeypadResolved(Event, tag="keypad_resolved"):
    door: str
    card: str
    bot: str
    bot_name: str
    approach: str  # "unlock" (a keypad die), "inputs", "brute_force", "key", "abort"
    unlocked: bool
    detail: str = ""

    def instruction(self) -> str:
        if self.unlocked:
            return (f"{self.bot_name} opens the door {self.door} ({self.approach.replace('_', ' ')}"
                    + (f": {self.detail}" if self.detail else "") + f"): discard keypad card {self.card}.")
        return (f"The door {self.door} stays locked" + (f" ({self.detail})" if self.detail else "")
                + f": leave keypad card {self.card} faceup by the door.")


class TerminalAccessed(Event, tag="terminal_accessed"):
    space: str
    card: str
    name: str
    bot: str
    bot_name: str
    options: list[int]  # chosen, 1-3 as printed
    ap: int
    resolved: list[int]
    mainframe: bool = False

    def instruction(self) -> str:
        done = ", ".join(str(k) for k in self.resolved) or "none"
        return (f"{self.bot_name} accesses the {'mainframe ' if self.mainframe else ''}terminal on {self.space}: "
                f"card {self.card} ({self.name}), options {', '.join(map(str, self.options))} chosen, {self.ap} AP; "
                f"resolved: {done}. Discard the card and the terminal chip.")


class NetworkCardDrawn(Event, tag="network_card_drawn"):
    agent: str
    card: str
    name: str
    text: str
    agent_name: str = ""  # the agent's name, for the instruction (older logs: the id)

    def instruction(self) -> str:
        return f"{self.agent_name or self.agent} draws network card {self.card} ({self.name}: {self.text})"


class NetworkCardDone(Event, tag="network_card_done"):
    agent: str
    card: str
    name: str
    completed: bool
    reason: str = ""
    agent_name: str = ""  # the agent's name, for the instruction (older logs: the id)

    def instruction(self) -> str:
        if self.completed:
            return f"{self.agent_name or self.agent} completes network card {self.card} ({self.name}): discard it."
        return f"Discard {self.agent_name or self.agent}'s network card {self.card} ({self.name}): {self.reason}."


class FloorChanged(Event, tag="floor_changed"):
    floor: str
    level: int
    number: int
    kept: dict[str, str]  # unit or bot id -> its space in the corresponding safe zone

    def instruction(self) -> str:
        where = ", ".join(f"{who} on {space}" for who, space in self.kept.items())
        return (f"Floor {self.number}: clear the board and set up {self.floor} (level {self.level}); unlocked "
                f"safe zone doors stay unlocked; place {where} in the corresponding safe zones.")


class BotEscaped(Event, tag="bot_escaped"):
    bot: str
    bot_name: str
    space: str

    def instruction(self) -> str:
        return f"{self.bot_name} escapes from {self.space}: take it off the board."
# -- Adaptable missions ---------------------------------------------------------------------------------------
class BeadPlaced(Event, tag="bead_placed"):
    """A surveilled room becomes unsurveilled again (Rescue Rangers, at the end of a round)."""

    room: str
    space: str

    def instruction(self) -> str:
        return f"Place a surveillance bead in the {self.room} (at {self.space}): it is unsurveilled again."


class UnitBagged(Event, tag="unit_bagged"):
    who: str
    reason: str

    def instruction(self) -> str:
        return f"Put {self.who} into the draw bag ({self.reason})."


class UnitDrawn(Event, tag="unit_drawn"):
    """A unit drawn from the draw bag onto a terminal space of the room about to be surveilled."""

    who: str
    space: str
    facing: str | None = None  # security units only

    def instruction(self) -> str:
        facing = f", facing {DIRECTION_WORDS[self.facing]}" if self.facing else ""
        return f"Draw from the draw bag: place {self.who} on the terminal space {self.space}{facing}."


class ObjectiveBeadPlaced(Event, tag="objective_bead_placed"):
    space: str
    why: str

    def instruction(self) -> str:
        return f"Place an objective bead on {self.space} ({self.why})."


class GameWon(Event, tag="game_won"):
    reason: str

    def instruction(self) -> str:
        return f"The mission is won: {self.reason}!"


# -- special characters and agent dice upgrades ---------------------------------------------------------------
class DiceUpgradeBought(Event, tag="dice_upgrade_bought"):
    bot: str
    bot_name: str
    die: str
    cost: int

    def instruction(self) -> str:
        return (f"{self.bot_name} activates an upgrade for {self.cost} power: from now on 1 more {self.die} die "
                f"in the pool.")


class DisguiseChanged(Event, tag="disguise_changed"):
    bot: str
    bot_name: str
    chip: str
    worn: bool
    reason: str

    def instruction(self) -> str:
        if self.worn:
            return f"Put the {self.chip} guard chip on {self.bot_name}: disguised as a guard ({self.reason})."
        return f"Discard the {self.chip} guard chip from {self.bot_name}: the disguise is lost ({self.reason})."


class JoanMoved(Event, tag="joan_moved"):
    path: list[str]
    reason: str

    def instruction(self) -> str:
        return f"Move Joan the drone from {self.path[0]} to {self.path[-1]} ({self.reason})."


class JoanCharge(Event, tag="joan_charge"):
    charged: bool
    reason: str

    def instruction(self) -> str:
        return f"Flip Joan to her {'charged' if self.charged else 'depleted'} side ({self.reason})."


class JoanStunned(Event, tag="joan_stunned"):
    unit: str
    who: str
    space: str

    def instruction(self) -> str:
        return f"Joan stuns {self.who} on {self.space}: flip its chip to the stunned side."


# -- inventory: equipment, mods, imperatives ------------------------------------------------------------------
DECK_WORDS = {"equipment": "equipment card", "mod": "mod", "imperative": "imperative card"}


class CardDrawn(Event, tag="card_drawn"):
    bot: str
    bot_name: str
    deck: str  # "equipment", "mod" or "imperative"
    card: str
    name: str
    text: str

    def instruction(self) -> str:
        return f"{self.bot_name} draws {DECK_WORDS[self.deck]} {self.card} ({self.name}: {self.text})"


class CardDiscarded(Event, tag="card_discarded"):
    bot: str
    bot_name: str
    deck: str
    card: str
    name: str
    reason: str

    def instruction(self) -> str:
        return f"Discard {self.bot_name}'s {DECK_WORDS[self.deck]} {self.card} ({self.name}): {self.reason}."


class CardTraded(Event, tag="card_traded"):
    bot: str
    bot_name: str
    to: str
    to_name: str
    card: str
    name: str

    def instruction(self) -> str:
        return f"{self.bot_name} hands {self.card} ({self.name}) to {self.to_name}."


class ModInstalled(Event, tag="mod_installed"):
    bot: str
    bot_name: str
    card: str
    name: str
    innate: bool = False

    def instruction(self) -> str:
        how = " as its innate mod" if self.innate else ""
        return f"{self.bot_name} installs mod {self.card} ({self.name}){how}: turn the card upright."


class EquipmentUsed(Event, tag="equipment_used"):
    bot: str
    bot_name: str
    card: str
    name: str
    text: str
    die: int | None = None  # a counter's equipment die after the use

    def instruction(self) -> str:
        left = f" Turn its equipment die to {self.die}." if self.die is not None else ""
        return f"{self.bot_name} uses {self.card} ({self.name}): {self.text}{left}"


class ImperativeResolved(Event, tag="imperative_resolved"):
    bot: str
    bot_name: str
    card: str
    name: str
    completed: bool
    reason: str

    def instruction(self) -> str:
        what = "completes" if self.completed else "fails"
        return f"{self.bot_name} {what} imperative {self.card} ({self.name}): {self.reason}. Discard it."


AnyEvent = (CardDrawn | CardDiscarded | CardTraded | ModInstalled | EquipmentUsed | ImperativeResolved |
            TurnStarted | StepStarted | SlotReached | CaptainChipReached | BotMoved | DoorChanged
            | WallDestroyed | WallHeld | CacheTaken | TerminalChanged | BeadRemoved | ChipChanged | ReserveChanged
            | UnitStruck | UnitRemoved | KeyTaken | GameWon | FloorChanged | BotEscaped | NetworkCardDrawn | NetworkCardDone | KeypadCardPlaced | KeypadResolved | TerminalAccessed | UnitMoved | UnitTurned | UnitStayed | Attacked | BotDetected | BotHidden | BotShutDown
            | AwarenessPlaced | AwarenessCleared | UnitStunEnded | UnitPlaced | PingMoved | PingAdded
            | PingRemoved | DieRolled | Boot | LevelChanged | IpMoved | IpBanned | ThreatChanged
            | ThreatEventFired | EscalationActive | PowerChanged | Defeat | PhaseStarted
            | DiceUpgradeBought | DisguiseChanged | JoanMoved | JoanCharge | JoanStunned
            | BeadPlaced | UnitBagged | UnitDrawn | ObjectiveBeadPlaced)

_list_encoder = msgspec.json.Encoder()
_list_decoder = msgspec.json.Decoder(list[AnyEvent])


def encode_events(events: list[Event]) -> bytes:
    return _list_encoder.encode(events)


def decode_events(data: bytes | str) -> list[Event]:
    return _list_decoder.decode(data)
