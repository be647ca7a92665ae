"""Every request for dice the engine can make is answerable from what it lists, and an action's dice are
asked for at once.

`READS` is every place the engine reads a die or a draw during play (found in the source, so a new one fails
`test_every_place_the_engine_reads_dice_is_listed` until it is listed here), with the dice and draws it can ask
for. Whole recorded games (the golden games, games of other missions and agents, a breakable equipment card)
are then played again as the players would with physical dice: each action starts with no faces, and every
request it makes must list, for each die or draw, the faces it can show, among them the one the game
recorded; the recorded faces are given for exactly what the request lists, in its order, and the action must
end where the record did. Every kind in `READS` must have been asked for.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import msgspec
import pytest

from controller.rules import (
    BadFace,
    DiceNeeded,
    DiceWanted,
    GameRecord,
    GameSetup,
    ScriptedDice,
    decode_record,
    record_action,
    start_record,
)
from controller.rules.actions import Move, UseEquipment, apply_action
from controller.rules.dice import check_faces
from controller.rules.phrasing import action_purpose
from controller.rules.players.ap import FACES
from controller.rules.record import Entry, ReplayDice, state_digest
from controller.rules.state import DicePool
from tests.support.golden_games import GAMES, GOLDEN, play_recorded
from tests.support.rules_scenarios import CONTENT, bot, guard, make_state, module
from tests.support.turn_scenarios import chips, in_turn

RULES = Path(__file__).resolve().parents[2] / "controller" / "rules"
# (module, function) -> the dice and draws it reads through the table's dice while a game is played
READS: dict[tuple[str, str], set[str]] = {
    ("players/ap.py", "roll_ap"): {"basic die", "advanced die", "elite die"},
    ("characters/proprietary_dice.py", "roll_proprietary"): {"pressure die", "lift die"},
    ("players/moves.py", "surveil"): {"surveillance die"},
    ("players/steps.py", "degrade"): {"burncycle die"},
    ("players/keypads.py", "card_for"): {"keypad deck"},
    ("players/keypads.py", "keypad"): {"keypad die"},
    ("players/terminals.py", "draw_card"): {"terminal deck"},
    ("players/burncycle.py", "draw_burncycle"): {"burncycle bag"},
    ("corporation/deploy.py", "draw_guard"): {"guard bag"},
    ("corporation/pings.py", "activate_pings"): {"ping die"},
    ("cards/network_cards.py", "_top_card"): {"network deck"},
    ("cards/equipment.py", "use_equipment"): {"equipment die"},
    ("cards/inventory.py", "draw"): {"equipment deck", "mod deck", "imperative deck"},
    ("missions/draw_bag.py", "draw_onto_terminal"): {"draw bag"},
}
SETUP_ONLY = {("missions/draw_bag.py", "fill_draw_bag")}  # new_game's own draws, never asked of the table
KINDS = set().union(*READS.values())
# games beside the golden ones, for what those never ask: other missions, Bit's lift die, a cache's card
MORE_GAMES = {
    "data-heist-lobby-elite": GameSetup(floor="meridian-lobby", mission="data-heist", players=2,
                                        agents=["nano", "byte"], seed=0),
    "data-heist-lobby-cache": GameSetup(floor="meridian-lobby", mission="data-heist", players=2,
                                        agents=["nano", "byte"], seed=2),
    "data-heist-lobby-lift": GameSetup(floor="meridian-lobby", mission="data-heist", players=2,
                                       agents=["bit", "casing"], seed=9),
    "data-heist-lobby-equipment": GameSetup(floor="meridian-lobby", mission="data-heist", players=2,
                                            agents=["byte", "bit"], seed=96),
    "data-heist-annex-imperative": GameSetup(floor="meridian-annex", mission="data-heist", players=2,
                                             agents=["nano", "byte"], seed=0),
}


def _reads_in_source() -> Iterator[tuple[str, str]]:
    """(module, function) of every `resolution.dice.roll(...)` and `resolution.dice.draw(...)` in the engine."""
    for path in sorted(RULES.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for call in ast.walk(function):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                        and call.func.attr in ("roll", "draw") and ast.unparse(call.func.value) == "resolution.dice":
                    yield str(path.relative_to(RULES)), function.name


def test_every_place_the_engine_reads_dice_is_listed():
    found = set(_reads_in_source())
    assert found - SETUP_ONLY == set(READS), (
        f"not in READS: {sorted(found - SETUP_ONLY - set(READS))}; no longer in the source: "
        f"{sorted(set(READS) - found)}. List a new read with the dice it asks for, and add a game that asks for it")


def _breakable_equipment() -> GameRecord:
    """Byte uses a breakable card (E12 stuns the adjacent guard), which rolls the equipment die."""
    state = in_turn(make_state(bots=[bot("byte", "A1"), module("B1")], units=[guard("G1", "A2", "N", awareness=0)],
                               slots=chips("general", "general", "general")))
    card = next(c for c in CONTENT.equipment if c.id == "E12").__copy__()
    state.bot("byte").equipment = [card]
    record = start_record(state)
    record_action(record, state, UseEquipment(bot="byte", card="E12", unit="G1"), ScriptedDice(["2"]))
    return record


@cache
def _records() -> dict[str, GameRecord]:
    records = {name: decode_record((GOLDEN / f"{name}.json").read_bytes()) for name in GAMES}
    records |= {name: play_recorded(setup) for name, setup in MORE_GAMES.items()}
    records["breakable-equipment"] = _breakable_equipment()
    return records


def _answer_from_the_table(state, entry: Entry, asked: set[str]) -> list[DiceNeeded]:
    """Apply the entry's action as the players would with physical dice: no faces at first, then for each
    request the recorded faces of exactly the dice it lists (each the next one the game read of its die),
    checked against the faces listed for it, given for that die as the session gives them."""
    recorded = list(entry.faces)
    taken: list[int] = []  # which recorded face each given face is
    given_for: list[str] = []
    requests: list[DiceNeeded] = []
    while True:
        given = [recorded[k].face for k in taken]
        try:
            dice = ScriptedDice(given, action_purpose(state, entry.action), given_for)
            new, _ = apply_action(state, entry.action, dice)
            break
        except DiceNeeded as needed:
            assert needed.dice and all(w.count >= 1 and w.faces for w in needed.dice), needed.dice
            assert needed.purpose and str(needed).startswith(needed.purpose) and "only" not in str(needed)
            answer: list[int] = []
            for wanted in needed.dice:
                for _ in range(wanted.count):
                    k = next((k for k, f in enumerate(recorded) if f.die == wanted.die and k not in taken + answer),
                             None)
                    assert k is not None, f"{needed}: the game read only {[f.die for f in recorded]}"
                    answer.append(k)
            assert answer == sorted(answer), f"{needed}: listed out of reading order ({[f.die for f in recorded]})"
            check_faces(needed.dice, [recorded[k].face for k in answer])  # each recorded face is listed for its die
            asked.update(w.die for w in needed.dice)
            requests.append(needed)
            taken += answer
            given_for += [recorded[k].die for k in answer]
    assert sorted(taken) == list(range(len(recorded))) and dice.rolls == len(recorded)
    in_one_go, _ = apply_action(state, entry.action, ScriptedDice([f.face for f in recorded]))
    assert state_digest(new) == state_digest(in_one_go)
    return requests


@cache
def _asked_in_recorded_games() -> frozenset[str]:
    """Every action of the recorded games with dice, applied as the players would answer it; what was asked."""
    asked: set[str] = set()
    for record in _records().values():
        state = record.start
        for number, entry in enumerate(record.entries, 1):
            if entry.faces:
                _answer_from_the_table(state, entry, asked)
            seeded = entry.seeded_rolls is not None
            state, _ = apply_action(state, entry.action, ReplayDice(entry.faces, number, state.seed if seeded else None,
                                                                    entry.seeded_rolls or 0))
            assert state_digest(state) == entry.digest
    return frozenset(asked)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_of_request_is_answered_from_the_faces_it_lists(kind: str):
    assert kind in _asked_in_recorded_games(), f"no recorded game asks for the {kind}: add one to MORE_GAMES"


@pytest.mark.slow
def test_two_surveillance_dice_are_asked_at_once_and_the_guard_one_spawns_follows():
    """"Roll and resolve them": the engine resolves the first die's guard face (drawing the guard from the
    bag) before it reads the second die, yet the players roll both dice together; the second face waits."""
    interleaved = ["surveillance die", "guard bag", "surveillance die"]
    for record in _records().values():
        state = record.start
        for number, entry in enumerate(record.entries, 1):
            dies = [f.die for f in entry.faces]
            if dies[-3:] == interleaved:  # (an action whose dice go on, to an imperative, asks for more)
                requests = _answer_from_the_table(state, entry, set())
                said = [[(w.die, w.count) for w in r.dice] for r in requests]
                assert ["surveillance die", 2] in [list(d) for r in said for d in r], said
                assert said[-1] == [("guard bag", 1)] and requests[-1].follow_up
                assert "after the results given: still needed: 1 chip from the guard bag" in str(requests[-1])
                return
            state, _ = apply_action(state, entry.action, ReplayDice(entry.faces, number, state.seed if
                                    entry.seeded_rolls is not None else None, entry.seeded_rolls or 0))
    pytest.fail("no recorded game draws a guard between two surveillance dice: add one to MORE_GAMES")


# -- an action's dice at once ----------------------------------------------------------------------------------
def _casing_moves():
    state = make_state(bots=[bot("casing", "A1"), module("B1")], slots=chips("general", "general", "general"))
    state.bot("casing").proprietary_die = "pressure"
    state = in_turn(state)
    state.turn.pool.proprietary = 1
    return state


def test_a_move_asks_for_the_pressure_die_and_the_pool_dice_at_once():
    """Issue 27, 5: "another result for the pressure die" was asked before any face, then "needs 5 basic
    dice ... but only 1 was given"."""
    state = _casing_moves()
    move = Move(dice=DicePool(basic=5, proprietary=1))
    with pytest.raises(DiceNeeded) as first:
        apply_action(state, move, ScriptedDice([], "Casing's move action"))
    assert [(w.die, w.count) for w in first.value.dice] == [("pressure die", 1), ("basic die", 5)]
    assert str(first.value) == "Casing's move action: still needed: 1 pressure die, 5 basic dice"
    with pytest.raises(DiceNeeded) as second:
        apply_action(state, move, ScriptedDice(["2"]))
    assert str(second.value) == "Casing's move action: 1 face given; still needed: 5 basic dice"
    assert not second.value.follow_up
    moved, _ = apply_action(state, move, ScriptedDice(["2", "1", "1", "2", "blank", "1"]))
    assert moved.turn.pending is not None and moved.turn.pending.agent_ap == 2


