"""Number options of the command line, checked where argparse reads them, and choices read when asked.

A number a person types can be `nan`, `inf`, `-1` or `²`: each is refused with argparse's own one-line
usage error (exit code 2) naming the option and saying what it takes, before any command runs, so no
sleep, loop or serial port ever sees it.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterator, Sequence
from typing import overload


def _ascii_number(text: str, kind: str) -> str:
    # int() and float() accept Unicode digits ("٣") and underscores ("1_0"); a person means neither
    if not text.isascii() or "_" in text:
        raise argparse.ArgumentTypeError(f"{text!r} is not a {kind} (ASCII digits only)")
    return text.strip()


def whole(text: str) -> int:
    """Any whole number (a seed may be negative)."""
    try:
        return int(_ascii_number(text, "whole number"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def count(text: str) -> int:
    """A whole number, 0 or more."""
    value = whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is negative; give 0 or more")
    return value


def start_spaces(text: str) -> dict[str, str]:
    """`byte=Q3,casing=D15`: each bot's start space (the engine's `check_setup` checks the names)."""
    pairs = [p.strip() for p in text.split(",") if p.strip()]
    if not pairs or any(p.count("=") != 1 or not all(x.strip() for x in p.split("=")) for p in pairs):
        raise argparse.ArgumentTypeError(f"{text!r} is not bot=space pairs separated by commas, e.g. "
                                         f"byte=Q3,casing=D15")
    start = dict((bot.strip(), space.strip().upper()) for bot, space in (p.split("=") for p in pairs))
    if len(start) < len(pairs):
        raise argparse.ArgumentTypeError(f"{text!r} names a bot twice: give each bot one start space")
    return start


def positive(text: str) -> int:
    """A whole number, 1 or more (a baud rate, a number of games or frames)."""
    value = whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be 1 or more")
    return value


def seconds(text: str) -> float:
    """A length of time: a finite number of seconds, 0 or more (`nan` would never end a wait)."""
    try:
        value = float(_ascii_number(text, "number of seconds"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number of seconds, 0 or more")
    return value


def broker(text: str) -> tuple[str, int]:
    """An MQTT broker's HOST:PORT (`localhost:1883`, `192.168.1.10:8883`, `[::1]:1883`), the host checked as
    table.toml's mqtt.host is."""
    from pydantic import ValidationError  # the config's own checks, read only when asked

    from controller.service.frame.config import MqttConfig

    host, colon, port = text.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT (e.g. localhost:1883)")
    try:
        number = int(_ascii_number(port, "port number"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: the port {port!r} is not a number (e.g. localhost:1883)") from None
    try:
        MqttConfig(host=host, port=number)
    except ValidationError as err:
        why = err.errors()[0]["msg"].removeprefix("Value error, ")
        raise argparse.ArgumentTypeError(f"{text!r}: {why}") from None
    return host, number


class LazyChoices(Sequence[str]):
    """An option's choices that live in a module the command line must not import to start (the marker
    dictionaries are OpenCV's): read the first time argparse checks a value or shows the help. Give the
    option a metavar, or argparse lists the choices (and so imports the module) while the parser is built.
    As an attribute of an argparse action it is also help text read late: `%(name)s` shows them, comma-separated."""

    def __init__(self, names: Callable[[], list[str]]) -> None:
        self._names = names
        self._read: list[str] | None = None

    def _all(self) -> list[str]:
        if self._read is None:
            self._read = list(self._names())
        return self._read

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __contains__(self, value: object) -> bool:
        return value in self._all()

    def __str__(self) -> str:
        return ", ".join(self._all())


def player_choices() -> LazyChoices:
    """The players' names (`--player` of selfplay and the demo), read from the registry when an option is checked
    or its help shown, not when the parser is built: the command line starts without importing the players."""
    def names() -> list[str]:
        from controller.autoplay.players import player_names

        return player_names()

    return LazyChoices(names)
