"""The corporation's turn: security activation, units entering play, pings, threat and its events."""
