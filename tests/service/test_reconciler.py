"""The reconciler: chips moved on the table become the engine's steps, or questions, never a silent change.

Game situations come from seeded games played by the auto-player; observations come either from the real vision
pipeline on rendered frames, or are built the way the temporal filter builds them (unit -> confirmed space,
facing, seen, doubt), for the cases where only the reconciler's judgement is under test.
"""

from __future__ import annotations

import sqlite3
import threading
import time

import msgspec
import pytest

from controller.cli.compose import build
from controller.library import load_floor
from controller.rules.actions import Correct, Step, apply_action
from controller.rules.record import state_digest
from controller.service.camera.reconciler import Reconciler, ReconcilerError, placements
from controller.service.frame.config import ServiceConfig
from controller.service.game.session import GameSession
from controller.service.table import TableService
from tests.support.observations import CONFIG, a_strike_that_shuts_a_guard_down, seen
from tests.support.session_support import next_action, played_until
from vision.pipeline import VisionPipeline
from vision.synth import CameraPose, Hand, Renderer, scene_from_state

HD = (1920, 1080)
POSE = CameraPose(tilt_deg=15.0, azimuth_deg=30.0)


@pytest.fixture
def moving(tmp_path):
    """A session in the middle of a move action: Byte (the active agent, H3) and the command module (F3) have
    3 AP between them; Casing (I3) is the other player's agent."""
    _, state = played_until(lambda s: s.turn.pending is not None)
    assert placements(state)["byte"] == ("H3", None) and placements(state)["module"] == ("F3", None)
    assert placements(state)["casing"] == ("I3", None) and state.turn.pending.ap == 3
    session = GameSession.open(str(tmp_path / "table.sqlite"))
    session.start_game(state)
    yield session
    session.close()


def steps_logged(session: GameSession, n: int) -> list[tuple[str, str]]:
    return [(e.action.bot, e.action.to) for e in session.record.entries[-n:] if isinstance(e.action, Step)]


def run_frames(pipeline: VisionPipeline, reconciler: Reconciler, grey, t: float, frames: int,
               until=lambda: False) -> float:
    for _ in range(frames):
        reconciler.observe(pipeline.process(grey, t).observation)
        t += 1 / 15
        if until():
            break
    return t


def test_a_legal_move_seen_by_the_real_pipeline_becomes_the_engines_step(moving):
    state = moving.state
    floor = load_floor("meridian-lobby")
    pipeline, renderer = VisionPipeline(floor, CONFIG), Renderer(floor, CONFIG)
    reconciler = Reconciler(moving, CONFIG)
    scene = scene_from_state(state, CONFIG)
    t = run_frames(pipeline, reconciler, renderer.render(scene, POSE, HD).grey, 0.0, 8)
    assert pipeline.observation.placed()["byte"] == ("H3", None)
    assert moving.record.entries == [] and reconciler.view.misplaced == ()

    moved = renderer.render(scene.moved("byte", "H4"), POSE, HD).grey
    run_frames(pipeline, reconciler, moved, t, 30, until=lambda: bool(moving.record.entries))

    assert placements(moving.state)["byte"] == ("H4", None)
    assert steps_logged(moving, 1) == [("byte", "H4")] and len(moving.record.entries) == 1
    expected, _ = apply_action(state, Step(bot="byte", to="H4"))
    assert state_digest(moving.state) == state_digest(expected)
    view = reconciler.view
    assert view.misplaced == () and [q for q in view.questions if q.kind != "vision"] == []


def test_an_illegal_move_is_a_question_naming_the_rule_until_the_chip_is_put_back(moving):
    state, number = moving.state, moving.number
    reconciler = Reconciler(moving, CONFIG)
    reconciler.observe(seen(state, 1.0))
    view = reconciler.observe(seen(state, 2.0, moved={"casing": ("J3", None)}))  # not this player's bot

    assert moving.number == number and state_digest(moving.state) == state_digest(state)
    [question] = view.questions
    assert question.kind == "refused" and question.unit == "casing"
    assert "Casing cannot go from I3 to J3: casing cannot move now: the player distributes the AP" in question.text
    [misplaced] = view.misplaced
    assert (misplaced.unit, misplaced.seen, misplaced.expected) == ("casing", ("J3", None), ("I3", None))
    assert view.to_dict()["misplaced"][0]["text"] == "Casing is seen at J3; the game has it at I3"

    view = reconciler.observe(seen(state, 3.0))  # put back
    assert view.questions == () and view.misplaced == () and moving.number == number


