"""`burncycle-table leds ...`: check the wiring of a build, and show a saved game on the LEDs.

`leds test` lights each segment of the layout in turn, so a builder sees at once a strip that is
reversed, in the wrong colour order or on the wrong pin. `leds show STATE.json` renders a state.
Both drive a serial board (--driver serial --port ...), the Pi's pins (--driver gpio) or the
terminal (--driver virtual, the default).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TYPE_CHECKING, Protocol

from controller.cli import arg_types
from controller.errors import UserError
from controller.leds.protocol import DEFAULT_BAUD
from controller.leds.scene import SLOT_COUNT, TRACK_LENGTH, LedScene, Link, scene_from_state

if TYPE_CHECKING:  # the layouts, renderer and drivers are imported when an leds command runs
    from controller.leds.render import LogicalFrame
    from controller.leds.strip_layout import Layout, Segment

FPS = 30
TEST_COLOUR = (255, 255, 255)


class Output(Protocol):
    def show(self, frame: LogicalFrame) -> None: ...
    def close(self) -> None: ...


def register(sub: argparse._SubParsersAction) -> None:
    group = sub.add_parser("leds", help="light the LED strips: wiring test, show a state")
    leds = group.add_subparsers(dest="leds_command", metavar="COMMAND", required=True)

    p = leds.add_parser("test", help="light each segment of the layout in turn")
    _output_args(p)
    p.add_argument("--step", type=arg_types.seconds, default=1.0, help="seconds per segment (default 1)")
    p.set_defaults(run=run_test)

    p = leds.add_parser("show", help="show a saved game state on the LEDs")
    p.add_argument("state", help="the state file (JSON)")
    _output_args(p)
    p.add_argument("--link", choices=[link.value for link in Link], default=Link.OK.value,
                   help="what the status pixel shows (default ok)")
    p.add_argument("--seconds", type=arg_types.seconds,
                   help="keep animating this long (default: 0 on the terminal, 10 on LEDs)")
    p.set_defaults(run=run_show)


def _output_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--driver", choices=["virtual", "serial", "gpio"], default="virtual",
                   help="virtual (terminal), serial (the firmware/ board) or gpio (Pi pins)")
    p.add_argument("--port", help="serial port of the board, e.g. /dev/ttyUSB0 (--driver serial)")
    p.add_argument("--baud", type=arg_types.positive, default=DEFAULT_BAUD, help=f"default {DEFAULT_BAUD}")
    p.add_argument("--layout", help="layout file (default: the built-in 38-LED layout)")


def _layout(args: argparse.Namespace) -> Layout:
    from controller.leds import strip_layout as layouts

    if not args.layout:
        return layouts.default()
    try:
        return layouts.load(args.layout)
    except UnicodeDecodeError as e:
        raise UserError(f"{args.layout}: not a text layout file ({e.reason} at byte {e.start}); "
                        f"a layout is UTF-8 TOML") from None


def open_output(args: argparse.Namespace, layout: Layout) -> Output:
    """The output the arguments ask for, ready to show frames."""
    if args.driver == "virtual":
        from controller.leds.terminal_strip import TerminalLeds

        return TerminalLeds(sys.stdout)
    if args.driver == "gpio":
        from controller.leds import gpio

        return gpio.from_layout(layout)
    if not args.port:
        raise UserError("leds: --driver serial needs --port, e.g. --port /dev/ttyUSB0")
    if not os.path.exists(args.port):
        raise UserError(f"leds: serial port {args.port} does not exist: is the board plugged in?")
    from controller.leds.serial_driver import LinkState, SerialDriver, SerialLeds  # pyserial, for this driver only

    driver = SerialDriver(args.port, baud=args.baud, expect_leds=layout.led_count).start()
    state = driver.wait_link(driver.handshake_s + 2)
    if state is not LinkState.UP:
        driver.stop()
        why = driver.error or "no answer"
        raise UserError(f"leds: no usable LED board on {args.port}: {why}")
    return SerialLeds(layout, driver)


def _settle(output: Output) -> None:
    """Waits for a serial board to acknowledge the last frame, so a short run is really seen."""
    serial_driver = sys.modules.get("controller.leds.serial_driver")  # loaded by open_output for a serial board
    if serial_driver is not None and isinstance(output, serial_driver.SerialLeds) and not output.driver.wait_shown(2.0):
        raise UserError(f"leds: the board on {output.driver.port_name} stopped answering")


def segment_frame(segment: Segment) -> LogicalFrame:
    """A frame with only this segment's logical positions lit."""
    from controller.leds.render import LogicalFrame

    off = (0, 0, 0)
    positions = range(segment.first, segment.first + segment.count // segment.per)
    lit = {segment.role: set(positions)}
    track = tuple(TEST_COLOUR if i in lit.get("threat", ()) else off for i in range(TRACK_LENGTH))
    slots = tuple(TEST_COLOUR if i in lit.get("slots", ()) else off for i in range(SLOT_COUNT))
    status = TEST_COLOUR if "status" in lit else off
    return LogicalFrame(track, slots, status)


def run_test(args: argparse.Namespace) -> int:
    layout = _layout(args)
    output = open_output(args, layout)
    try:
        for n, segment in enumerate(layout.segments, 1):
            reverse = ", reversed" if segment.reversed else ""
            strip = next(s for s in layout.strips if s.name == segment.strip)
            print(f"segment {n}/{len(layout.segments)}: {segment.role} on strip {strip.name!r} "
                  f"LEDs {segment.start}..{segment.start + segment.count - 1}{reverse} ({strip.color_order})",
                  file=sys.stderr)
            output.show(segment_frame(segment))
            _settle(output)
            time.sleep(args.step)
    finally:
        output.close()
    return 0


def run_show(args: argparse.Namespace) -> int:
    from controller.leds.render import render
    from controller.library import load_state

    layout = _layout(args)
    scene: LedScene = scene_from_state(load_state(args.state), link=Link(args.link))
    seconds = args.seconds if args.seconds is not None else (0.0 if args.driver == "virtual" else 10.0)
    output = open_output(args, layout)
    try:
        start = time.monotonic()
        while True:
            t = time.monotonic() - start
            output.show(render(scene, t))
            if t >= seconds:
                break
            time.sleep(1 / FPS)
        _settle(output)
    finally:
        output.close()
    return 0
