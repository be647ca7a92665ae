"""The service's tests start from a clean environment: a BURNCYCLE_* variable of the machine running
them must not change what a config loads to."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _clean_environment(no_burncycle_env: None) -> None:
    """Every service test runs without the machine's BURNCYCLE_* variables (tests/conftest.py)."""