def test_a_step_the_game_log_cannot_write_is_refused_saying_why_and_nothing_of_it_happens(moving):
    """A move seen by the camera while the log is locked (another program holds the file): the players read why
    on the table view, and the game stays as it was; the camera's thread goes on."""
    state, number = moving.state, moving.number
    reconciler = Reconciler(moving, CONFIG)
    reconciler.observe(seen(state, 1.0))
    locker = sqlite3.connect(str(moving.path), timeout=0)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        view = reconciler.observe(seen(state, 2.0, moved={"byte": ("H4", None)}))
    finally:
        locker.rollback()
        locker.close()
    assert moving.number == number and state_digest(moving.state) == state_digest(state)
    [question] = view.questions
    assert question.kind == "refused" and question.unit == "byte"
    assert "Byte cannot go from H3 to H4" in question.text and "locked" in question.text


def test_a_step_through_a_wall_is_refused_with_the_engines_rule(moving):
    state, number = moving.state, moving.number
    reconciler = Reconciler(moving, CONFIG)
    reconciler.observe(seen(state, 1.0))
    view = reconciler.observe(seen(state, 2.0, moved={"byte": ("H2", None)}))
    [question] = view.questions
    assert "a wall stands between H3 and H2: walls block adjacency" in question.text
    assert moving.number == number


def test_a_lifted_bot_put_down_with_one_cheapest_way_takes_it(moving):
    state = moving.state
    reconciler = Reconciler(moving, CONFIG)
    reconciler.observe(seen(state, 1.0))
    reconciler.observe(seen(state, 2.0, unseen=("byte",)))  # lifted
    view = reconciler.observe(seen(state, 3.0, moved={"byte": ("G4", None)}))

    assert steps_logged(moving, 2) == [("byte", "H4"), ("byte", "G4")]
    assert placements(moving.state)["byte"] == ("G4", None)
    assert view.misplaced == () and view.questions == ()


def test_two_cheapest_ways_that_differ_are_a_question_and_the_answer_is_applied(moving):
    state, number = moving.state, moving.number
    reconciler = Reconciler(moving, CONFIG)
    reconciler.observe(seen(state, 1.0))
    reconciler.observe(seen(state, 2.0, unseen=("module",)))
    view = reconciler.observe(seen(state, 3.0, moved={"module": ("E4", None)}))

    assert moving.number == number  # nothing happens until the players say which way
    [question] = view.questions
    assert question.kind == "route" and question.unit == "module"
    assert sorted(o.split(":")[0] for o in question.options) == ["F3 > E3 > E4", "F3 > F4 > E4"]
    via_f4 = next(o for o in question.options if o.startswith("F3 > F4"))
    assert "detected on F4 by guard 1" in via_f4
    assert [m.unit for m in view.misplaced] == ["module"]

    quiet = next(k for k, o in enumerate(question.options) if o.startswith("F3 > E3"))
    view = reconciler.answer(question.id, quiet)
    assert steps_logged(moving, 2) == [("module", "E3"), ("module", "E4")]
    assert view.questions == () and view.misplaced == ()
    with pytest.raises(ReconcilerError, match=f"question '{question.id}' is not open"):
        reconciler.answer(question.id, 0)


def test_an_answer_that_is_no_option_names_the_options(moving):
    state = moving.state
    reconciler = Reconciler(moving, CONFIG)
    reconciler.observe(seen(state, 1.0))
    reconciler.observe(seen(state, 2.0, unseen=("module",)))
    [question] = reconciler.observe(seen(state, 3.0, moved={"module": ("E4", None)})).questions
    with pytest.raises(ReconcilerError, match=r"7 is not one of its options \(0: F3 > "):
        reconciler.answer(question.id, 7)


