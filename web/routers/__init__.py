"""One router per resource of the table: health, the game's state, its numbered changes."""
