"""The checkout first on the import path: a bench is run as `python bench/NAME.py`, which puts bench/ there, not the
checkout, so every bench imports this first (`import checkout`) to measure this tree's code and to reach
tests/support's helpers and the other benches (`bench.stats`)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
