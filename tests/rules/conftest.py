"""pytest setup for the rule scenario tests.

The scenario helpers (inline floors, bots and units placed by hand, one corporation turn with scripted
dice) live in `rules_scenarios.py` beside this file; tests import them from there by name, because every
test folder's conftest.py is imported as a module called `conftest` and only one of them can own that name.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from rules_scenarios import CONTENT  # noqa: E402,F401  (load the shipped content once, at collection)
