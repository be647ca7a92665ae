"""The game session: the one writer, durable before it acknowledges, numbered, undoable across restarts."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules import IllegalAction
from controller.rules.actions import BeginActions, CorporationTurn, Correct, Move
from controller.rules.record import replay, state_digest
from controller.service.game.session import Change, GameSession, SessionError
from controller.service.game.store import GameStore, StoreError
from tests.support.session_support import next_action, start_state


@pytest.fixture
def db(tmp_path):
    return tmp_path / "table.sqlite"


def play(session: GameSession, n: int) -> None:
    for _ in range(n):
        if session.state.outcome is not None:
            return
        session.apply(next_action(session.state))


def test_a_new_session_has_no_game_and_says_so(db):
    session = GameSession.open(str(db))
    assert not session.has_game()
    with pytest.raises(SessionError, match="start a new game"):
        session.apply(BeginActions())


def test_every_accepted_change_is_numbered_in_order_and_watchers_hear_each(db):
    session = GameSession.open(str(db))
    heard: list[Change] = []
    session.watch(heard.append)
    first = session.start_game(start_state())
    play(session, 12)
    numbers = [c.number for c in heard]
    assert numbers == list(range(first.number, first.number + 13))
    assert [c.kind for c in heard] == ["new_game"] + ["action"] * 12
    assert session.changes_since(first.number + 5) == heard[6:]


def test_an_illegal_action_raises_the_rule_and_changes_nothing(db):
    session = GameSession.open(str(db))
    session.start_game(start_state())
    before = (session.number, state_digest(session.state), len(session.record.entries))
    with pytest.raises(IllegalAction):
        session.apply(Move())  # player 0 is still routing power: a move belongs to the action step
    with pytest.raises(IllegalAction):
        session.apply(CorporationTurn())
    assert (session.number, state_digest(session.state), len(session.record.entries)) == before
    assert len(GameStore(db).changes()) == 1


def test_a_restart_recovers_the_game_exactly_and_undo_and_redo_survive_it(db):
    session = GameSession.open(str(db))
    session.start_game(start_state(seed=3))
    play(session, 120)  # past two snapshots
    session.undo()
    session.undo()
    digest, number, entries = state_digest(session.state), session.number, len(session.record.entries)
    session.close()

    again = GameSession.open(str(db))
    assert state_digest(again.state) == digest
    assert state_digest(replay(again.record)) == digest  # the recovered state is a replay of the log
    assert (again.number, len(again.record.entries)) == (number, entries)
    again.redo()
    again.redo()
    assert len(again.record.entries) == entries + 2
    with pytest.raises(SessionError, match="nothing to redo"):
        again.redo()


def test_undo_walks_back_to_the_start_and_no_further(db):
    session = GameSession.open(str(db))
    session.start_game(start_state())
    start = state_digest(session.state)
    play(session, 5)
    for _ in range(5):
        session.undo()
    assert state_digest(session.state) == start
    with pytest.raises(SessionError, match="nothing to undo"):
        session.undo()


def test_a_new_action_after_undo_clears_redo(db):
    session = GameSession.open(str(db))
    session.start_game(start_state())
    play(session, 3)
    session.undo()
    session.apply(next_action(session.state))
    with pytest.raises(SessionError):
        session.redo()


def test_physical_dice_ask_for_the_faces_then_apply_with_them(db):
    session = GameSession.open(str(db))
    session.start_game(start_state(), dice_mode="physical")
    session.apply(BeginActions())  # builds the dice pool: no roll
    asked = session.apply(next_action(session.state))
    while asked.kind != "dice_requested":
        asked = session.apply(next_action(session.state))
    # the engine says which dice, how many and for what, before any die is rolled
    wanted = asked.body["dice"]
    assert wanted and all(d["count"] >= 1 and d["die"].endswith("die") for d in wanted)
    assert asked.body["purpose"] and asked.body["purpose"] in asked.body["message"]
    entries = len(session.record.entries)
    done = session.supply_faces(["1"] * sum(d["count"] for d in wanted))
    while done.kind == "dice_requested":  # a roll may lead to another (a card drawn, a proprietary die)
        done = session.supply_faces(["1"] * sum(d["count"] for d in done.body["dice"]))
    assert done.kind == "action" and len(session.record.entries) == entries + 1
    faces = [f.face for f in session.record.entries[-1].faces]
    assert faces and session.pending_dice is None
    # a restart replays with exactly those faces
    digest = state_digest(session.state)
    session.close()
    assert state_digest(GameSession.open(str(db)).state) == digest


def test_supplying_faces_with_nothing_asked_is_refused(db):
    session = GameSession.open(str(db))
    session.start_game(start_state())
    with pytest.raises(SessionError, match="no dice are asked"):
        session.supply_faces(["3"])


def test_a_correction_is_logged_undone_and_recovered_like_an_action(db):
    session = GameSession.open(str(db))
    session.start_game(start_state())
    guard = session.state.security[0]
    free = next(s for s in ("A1", "B2", "C3", "D4", "E5", "F6", "G7")
                if all(u.space != s for u in session.state.security)
                and all(b.space != s for b in session.state.bots))
    change = session.apply(Correct(unit=guard.id, space=free, facing="W"))
    assert change.body["entry"]["events"][0]["type"] == "unit_corrected"
    moved = next(u for u in session.state.security if u.id == guard.id)
    assert (moved.space, moved.facing) == (free, "W")
    session.close()
    again = GameSession.open(str(db))
    assert next(u for u in again.state.security if u.id == guard.id).space == free
    again.undo()
    assert next(u for u in again.state.security if u.id == guard.id).space == guard.space


def test_a_correction_onto_a_taken_space_is_refused(db):
    session = GameSession.open(str(db))
    session.start_game(start_state())
    a, b = session.state.security[:2]
    with pytest.raises(IllegalAction, match="taken by another unit"):
        session.apply(Correct(unit=a.id, space=b.space))


def test_past_games_stay_and_a_game_exports_and_imports_on_another_table(db, tmp_path):
    session = GameSession.open(str(db))
    session.start_game(start_state(seed=1))
    play(session, 20)
    first = session.game_id
    exported = session.export_game()
    digest = state_digest(session.state)
    session.start_game(start_state(seed=2))
    assert [g["id"] for g in session.games()] == [first, session.game_id]

    other = GameSession.open(str(tmp_path / "other.sqlite"))
    other.import_game(exported)
    assert state_digest(other.state) == digest
    other.undo()  # an imported game is a game like any other
    assert len(other.record.entries) == 19


def test_an_import_that_does_not_replay_is_refused_and_changes_nothing(db):
    session = GameSession.open(str(db))
    session.start_game(start_state(seed=1))
    play(session, 5)
    data = session.export_game().replace(b'"digest":"', b'"digest":"0', 1)
    before = session.games()
    with pytest.raises(Exception, match="replays to a different state|digest"):
        session.import_game(data)
    assert session.games() == before


def test_a_locked_database_is_an_error_players_can_read_and_nothing_is_acknowledged(db):
    session = GameSession.open(str(db))
    session.start_game(start_state())
    locker = sqlite3.connect(str(db), timeout=0)
    locker.execute("BEGIN EXCLUSIVE")
    before = (session.number, state_digest(session.state), len(session.record.entries))
    try:
        with pytest.raises(StoreError, match="locked"):
            session.apply(BeginActions())
        assert (session.number, state_digest(session.state), len(session.record.entries)) == before
    finally:
        locker.rollback()
        locker.close()
    session.apply(BeginActions())  # and the table goes on once the lock is gone
    assert len(session.record.entries) == 1


def test_a_file_that_is_not_a_game_log_is_named(tmp_path):
    bad = tmp_path / "notes.sqlite"
    bad.write_text("shopping list\n" * 100)
    with pytest.raises(StoreError, match="not a burncycle-table game log"):
        GameSession.open(str(bad))


def test_a_slow_async_reader_catches_up_without_holding_the_writer(db):
    session = GameSession.open(str(db))
    session.start_game(start_state())

    async def read(count: int) -> list[int]:
        seen = []
        async for change in session.follow(0):
            seen.append(change.number)
            if len(seen) == count:
                return seen
            await asyncio.sleep(0.001)  # slower than the writer
        return seen

    async def main() -> list[int]:
        reader = asyncio.create_task(read(31))
        writer = threading.Thread(target=play, args=(session, 30))
        writer.start()
        await asyncio.to_thread(writer.join)
        return await asyncio.wait_for(reader, 10)

    numbers = asyncio.run(main())
    assert numbers == sorted(numbers) and len(set(numbers)) == 31


def test_the_log_remembers_a_failed_write_until_one_succeeds_for_the_health_page(db):
    session = GameSession.open(str(db))
    session.start_game(start_state())
    locker = sqlite3.connect(str(db), timeout=0)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError):
            session.apply(BeginActions())
        assert session.last_error is not None and "locked" in session.last_error
    finally:
        locker.rollback()
        locker.close()
    session.apply(BeginActions())
    assert session.last_error is None


def test_a_reader_never_waits_for_a_write_nor_sees_it_before_it_is_on_disk(db):
    """While a change waits on the disk (another program holds the log locked), `status`, `state` and the
    recent changes answer at once with the game as it was; the write fails, and nothing of it was ever shown."""
    session = GameSession.open(str(db))
    session.start_game(start_state())
    before = session.status()
    locker = sqlite3.connect(str(db), timeout=0)
    locker.execute("BEGIN EXCLUSIVE")
    failed: list[BaseException] = []
    writing = threading.Thread(target=lambda: failed.extend(_raised(lambda: session.apply(BeginActions()))))
    try:
        writing.start()
        seen = []
        for _ in range(20):
            asked = time.monotonic()
            seen.append(session.status())
            assert session.changes_since(before["number"]) == []
            assert time.monotonic() - asked < 0.05
            time.sleep(0.02)
        assert seen == [before] * 20
        writing.join(5)
    finally:
        locker.rollback()
        locker.close()
    assert [type(e) for e in failed] == [StoreError] and session.status() == before


def _raised(fn) -> list[BaseException]:
    try:
        fn()
    except BaseException as e:  # noqa: BLE001 - the test looks at what was raised
        return [e]
    return []


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["virtual", "physical"]), min_size=1, max_size=20))
def test_changes_handed_over_without_waiting_land_in_the_order_handed_over(tmp_path_factory, modes):
    """What the event loop hands the writer (`submit`, as a button press or an MQTT command is) is carried out
    in that order, each once, whatever the thread that waits meanwhile."""
    session = GameSession.open(str(tmp_path_factory.mktemp("order") / "table.sqlite"))
    try:
        first = session.start_game(start_state())
        futures = [session.submit(session.set_dice_mode, mode) for mode in modes]
        done = [f.result(10) for f in futures]
        logged = session.changes_since(first.number)
        assert [c.body["dice_mode"] for c in logged] == modes
        assert [c.number for c in done] == [c.number for c in logged] == list(range(first.number + 1,
                                                                                    first.number + 1 + len(modes)))
        assert session.dice_mode == modes[-1]
    finally:
        session.close()
