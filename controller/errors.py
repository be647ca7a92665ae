"""Errors meant for a person at the table.

A `UserError` carries a message that says what is wrong, where, and why; the command line prints it
as one line instead of a traceback. The rules engine raises its own `RulesError` subclasses, which are
UserErrors too, so every layer can let them travel up unchanged.
"""


class UserError(Exception):
    """Something a person can fix: bad input, a missing file, an illegal move."""
