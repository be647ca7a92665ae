"""Phrasing: events hold ids and numbers; `phrase(event, state)` gives the words the players read.

The expected sentences are the ones the engine printed when events still carried their own display strings
(taken before the split), for the event types the golden narrations (test_phrasing_golden.py) never meet.
"""

from __future__ import annotations

import typing

import pytest
from msgspec import inspect as mi

from controller.autoplay.player import play
from controller.cli import main
from controller.rules import decode_state, encode_events, phrase
from controller.rules import events as ev
from controller.rules.phrasing import unit_name


@pytest.fixture(scope="module")
def state(tmp_path_factory):
    path = tmp_path_factory.mktemp("phrasing") / "state.json"
    assert main(["new-game", "--players", "4", "--agents", "byte,casing,interface,memory", "--out", str(path)]) == 0
    return decode_state(path.read_bytes())


CASES = [
    (ev.BotEscaped(bot="module", space="A13"), "Command Module escapes from A13: take it off the board."),
    (ev.CacheTaken(bot="byte", space="E1"),
     "Byte collects the cache on E1: discard the chip and draw 1 equipment card."),
    (ev.CardTraded(bot="byte", to="casing", card="E05"), "Byte hands E05 (Flash charge) to Casing."),
    (ev.DisguiseChanged(bot="interface", chip="Rover", worn=True,
                        reason="takes the chip of the guard it shut down on C4"),
     "Put the Rover guard chip on Interface: disguised as a guard (takes the chip of the guard it shut down on "
     "C4)."),
    (ev.DisguiseChanged(bot="interface", chip="Rover", worn=False, reason="detected"),
     "Discard the Rover guard chip from Interface: the disguise is lost (detected)."),
    (ev.EquipmentUsed(bot="byte", card="E10", die=1),
     "Byte uses E10 (Field battery): Turn the die down 1: gain 1 power. Turn its equipment die to 1."),
    (ev.EquipmentUsed(bot="byte", card="E05"),
     "Byte uses E05 (Flash charge): Blind an adjacent security unit: it is stunned."),
    (ev.IpBanned(agent="byte", node="L1-01"),
     "A ping passed Byte's empty access point L1-01: remove Byte's IP (banned until a reboot)."),
    (ev.JoanCharge(charged=True, reason="she shares a space with Memory"),
     "Flip Joan to her charged side (she shares a space with Memory)."),
    (ev.JoanStunned(unit="G2", space="C4"), "Joan stuns guard 2 on C4: flip its chip to the stunned side."),
    (ev.KeyTaken(bot="byte", keys=1), "Byte takes a key (now 1)."),
    (ev.UnitRemoved(unit="G2", space="C4"), "Discard guard 2 from C4: it is shut down."),
    (ev.UnitRemoved(unit="CAP", space="C4"), "Discard the captain (Fauxbia) from C4: it is shut down."),
    (ev.WallDestroyed(wall="C4/C5"), "Place a destroyed wall chip on the wall C4/C5."),
    (ev.UnitStruck(unit="CAP", bot="byte", ap=9, durability=25, result="no effect"),
     "Byte strikes the captain (Fauxbia) with 9 AP against durability 25: no effect."),
    (ev.StepStarted(step="skip", bot="casing", reason="shut down"), "Casing is shut down: the turn passes."),
    (ev.StepStarted(step="revived", bot="casing"), "Flip Casing face up: it is repaired and active."),
    (ev.StepStarted(step="pool", bot="byte", dice={"elite": 1}), "Add 1 elite die to Byte's pool."),
    (ev.StepStarted(step="stunned", unit="G2"), "Flip guard 2 face down: it is stunned."),
    (ev.StepStarted(step="move", bot="casing", ap=5, optimized=True, agent_ap=2),
     "Move action: 5 AP to spend (optimized, +2) and 2 AP only Casing may spend (pressure die)."),
    (ev.StepStarted(step="actions", bot="casing", dice={"basic": 5, "advanced": 1, "elite": 0, "proprietary": 1}),
     "Casing's dice pool: 5 basic, 1 advanced, 0 elite, 1 pressure die."),
    (ev.ImperativeResolved(bot="byte", card="I02", completed=True, reason="2 caches collected"),
     "Byte completes imperative I02 (Scavenger): 2 caches collected. Discard it."),
    (ev.CardDrawn(bot="byte", deck="imperative", card="I02"),
     "Byte draws imperative card I02 (Scavenger: Collect 2 caches. Reward: 1 power.)"),
    (ev.ModInstalled(bot="byte", card="M01"), "Byte installs mod M01 (Servo overdrive): turn the card upright."),
    (ev.TerminalAccessed(space="I5", card="T01", bot="byte", options=[1, 3], ap=9, resolved=[1]),
     "Byte accesses the terminal on I5: card T01 (Facilities console), options 1, 3 chosen, 9 AP; resolved: 1. "
     "Discard the card and the terminal chip."),
    (ev.NetworkCardDone(agent="byte", card="N05", completed=False, reason="the hand is full"),
     "Discard Byte's network card N05 (Escalate privileges): the hand is full."),
    (ev.DiceUpgradeBought(bot="byte", die="advanced", cost=2),
     "Byte activates an upgrade for 2 power: from now on 1 more advanced die in the pool."),
    (ev.BotDetected(bot="byte", space="C4", unit="CAP"), "Byte is detected on C4 by the captain (Fauxbia)."),
    (ev.BotDetected(bot="byte", space="C4", unit="G2", reason="striking"),
     "Byte is detected on C4 by striking guard 2."),
    (ev.PhaseStarted(phase="security activation"), "Security activation:"),  # a heading, not "-- ... --"
    (ev.AwarenessCleared(bot="byte", space="C4", unit="G2"),
     "Guard 2 clears Byte's awareness chip from C4: return it to the bot's mat."),
]


