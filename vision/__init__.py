"""Vision: from camera frames to a stable board observation."""
