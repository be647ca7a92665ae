"""TableService as the one way in: its verbs change and read the game as the session behind them does (redo,
the corporation's turn, dice, the games in the log), and its parts are given when it is built (the camera,
the reconciler, the buttons), one supervisor over all of them."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped, unused-ignore]  # no stubs

from controller.autoplay.start import chosen_setup
from controller.cli.compose import build
from controller.library import load_content
from controller.rules import BadFace, BurncycleError, GameSetup, IllegalAction, new_game
from controller.service.camera.calibration import NoCamera
from controller.service.camera.component import CameraComponent
from controller.service.frame.web_server import WebServer
from controller.service.game.session import GameSession
from controller.service.table import TableService
from tests.support.service_helpers import Ticker, built_service, config
from vision.sources.base import Frame, FrameSource
from vision.status import Status
from web import create_app


class NoFrames(FrameSource):
    """A camera that is plugged in but never films (the table's parts are built, never started, here)."""

    name = "still camera"

    def _open(self) -> Status:
        return Status("ok", "opened", "open")

    def _read(self, timeout: float) -> Frame | Status:
        return Status("warning", "no_frame", "no frame yet")

    def _close(self) -> None:
        pass


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TableService]:
    with built_service(tmp_path, game=True) as made:
        yield made


def _moves_on(service: TableService, steps: int) -> None:
    for _ in range(steps):
        service.next_step()


def test_redo_through_the_facade_does_again_what_undo_took_back(service: TableService) -> None:
    _moves_on(service, 3)
    played = service.status()
    assert service.undo().kind == "undo" and service.status().digest != played.digest
    redone = service.redo()
    assert redone.kind == "redo"
    again = service.status()
    assert again.digest == played.digest and again.entries == played.entries
    assert again.can_redo is False and service.number == redone.number


def test_the_corporation_turn_through_the_facade_is_refused_out_of_turn_and_taken_in_turn(
        service: TableService) -> None:
    before = service.status()
    with pytest.raises(IllegalAction, match="the corporation turn follows"):
        service.corporation_turn()
    assert service.status() == before  # a refusal changes nothing
    while service.state.turn.step != "corporation":
        service.next_step()
    taken = service.corporation_turn()
    assert taken.kind == "action" and service.state.turn.step != "corporation"


def _asks_for_dice(service: TableService) -> None:
    service.set_dice_mode("physical")
    service.next_step()  # route power done
    move = next(a for a in service.legal().actions if a["tag"] == "move")
    assert service.apply_json(move["action"]).kind == "dice_requested"


def test_the_dice_mode_the_players_chose_stays_across_new_games_and_restarts(tmp_path: Path) -> None:
    """Issue 37: a game night chooses "Dice: rolled by us" once. table.toml's `dice` (virtual here) is the mode of
    the table's first game; once the players choose, every new game keeps their choice, across a restart of the
    service, until they choose again."""
    with built_service(tmp_path, game=True) as first:
        assert first.status().dice_mode == "virtual"
        first.set_dice_mode("physical")
        first.new_game()
        assert first.status().dice_mode == "physical"
    with built_service(tmp_path, game=False) as restarted:
        assert restarted.status().dice_mode == "physical"
        restarted.new_game()
        assert restarted.status().dice_mode == "physical"
        restarted.set_dice_mode("virtual")
        restarted.new_game()
        assert restarted.status().dice_mode == "virtual"


def test_dice_faces_are_checked_and_a_roll_given_up_through_the_facade(service: TableService) -> None:
    _asks_for_dice(service)
    asked = service.status()
    with pytest.raises(BadFace, match="not a face of the basic die"):
        service.supply_faces(["banana"])
    assert service.status() == asked  # the request stays as it was
    assert service.cancel_dice().kind == "dice_cancelled"
    assert service.status().pending_dice is None and service.status().digest == asked.digest


def test_dice_faces_through_the_facade_carry_the_action_out(service: TableService) -> None:
    _asks_for_dice(service)
    pending = service.status().pending_dice
    assert pending
    faces = [w.faces[0] for w in pending.dice for _ in range(w.count)]
    assert service.supply_faces(faces).kind == "action"
    assert service.status().pending_dice is None


def test_a_game_exported_imported_and_resumed_through_the_facade(service: TableService) -> None:
    _moves_on(service, 2)
    first, digest = service.status().game, service.status().digest
    imported = service.import_game(service.export_game())
    assert imported.game != first and service.status().digest == digest
    assert [g.id for g in service.games().games] == [first, imported.game]
    assert service.resume_game(first).kind == "resumed" and service.status().game == first
    assert next(g for g in service.games().games if g.current).id == first


