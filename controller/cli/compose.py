"""The table as `run` and `demo` start it: the service (controller/service/frame/startup.py) composed with its
web face. The service imports nothing of web/; this is where the two meet, so the arrow runs one way."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from controller.service.frame import startup
from controller.service.frame.web_server import WebServer
from web import create_app

if TYPE_CHECKING:
    from gpiozero.pins import Factory

    from controller.rules import Content, GameSetup
    from controller.service.devices.led_output import LedOutput
    from controller.service.frame.components import Component
    from controller.service.frame.config import ServiceConfig
    from controller.service.table import TableService
    from vision.config import VisionConfig
    from vision.sources.base import FrameSource


def web_face(config: ServiceConfig) -> Callable[[TableService], WebServer]:
    """The web server table.toml's [web] asks for, serving the dashboard's app over a service."""
    return lambda service: WebServer(create_app(service), config.web.host, config.web.port, config.web.proxies)


def build(config: ServiceConfig, *, pin_factory: Factory | None = None,
          source: Callable[[], FrameSource] | None = None, leds: LedOutput | None = None,
          seed: int | None = None, extra: list[Component] | None = None,
          clock: Callable[[], float] = time.monotonic, vision: VisionConfig | None = None,
          choose: Callable[[Content, GameSetup], GameSetup] | None = None) -> TableService:
    """The table's service for `config`, served by the web app; the rest are startup.build's stand-ins for
    hardware (the demo, tests) and its camera's reading (`vision`)."""
    return startup.build(config, pin_factory=pin_factory, source=source, leds=leds, seed=seed, extra=extra,
                         clock=clock, faces=(web_face(config),), vision=vision, choose=choose)
