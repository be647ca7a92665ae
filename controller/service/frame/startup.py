"""The service's start-up: table.toml in, every component built and wired.

`build` makes a `TableService` from a config; `serve` runs it until Ctrl-C or systemd's stop, telling systemd
when it is ready and that it is alive. The service knows none of its faces: the command line composes the web
app over it (controller/cli/compose.py) and hands `build` the component that serves it.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from controller.library import load_content
from controller.service.camera.component import CameraComponent
from controller.service.camera.reconciler import Reconciler
from controller.service.devices.buttons import ButtonsAndBuzzer
from controller.service.devices.led_output import LedOutput, output_from_config
from controller.service.frame import systemd
from controller.service.frame.components import Component
from controller.service.frame.config import ButtonsConfig, CameraConfig, ServiceConfig
from controller.service.frame.native_memory import return_large_blocks
from controller.service.game.session import GameSession
from controller.service.mqtt.bridge import MqttBridge
from controller.service.table import MakeButtons, TableService
from vision.config import VisionConfig
from vision.pipeline import FrameResult, VisionPipeline
from vision.sources.base import FrameSource

if TYPE_CHECKING:
    from gpiozero.pins import Factory

    from controller.rules import Content, GameSetup


def camera_source(config: CameraConfig) -> Callable[[], FrameSource] | None:
    """The frame source table.toml names (a fresh one per (re)start), or None for no camera."""
    if config.source in ("none", "synthetic"):
        return None  # the demo brings its own synthetic camera
    if config.source == "picamera":
        from vision.sources import PiCameraSource

        return lambda: PiCameraSource(size=config.resolution)
    from vision.sources import VideoCaptureSource

    target: int | str = int(config.device) if config.device.isdigit() else config.device
    return lambda: VideoCaptureSource(target, size=config.resolution)


def buttons_from_config(b: ButtonsConfig, pin_factory: Factory | None,
                        clock: Callable[[], float]) -> MakeButtons | None:
    """The buttons and buzzer table.toml wires (None for none), made when the service is, with its `press`."""
    if all(p is None for p in (b.next_pin, b.undo_pin, b.buzzer_pin)):
        return None
    return lambda on_press: ButtonsAndBuzzer(next_pin=b.next_pin, undo_pin=b.undo_pin, buzzer_pin=b.buzzer_pin,
                                             on_press=on_press, pin_factory=pin_factory, clock=clock)


def camera_and_reconciler(config: ServiceConfig, session: GameSession, open_source: Callable[[], FrameSource],
                          vision: VisionConfig) -> tuple[CameraComponent, Reconciler]:
    """The camera filming the table, and the reconciler each of its frames goes to (what it sees against the
    game); the camera's registration is kept beside the game log."""
    camera = CameraComponent(open_source, lambda floor: VisionPipeline(floor, vision),
                             floor_of=lambda: session.state.floor,
                             registration_path=config.database.path.parent / "registration.json")
    reconciler = Reconciler(session, vision)

    def observe(result: FrameResult) -> None:
        reconciler.observe(result.observation)

    camera.on_frame(observe)
    return camera, reconciler


def build(config: ServiceConfig, *, pin_factory: Factory | None = None,
          source: Callable[[], FrameSource] | None = None, leds: LedOutput | None = None,
          seed: int | None = None, extra: list[Component] | None = None,
          clock: Callable[[], float] = time.monotonic,
          faces: Sequence[Callable[[TableService], Component]] = (),
          vision: VisionConfig | None = None,
          choose: Callable[[Content, GameSetup], GameSetup] | None = None) -> TableService:
    """A table service for `config`; `source`, `leds` and `pin_factory` stand in for hardware (the demo, tests),
    `clock` is the one the buttons' long press is measured on (a test steps it), and `faces` make the components
    that serve the service to people (the web server the command line composes), added before the MQTT bridge.
    `vision` is how the camera reads the table (default: a table's, VisionConfig()); the booth's memory bench
    gives its demo a quicker confirmation, so 200 games fit in an hour."""
    content = load_content()
    session = GameSession.open(str(config.database.path))
    leds = leds if leds is not None else output_from_config(config.leds)
    buttons = buttons_from_config(config.buttons, pin_factory, clock)
    open_source = source or camera_source(config.camera)
    camera, reconciler = (None, None) if open_source is None else camera_and_reconciler(
        config, session, open_source, vision or VisionConfig())
    service = TableService(config, content, session, leds=leds, buttons=buttons, camera=camera,
                           reconciler=reconciler, seed=seed, choose=choose)
    if camera is not None and not session.has_game():
        service.new_game()  # the camera looks for the game's floor from its first frame
    for face in faces:
        service.add(face(service))
    if config.mqtt.host is not None:
        service.add(MqttBridge(service, config.mqtt))
    if systemd.watchdog_interval() is not None:
        service.add(systemd.Watchdog())
    for component in extra or []:
        service.add(component)
    return service


async def serve(service: TableService, *, on_ready: Callable[[TableService], None] | None = None) -> None:
    """Run until SIGINT or SIGTERM; systemd hears READY once every component has started."""
    return_large_blocks()  # a long run: the camera's frames go back to the system when freed
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, service.stop)

    def ready() -> None:
        systemd.ready(f"serving game {service.game_id}")
        if on_ready is not None:
            on_ready(service)

    try:
        await service.run(ready)
    finally:
        systemd.stopping()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        service.close()
