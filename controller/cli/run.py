"""`burncycle-table init`, `run` and `demo`: set up, run, and show off the table service.

`init` writes the commented starter table.toml, made from the config model, so the file a builder starts
from names every key, its default and the environment variable that overrides it. `run` is the service on
the Pi. `demo` is the whole table with no hardware: a synthetic camera filming a rendered table, the LEDs on
the real firmware in simavr (or a virtual strip), GPIO on gpiozero's mock pins, and the auto-player's hands.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from controller.cli.arg_types import broker, count, player_choices, positive, seconds, whole
from controller.errors import UserError

if TYPE_CHECKING:  # the service (and OpenCV, FastAPI, uvicorn with it) is imported when a command starts it
    from controller.service.devices.led_output import LedOutput
    from controller.service.table import TableService
    from vision.config import VisionConfig


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("init", help="write a commented starter table.toml")
    p.add_argument("--out", default="table.toml", help="where to write it (default: table.toml here)")
    p.add_argument("--force", action="store_true", help="replace a file that is already there")
    p.add_argument("--no-camera", action="store_true",
                   help="a table with no camera: the phones tell the game what the players do (camera.source none)")
    p.set_defaults(run=run_init)

    p = sub.add_parser("run", help="run the table service (camera, game, LEDs, buttons, web) from table.toml")
    p.add_argument("--config", default=None, help="the table's config file (default: none, every key's default)")
    p.set_defaults(run=run_service)

    p = sub.add_parser("demo", help="the whole table with no hardware, playing itself, served in a browser")
    p.add_argument("--once", action="store_true", help="play one game, then exit with its result")
    p.add_argument("--port", type=count, default=8080, help="the web page's port (default 8080; 0: any free one)")
    p.add_argument("--host", default="0.0.0.0", help="where the web page listens (default 0.0.0.0: the network)")
    p.add_argument("--games", type=positive, default=None, help="play this many games, then exit")
    p.add_argument("--pace", type=seconds, default=0.3,
                   help="seconds between the players' actions, so people can follow (default 0.3)")
    p.add_argument("--seed", type=whole, default=None, help="the first game's seed (default: from the clock)")
    p.add_argument("--leds", choices=("auto", "simulated", "virtual"), default="auto",
                   help="the firmware in simavr, a virtual strip, or the first that works (default)")
    p.add_argument("--mission", default=None, help="the mission to play (default data-heist)")
    p.add_argument("--floor", default=None, help="the floor (default meridian-lobby)")
    p.add_argument("--db", default=None, help="the game log (default: a fresh file that is deleted at exit)")
    p.add_argument("--mqtt", type=broker, default=None, metavar="HOST:PORT",
                   help="publish the game to this MQTT broker and obey its commands (docs/mqtt.md; default: none)")
    p.add_argument("--player", default="search", metavar="NAME", choices=player_choices(),
                   help="who plays the booth's games: one of %(choices)s (default search: it wins more than the "
                        "heuristic and says why it acts)")
    p.set_defaults(run=run_demo)


def run_init(args: argparse.Namespace) -> int:
    from controller.service.frame.config_text import starter_toml

    out = Path(args.out)
    if out.exists() and not args.force:
        raise UserError(f"{out}: already exists; keep it, or replace it with --force")
    try:
        with open(out, "w" if args.force else "x", encoding="utf-8") as f:
            f.write(starter_toml(no_camera=args.no_camera))
    except FileExistsError:
        raise UserError(f"{out}: already exists; keep it, or replace it with --force") from None
    except OSError as err:
        raise UserError(f"{out}: cannot write the config file: {err.strerror}") from None
    print(f"wrote {out}: edit it, then start the table with burncycle-table run --config {out}", file=sys.stderr)
    return 0


def _announce(service: TableService) -> None:
    import segno

    from controller.service.frame.web_server import WebServer

    address = service.phone_address()
    print(f"burncycle-table: the table is ready at {address} (health: {address}health)", flush=True)
    web = service.component("web", WebServer)
    if web is not None:  # the PIN is the web app's (web/auth.py): `build` always serves one
        auth = web.app.state.auth
        rights = "the game is read-only; the PIN shows the camera" if auth.read_only else "the PIN changes the game"
        print(f"burncycle-table: the table's PIN is {auth.pin} ({rights})", flush=True)
    if sys.stdout.isatty():
        segno.make(address, error="m").terminal(compact=True)
    else:
        print(f"(a QR code for phones is printed when the output is a terminal: {address})", flush=True)


def run_service(args: argparse.Namespace) -> int:
    import asyncio

    from controller.cli.compose import build
    from controller.service.frame.config import load_config
    from controller.service.frame.startup import serve

    config = load_config(args.config)
    service = build(config)
    asyncio.run(serve(service, on_ready=_announce))
    return 0


def run_demo(args: argparse.Namespace, vision: VisionConfig | None = None) -> int:
    """The demo as the command line starts it; `vision` is how its camera reads the table (default: as a table
    does), which only the booth's memory bench changes (bench/bench_booth_memory.py)."""
    import asyncio

    from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped, unused-ignore]  # no stubs

    from controller.autoplay.start import chosen_setup
    from controller.cli.compose import build
    from controller.service.demo import simulated_board
    from controller.service.demo.booth import DemoCamera, DemoPlayers, DemoTable, VirtualStrip
    from controller.service.demo.folder import demo_folder
    from controller.service.devices.led_output import LedOutput, output_from_config
    from controller.service.frame.address import free_port
    from controller.service.frame.config import ServiceConfig
    from controller.service.frame.startup import serve

    if not 0 <= args.port <= 65535:
        raise UserError(f"--port {args.port}: expected a port number from 0 to 65535")
    port = args.port or free_port(args.host)
    folder = demo_folder()
    db = args.db or str(Path(folder.name) / "demo.sqlite3")
    game: dict[str, object] = {}
    if args.mission:
        game["mission"] = args.mission
    if args.floor:
        game["floor"] = args.floor
    mqtt = {"host": args.mqtt[0], "port": args.mqtt[1]} if args.mqtt else {}
    config = ServiceConfig.model_validate({"web": {"host": args.host, "port": port}, "database": {"path": db},
                                           "buttons": {"next_pin": 17, "undo_pin": 27, "buzzer_pin": 18},
                                           "game": {"agents": ("nano", "casing"), **game}, "mqtt": mqtt})
    board = None
    leds: LedOutput | None
    why = simulated_board.available() if args.leds != "virtual" else "--leds virtual"
    if why is None:
        board = simulated_board.SimulatedBoard()
        leds = output_from_config(config.leds.model_copy(update={"kind": "serial", "port": board.port,
                                                                 "baud": simulated_board.BAUD}))
        print(f"burncycle-table: the LEDs are the real firmware in simavr on {board.port}", flush=True)
    elif args.leds == "simulated":
        raise UserError(f"--leds simulated: {why}")
    else:
        leds = LedOutput(VirtualStrip, what="the virtual strip (the LEDs panel of the dashboard)")
        print(f"burncycle-table: the LEDs are a virtual strip ({why})", flush=True)
    table = DemoTable()
    service = build(config, pin_factory=MockFactory(), leds=leds, seed=args.seed,
                    source=lambda: DemoCamera(table), vision=vision, choose=chosen_setup)
    players = DemoPlayers(service, table, once=args.once, games=args.games, pace_s=args.pace, player=args.player)
    service.add(players)
    latched = 0
    try:
        asyncio.run(serve(service, on_ready=_announce))
    finally:
        if board is not None:
            latched = board.frames_latched()
            board.close()
        folder.cleanup()
    for k, result in enumerate(players.results, 1):
        print(f"game {k}: {result}")
    # what a watcher (or a test) checks the whole table did: the camera saw the moves, the board lit them
    print(f"steps seen by the camera: {players.steps_seen}, not confirmed: {players.unconfirmed}"
          + (f", LED frames latched by the board: {latched}" if board is not None else ""), flush=True)
    if args.once:
        return 0 if players.results and players.results[-1].startswith("victory") else 1
    return 0