def test_dice_that_depend_on_the_results_come_as_a_follow_up_said_as_such():
    """An elite die's reroll face rerolls the die worth least: which die, and whether at all, is only known
    once the faces are read."""
    state = _casing_moves()
    state.turn.pool.elite = 1
    move = Move(dice=DicePool(basic=1, elite=1))
    with pytest.raises(DiceNeeded) as first:
        apply_action(state, move, ScriptedDice([]))
    assert [(w.die, w.count) for w in first.value.dice] == [("basic die", 1), ("elite die", 1)]
    with pytest.raises(DiceNeeded) as again:
        apply_action(state, move, ScriptedDice(["1", "reroll"]))
    assert again.value.follow_up and again.value.dice == [DiceWanted(die="basic die", count=1, faces=FACES["basic"])]
    assert str(again.value) == "Casing's move action, after the results given: still needed: 1 basic die"


def test_faces_are_checked_against_their_die_as_they_are_given():
    wanted = [DiceWanted(die="pressure die", count=1, faces=("0", "1", "2", "2", "3", "4")),
              DiceWanted(die="basic die", count=2, faces=FACES["basic"])]
    check_faces(wanted, ["4"])
    check_faces(wanted, ["4", "blank", "2"])
    with pytest.raises(BadFace, match=r"face 2 \('3'\) is not a face of the basic die; its faces are 1, 2, blank"):
        check_faces(wanted, ["4", "3"])
    with pytest.raises(BadFace, match="4 faces given, but only 1 pressure die, 2 basic dice are still needed"):
        check_faces(wanted, ["4", "1", "1", "1"])
    deck = [DiceWanted(die="mod deck", count=1, faces=("M01", "M02"))]
    with pytest.raises(BadFace, match=r"face 1 \('M09'\) is not in the mod deck; it holds M01, M02"):
        check_faces(deck, ["M09"])


def test_a_request_encodes_as_the_session_logs_it():
    wanted = DiceWanted(die="mod deck", count=1, faces=("M01",))
    assert msgspec.to_builtins(wanted) == {"die": "mod deck", "count": 1, "faces": ("M01",)}
