"""The `burncycle-table` command: where the process is wired together.

Each command group lives in its own module and registers its sub-commands here, so this file stays
a table of contents. A command reports bad input as one readable line on stderr and exits non-zero:
no traceback ever reaches the person at the table.
"""

from __future__ import annotations

import argparse
import os
import sys

from controller.rules.errors import TableError
from controller import game_cli
from controller import play_cli
from controller import service_cli
from controller import vision_cli
from controller.leds import cli as leds_cli

# Command groups, in the order `--help` lists them. Add one line per group.
COMMAND_GROUPS = [
    game_cli,
    play_cli,
    leds_cli,
    vision_cli,
    service_cli,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="burncycle-table",
        description="An augmented, self-running burncycle table.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for group in COMMAND_GROUPS:
        group.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = int(args.run(args) or 0)
        sys.stdout.flush()  # inside the try: a reader that went away is handled below
        return code
    except TableError as err:  # every error of the project's tree is one line for the person at the table
        print(f"burncycle-table: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`... | head`): stop quietly, and keep Python from complaining at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
