"""The `burncycle-table` command: where the process is wired together.

Each command group lives in its own module and registers its sub-commands here, so this file stays
a table of contents. `main` is the one edge every command's failure passes: bad input of any kind (a
usage mistake, a file that cannot be read or written, nesting too deep, an image OpenCV refuses, an
illegal move) becomes one readable line on stderr and exit code 2. No traceback ever reaches the
person at the table, and a command that fails writes nothing (every output goes through a temporary
file and a rename).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

# OpenCV and its ffmpeg back end log straight to stderr from C++, ahead of our own message ("can't open
# camera by index"); they must be silenced before cv2 is first imported. That import happens only in the
# commands that use the camera (camera, run, demo), long after this line: the command line imports no
# OpenCV, FastAPI or service to start, so `validate` or `act` starts in the time the rules engine takes.
os.environ.setdefault("OPENCV_LOG_LEVEL", "SILENT")
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # AV_LOG_QUIET

from controller.cli import camera, game, games, hall, hint, leds, play, run, selfplay  # noqa: E402 (after the environment above)
from controller.errors import UserError  # noqa: E402
from controller.rules.errors import BurncycleError  # noqa: E402

# Command groups, in the order `--help` lists them. Add one line per group.
COMMAND_GROUPS = [game, play, selfplay, hint, leds, camera, run, games, hall]


class UsageError(UserError):
    """A command line argparse cannot read: a missing argument, an unknown option, a bad number."""


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line like every other refusal (not the usage and then the error)."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("burncycle-table").strip()
        raise UsageError(f"{command + ': ' if command else ''}{message} (see `{self.prog} --help`)")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="burncycle-table",
        description="An augmented, self-running burncycle table.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for group in COMMAND_GROUPS:
        group.register(sub)
    return parser


def error_line(err: BaseException, command: str) -> str:
    """One line for an expected failure that escaped the commands' own checks: what, where and why."""
    if isinstance(err, BurncycleError):  # every error of the project's tree (UserError, RulesError, LayoutError, ...)
        return str(err)
    if isinstance(err, RecursionError):
        return f"{command}: the input is nested too deeply to read (JSON nesting of thousands of levels)"
    if isinstance(err, UnicodeError):
        return f"{command}: not UTF-8 text ({err})"
    if isinstance(err, OSError):
        where = err.filename if err.filename is not None else command
        return f"{where}: {err.strerror or err}"
    if isinstance(err, _opencv_error()):
        return f"{command}: OpenCV cannot process the image: {getattr(err, 'err', None) or err}"
    return f"{command}: {err or type(err).__name__}"  # ValueError, OverflowError, MemoryError


LONGEST = 1000  # characters of one message line

EXPECTED = (BurncycleError, RecursionError, OSError, UnicodeError, ValueError, OverflowError, MemoryError)


class _NoOpenCV(Exception):
    """Stands for cv2.error while OpenCV is not loaded: nothing can raise it then."""


def _opencv_error() -> type[BaseException]:
    """cv2.error if a command loaded OpenCV; looked up, never imported, so a command without the camera starts
    without it."""
    cv2 = sys.modules.get("cv2")
    return cv2.error if cv2 is not None else _NoOpenCV


def main(argv: list[str] | None = None) -> int:
    # the environment above is read only at cv2's first import; a process that imported it earlier (the
    # tests, a service) is silenced here
    cv2 = sys.modules.get("cv2")
    if cv2 is not None:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    command = "burncycle-table"
    try:
        args = build_parser().parse_args(argv)
        command = args.command
        code = int(args.run(args) or 0)
        sys.stdout.flush()  # inside the try: a reader that went away is handled below
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`... | head`): stop quietly, and keep Python from complaining at exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (*EXPECTED, _opencv_error()) as err:
        line = " ".join(error_line(err, command).split())  # one line, whatever the message held
        if len(line) > LONGEST:  # a message quoting a huge input: its start says what and where, its end why
            line = f"{line[:LONGEST - 200]} ... {line[-150:]}"
        print(f"burncycle-table: {line}", file=sys.stderr)
        return 2