@pytest.mark.parametrize("event,words", CASES, ids=lambda c: c.__struct_config__.tag if isinstance(c, ev.Event) else "")
def test_an_event_is_phrased_from_its_ids_and_the_state(state, event, words):
    assert phrase(event, state) == words


def test_a_shut_down_unit_is_still_named_from_its_id(state):
    """A unit is gone from the state once shut down; its instruction still names it."""
    assert "G7" not in {u.id for u in state.security}
    assert unit_name(state, "G7") == "guard 7"


def test_what_the_state_does_not_hold_is_phrased_by_its_ids(state):
    """A log read against another game's state still reads: unknown bots and cards by their ids."""
    assert phrase(ev.CardDrawn(bot="ghost", deck="equipment", card="E99"), state) == "ghost draws equipment card E99"
    assert phrase(ev.ThreatEventFired(threshold=25, index=9), state) == "Threat event at 25."


@pytest.mark.parametrize("event,words", [
    (ev.UnitStayed(unit="CAP", space="J6", reason="boxed in"), "The captain (Fauxbia) stays on J6 (boxed in)."),
    (ev.Attacked(unit="CAP", bot="memory", damage=3, power=1),
     "The captain (Fauxbia) attacks Memory: Memory loses 3 power (now 1)."),
    (ev.ReserveChanged(owner="memory", chips=["tech"]), "Memory's personal reserve now holds: tech."),
    (ev.FloorChanged(floor="Meridian Tower, Labs", level=2, number=2, kept={"module": "B6", "G3": "A8"}),
     "Floor 2: clear the board and set up Meridian Tower, Labs (level 2); unlocked safe zone doors stay unlocked; "
     "place Command Module on B6, guard 3 on A8 in the corresponding safe zones."),
], ids=["captain-stays", "captain-attacks", "personal-reserve", "floor-changed"])
def test_names_read_as_printed_where_display_strings_had_them_wrong(state, event, words):
    """Where the old display strings slipped ("The captain (fauxbia)" from str.capitalize, agent ids in a
    reserve or a floor change), the one phrasing module names them as the game prints them."""
    assert phrase(event, state) == words


