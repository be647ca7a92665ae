"""The camera's side of the table: the camera component, the reconciler that turns what it sees into the
engine's steps (with the bot ways it searches), what the table shows the players, and the door sensors."""
