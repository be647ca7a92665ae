"""The table's physical inputs and outputs: the buttons and buzzer, the LED output."""