def test_the_parts_are_given_when_the_service_is_built_and_one_supervisor_holds_them(tmp_path: Path) -> None:
    made = config(tmp_path)
    buttons = made.buttons.model_copy(update={"next_pin": 17, "undo_pin": 27})
    service = build(made.model_copy(update={"buttons": buttons}), source=NoFrames, pin_factory=MockFactory())
    try:
        supervisor = service._supervisor
        names = [c.name for c in service.components]
        assert names[:3] == ["game", "buttons", "camera"] and "web" in names
        assert service._camera is supervisor.get("camera", CameraComponent)
        assert service.table_view().camera is True and isinstance(service.table_view().number, int)  # the reconciler's
        service.add(Ticker())
        assert service._supervisor is supervisor and service.components[-1].name == "ticker"
        with pytest.raises(ValueError, match="component names must differ"):
            service.add(Ticker())
    finally:
        service.close()


def test_a_press_of_the_buttons_built_with_the_service_reaches_it(tmp_path: Path) -> None:
    """The buttons are made with the service's own `press`: no reference to the service patched in afterwards."""
    made = config(tmp_path)
    factory = MockFactory()
    service = build(made.model_copy(update={"buttons": made.buttons.model_copy(update={"next_pin": 17})}),
                    pin_factory=factory, seed=3)

    async def press_next() -> None:
        service.new_game()
        assert service._buttons is not None
        await service._buttons.start()
        before = service.number
        pin = factory.pin(17)
        pin.drive_low()
        await asyncio.sleep(0.05)
        pin.drive_high()  # released before the long press: a short press of "next"
        for _ in range(100):
            if service.number > before:
                break
            await asyncio.sleep(0.01)
        await service._buttons.stop()
        assert service.number > before and service.last_refusal is None

    try:
        asyncio.run(press_next())
    finally:
        service.close()


def test_the_phone_address_names_the_port_really_served(tmp_path: Path) -> None:
    """table.toml's port while no web server runs; once one listens, the port it got (port 0 asks for any)."""
    service = TableService(config(tmp_path), load_content(), GameSession.open(str(tmp_path / "games.sqlite3")))
    assert service.phone_address() == "http://127.0.0.1:8080/"
    web = WebServer(create_app(service), "127.0.0.1", 0)
    service.add(web)

    async def listening() -> str:
        await web.start()  # binds the socket
        try:
            return service.phone_address()
        finally:
            await web.stop()

    try:
        served = asyncio.run(listening())
        assert web.port != 0 and served == f"http://127.0.0.1:{web.port}/"
    finally:
        service.close()


def test_a_table_without_a_camera_or_leds_says_so_through_the_facade(service: TableService) -> None:
    assert msgspec.to_builtins(service.camera_status()) == {"configured": False}
    assert service.led_frame() is None and not service.leds_view().configured
    for verb in (service.camera_picture, lambda: service.mat_picture(16, 16), service.find_board,
                 service.finding_picture, service.confirm_board):
        with pytest.raises(NoCamera, match="this table has no camera: set camera.source in table.toml"):
            verb()


def test_next_pressed_on_many_phones_at_once_takes_one_step_each(service: TableService) -> None:
    """"Next" reads the game and steps it as one job of the writer: presses that race take a step each, every one
    from the state the one before it left (read apart, two presses could take the same step twice, and the
    second was refused or, worse, taken from a state that no longer was)."""
    before = service.number
    start = threading.Barrier(4)
    refused: list[Exception] = []

    def press() -> None:
        start.wait()
        for _ in range(15):
            try:
                service.next_step()
            except BurncycleError as err:
                refused.append(err)

    threads = [threading.Thread(target=press) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert refused == [] and service.number == before + 60


@pytest.mark.parametrize("plays_itself", [False, True])
def test_a_table_that_plays_itself_lets_its_auto_player_choose_where_the_team_starts(tmp_path, plays_itself):
    """Rescue Rangers: "Agents start on any safe zone space." A table the players play starts them where table.toml
    says (here nothing: the first free spaces in reading order, the players moving chips before the first turn);
    the demo's table, which plays itself, lets its auto-player choose (`chosen_setup`), every new game."""
    table = config(tmp_path).model_copy(update={"game": config(tmp_path).game.model_copy(update={
        "mission": "rescue-rangers", "level": 1, "agents": ("nano", "casing")})})
    service = build(table, seed=5, choose=chosen_setup if plays_itself else None)
    try:
        for _ in range(2):
            service.new_game()
            setup = GameSetup(mission="rescue-rangers", level=1, players=2, agents=["nano", "casing"],
                              seed=service.state.seed)
            expected = chosen_setup(load_content(), setup) if plays_itself else setup
            at = {b.id: b.space for b in service.state.bots if b.kind == "agent"}
            assert at == {b.id: b.space for b in new_game(load_content(), expected).bots if b.kind == "agent"}
            reading_order = {b.id: b.space for b in new_game(load_content(), setup).bots if b.kind == "agent"}
            assert (at != reading_order) is plays_itself
    finally:
        service._session.close()
