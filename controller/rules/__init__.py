"""The burncycle rules engine: pure, seeded, deterministic.

`new_game` builds a starting state from a `GameSetup`, `apply` applies any action (the corporation's turn
included) for whoever is to act, `legal_actions` lists what may be done now, and a `GameRecord` keeps a game
for replay, undo and redo; all return plain serializable values and never do I/O. Randomness comes only
through a `Dice`.
"""

from controller.rules.content import Content, parse_content
from controller.rules.corporation.turn import corporation_turn
from controller.rules.dice import Dice, ScriptedDice, SeededDice
from controller.rules.errors import (BadFace, ContentError, DiceError, DiceNeeded, DiceWanted, FloorError,
                                     IllegalAction, RecordError, RulesError, StateError, TableError)
from controller.rules.events import Event, decode_events, encode_events
from controller.rules.board.geometry import Floor, compile_floor
from controller.rules.state import DicePool, GameState, Outcome, copy_state, decode_state, encode_state, state_schema
from controller.rules.game_setup import GameSetup, new_game
from controller.rules.actions import (Action, AnyAction, Alter, BeginActions, BuyDiceUpgrade, BuyUpgrade,
                                      CorporationTurn, Degrade, Discard, DrawChip, EndMove, EndTurn, Escape, Hop,
                                      InstallMod, JoanStun, JoanSurveil, Keypad, Move, NetworkCardAction, NetworkStep,
                                      Pass, Push, Reboot, Repair, Step, Strike, StrikeWall, Swap, Terminal, Trade,
                                      UnlockSlot, UseEquipment, LegalAction, apply, decode_action, encode_action,
                                      legal_actions)
from controller.rules.record import (Entry, Face, GameRecord, RecordingDice, decode_record, encode_record,
                                     record_action, redo, replay, start_record, state_digest, undo)
from controller.rules.corporation.threat import active_escalations
from controller.rules.validate import check_state, state_problems

__all__ = [
    "Content", "parse_content", "corporation_turn", "Dice", "ScriptedDice", "SeededDice", "ContentError",
    "DiceNeeded", "DiceWanted", "DiceError", "BadFace", "TableError", "FloorError", "IllegalAction", "RulesError", "StateError", "Event", "decode_events",
    "encode_events", "Floor", "compile_floor", "GameState", "copy_state", "decode_state", "encode_state",
    "state_schema", "new_game", "active_escalations", "check_state", "state_problems", "RecordError", "Entry",
    "Face", "GameRecord", "RecordingDice", "decode_record", "encode_record", "record_action", "redo", "replay",
    "start_record", "state_digest", "undo", "GameSetup", "Action", "AnyAction", "LegalAction", "apply",
    "decode_action", "encode_action", "legal_actions", "Alter", "BeginActions", "BuyDiceUpgrade", "BuyUpgrade",
    "CorporationTurn", "Degrade", "Discard", "DrawChip", "EndMove", "EndTurn", "Escape", "Hop", "InstallMod",
    "JoanStun", "JoanSurveil", "Keypad", "Move", "NetworkCardAction", "NetworkStep", "Pass", "Push", "Reboot",
    "Repair", "Step", "Strike", "StrikeWall", "Swap", "Terminal", "Trade", "UnlockSlot", "UseEquipment", "DicePool",
    "Outcome",
]
