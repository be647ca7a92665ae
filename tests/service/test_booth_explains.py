"""The booth explains itself (issue 35, part 7): while the demo plays with the search player, its reason for each
chip's action, in the game's words, is the players' `why` in the table's health (which the live feed pushes and
the dashboard shows); the heuristic has nothing to say."""

from __future__ import annotations

import asyncio
from pathlib import Path

from controller.autoplay.players import PlayerSettings
from controller.service.demo.booth import DemoPlayers, DemoTable
from tests.support.service_helpers import built_service, until

TINY = PlayerSettings(iterations=6)  # a search at a tiny budget: the same reasons, sooner


async def _until_it_says_why(players: DemoPlayers) -> None:
    playing = asyncio.create_task(players.run())
    try:
        await until(lambda: players.why is not None, 60)
    finally:
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)


def test_the_search_booth_says_why_in_the_game_s_words(tmp_path: Path) -> None:
    with built_service(tmp_path, game=True) as service:  # no camera: every step goes to the session at once
        players = DemoPlayers(service, DemoTable(), step_timeout_s=0, player="search", settings=TINY)
        service.add(players)
        assert service.health()["components"]["players"]["why"] is None
        asyncio.run(_until_it_says_why(players))
        why = service.health()["components"]["players"]["why"]
        assert why == players.why and "% of futures won" in why
        names = {bot.name for bot in service.state.bots}
        assert any(why.startswith(name) for name in names) or why.startswith("The "), why
        assert service.health()["components"]["players"]["player"] == "search"


def test_the_heuristic_booth_has_no_reason_to_give(tmp_path: Path) -> None:
    with built_service(tmp_path, game=True) as service:
        players = DemoPlayers(service, DemoTable(), step_timeout_s=0)

        async def a_few_actions() -> None:
            playing = asyncio.create_task(players.run())
            await until(lambda: service.number >= 12, 30)
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)

        asyncio.run(a_few_actions())
        assert players.status()["why"] is None
