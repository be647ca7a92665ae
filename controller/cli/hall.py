"""`burncycle-table hall --broker HOST:PORT`: one page listing every table on a broker, live.

For a convention: the tables share one broker, and this small process (on any machine that reaches it)
serves a page of all of them, built only from their retained topics (controller/hall, web/hall.py), so a
table joins the page by publishing and shows offline by its last will. A bad option is one line, exit 2.
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from controller.cli.arg_types import broker, count
from controller.errors import UserError

if TYPE_CHECKING:  # the config model (pydantic) is imported when the hall starts
    from controller.service.frame.config import MqttConfig

OPTIONS = {"base_topic": "--base"}  # the key the config model can refuse -> the option that set it (--broker is
                                   # checked when read)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hall", help="one page listing every table on an MQTT broker, live (docs/mqtt.md)")
    p.add_argument("--broker", type=broker, required=True, metavar="HOST:PORT",
                   help="the broker the tables publish to, e.g. broker.local:1883")
    p.add_argument("--base", default="burncycle", help="the tables' mqtt.base_topic (default burncycle)")
    p.add_argument("--port", type=count, default=8090, help="the page's port (default 8090; 0: any free one)")
    p.add_argument("--host", default="0.0.0.0", help="where the page listens (default 0.0.0.0: the network)")
    p.add_argument("--user", default=None, help="the broker user name, for a broker that asks for one")
    p.add_argument("--password", default=None, help="that user's password")
    p.add_argument("--tls", action="store_true", help="connect with TLS (the broker's certificate is checked)")
    p.add_argument("--ca-file", default=None, metavar="FILE",
                   help="with --tls: the certificate authority that signed the broker's certificate")
    p.set_defaults(run=run_hall)


def mqtt_config(args: argparse.Namespace) -> MqttConfig:
    """The hall's broker options, checked as table.toml's [mqtt] keys are."""
    from pydantic import ValidationError

    from controller.service.frame.config import MqttConfig

    host, port = args.broker
    if args.ca_file is not None and not Path(args.ca_file).is_file():
        raise UserError(f"hall: --ca-file {args.ca_file}: expected the path of an existing file")
    if args.ca_file is not None and not args.tls:
        raise UserError(f"hall: --ca-file {args.ca_file} is given without --tls: add --tls to use it")
    try:
        return MqttConfig(host=host, port=port, base_topic=args.base, user=args.user, password=args.password,
                          tls=args.tls, ca_file=args.ca_file)
    except ValidationError as err:
        problem = err.errors()[0]
        option = OPTIONS.get(str(problem["loc"][0]) if problem["loc"] else "", "an option")
        why = str(problem["msg"]).removeprefix("Value error, ")
        raise UserError(f"hall: {option} {problem['input']!r}: {why}") from None


def _listen(host: str, port: int) -> socket.socket:
    if not 0 <= port <= 65535:
        raise UserError(f"hall: --port {port}: expected a port number from 0 to 65535")
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise UserError(f"hall: cannot listen on {host}:{port}: {err.strerror} (choose another --port)") from None
    sock.listen(128)
    return sock


def run_hall(args: argparse.Namespace) -> int:
    import uvicorn

    from controller.hall.subscriber import HallSubscriber
    from controller.hall.view import HallView
    from web.hall import create_hall_app

    config = mqtt_config(args)
    host, port = args.broker
    view = HallView(config.base_topic, f"{host}:{port}")
    sock = _listen(args.host, args.port)
    subscriber = HallSubscriber(config, view)
    try:
        subscriber.start()
        shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
        print(f"burncycle-table hall: every table on {host}:{port} under {config.base_topic}/ at "
              f"http://{shown}:{sock.getsockname()[1]}/", file=sys.stderr, flush=True)
        server = uvicorn.Server(uvicorn.Config(create_hall_app(view), log_level="warning", access_log=False,
                                               lifespan="off", timeout_graceful_shutdown=2))
        server.run(sockets=[sock])
    finally:
        subscriber.stop()
        sock.close()
    return 0
