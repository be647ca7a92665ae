"""The command line's error: something a person at the table can fix.

A `UserError` carries a message that says what is wrong, where, and why; the command line prints it as one
line instead of a traceback. It is raised at the command-line edge only (the commands and the files they
read); library modules raise their own errors of the project's one tree (`BurncycleError`: the rules engine's
`RulesError`, the LED layout's `LayoutError`, ...), which the command line prints the same way.
"""

from controller.rules.errors import BurncycleError


class UserError(BurncycleError):
    """Something a person can fix: bad input, a missing file, an illegal move."""

    code = "user_error"
