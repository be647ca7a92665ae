"""The virtual LEDs: the logical frame drawn in a terminal with 24-bit colour blocks.

For a table without LEDs, for `leds show --driver virtual`, and to check a layout's look before
soldering anything. It draws the logical frame (before the brightness cap and the budget), since a
screen has no current to limit.
"""

from __future__ import annotations

from typing import TextIO

from controller.leds.render import RGB, LogicalFrame


def _block(colour: RGB, text: str = "██") -> str:
    r, g, b = colour
    if colour == (0, 0, 0):
        return f"\x1b[90m{'·' * len(text)}\x1b[0m"  # a dark LED, still visible as a place
    return f"\x1b[38;2;{r};{g};{b}m{text}\x1b[0m"


def draw(frame: LogicalFrame) -> str:
    """One line: threat track 0..26, the five slots, the status pixel."""
    track = "".join(_block(c) for c in frame.threat)
    slots = " ".join(_block(c, "████") for c in frame.slots)
    return f"threat {track}  slots {slots}  link {_block(frame.status, '●')}"


class TerminalLeds:
    """Redraws one terminal line per frame (or appends lines when the output is not a terminal)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.live = out.isatty()

    def show(self, frame: LogicalFrame) -> None:
        self.out.write(("\r\x1b[2K" if self.live else "") + draw(frame) + ("" if self.live else "\n"))
        self.out.flush()

    def close(self) -> None:
        if self.live:
            self.out.write("\n")
            self.out.flush()
