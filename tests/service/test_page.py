"""GET /: the live page is served by the app itself, with nothing fetched from outside the table."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from controller.service.startup import build
from tests.service.test_web_api import config
from web import create_app


def test_the_page_is_served_and_asks_only_the_tables_own_endpoints(tmp_path: Path) -> None:
    service = build(config(tmp_path))
    client = TestClient(create_app(service))
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    assert "<title>burncycle-table</title>" in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # no script, style or font from elsewhere
    for path in re.findall(r'get\("(/[^"?]*)', html):  # every endpoint the page reads answers
        assert client.get(path).status_code in (200, 404, 503), path
    service.session.close()
