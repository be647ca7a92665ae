"""The demo: the whole table with no hardware (the booth), the firmware in simavr as the LED board, the demo's
folder of files."""
