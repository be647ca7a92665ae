"""Words for people: one place that turns an event into an instruction for the players.

Events hold ids and numbers (controller/rules/events.py); the names of bots and units, the names and texts
of cards, the threat card's events and the captain's chip come from a state of the same game. Give the
state after the events (the one the engine returned with them): a card drawn is then in a hand, a card
spent in a discard pile, a unit shut down is named from its id. What the state does not hold (a log read
against another game) is phrased with the ids rather than refused, so a log always reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from controller.rules import events as ev
from controller.rules.action_types import Action
from controller.rules.board.geometry import DIRECTION_WORDS
from controller.rules.state import GameState

CAPTAIN = "CAP"  # the captain's unit id (corporation/deploy.py)
DECK_WORDS = {"equipment": "equipment card", "mod": "mod", "imperative": "imperative card"}


# how an action is named where its tag does not read as words ("Nano's network step")
ACTION_WORDS = {"end_turn": "end of turn", "degrade": "burncycle degrade", "network_card": "network card action",
                "joan_surveil": "surveillance by Joan", "joan_stun": "stun by Joan", "use_equipment": "equipment",
                "strike_wall": "strike on a wall", "step": "step", "keypad": "keypad action",
                "terminal": "terminal action"}


def action_purpose(state: GameState, action: Action) -> str:
    """"Nano's network step", "the corporation's turn": what the dice an action reads are for, in the state it
    is applied to (for a read the action did not announce with a purpose of its own)."""
    tag = action.__struct_config__.tag
    if tag == "corporation_turn":
        return "the corporation's turn"
    words = ACTION_WORDS.get(str(tag), str(tag).replace("_", " "))
    return f"{bot_name(state, state.turn.order[state.turn.active])}'s {words}"


def phrase(event: ev.Event, state: GameState) -> str:
    """The instruction the players read for one event ("Move guard 3 from K4 to H4, facing west (patrol).")."""
    return _fill(_PHRASES[type(event)](event, state), state)


# -- names ---------------------------------------------------------------------------------------------------
def bot_name(state: GameState, bot_id: str) -> str:
    """A bot's name (its id when the state has no such bot)."""
    return next((b.name for b in state.bots if b.id == bot_id), bot_id)


def unit_name(state: GameState, unit_id: str) -> str:
    """A security unit as the players call it: "guard 3", "the captain (Fauxbia)"; a bot id by its name (the
    command module in the draw bag)."""
    if unit_id == CAPTAIN:
        return f"the captain ({state.captain.name})"
    if any(b.id == unit_id for b in state.bots):
        return bot_name(state, unit_id)
    return f"guard {unit_id[1:]}"


def _cards(state: GameState, deck: str) -> Iterable:
    """Every card of one deck wherever it lies in the state: undrawn, held, in play or discarded."""
    if deck == "equipment":
        yield from state.equipment_deck
        yield from state.equipment_discard
        for b in state.bots:
            yield from b.equipment
    elif deck == "mod":
        yield from state.mod_deck
        yield from state.mod_discard
        for b in state.bots:
            yield from b.mods
            yield from b.installed
            if b.innate is not None:
                yield b.innate
    elif deck == "imperative":
        yield from state.imperative_deck
        yield from state.imperative_discard
        yield from (b.imperative for b in state.bots if b.imperative is not None)
    elif deck == "network":
        yield from state.network_deck
        yield from state.network_discard
        for hand in state.network_hands.values():
            yield from hand
    elif deck == "terminal":
        yield from state.terminal_deck
        yield from state.terminal_discard


def _card(state: GameState, deck: str, card_id: str):
    return next((c for c in _cards(state, deck) if c.id == card_id), None)


def _titled(state: GameState, deck: str, card_id: str) -> str:
    """'E05 (Flash charge)', or the bare id when the card is not in the state."""
    card = _card(state, deck, card_id)
    return f"{card_id} ({card.name})" if card is not None else card_id