def test_a_hand_over_the_board_changes_nothing_and_is_a_question(moving):
    state, number = moving.state, moving.number
    floor = load_floor("meridian-lobby")
    pipeline, renderer = VisionPipeline(floor, CONFIG), Renderer(floor, CONFIG)
    reconciler = Reconciler(moving, CONFIG)
    scene = scene_from_state(state, CONFIG)
    frame = renderer.render(scene, POSE, HD)
    t = run_frames(pipeline, reconciler, frame.grey, 0.0, 8)
    x, y = frame.units["byte"].image_px
    covered = renderer.render(scene.moved("byte", "H4"), POSE, HD,
                              hands=(Hand(x / HD[0], y / HD[1], 90.0, 260.0),)).grey
    run_frames(pipeline, reconciler, covered, t, 60)  # four seconds of a hand over the moved chip

    assert not pipeline.observation.units["byte"].seen
    assert moving.number == number
    view = reconciler.view
    assert any(q.kind == "vision" and "Byte (last at H3)" in q.text for q in view.questions)


def test_a_chip_between_spaces_is_a_question_not_a_move(moving):
    state, number = moving.state, moving.number
    reconciler = Reconciler(moving, CONFIG)
    reconciler.observe(seen(state, 1.0))
    between = seen(state, 2.0, doubt={"byte": ("H3", "H4")})
    between.questions = ("unit byte: between spaces; place it squarely in one space",)
    view = reconciler.observe(between)
    assert moving.number == number
    assert [q.text for q in view.questions] == ["unit byte: between spaces; place it squarely in one space"]


@pytest.fixture
def after_corporation(tmp_path):
    """A session just before the corporation's turn of the seeded game, and a reconciler that has seen the
    board as the game has it."""
    start, _ = played_until(lambda s: s.turn.step == "corporation")
    session = GameSession.open(str(tmp_path / "table.sqlite"))
    session.start_game(start)
    while session.state.turn.step != "corporation":
        session.apply(next_action(session.state))
    before = session.state
    reconciler = Reconciler(session, CONFIG)
    reconciler.observe(seen(before, 1.0))
    session.corporation_turn()
    yield session, reconciler, before
    session.close()


def test_the_corporations_instructions_wait_for_the_camera_then_are_ticked_off(after_corporation):
    session, reconciler, before = after_corporation
    after = session.state
    view = reconciler.observe(seen(before, 2.0))  # nobody has moved a guard yet
    texts = {i.unit: i.text for i in view.instructions}
    assert texts == {"G1": "move Pacer G1 from K4 to H4, facing west",
                     "G2": "move Sentry G2 from P15 to P13, facing north",
                     "G3": "move Tracker G3 from O9 to O7, facing north",
                     "G4": "move Rover G4 from I16 to F16, facing west"}
    assert [i.done for i in view.instructions] == [False] * 4 and view.misplaced == ()

    partly = {u: p for u, p in placements(after).items() if u in ("G1", "G2")}
    view = reconciler.observe(seen(before, 3.0, moved=partly))
    assert {i.unit for i in view.pending} == {"G3", "G4"}
    view = reconciler.observe(seen(after, 4.0))
    assert view.pending == () and view.misplaced == ()
    assert [i["done"] for i in view.to_dict()["instructions"]] == [True] * 4
    assert session.record.entries[-1].action.__struct_config__.tag == "corporation_turn"  # the camera added nothing


def test_a_table_without_a_camera_still_lists_the_corporations_moves(tmp_path):
    """The players carry out the guards' moves on the board whether or not a camera watches it: with no camera
    the table's view lists them (the same words as with one), none ticked off, and says there is no camera."""
    start, _ = played_until(lambda s: s.turn.step == "corporation")
    service = build(ServiceConfig(database={"path": tmp_path / "games.sqlite3"},  # type: ignore[arg-type]
                                  web={"host": "127.0.0.1", "port": 8080}, camera={"source": "none"}), seed=5)
    try:
        service.play_from(start)
        while service.state.turn.step != "corporation":
            service.apply(next_action(service.state))
        assert all(i.unit in ("byte", "module", "casing") for i in service.table_view().instructions)
        service.corporation_turn()
        view = msgspec.to_builtins(service.table_view())
        assert view["camera"] is False and service._camera is None
        assert {i["unit"]: i["text"] for i in view["instructions"]} == {
            "G1": "move Pacer G1 from K4 to H4, facing west", "G2": "move Sentry G2 from P15 to P13, facing north",
            "G3": "move Tracker G3 from O9 to O7, facing north", "G4": "move Rover G4 from I16 to F16, facing west"}
        assert [i["done"] for i in view["instructions"]] == [False] * 4
    finally:
        service.close()


