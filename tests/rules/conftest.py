"""pytest setup for the rule scenario tests: the shipped content is loaded once, at collection, by importing the
scenario helpers (tests/support/rules_scenarios.py)."""

from __future__ import annotations

from tests.support.rules_scenarios import CONTENT  # noqa: F401
