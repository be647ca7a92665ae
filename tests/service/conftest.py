"""The service's tests start from a clean environment: a BURNCYCLE_* variable of the machine running
them must not change what a config loads to."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _no_burncycle_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper().startswith("BURNCYCLE_"):
            monkeypatch.delenv(name)
