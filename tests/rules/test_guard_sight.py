"""A guard's sight has one answer in the engine (`unit_sight`), read by detection (`sees`) and by the board a page
draws (`security_sight`, GET /api/floor's "sight"): the rulebook's awareness range, the escalations' bonus and
a stun are applied once, so what a phone shows a guard seeing is what the guard detects."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import GameSetup, GameState, SeededDice, copy_state, new_game, security_sight, state_problems
from controller.rules.board.awareness import sees
from controller.rules.corporation.threat_effects import apply_effect
from controller.rules.resolution import Resolution
from controller.service.views import floor_view
from tests.support.rules_scenarios import CONTENT, guard, make_state, play_randomly

FLOORS = tuple(sorted(CONTENT.floors))


def test_direct_sight_and_peripheral_awareness_by_name():
    """"Direct Sight: Equal to the full awareness stat in spaces straight ahead in the direction of the unit's
    facing, within the same area." and "Peripheral Awareness: Equal to half of the awareness stat (rounded up)
    in all other directions within the same area.": a guard on A5 of the open hallway facing north with
    awareness 3 sees A4, A3 and A2 ahead and B5, C5 to its side (south and west are off the floor)."""
    s = make_state(units=[guard("G1", "A5", "N", awareness=3)])
    assert security_sight(s) == {"G1": ["A2", "A3", "A4", "B5", "C5"]}


def test_an_escalation_in_force_widens_every_guards_sight():
    """"escalation effects remain active while threat equals or exceeds their threshold": at threat 6 the
    standard threat card's "Heightened senses: every security unit has +1 awareness" is in force, so the same
    guard sees 4 spaces ahead (A1 too) and still 2 to its side; at threat 5 it is not."""
    below = make_state(units=[guard("G1", "A5", "N", awareness=3)], threat=5)
    at = make_state(units=[guard("G1", "A5", "N", awareness=3)], threat=6)
    assert security_sight(below) == {"G1": ["A2", "A3", "A4", "B5", "C5"]}
    assert security_sight(at) == {"G1": ["A1", "A2", "A3", "A4", "B5", "C5"]}


def test_a_stunned_unit_sees_nothing():
    """"Stunned Security: Unit chip is flipped face down; skips activation this round and ignores
    awareness/abilities.": a stunned guard's sight is empty, the other guard's is not."""
    s = make_state(units=[guard("G1", "A5", "N", stunned=True), guard("G2", "F1", "S")], threat=6)
    seen = security_sight(s)
    assert seen["G1"] == [] and "F2" in seen["G2"]


def test_reading_the_sight_changes_nothing():
    s = make_state(units=[guard("G1", "A5", "N")], threat=6)
    before = copy_state(s)
    security_sight(s)
    assert s == before


@st.composite
def games(draw: st.DrawFn) -> GameState:
    """A shipped floor's new game played some random legal actions on, then set at a random threat (so the
    awareness escalations are in force or not) with some units stunned."""
    floor = draw(st.sampled_from(FLOORS))
    setup = GameSetup(floor=floor, players=draw(st.integers(1, 4)),
                      captain=draw(st.sampled_from(["fauxbia", "overseer"])),
                      difficulty=draw(st.sampled_from(["simplified", "standard", "seasoned"])),
                      seed=draw(st.integers(0, 2**31 - 1)))
    state = play_randomly(new_game(CONTENT, setup), draw(st.integers(0, 2**31 - 1)), draw(st.integers(0, 40)))
    state.threat = draw(st.integers(0, 25))
    for unit in state.security:
        unit.stunned = draw(st.booleans())
    assert state_problems(state) == []
    return state


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_the_drawn_sight_is_what_detection_checks(state: GameState):
    """Over random games, the sight GET /api/floor sends each guard is exactly the spaces where the engine's
    detection (`sees`) would spot a bot."""
    table = Resolution(state, SeededDice(0), apply_effect, copy=False)
    detected_at = {unit.id: sorted(table.floor.ids[s] for s in range(len(table.floor.ids)) if sees(table, unit, s))
                   for unit in state.security}
    assert floor_view(state).sight == detected_at