def _with_text(state: GameState, deck: str, card_id: str) -> str:
    """'N05 (Escalate privileges: Raise your IP's network level by 1.)'."""
    card = _card(state, deck, card_id)
    return f"{card_id} ({card.name}: {card.text})" if card is not None else card_id


_REFERENCE = re.compile(r"\{(bot|unit|equipment|mod|imperative|network|terminal):([^{}:]+)\}"
                        r"|\{(mission|calibration|captain)\}")


def _fill(words: str, state: GameState) -> str:
    """Names for the references a reason holds (events.bot_ref and the like): "{bot:byte} struck {unit:G2}"
    reads "Byte struck guard 2"; a card reads as its name, its id when the state does not hold it."""
    def name(match: re.Match[str]) -> str:
        kind, key, whole = match.groups()
        if whole == "mission":
            return state.mission.name
        if whole == "calibration":
            return state.mission.calibration_name
        if whole == "captain":
            return state.captain.name
        if kind == "bot":
            return bot_name(state, key)
        if kind == "unit":
            return unit_name(state, key)
        card = _card(state, kind, key)
        return card.name if card is not None else key
    return _REFERENCE.sub(name, words) if "{" in words else words


def _threat_text(state: GameState, events: list, index: int, threshold: int) -> str | None:
    if 0 <= index < len(events) and events[index].threshold == threshold:
        return events[index].text
    return None


# -- one function per event ------------------------------------------------------------------------------------
def _unit_moved(e: ev.UnitMoved, s: GameState) -> str:
    how = "Teleport" if e.reason == "teleport" else "Move"
    return (f"{how} {unit_name(s, e.unit)} from {e.path[0]} to {e.path[-1]}, facing "
            f"{_facing(e.facing)} ({e.reason}).")


def _upper(words: str) -> str:
    """The first letter upper case, the rest as written ("The captain (Fauxbia)", not str.capitalize's
    "The captain (fauxbia)")."""
    return words[:1].upper() + words[1:]


def _facing(direction: str) -> str:
    return DIRECTION_WORDS.get(direction, direction)


def _by(s: GameState, unit: str | None, reason: str) -> str:
    """Who or what detected or cleared: "guard 2", "striking guard 2", "a boot on the network"."""
    if unit is None:
        return reason
    return f"{reason} {unit_name(s, unit)}" if reason else unit_name(s, unit)


def _skip(e: ev.StepStarted, s: GameState) -> str:
    return f"{bot_name(s, e.bot or '')} is {e.reason}: the turn passes."


def _pool(e: ev.StepStarted, s: GameState) -> str:
    own = ""
    if e.dice.get("proprietary"):
        die = next((b.proprietary_die for b in s.bots if b.id == e.bot), None) or "proprietary"
        own = f", 1 {die} die"
    return (f"{bot_name(s, e.bot or '')}'s dice pool: {e.dice.get('basic', 0)} basic, {e.dice.get('advanced', 0)} "
            f"advanced, {e.dice.get('elite', 0)} elite{own}.")


def _move(e: ev.StepStarted, s: GameState) -> str:
    bonus = " (optimized, +2)" if e.optimized else ""
    only = ""
    if e.agent_ap:
        die = next((b.proprietary_die for b in s.bots if b.id == e.bot), None) or "proprietary"
        only = f" and {e.agent_ap} AP only {bot_name(s, e.bot or '')} may spend ({die} die)"
    return f"Move action: {e.ap} AP to spend{bonus}{only}."


def _added_dice(e: ev.StepStarted, s: GameState) -> str:
    added = ", ".join(f"{amount} {die} {'die' if amount == 1 else 'dice'}" for die, amount in e.dice.items())
    return f"Add {added or 'no dice'} to {bot_name(s, e.bot or '')}'s pool."


def _calibrated(e: ev.StepStarted, s: GameState) -> str:
    mission = s.mission
    text = f"Calibrations complete ({mission.calibration_name})"
    return text + (f": {mission.calibration_result}" if mission.calibration_result else ".")