def no_camera_table(tmp_path) -> TableService:
    """A table with no camera and its PIN set, its game log in `tmp_path` (built again on the same file, it is
    the same table restarted)."""
    return build(ServiceConfig(database={"path": tmp_path / "games.sqlite3"},  # type: ignore[arg-type]
                               web={"host": "127.0.0.1", "port": 8080, "pin": "2468"},
                               camera={"source": "none"}), seed=5)


def test_a_restart_gives_the_players_back_the_instructions_the_table_showed(tmp_path):
    """Issue 37: with no camera the instructions stay until the next corporation turn, and a restart (the service
    built again on the same game log) shows them again, from the log; the next corporation turn replaces them (the
    players carried out the last one's: nothing else can tick them off), before a restart and after one."""
    start, _ = played_until(lambda s: s.turn.step == "corporation")
    service = no_camera_table(tmp_path)
    try:
        service._session.start_game(start)
        assert msgspec.to_builtins(service.table_view().instructions) == []  # a phone looks at the table
        while service.state.turn.step != "corporation":
            service.next_step()
            service.table_view()  # after each change, as the live feed asks (the list taken in change by change)
        service.next_step()  # the corporation's turn
        shown = msgspec.to_builtins(service.table_view().instructions)
        assert len(shown) == 4 and {i["unit"] for i in shown} == {"G1", "G2", "G3", "G4"}
        digest = service._session.status()["digest"]
    finally:
        service.close()

    again = no_camera_table(tmp_path)
    try:
        assert again._session.status()["digest"] == digest
        assert msgspec.to_builtins(again.table_view().instructions) == shown
        while again._session.state.turn.step != "corporation":  # nobody looks meanwhile: read together after
            again._session.apply(next_action(again._session.state))
        before = placements(again._session.state)
        again.next_step()
        second = msgspec.to_builtins(again.table_view().instructions)
        after = placements(again._session.state)
        assert second and {i["unit"] for i in second} == {u for u in after if after[u] != before.get(u)}
        assert all(i["from"] == (before[i["unit"]] or (None,))[0] for i in second)  # from where the chips stand now
    finally:
        again._session.close()
    third = no_camera_table(tmp_path)
    try:
        assert msgspec.to_builtins(third.table_view().instructions) == second
    finally:
        third._session.close()


def test_a_guard_on_the_wrong_space_or_facing_shows_as_misplaced(after_corporation):
    session, reconciler, before = after_corporation
    after = session.state
    number = session.number
    view = reconciler.observe(seen(after, 2.0, moved={"G1": ("J4", "W"), "G3": ("O7", "W")}))
    misplaced = {m.unit: (m.seen, m.expected) for m in view.misplaced}
    assert misplaced == {"G1": (("J4", "W"), ("H4", "W")), "G3": (("O7", "W"), ("O7", "N"))}
    assert {i.unit for i in view.pending} == {"G1", "G3"}
    assert session.number == number  # guards are the corporation's: the camera never moves them in the game
    view = reconciler.observe(seen(after, 3.0))
    assert view.misplaced == () and view.pending == ()


def test_a_manual_correction_wins_over_the_camera(moving):
    state = moving.state
    reconciler = Reconciler(moving, CONFIG)
    reconciler.observe(seen(state, 1.0))
    reconciler.observe(seen(state, 2.0, unseen=("byte",)))
    view = reconciler.observe(seen(state, 3.0, moved={"byte": ("H7", None)}))  # too far for the AP left
    [question] = view.questions
    assert "no legal way from H3 to H7 in at most 3 steps (the AP left)" in question.text

    reconciler.correct("byte", "H7")
    assert placements(moving.state)["byte"] == ("H7", None)
    assert moving.record.entries[-1].action == Correct(unit="byte", space="H7")
    view = reconciler.observe(seen(state, 4.0, moved={"byte": ("H7", None)}))
    assert view.questions == () and view.misplaced == ()

    # the game corrected to where the chip is not: the chip is to be moved, the game is never moved back
    reconciler.correct("byte", "G3")
    number = moving.number
    for ts in (5.0, 6.0):
        view = reconciler.observe(seen(state, ts, moved={"byte": ("H7", None)}))
    assert moving.number == number and placements(moving.state)["byte"] == ("G3", None)
    assert [i.text for i in view.pending] == ["move Byte from H7 to G3"] and view.misplaced == ()
    view = reconciler.observe(seen(state, 7.0, moved={"byte": ("A1", None)}))  # put somewhere else again
    assert [(m.unit, m.seen, m.expected) for m in view.misplaced] == [("byte", ("A1", None), ("G3", None))]
    view = reconciler.observe(seen(state, 8.0, moved={"byte": ("G3", None)}))
    assert view.pending == () and view.misplaced == () and view.questions == () and moving.number == number