@pytest.mark.parametrize("event,words", [
    (ev.ThreatChanged(old=3, new=4, reason=f"{ev.bot_ref('byte')} struck {ev.unit_ref('CAP')}"),
     "Set threat to 4 (was 3): Byte struck the captain (Fauxbia)."),
    (ev.JoanMoved(path=["C4", "C5"], reason=f"automatic swap: {ev.unit_ref('G2')} passes through"),
     "Move Joan the drone from C4 to C5 (automatic swap: guard 2 passes through)."),
    (ev.PowerChanged(bot="byte", old=2, new=3, reason=f"network card {ev.card_ref('network', 'N03')}"),
     "Set Byte's power to 3 (network card Power siphon)."),
    (ev.ThreatChanged(old=3, new=4, reason=f"{ev.MISSION_REF}: a wall destroyed ({ev.CAPTAIN_REF})"),
     "Set threat to 4 (was 3): Operation Data Heist: a wall destroyed (Fauxbia)."),
    (ev.UnitBagged(unit="module", reason=f"{ev.CALIBRATION_REF}: the calibration result"),
     "Put Command Module into the draw bag (Pull the Files: the calibration result)."),
    (ev.PowerChanged(bot="byte", old=2, new=3, reason=f"imperative {ev.card_ref('imperative', 'I99')} completed"),
     "Set Byte's power to 3 (imperative I99 completed)."),
], ids=["bot-and-captain", "unit", "card", "mission-and-captain", "calibration", "card-not-held"])
def test_names_in_a_reason_are_references_phrasing_fills_in(state, event, words):
    assert phrase(event, state) == words


@pytest.mark.parametrize("mission,agents", [("data-heist", "byte,casing"), ("tower-run", "memory,interface,nano")])
def test_the_events_of_a_seeded_game_hold_ids_not_names(tmp_path, mission, agents):
    """No bot's, captain's, mission's or card's name is frozen into an event: the JSON of every event of a
    whole game names none of them (guard chips and rooms keep their printed names)."""
    path = tmp_path / "state.json"
    n = str(len(agents.split(",")))
    assert main(["new-game", "--mission", mission, "--players", n, "--agents", agents, "--out", str(path)]) == 0
    start = decode_state(path.read_bytes())
    names = {b.name for b in start.bots} | {start.captain.name, start.mission.name, start.mission.calibration_name}
    for deck in (start.equipment_deck, start.mod_deck, start.imperative_deck, start.network_deck,
                 start.terminal_deck):
        names |= {card.name for card in deck}
    names |= {b.imperative.name for b in start.bots if b.imperative is not None}
    names.discard("")
    logged = b"".join(encode_events(events) for _, events, _ in play(start)).decode()
    assert logged and [name for name in sorted(names) if name in logged] == []


def _odd(t: mi.Type):
    """A value a log from elsewhere could hold: strings no rule writes, empty lists where allowed."""
    if isinstance(t, mi.StrType):
        return "??"
    if isinstance(t, mi.IntType):
        return 7
    if isinstance(t, mi.BoolType):
        return False
    if isinstance(t, mi.ListType):
        return [_odd(t.item_type)] * (t.min_length or 0)
    if isinstance(t, mi.DictType):
        return {"??": _odd(t.value_type)}
    if isinstance(t, mi.UnionType):
        return _odd(next(x for x in t.types if not isinstance(x, mi.NoneType)))
    raise TypeError(f"no odd value for {t}")


@pytest.mark.parametrize("kind", typing.get_args(ev.AnyEvent), ids=lambda k: k.__struct_config__.tag)
def test_any_event_a_log_can_hold_is_phrased_without_an_error(state, kind):
    event = kind(**{f.name: _odd(f.type) for f in mi.type_info(kind).fields})
    assert phrase(event, state).strip()
