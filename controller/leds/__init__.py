"""LEDs of the table: the threat track, the five burncycle slots and a link-status pixel.

`render` turns a game scene into a logical frame (pure, so the same state always looks the same);
`layout` maps that frame onto physical strips within a current budget; the drivers only move bytes:
`serial_driver` to this project's ATmega328P firmware (firmware/), `gpio` to the Pi's own pins
through gpiozero, `terminal` to a terminal for a table without LEDs.
"""