def test_answering_a_refused_move_with_its_option_corrects_the_game(moving):
    state = moving.state
    reconciler = Reconciler(moving, CONFIG)
    reconciler.observe(seen(state, 1.0))
    [question] = reconciler.observe(seen(state, 2.0, moved={"casing": ("J3", None)})).questions
    view = reconciler.answer(question.id, question.options[0])
    assert moving.record.entries[-1].action == Correct(unit="casing", space="J3")
    assert view.questions == () and view.misplaced == ()


def test_a_guard_shut_down_is_to_be_taken_off_the_board_until_the_camera_no_longer_places_it(tmp_path):
    # an agent strikes a guard down with dice rolled at the table
    state, strike, faces = a_strike_that_shuts_a_guard_down()
    guard = strike.unit
    session = GameSession.open(str(tmp_path / "table.sqlite"))
    session.start_game(state, dice_mode="physical")
    reconciler = Reconciler(session, CONFIG)
    reconciler.observe(seen(state, 1.0))
    session.apply(strike, faces)
    assert all(u.id != guard for u in session.state.security)

    name = next(f"{u.chip} {guard}" for u in state.security if u.id == guard)
    view = reconciler.observe(seen(state, 2.0))  # the chip still stands where the guard was
    [instruction] = view.instructions
    assert (instruction.unit, instruction.done) == (guard, False)
    assert instruction.text == f"take {name} off the board (it was at {placements(state)[guard][0]})"
    assert view.misplaced == ()
    view = reconciler.observe(seen(state, 3.0, unseen=(guard,)))  # gone from the camera's sight for long enough
    assert view.pending == () and view.misplaced == ()
    session.close()


def test_a_guard_taken_off_the_board_leaves_its_namesakes_on_their_own_chips(tmp_path):
    """Two Trackers on the board, on tracker-1 and tracker-2: when the first is shut down, the second still
    stands on tracker-2, so the camera seeing tracker-2 where it was is no misplacement, and the first's removal
    is still to be done while tracker-1 stands on the board."""
    state, strike, faces = a_strike_that_shuts_a_guard_down(unique=False)
    session = GameSession.open(str(tmp_path / "table.sqlite"))
    try:
        session.start_game(state, dice_mode="physical")
        reconciler = Reconciler(session, CONFIG)
        reconciler.observe(seen(state, 1.0))
        session.apply(strike, faces)
        view = reconciler.observe(seen(state, 2.0))  # nobody has touched a chip yet
        assert [(i.unit, i.done) for i in view.instructions] == [(strike.unit, False)]
        assert view.misplaced == ()
    finally:
        session.close()


def test_a_restarted_table_still_has_each_guard_on_the_chip_it_stood_on(tmp_path):
    """The chips come back with the game's log: the service stopped after a guard was shut down, a new session and
    reconciler on the same file still have its namesake on its own chip, and the struck guard's removal is done once
    its chip is gone, and not before."""
    state, strike, faces = a_strike_that_shuts_a_guard_down(unique=False)
    path = str(tmp_path / "table.sqlite")
    session = GameSession.open(path)
    session.start_game(state, dice_mode="physical")
    session.apply(strike, faces)
    session.close()
    session = GameSession.open(path)
    try:
        reconciler = Reconciler(session, CONFIG)
        view = reconciler.observe(seen(state, 1.0))  # nobody has touched a chip since the strike
        assert [(i.unit, i.done) for i in view.instructions] == [(strike.unit, False)]
        assert view.misplaced == ()
        view = reconciler.observe(seen(state, 2.0, unseen=(strike.unit,)))  # its chip taken off
        assert [(i.unit, i.done) for i in view.instructions] == [(strike.unit, True)]
        assert view.misplaced == () and view.questions == ()
        session.undo()  # the strike taken back: the guard is to stand on its own chip again, where it stood
        view = reconciler.observe(seen(state, 3.0))  # and is put back
        assert [(i.unit, i.text.startswith("put "), i.done) for i in view.instructions] == [(strike.unit, True, True)]
        assert view.misplaced == ()
    finally:
        session.close()


