"""Engine bugs found from outside (issue 19), each pinned by a test that failed before its fix."""

from __future__ import annotations

import ast
from pathlib import Path

import msgspec
import pytest

from controller.autoplay.player import play
from controller.rules import (
    BadFace,
    CorporationTurn,
    DiceNeeded,
    DicePool,
    DiceWanted,
    GameSetup,
    Move,
    RecordingDice,
    ScriptedDice,
    SeededDice,
    apply,
    corporation_turn,
    decode_state,
    encode_state,
    new_game,
)
from controller.rules.state import BagUnit
from tests.support.rules_scenarios import CONTENT, bot, make_state
from tests.support.turn_scenarios import act, in_turn


def _rangers_before_a_shut_down():
    """Rescue Rangers after The Search Begins (the module in the draw bag), at the corporation's turn: the next
    player's agent has 1 power, which the start of their turn drains ("Each agent loses 1 power at the start
    of their turn until the command module is drawn"); its shut-down (+3 threat) reaches the event at 8 that
    spawns a guard, drawn from the guard bag."""
    s = new_game(CONTENT, GameSetup(mission="rescue-rangers", level=1, players=2, agents=["nano", "casing"],
                                    seed=1))
    s.turn.step, s.turn.active = "corporation", s.turn.order.index(s.turn.marker)
    s.bot(s.turn.order[0]).power = 1
    s.threat, s.calibrated = 4, True
    s.fired_events = [i for i, e in enumerate(s.threat_card.events) if e.threshold <= 4]
    s.draw_bag.append(BagUnit(unit="module"))
    return s


def test_the_work_after_the_corporations_turn_draws_from_the_callers_dice_and_counts_it():
    state = _rangers_before_a_shut_down()
    phase = RecordingDice(SeededDice(state.seed, state.rolls))
    corporation_turn(state, phase)
    dice = RecordingDice(SeededDice(state.seed, state.rolls))
    new, events = apply(state, CorporationTurn(), dice)
    assert [type(e).__name__ for e in events].count("BotShutDown") == 1
    assert len(new.security) == len(state.security) + 1  # the guard the shut-down's threat spawned
    assert [f.die for f in dice.faces] == [f.die for f in phase.faces] + ["guard bag"]
    assert new.rolls == state.rolls + len(dice.faces)  # every draw is counted in the game's rolls


def test_a_guard_chip_typed_in_after_the_corporations_turn_is_the_one_placed():
    """Faces typed in by the players are used for the follow-up's draws too (they used to be ignored)."""
    state = _rangers_before_a_shut_down()
    phase = RecordingDice(SeededDice(state.seed, state.rolls))
    corporation_turn(state, phase)
    placed = {}
    for name in sorted({c.name for c in state.guard_bag}):
        try:
            new, _ = apply(state, CorporationTurn(), ScriptedDice([f.face for f in phase.faces] + [name]))
        except BadFace:
            continue  # not a chip the spawn may draw
        spawned = [u for u in new.security if u.id not in {x.id for x in state.security}]
        placed[name] = spawned[0].chip
    assert placed and all(chip == name for name, chip in placed.items())
    with pytest.raises(DiceNeeded, match="after the results given: still needed: 1 chip from the guard bag") as err:
        apply(state, CorporationTurn(), ScriptedDice([f.face for f in phase.faces]))
    assert err.value.dice == [DiceWanted(die="guard bag", count=1, faces=("Sentry", "Sentry"))]


def test_a_game_owns_its_mission_captain_and_guard_chips():
    """Changing one game's mission, captain card or guard chips never changes the next new game's (they
    were the content's own objects, shared by every game)."""
    setup = GameSetup(mission="tower-run", seed=2)
    first = new_game(CONTENT, setup)
    pristine = encode_state(new_game(CONTENT, setup))
    first.mission.name = "Changed"
    first.mission.win[0].text = "Changed"
    first.mission.floor_plan[1].floor = "nowhere"
    first.captain.name = "Changed"
    for chip in first.guard_bag:
        chip.name = "Changed"
    first.threat_card.events[0].text = "Changed"
    first.keypad_deck[0].id = "Changed"
    again = new_game(CONTENT, setup)
    assert encode_state(again) == pristine
    assert CONTENT.missions["tower-run"].name != "Changed"


def test_play_yields_a_fresh_state_after_each_action():
    """The states `play()` yields are values: one kept from early in the game does not change as play goes on."""
    start = new_game(CONTENT, GameSetup(agents=["nano", "casing"], seed=3))
    kept = []
    for _, _, state in play(start, max_actions=120):
        kept.append((state, encode_state(state)))
    assert len({id(s) for s, _ in kept}) == len(kept)
    assert all(encode_state(s) == data for s, data in kept)


@pytest.mark.parametrize("faces,ap,pool", [(["1", "blank"], 1, 4), (["blank", "blank", "blank"], 1, 3),
                                           (["blank", "blank"], 1, 3), (["1", "2"], 3, 3)])
def test_an_unpaired_blank_returns_to_the_players_pool(faces, ap, pool):
    """The rulebook (burncycle-rules-reference.txt, step 2): "Unused blanks from basic dice can be spent in pairs
    (2 blanks = 1 AP) or returned to the player's pool." The pairs are spent, the blank left over goes back to the
    pool (rolling [1, blank] from a pool of 5 used to leave 3)."""
    s = in_turn(make_state(bots=[bot("byte", "C3")]), basic=5)
    new, _ = act(s, Move(dice=DicePool(basic=len(faces))), faces)
    assert new.turn.pending.ap == ap and new.turn.pool.basic == pool


# engine modules whose invariants are checked with errors, which `python -O` does not strip like `assert`
CHECKED = ["players/ap.py", "missions/floor_change.py", "corporation/turn.py", "game_setup.py", "record.py",
           "dice.py", "state.py", "errors.py"]


@pytest.mark.parametrize("module", CHECKED)
def test_engine_invariants_raise_errors_not_asserts(module):
    source = Path(__file__).resolve().parents[2] / "controller" / "rules" / module
    asserts = [n.lineno for n in ast.walk(ast.parse(source.read_text())) if isinstance(n, ast.Assert)]
    assert asserts == [], f"{module}: assert on lines {asserts}"


def test_a_state_without_a_players_turn_does_not_load():
    """Every game has its players' turn from setup on: a state written before turns existed is refused on load,
    naming the field, instead of loading and failing at the first action."""
    state = new_game(CONTENT, GameSetup(floor="meridian-lobby", players=2, seed=3))
    document = msgspec.json.decode(encode_state(state))
    del document["turn"]
    with pytest.raises(msgspec.ValidationError, match="missing required field `turn`"):
        decode_state(msgspec.json.encode(document))