_STEPS: dict[str, Callable[[ev.StepStarted, GameState], str]] = {
    "actions": _pool,
    "move": _move,
    "skip": _skip,
    "network": lambda e, s: "Network step: move your IP along the burncycle's chips.",
    "end": lambda e, s: "End of the turn: degrade the burncycle.",
    "corporation": lambda e, s: "The corporation's turn (on the new floor)." if e.new_floor
    else "The corporation's turn.",
    "revived": lambda e, s: f"Flip {bot_name(s, e.bot or '')} face up: it is repaired and active.",
    "pool": _added_dice,
    "stunned": lambda e, s: f"Flip {unit_name(s, e.unit or '')} face down: it is stunned.",
    "calibrated": _calibrated,
}


def _step(e: ev.StepStarted, s: GameState) -> str:
    return _STEPS[e.step](e, s) if e.step in _STEPS else _heading(e.step)


def _heading(part: str) -> str:
    """A part of the game the lines after it belong to, as a heading in words (a player's page shows no
    separator lines such as "-- security activation --")."""
    return f"{part[:1].upper()}{part[1:]}:"


def _boot(e: ev.Boot, s: GameState) -> str:
    who = bot_name(s, e.agent)
    if e.winner == "ceo":
        return (f"Boot on {e.node}: the CEO (level {e.ceo_level}) beats {who}'s IP (level {e.agent_level}); "
                f"return the IP to its access point.")
    return (f"Boot on {e.node}: {who}'s IP (level {e.agent_level}) beats the ping (CEO level {e.ceo_level}); "
            f"remove the ping.")


def _threat_event(e: ev.ThreatEventFired, s: GameState) -> str:
    text = _threat_text(s, s.threat_card.events, e.index, e.threshold)
    return f"Threat event at {e.threshold}: {text}" if text is not None else f"Threat event at {e.threshold}."


def _escalation(e: ev.EscalationActive, s: GameState) -> str:
    text = _threat_text(s, s.threat_card.escalations, e.index, e.threshold)
    return (f"Escalation from {e.threshold} is now active: {text}" if text is not None
            else f"Escalation from {e.threshold} is now active.")


def _door(e: ev.DoorChanged, s: GameState) -> str:
    if e.unlocked:
        return f"Put an unlocked door peg in the door {e.door} ({e.reason})."
    return f"Take the unlocked door peg out of the door {e.door}: it is locked ({e.reason})."


def _wall(e: ev.WallDestroyed, s: GameState) -> str:
    space, _, side = e.wall.partition("/")
    if side in DIRECTION_WORDS:
        return (f"Place a destroyed wall chip on the exterior wall {DIRECTION_WORDS[side]} of {space} (the opening "
                f"leads nowhere).")
    return f"Place a destroyed wall chip on the wall {e.wall}."


def _wall_held(e: ev.WallHeld, s: GameState) -> str:
    space, _, side = e.wall.partition("/")
    wall = f"the exterior wall {DIRECTION_WORDS[side]} of {space}" if side in DIRECTION_WORDS else f"the wall {e.wall}"
    who = bot_name(s, e.bot)
    return (f"{who} strikes {wall} with {e.ap} AP against durability {e.durability}: the wall holds; no chip is "
            f"placed and {who} stays undetected.")


def _keys(e: ev.KeyTaken, s: GameState) -> str:
    n = abs(e.change)
    what = "a key" if n == 1 else f"{n} keys"
    verb = "takes" if e.change > 0 else "discards"
    return f"{bot_name(s, e.bot)} {verb} {what} (now {e.keys})."


def _chip(e: ev.ChipChanged, s: GameState) -> str:
    if e.chip == "none":
        return f"Empty burncycle slot {e.slot} ({e.reason})."
    face = "degraded" if e.degraded else "active"
    return f"Burncycle slot {e.slot}: {e.chip} chip, {face} face up ({e.reason})."


