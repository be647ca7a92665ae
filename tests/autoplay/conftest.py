"""pytest setup for the auto-player's tests.

They build their games with the rule scenario helpers (`rules_scenarios.py`, `turn_scenarios.py` in
tests/rules), so that folder is put on the import path, as its own conftest.py does.
"""

from __future__ import annotations

import sys
from pathlib import Path

RULES = str(Path(__file__).resolve().parent.parent / "rules")
if RULES not in sys.path:
    sys.path.insert(0, RULES)