def test_the_camera_thread_and_a_correction_from_another_thread_leave_one_consistent_picture(moving):
    state = moving.state
    reconciler = Reconciler(moving, CONFIG)
    reconciler.observe(seen(state, 0.0))
    errors: list[BaseException] = []

    def camera() -> None:
        try:
            for k in range(200):
                reconciler.observe(seen(state, 1.0 + k / 30))
        except BaseException as e:  # the test reports whatever the thread met
            errors.append(e)

    thread = threading.Thread(target=camera)
    thread.start()
    reconciler.correct("casing", "J3")
    thread.join()
    assert errors == []
    view = reconciler.observe(seen(state, 10.0))
    assert placements(moving.state)["casing"] == ("J3", None) and len(moving.record.entries) == 1
    assert [i.text for i in view.pending] == ["move Casing from I3 to J3"] and view.misplaced == ()


def test_reading_the_view_never_waits_for_a_write_the_reconciler_makes(moving):
    """The session's writer is held (a slow disk) while a correction goes through the reconciler: reading the view
    meanwhile answers at once, with the view from before the write, and the reader is told once it has landed."""
    state = moving.state
    reconciler = Reconciler(moving, CONFIG)
    before = reconciler.observe(seen(state, 1.0))
    told = threading.Event()
    reconciler.on_news(told.set)
    held, release = threading.Event(), threading.Event()
    disk = threading.Thread(target=moving.write, args=(lambda: held.set() or release.wait(5),))
    disk.start()
    assert held.wait(5)
    correcting = threading.Thread(target=reconciler.correct, args=("casing", "J3"))
    correcting.start()
    time.sleep(0.2)  # the correction is queued behind the held write now
    try:
        t0 = time.monotonic()
        during = reconciler.view
        waited = time.monotonic() - t0
    finally:
        release.set()
        correcting.join(5)
        disk.join(5)
    assert waited < 0.1, f"reading the view waited {waited:.2f} s for the session's writer"
    assert during == before and not correcting.is_alive()
    assert told.is_set()  # the reader's view was out of date once the correction landed
    after = reconciler.view
    assert after.number > before.number and [i.text for i in after.pending] == ["move Casing from I3 to J3"]


def test_undoing_the_corporations_turn_before_the_guards_are_moved_leaves_nothing_to_do(after_corporation):
    session, reconciler, before = after_corporation
    assert len(reconciler.observe(seen(before, 2.0)).pending) == 4
    session.undo()
    view = reconciler.observe(seen(before, 3.0))
    assert view.instructions == () and view.misplaced == ()


def test_a_table_built_with_a_camera_reading_reads_the_table_by_it(tmp_path):
    """`build(vision=...)`: the reading given (the booth's memory bench gives its demo a quicker confirmation) is
    the one the camera's pipeline and the reconciler both judge by; without one, a table's (VisionConfig())."""
    from dataclasses import replace

    from controller.rules import compile_floor
    from controller.service.camera.component import CameraComponent
    from controller.service.demo.booth import DemoCamera, DemoTable
    from vision.config import FilterSettings, VisionConfig

    quick = replace(VisionConfig(), filter=FilterSettings(confirm_frames=2, confirm_seconds=0.0))
    for reading, expected in ((quick, quick), (None, VisionConfig())):
        folder = tmp_path / ("quick" if reading else "table")
        folder.mkdir()
        service = build(ServiceConfig(database={"path": folder / "games.sqlite3"},  # type: ignore[arg-type]
                                      web={"host": "127.0.0.1", "port": 8080}), seed=5,
                        source=lambda: DemoCamera(DemoTable()), vision=reading)
        try:
            camera = service.component("camera", CameraComponent)
            assert camera is not None and service._reconciler is not None
            floor = service.state.floor
            assert camera.make_pipeline(compile_floor(floor.text, floor.name)).config == expected
            assert service._reconciler.config == expected
        finally:
            service.close()