def _reserve(e: ev.ReserveChanged, s: GameState) -> str:
    whose = "The team reserve" if e.owner == "team" else f"{bot_name(s, e.owner)}'s personal reserve"
    return f"{whose} now holds: {', '.join(e.chips) or 'nothing'}."


def _keypad_placed(e: ev.KeypadCardPlaced, s: GameState) -> str:
    shown = ", ".join(e.inputs) or "no inputs"
    return (f"Draw keypad card {e.card} and place it faceup by the door {e.door}: floor {e.level} column shows "
            f"{shown}, {e.dice} keypad {'die' if e.dice == 1 else 'dice'}" + (", Jam." if e.jam else "."))


def _keypad_resolved(e: ev.KeypadResolved, s: GameState) -> str:
    if e.unlocked:
        return (f"{bot_name(s, e.bot)} opens the door {e.door} ({e.approach.replace('_', ' ')}"
                + (f": {e.detail}" if e.detail else "") + f"): discard keypad card {e.card}.")
    return (f"The door {e.door} stays locked" + (f" ({e.detail})" if e.detail else "")
            + f": leave keypad card {e.card} faceup by the door.")


def _terminal(e: ev.TerminalAccessed, s: GameState) -> str:
    done = ", ".join(str(k) for k in e.resolved) or "none"
    return (f"{bot_name(s, e.bot)} accesses the {'mainframe ' if e.mainframe else ''}terminal on {e.space}: "
            f"card {_titled(s, 'terminal', e.card)}, options {', '.join(map(str, e.options))} chosen, {e.ap} AP; "
            f"resolved: {done}. Discard the card and the terminal chip.")


def _network_done(e: ev.NetworkCardDone, s: GameState) -> str:
    who, card = bot_name(s, e.agent), _titled(s, "network", e.card)
    if e.completed:
        return f"{who} completes network card {card}: discard it."
    return f"Discard {who}'s network card {card}: {e.reason}."


def _floor_changed(e: ev.FloorChanged, s: GameState) -> str:
    where = ", ".join(f"{unit_name(s, who)} on {space}" for who, space in e.kept.items())
    return (f"Floor {e.number}: clear the board and set up {e.floor} (level {e.level}); unlocked safe zone doors "
            f"stay unlocked; place {where} in the corresponding safe zones.")


def _disguise(e: ev.DisguiseChanged, s: GameState) -> str:
    who = bot_name(s, e.bot)
    if e.worn:
        return f"Put the {e.chip} guard chip on {who}: disguised as a guard ({e.reason})."
    return f"Discard the {e.chip} guard chip from {who}: the disguise is lost ({e.reason})."


def _equipment_used(e: ev.EquipmentUsed, s: GameState) -> str:
    left = f" Turn its equipment die to {e.die}." if e.die is not None else ""
    card = _card(s, "equipment", e.card)
    what = f"{e.card} ({card.name}): {card.text}" if card is not None else f"{e.card}."
    return f"{bot_name(s, e.bot)} uses {what}{left}"


def _unit_drawn(e: ev.UnitDrawn, s: GameState) -> str:
    facing = f", facing {_facing(e.facing)}" if e.facing else ""
    return f"Draw from the draw bag: place {unit_name(s, e.unit)} on the terminal space {e.space}{facing}."


def _traded(e: ev.CardTraded, s: GameState) -> str:
    deck = "equipment" if _card(s, "equipment", e.card) is not None else "mod"  # a trade hands either
    return f"{bot_name(s, e.bot)} hands {_titled(s, deck, e.card)} to {bot_name(s, e.to)}."


def _mod_installed(e: ev.ModInstalled, s: GameState) -> str:
    how = " as its innate mod" if e.innate else ""
    return f"{bot_name(s, e.bot)} installs mod {_titled(s, 'mod', e.card)}{how}: turn the card upright."


def _imperative(e: ev.ImperativeResolved, s: GameState) -> str:
    what = "completes" if e.completed else "fails"
    return f"{bot_name(s, e.bot)} {what} imperative {_titled(s, 'imperative', e.card)}: {e.reason}. Discard it."


