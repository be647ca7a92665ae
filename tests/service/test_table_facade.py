"""TableService as the one way in: its verbs change and read the game as the session behind them does (redo,
the corporation's turn, dice, the games in the log), and its parts are given when it is built (the camera,
the reconciler, the buttons), one supervisor over all of them."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped, unused-ignore]  # no stubs

from controller.cli.compose import build
from controller.library import load_content
from controller.rules import BadFace, BurncycleError, IllegalAction
from controller.service.camera.component import CameraComponent
from controller.service.frame.web_server import WebServer
from controller.service.game.session import GameSession
from controller.service.table import NoCamera, TableService
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
    assert service.undo().kind == "undo" and service.status()["digest"] != played["digest"]
    redone = service.redo()
    assert redone.kind == "redo"
    again = service.status()
    assert again["digest"] == played["digest"] and again["entries"] == played["entries"]
    assert again["can_redo"] is False and service.number == redone.number


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
    move = next(a for a in service.legal_json()["actions"] if a["tag"] == "move")
    assert service.apply_json(move["action"]).kind == "dice_requested"


def test_the_dice_mode_the_players_chose_stays_across_new_games_and_restarts(tmp_path: Path) -> None:
    """Issue 37: a game night chooses "Dice: rolled by us" once. table.toml's `dice` (virtual here) is the mode of
    the table's first game; once the players choose, every new game keeps their choice, across a restart of the
    service, until they choose again."""
    with built_service(tmp_path, game=True) as first:
        assert first.status()["dice_mode"] == "virtual"
        first.set_dice_mode("physical")
        first.new_game()
        assert first.status()["dice_mode"] == "physical"
    with built_service(tmp_path, game=False) as restarted:
        assert restarted.status()["dice_mode"] == "physical"
        restarted.new_game()
        assert restarted.status()["dice_mode"] == "physical"
        restarted.set_dice_mode("virtual")
        restarted.new_game()
        assert restarted.status()["dice_mode"] == "virtual"


def test_dice_faces_are_checked_and_a_roll_given_up_through_the_facade(service: TableService) -> None:
    _asks_for_dice(service)
    asked = service.status()
    with pytest.raises(BadFace, match="not a face of the basic die"):
        service.supply_faces(["banana"])
    assert service.status() == asked  # the request stays as it was
    assert service.cancel_dice().kind == "dice_cancelled"
    assert service.status()["pending_dice"] is None and service.status()["digest"] == asked["digest"]


def test_dice_faces_through_the_facade_carry_the_action_out(service: TableService) -> None:
    _asks_for_dice(service)
    wanted = service.status()["pending_dice"]["dice"]
    faces = [w["faces"][0] for w in wanted for _ in range(w["count"])]
    assert service.supply_faces(faces).kind == "action"
    assert service.status()["pending_dice"] is None


def test_a_game_exported_imported_and_resumed_through_the_facade(service: TableService) -> None:
    _moves_on(service, 2)
    first, digest = service.status()["game"], service.status()["digest"]
    imported = service.import_game(service.export_game())
    assert imported.game != first and service.status()["digest"] == digest
    assert [g["id"] for g in service.games()] == [first, imported.game]
    assert service.resume_game(first).kind == "resumed" and service.status()["game"] == first
    assert next(g for g in service.games() if g["current"])["id"] == first


def test_the_parts_are_given_when_the_service_is_built_and_one_supervisor_holds_them(tmp_path: Path) -> None:
    made = config(tmp_path)
    buttons = made.buttons.model_copy(update={"next_pin": 17, "undo_pin": 27})
    service = build(made.model_copy(update={"buttons": buttons}), source=NoFrames, pin_factory=MockFactory())
    try:
        supervisor = service.supervisor
        names = [c.name for c in service.components]
        assert names[:3] == ["game", "buttons", "camera"] and "web" in names
        assert service.camera is supervisor.get("camera", CameraComponent)
        assert service.table_view()["camera"] is True and "number" in service.camera_view()  # the reconciler's
        service.add(Ticker())
        assert service.supervisor is supervisor and service.components[-1].name == "ticker"
        with pytest.raises(ValueError, match="component names must differ"):
            service.add(Ticker())
    finally:
        service.session.close()


def test_a_press_of_the_buttons_built_with_the_service_reaches_it(tmp_path: Path) -> None:
    """The buttons are made with the service's own `press`: no reference to the service patched in afterwards."""
    made = config(tmp_path)
    factory = MockFactory()
    service = build(made.model_copy(update={"buttons": made.buttons.model_copy(update={"next_pin": 17})}),
                    pin_factory=factory, seed=3)

    async def press_next() -> None:
        service.new_game()
        assert service.buttons is not None
        await service.buttons.start()
        before = service.number
        pin = factory.pin(17)
        pin.drive_low()
        await asyncio.sleep(0.05)
        pin.drive_high()  # released before the long press: a short press of "next"
        for _ in range(100):
            if service.number > before:
                break
            await asyncio.sleep(0.01)
        await service.buttons.stop()
        assert service.number > before and service.last_refusal is None

    try:
        asyncio.run(press_next())
    finally:
        service.session.close()


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
        service.session.close()


def test_a_table_without_a_camera_or_leds_says_so_through_the_facade(service: TableService) -> None:
    assert service.camera_status() == {"configured": False}
    assert service.led_frame() is None and service.led_health() is None
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
