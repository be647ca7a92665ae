"""Which physical chip a unit wears: a unit keeps the chip it entered the board on until it leaves; a newcomer
takes the chip of its name free the longest. States here are a real game's start with its security units
replaced by guards entering and leaving, the way a game's corporation turns and strikes make them."""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.state import GameState, SecurityUnit
from tests.support.session_support import start_state
from vision.config import GUARD_CHIPS, VisionConfig
from vision.roster import ChipRoster, chips_for_state

CONFIG = VisionConfig()
START = start_state(seed=7)
NAMES = [name.capitalize() for name, _, _ in GUARD_CHIPS[:3]]  # three names, two chips each: namesakes meet often
COPIES = {name.capitalize(): copies for name, _, copies in GUARD_CHIPS}


def guard(number: int, name: str) -> SecurityUnit:
    return SecurityUnit(id=f"G{number}", chip=name, rank="guard", level=1, space="A1", facing="N", awareness=2,
                        movement=2, patrol="pace", damage=1, durability=10)


def with_guards(guards: list[SecurityUnit]) -> GameState:
    return msgspec.structs.replace(START, security=list(guards))


def test_a_guards_namesake_keeps_its_chip_when_the_guard_leaves() -> None:
    """Two Trackers, on tracker-1 and tracker-2: the first leaves, the second stays on tracker-2 (from that state
    alone, the second would be handed tracker-1, which stands on the board where the first was)."""
    both = with_guards([guard(4, "Tracker"), guard(7, "Tracker")])
    roster = ChipRoster.start(both, CONFIG)
    assert (roster.chips["G4"], roster.chips["G7"]) == ("tracker-1", "tracker-2")
    after = roster.follow(with_guards([guard(7, "Tracker")]))
    assert after.chips["G7"] == "tracker-2" and "G4" not in after.chips
    assert after.worn["G4"] == "tracker-1"  # the chip it wore, until the players take it off
    assert chips_for_state(with_guards([guard(7, "Tracker")]), CONFIG)["G7"] == "tracker-1"  # the state alone


def test_a_newcomer_takes_the_chip_of_its_name_free_the_longest() -> None:
    """A chip just taken off the board (perhaps still in a hand, or not yet taken off) goes to the back: a new
    Tracker takes the box's unused one, and the one freed first when both are free."""
    roster = ChipRoster.start(with_guards([guard(4, "Tracker")]), CONFIG)
    roster = roster.follow(with_guards([]))
    roster = roster.follow(with_guards([guard(9, "Tracker")]))
    assert roster.chips["G9"] == "tracker-2"
    roster = roster.follow(with_guards([]))  # tracker-1 freed before tracker-2
    roster = roster.follow(with_guards([guard(10, "Tracker"), guard(11, "Tracker")]))
    assert (roster.chips["G10"], roster.chips["G11"]) == ("tracker-1", "tracker-2")


def test_the_captain_wears_the_captains_chip_and_a_guard_with_no_chip_left_wears_none() -> None:
    captain = msgspec.structs.replace(guard(1, "Harlan"), id="CAP", rank="captain")
    roster = ChipRoster.start(with_guards([captain, guard(2, "Sentry"), guard(3, "Sentry"), guard(5, "Sentry")]),
                              CONFIG)
    assert roster.chips["CAP"] == "captain"
    assert (roster.chips["G2"], roster.chips["G3"]) == ("sentry-1", "sentry-2") and "G5" not in roster.chips
    assert {b.id for b in START.bots} <= set(roster.chips)  # each bot on its own chip


# a step of a game: a guard of a name enters, or the k-th guard on the board (modulo their number) leaves
steps = st.lists(st.one_of(st.tuples(st.just("enter"), st.sampled_from(NAMES)),
                           st.tuples(st.just("leave"), st.integers(0, 20))), max_size=40)


@settings(max_examples=200, deadline=None)
@given(steps=steps, chunks=st.lists(st.integers(1, 3), min_size=40, max_size=40))
def test_no_units_chip_changes_while_it_is_on_the_board_and_no_two_units_share_one(steps, chunks) -> None:
    """Over any sequence of guards entering and leaving, some steps taken together (a state the table reads only
    after several changes): a unit on the board keeps its chip from state to state, no two units wear one chip,
    each wears a chip of its own name, and a unit wears none only when every chip of its name is worn."""
    on_board: list[SecurityUnit] = []
    number = 1
    states = []
    for kind, what in steps:
        if kind == "enter":
            assert isinstance(what, str)
            on_board.append(guard(number, what))
            number += 1
        elif on_board:
            assert isinstance(what, int)
            on_board.pop(what % len(on_board))
        states.append(with_guards(on_board))
    roster = ChipRoster.empty(CONFIG)
    k = 0
    for chunk in chunks:
        if k >= len(states):
            break
        k = min(k + chunk, len(states))
        state = states[k - 1]
        before = roster.chips
        roster = roster.follow(state)
        worn = [roster.chips[u.id] for u in state.security if u.id in roster.chips]
        assert len(worn) == len(set(worn))
        for unit in state.security:
            if unit.id in before:
                assert roster.chips[unit.id] == before[unit.id]
            if unit.id in roster.chips:
                assert roster.chips[unit.id].startswith(unit.chip.lower() + "-")
            else:
                assert sum(u.chip == unit.chip and u.id in roster.chips for u in state.security) == COPIES[unit.chip]
        assert sorted([*roster.free, *worn]) == sorted(u.id for u in CONFIG.units if u.kind != "bot")
