"""The error of a person's input: something a person at the table can fix.

A `UserError` carries a message that says what is wrong, where, and why; the command line prints it as one
line instead of a traceback. Two places raise it: the command line's edge (its commands and arguments) and
controller/library.py, the reading and writing of a person's files (a floor, a state, content, an output file),
which the command line and the service both use. The service never lets it out as its own: where it calls the
library it turns a UserError into the part's error (the floors' `FloorLibraryError`, the camera's
`CameraError`), so the web answers with that part's code. Other modules raise their own errors of the project's
one tree (`BurncycleError`: the rules engine's `RulesError`, the LED layout's `LayoutError`, ...), which the
command line prints the same way.
"""

from controller.rules.errors import BurncycleError


class UserError(BurncycleError):
    """Something a person can fix: bad input, a missing file, an illegal move."""

    code = "user_error"
    status = 422
