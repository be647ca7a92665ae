"""Path parameters more than one router takes, defined once so every route says the same of them in the API's
schema and refuses the same values (a game's number is at least 1 and fits the game log's 63-bit ids)."""

from fastapi import Path

GameId = Path(ge=1, le=2**62, description="the game's number, as GET /api/games lists it", examples=[1])
