"""Errors the rules engine raises, each phrased for a person at the table.

Every error says what is wrong, where, and which rule or format line it breaks; callers (the command line,
the dashboard, MQTT) show the message as it is. The engine raises before it changes anything, so a caught
error always leaves the game as it was.
"""

from __future__ import annotations


class RulesError(Exception):
    """Base of every error the engine raises on purpose."""


class FloorError(RulesError):
    """A floor file that cannot be read: names the file, line and column."""

    def __init__(self, source: str, line: int, column: int, message: str) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.message = message
        where = f"{source}:{line}" + (f":{column}" if column else "")
        super().__init__(f"{where}: {message}")


class ContentError(RulesError):
    """A content file (guards, captains, network, threat cards, missions) that is invalid."""


class StateError(RulesError):
    """A game state that breaks an invariant of the game (two units on one space, power 11, ...)."""


class IllegalAction(RulesError):
    """An action the rules forbid; the message quotes the rule."""


class DiceExhausted(RulesError):
    """Scripted dice ran out: the players must type in another roll."""


class RecordError(RulesError):
    """A game record that cannot be used: it does not replay to its digests, or a state does not belong to it."""
