"""Which physical chip stands for which unit of the game state.

The state names security units by their order of entry ("G1", "CAP") and records only the chip's printed
name ("Hound"); the box holds two Hound chips, each with its own sticker. The rule here, first free chip
of that name in roster order, is the one the synthetic renderer draws by, so the reconciler can use it
to translate an observation into the state's unit ids.
"""

from __future__ import annotations

from controller.rules.state import GameState
from vision.config import VisionConfig


def chips_for_state(state: GameState, config: VisionConfig) -> dict[str, str]:
    """Game unit id ("G1", "CAP", "byte") -> physical chip id: each guard takes the first free chip of its name."""
    free = [u.id for u in config.units]
    out: dict[str, str] = {}
    for bot in state.bots:
        if bot.id in free:
            out[bot.id] = bot.id
            free.remove(bot.id)
    for sec in state.security:
        prefix = "captain" if sec.rank == "captain" else f"{sec.chip.lower()}-"
        chip = next((c for c in free if c == prefix or c.startswith(prefix)), None)
        if chip is not None:
            out[sec.id] = chip
            free.remove(chip)
    return out
