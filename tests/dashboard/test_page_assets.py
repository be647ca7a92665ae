"""GET / and /static/: the dashboard is served by the app itself, nothing is fetched from outside the table,
every endpoint its scripts read answers, and no text from the game is ever inserted as markup."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

import web.routers
from controller.cli.compose import build
from controller.service.table import TableService
from tests.support.service_helpers import config
from web import create_app
from web.routers.page import CSP

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
SCRIPTS = sorted(STATIC.glob("*.js"))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    service: TableService = build(config(tmp_path))
    service.new_game()
    yield TestClient(create_app(service))
    service.close()


def test_the_page_and_each_asset_it_names_are_served_with_their_types(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<title>burncycle-table</title>" in page.text
    named = re.findall(r"""(?:src|href)="(/static/[^"]+)""", page.text)
    assert "/static/app.js" in named and "/static/dashboard.css" in named
    for path in named:
        asset = client.get(path)
        assert asset.status_code == 200, path
    script = client.get("/static/app.js")
    assert script.headers["content-type"].startswith("text/javascript")  # a module script needs a JS type
    for source in SCRIPTS:  # every module an import names is there
        for imported in re.findall(r'from "\./([^"]+)"', source.read_text()):
            assert client.get(f"/static/{imported}").status_code == 200, (source.name, imported)


def test_nothing_comes_from_outside_the_table(client: TestClient) -> None:
    texts = {p.name: p.read_text() for p in STATIC.iterdir() if p.suffix in (".html", ".js", ".css")}
    for name, text in texts.items():
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", text), name
        assert not re.search(r"""(import|from)\s*\(?\s*["'](https?:)?//""", text), name
        assert not re.search(r"url\(\s*['\"]?(https?:)?//", text), name
        assert "@import" not in text, name


def test_text_is_never_inserted_as_markup() -> None:
    for source in SCRIPTS:
        text = source.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
            assert sink not in text, (source.name, sink)


def test_every_endpoint_the_scripts_read_answers(client: TestClient) -> None:
    paths = {p for source in SCRIPTS for p in re.findall(r'api\("GET", `?"?(/[a-z/]+)', source.read_text())}
    assert {"/api/legal", "/api/session", "/api/address"} <= paths  # the floor and the LEDs come over /ws
    for path in paths:
        assert client.get(path).status_code == 200, path


def test_only_the_folders_own_files_are_served(client: TestClient) -> None:
    missing = client.get("/static/nothing-here.js")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    assert "/static/nothing-here.js: no such file" in missing.json()["message"]
    assert client.get("/static/..%2Fapp.py").status_code == 404
    assert client.get("/static/../app.py").status_code == 404


def test_no_page_of_the_app_loads_anything_from_outside_the_table(client: TestClient) -> None:
    """FastAPI's /docs and /redoc fetch Swagger UI and ReDoc from a CDN: they are off; the schema stays."""
    for path in ("/docs", "/redoc"):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.json()["error"] == "not_found", path
    assert client.get("/openapi.json").json()["info"]["title"] == "burncycle-table"


def test_every_page_sends_the_one_content_security_policy(client: TestClient) -> None:
    """Every GET route of every router (a path's parameters filled with 1) that answers HTML sends page.CSP, so
    no page can run an inline script or style attribute, whichever router serves it."""
    routers = [importlib.import_module(info.name).router
               for info in pkgutil.iter_modules(web.routers.__path__, "web.routers.")]
    paths = {route.path for router in routers for route in router.routes
             if isinstance(route, APIRoute) and "GET" in route.methods}
    pages = {}
    for path in paths:
        answer = client.get(re.sub(r"\{[a-z_]+\}", "1", path))
        if answer.headers.get("content-type", "").startswith("text/html"):
            pages[path] = answer.headers.get("content-security-policy")
    assert set(pages) == {"/", "/camera", "/floors/edit", "/games/{game}/replay"}
    assert pages == dict.fromkeys(pages, CSP)
    assert "script-src 'self'" in CSP and "'unsafe-inline'" not in CSP


def test_a_page_is_never_served_as_a_bare_file(client: TestClient) -> None:
    """The pages' .html files are not under /static: each is only at its route, where its policy is sent."""
    for page in STATIC.glob("*.html"):
        missing = client.get(f"/static/{page.name}")
        assert missing.status_code == 404 and missing.json()["error"] == "not_found", page.name


def test_the_files_are_cached_only_until_they_change(client: TestClient) -> None:
    """no-cache and an ETag: a phone asks each load and gets 304 while the file is the same."""
    first = client.get("/static/tools.js")
    assert first.headers["cache-control"] == "no-cache" and first.headers["content-type"].startswith("text/javascript")
    again = client.get("/static/tools.js", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    posted = client.post("/static/tools.js")
    assert posted.status_code == 405 and posted.json()["error"] == "method_not_allowed"
    assert posted.headers["allow"] == "GET, HEAD"


def test_the_pages_take_the_compass_words_from_the_options() -> None:
    """A facing's word is the rules' (GET /api/options's `facings`, through web/static/words.js), never a list of
    a page's own: no script spells two compass words in a string of its own."""
    from controller.rules import DIRECTION_WORDS

    compass = "|".join(DIRECTION_WORDS.values())
    spelled = {p.name for p in SCRIPTS
               if len(set(re.findall(rf"""["'`]({compass})["'`]""", p.read_text()))) >= 2}
    assert spelled == set()
    words = (STATIC / "words.js").read_text()
    assert '"/api/options"' in words and "facings" in words


def test_the_floor_editor_takes_the_floor_formats_words_from_the_options() -> None:
    """The features a space may hold, what people call them, the kinds of area and the reserve chips are the
    rules' (GET /api/options), never a list of the editor's own."""
    from typing import get_args

    from controller.rules import AREA_KINDS, FEATURE_WORDS, ReserveKind

    said = re.compile(rf"""["'`]({'|'.join([*FEATURE_WORDS.values(), *AREA_KINDS, *get_args(ReserveKind)])})["'`]""")
    # a list of them: an array literal naming three or more (a comparison with one kind is the page's logic)
    lists = {p.name: found for p in SCRIPTS for literal in re.findall(r"\[[^\[\]]*\]", p.read_text())
             if len(found := set(said.findall(literal))) >= 3}
    assert lists == {}
