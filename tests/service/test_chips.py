"""The table's chips follow the game's record: the same record gives the same chips, however it was followed
(entry by entry, many at once, through undos and redos), so the reconciler, the demo's table and a restarted
service all agree on which sticker each unit wears."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules import GameRecord, GameState, record_action
from controller.rules.record import redo, replay, undo
from controller.service.camera.chips import ChipLedger
from controller.service.demo.booth import DemoTable
from controller.service.game.session import GameSession
from tests.support.observations import CONFIG, a_strike_that_shuts_a_guard_down
from tests.support.session_support import next_action, start_state
from vision.roster import ChipRoster


def stepped(record: GameRecord) -> ChipRoster:
    """The definition: the start's chips, followed one entry's state after another."""
    roster, state = ChipRoster.start(record.start, CONFIG), record.start
    for entry in record.entries:
        state = replay(GameRecord(start=state, entries=[entry]))
        roster = roster.follow(state)
    return roster


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(1, 40), moves=st.lists(st.sampled_from(["act"] * 6 + ["undo", "redo", "look"]),
                                                 min_size=20, max_size=90))
def test_a_record_followed_in_any_pieces_gives_the_chips_of_its_entries_one_by_one(seed: int, moves: list[str]):
    record = GameRecord(start=start_state(seed=seed))
    state: GameState = record.start
    ledger = ChipLedger(CONFIG)
    for move in moves:
        if move == "act" and state.outcome is None:
            state, _ = record_action(record, state, next_action(state))
        elif move == "undo" and record.entries:
            state = undo(record)
        elif move == "redo" and record.undone:
            state, _ = redo(record, state)
        elif move == "look":  # the reconciler or the demo's hands take the game in now
            assert ledger.follow(record) == stepped(record)
            assert ledger.state == state
    assert ledger.follow(record) == stepped(record) == ChipLedger(CONFIG).follow(record)
    assert ledger.state == state


def test_a_ledger_handed_the_states_of_a_replayed_record_takes_them_instead_of_replaying_again() -> None:
    """A reconciler taking up a game has just replayed its log; the ledger takes those states (the very objects)
    and comes to the chips replaying would give, and a list that does not fit the record is refused."""
    record = GameRecord(start=start_state(seed=7))
    state: GameState = record.start
    states: list[GameState] = []
    while len(states) < 40 and state.outcome is None:
        state, _ = record_action(record, state, next_action(state))
        states.append(state)
    ledger = ChipLedger(CONFIG)
    assert ledger.follow(record, states) == stepped(record)
    assert ledger.state is states[-1]
    try:
        ChipLedger(CONFIG).follow(record, states[:-1])
    except ValueError as e:
        assert f"{len(states) - 1} states for a record of {len(states)} entries" in str(e)
    else:
        raise AssertionError("a ledger took states that do not fit the record")


def test_the_demo_table_leaves_a_struck_guards_namesake_on_its_own_chip(tmp_path) -> None:
    """The demo's hands lay the table out by the record's chips: when a guard is shut down, its namesake's chip
    stays where it stood and the struck guard's chip leaves the table (laid out from the state alone, the
    namesake was drawn on the struck guard's chip and its own chip left the table)."""
    state, strike, faces = a_strike_that_shuts_a_guard_down(unique=False)
    struck = next(u for u in state.security if u.id == strike.unit)
    namesake = next(u for u in state.security if u.chip == struck.chip and u.id != struck.id)
    session = GameSession.open(str(tmp_path / "table.sqlite"))
    try:
        session.start_game(state, dice_mode="physical")
        table = DemoTable()
        table.lay_out(session.record)
        standing = {p.space: p.unit for p in table.scene.placements}
        session.apply(strike, faces)
        table.lay_out(session.record)
        after = {p.unit: p.space for p in table.scene.placements}
        assert after[standing[namesake.space]] == namesake.space
        assert standing[struck.space] not in after
    finally:
        session.close()
