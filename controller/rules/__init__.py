"""The burncycle rules engine: pure, seeded, deterministic.

`new_game` builds a starting state, `corporation_turn` resolves the corporation's turn; both return plain
serializable values and never do I/O. Randomness comes only through a `Dice`.
"""

from controller.rules.actions import legal_actions
from controller.rules.board.geometry import MAX_DESTROYED_WALLS
from controller.rules.cards.network_cards import HAND_LIMIT
from controller.rules.content import Content, parse_content
from controller.rules.legal import Cost, DieChoice, LegalAction
from controller.rules.players.ap import OPTIMIZED_BONUS
from controller.rules.players.burncycle import MAX_SLOTS
from controller.rules.players.strikes import WALL_DURABILITY
from controller.rules.corporation.turn import corporation_turn
from controller.rules.dice import Dice, ScriptedDice, SeededDice
from controller.rules.errors import (ContentError, DiceExhausted, FloorError, IllegalAction, RecordError,
                                     RulesError, StateError)
from controller.rules.events import Event, decode_events, encode_events
from controller.rules.board.geometry import Floor, compile_floor
from controller.rules.state import MAX_POWER, STATE_VERSION, GameState, copy_state, decode_state, encode_state
from controller.rules.actions import ACTION_VERSION
from controller.rules.events import EVENT_VERSION
from controller.rules.schemas import schema, state_schema
from controller.rules.phrasing import phrase
from controller.rules.game_setup import new_game
from controller.rules.record import (Entry, Face, GameRecord, RecordingDice, decode_record, encode_record,
                                     record_action, redo, replay, start_record, state_digest, undo)
from controller.rules.corporation.threat import active_escalations
from controller.rules.validate import check_state, state_problems

__all__ = [
    "Content", "parse_content", "corporation_turn", "Dice", "ScriptedDice", "SeededDice", "ContentError",
    "DiceExhausted", "FloorError", "IllegalAction", "RulesError", "StateError", "Event", "decode_events",
    "encode_events", "Floor", "compile_floor", "GameState", "copy_state", "decode_state", "encode_state",
    "state_schema", "new_game", "active_escalations", "check_state", "state_problems", "RecordError", "Entry",
    "Face", "GameRecord", "RecordingDice", "decode_record", "encode_record", "record_action", "redo", "replay",
    "start_record", "state_digest", "undo",
    # what the players may do now, and the game's numbers a player (or the auto-player) reasons with
    "legal_actions", "LegalAction", "DieChoice", "Cost", "MAX_POWER", "MAX_SLOTS", "MAX_DESTROYED_WALLS",
    "WALL_DURABILITY", "HAND_LIMIT", "OPTIMIZED_BONUS",
    "schema", "phrase", "STATE_VERSION", "ACTION_VERSION", "EVENT_VERSION",
]