_PHRASES: dict[type, Callable] = {
    ev.UnitMoved: _unit_moved,
    ev.UnitTurned: lambda e, s: f"Turn {unit_name(s, e.unit)} on {e.space} to face {_facing(e.facing)}.",
    ev.UnitStayed: lambda e, s: f"{_upper(unit_name(s, e.unit))} stays on {e.space} ({e.reason}).",
    ev.Attacked: lambda e, s: (f"{_upper(unit_name(s, e.unit))} attacks {bot_name(s, e.bot)}: "
                               f"{bot_name(s, e.bot)} loses {e.damage} power (now {e.power})."),
    ev.BotDetected: lambda e, s: (f"{bot_name(s, e.bot)} is detected on {e.space} by "
                                  f"{_by(s, e.unit, e.reason)}."),
    ev.BotHidden: lambda e, s: f"{bot_name(s, e.bot)} hides on {e.space}.",
    ev.BotShutDown: lambda e, s: f"{bot_name(s, e.bot)} is shut down on {e.space}: flip its chip.",
    ev.AwarenessPlaced: lambda e, s: f"Place {bot_name(s, e.bot)}'s awareness chip on {e.space}.",
    ev.AwarenessCleared: lambda e, s: (f"{_upper(_by(s, e.unit, e.reason))} clears {bot_name(s, e.bot)}'s "
                                       f"awareness chip from {e.space}: return it to the bot's mat."),
    ev.UnitStunEnded: lambda e, s: f"Flip {unit_name(s, e.unit)} face up: it is no longer stunned.",
    ev.UnitPlaced: lambda e, s: (f"Place {unit_name(s, e.unit)} on {e.space}, facing "
                                 f"{_facing(e.facing)}."),
    ev.PingMoved: lambda e, s: f"Move ping {e.ping} from {e.path[0]} to {e.path[-1]}.",
    ev.PingAdded: lambda e, s: f"Add ping {e.ping} to {e.node}.",
    ev.PingRemoved: lambda e, s: f"Remove ping {e.ping} from {e.node}.",
    ev.DieRolled: lambda e, s: f"The {e.die} shows {e.face}" + (f" ({e.why})." if e.why else "."),
    ev.Boot: _boot,
    ev.LevelChanged: lambda e, s: ("Set the CEO's" if e.who == "ceo" else f"Set {bot_name(s, e.who)}'s")
    + f" network level to {e.new}.",
    ev.IpMoved: lambda e, s: (f"Move {bot_name(s, e.agent)}'s IP from {e.path[0]} to {e.path[-1]} "
                              f"({e.reason})."),
    ev.IpBanned: lambda e, s: (f"A ping passed {bot_name(s, e.agent)}'s empty access point {e.node}: remove "
                               f"{bot_name(s, e.agent)}'s IP (banned until a reboot)."),
    ev.ThreatChanged: lambda e, s: f"Set threat to {e.new} (was {e.old}): {e.reason}.",
    ev.ThreatEventFired: _threat_event,
    ev.EscalationActive: _escalation,
    ev.PowerChanged: lambda e, s: f"Set {bot_name(s, e.bot)}'s power to {e.new} ({e.reason}).",
    ev.Defeat: lambda e, s: f"The game is lost: {e.reason}.",
    ev.PhaseStarted: lambda e, s: _heading(e.phase),
    ev.TurnStarted: lambda e, s: (f"{bot_name(s, e.agent)}'s turn: route power, then take actions along the "
                                  f"burncycle."),
    ev.StepStarted: _step,
    ev.SlotReached: lambda e, s: f"Move the tracker to slot {e.slot} ({e.chip} chip).",
    ev.CaptainChipReached: lambda e, s: (f"The captain chip is reached: {s.captain.name}: "
                                         f"{s.captain.burncycle_action or 'no event'}"),
    ev.BotMoved: lambda e, s: f"Move {bot_name(s, e.bot)} from {e.path[0]} to {e.path[-1]}.",
    ev.UnitCorrected: lambda e, s: (f"Corrected by the players: {unit_name(s, e.unit)} stands on {e.space}"
                                    + (f", facing {_facing(e.facing)}." if e.facing else ".")),
    ev.DoorChanged: _door,
    ev.WallDestroyed: _wall,
    ev.WallHeld: _wall_held,
    ev.CacheTaken: lambda e, s: (f"{bot_name(s, e.bot)} collects the cache on {e.space}: discard the chip and "
                                 f"draw 1 equipment card."),
    ev.TerminalChanged: lambda e, s: (f"Discard the terminal chip on {e.space}." if e.kind == "discarded"
                                      else f"Flip the terminal on {e.space} to its mainframe side."),
    ev.BeadRemoved: lambda e, s: (f"Remove the surveillance bead of the {e.room} (entered at {e.space}) and roll "
                                  f"its surveillance dice."),
    ev.ChipChanged: _chip,
    ev.ReserveChanged: _reserve,
    ev.UnitStruck: lambda e, s: (f"{bot_name(s, e.bot)} strikes {unit_name(s, e.unit)} with {e.ap} AP against "
                                 f"durability {e.durability}: {e.result}."),
    ev.UnitRemoved: lambda e, s: f"Discard {unit_name(s, e.unit)} from {e.space}: it is shut down.",
    ev.KeyTaken: _keys,
    ev.KeypadCardPlaced: _keypad_placed,
    ev.KeypadResolved: _keypad_resolved,
    ev.TerminalAccessed: _terminal,
    ev.NetworkCardDrawn: lambda e, s: (f"{bot_name(s, e.agent)} draws network card "
                                       f"{_with_text(s, 'network', e.card)}"),
    ev.NetworkCardDone: _network_done,
    ev.FloorChanged: _floor_changed,
    ev.BotEscaped: lambda e, s: f"{bot_name(s, e.bot)} escapes from {e.space}: take it off the board.",
    ev.BeadPlaced: lambda e, s: (f"Place a surveillance bead in the {e.room} (at {e.space}): it is unsurveilled "
                                 f"again."),
    ev.UnitBagged: lambda e, s: f"Put {unit_name(s, e.unit)} into the draw bag ({e.reason}).",
    ev.UnitDrawn: _unit_drawn,
    ev.ObjectiveBeadPlaced: lambda e, s: f"Place an objective bead on {e.space} ({e.why}).",
    ev.GameWon: lambda e, s: f"The mission is won: {e.reason}!",
    ev.DiceUpgradeBought: lambda e, s: (f"{bot_name(s, e.bot)} activates an upgrade for {e.cost} power: from now "
                                        f"on 1 more {e.die} die in the pool."),
    ev.DisguiseChanged: _disguise,
    ev.JoanMoved: lambda e, s: f"Move Joan the drone from {e.path[0]} to {e.path[-1]} ({e.reason}).",
    ev.JoanCharge: lambda e, s: (f"Flip Joan to her {'charged' if e.charged else 'depleted'} side "
                                 f"({e.reason})."),
    ev.JoanStunned: lambda e, s: f"Joan stuns {unit_name(s, e.unit)} on {e.space}: flip its chip to the stunned side.",
    ev.CardDrawn: lambda e, s: (f"{bot_name(s, e.bot)} draws {DECK_WORDS.get(e.deck, e.deck)} "
                                f"{_with_text(s, e.deck, e.card)}"),
    ev.CardDiscarded: lambda e, s: (f"Discard {bot_name(s, e.bot)}'s {DECK_WORDS.get(e.deck, e.deck)} "
                                    f"{_titled(s, e.deck, e.card)}: {e.reason}."),
    ev.CardTraded: _traded,
    ev.ModInstalled: _mod_installed,
    ev.EquipmentUsed: _equipment_used,
    ev.ImperativeResolved: _imperative,
}
