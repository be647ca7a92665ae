"""The browser tests' fixtures: one Debian chromium per test module, and the dashboard's demo table
(tests/browser/dashboard_table.py) on a loopback port of its own, stopped after each test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.browser.chromium import chromium, free_port
from tests.browser.dashboard_table import Table


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    made = Table(tmp_path, free_port())
    yield made
    made.stop()
