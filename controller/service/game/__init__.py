"""The game: the live session (the one writer), its SQLite log, replays, the floors kept on the table, the flow
of a turn the table waits on."""
