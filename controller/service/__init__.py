"""The table service: one process from camera to LEDs around one durable game session."""
