"""The burncycle rules engine: pure, seeded, deterministic.

`new_game` builds a starting state from a `GameSetup`, `apply` applies any action (the corporation's turn
included) for whoever is to act, `legal_actions` lists what may be done now, and a `GameRecord` keeps a game
for replay, undo and redo; all return plain serializable values and never do I/O. Randomness comes only
through a `Dice`.
"""

# -- the game: content, setup, state, actions, legal actions, events, dice, records, errors
from controller.rules.actions import (
                                      ACTION_VERSION,
                                      Action,
                                      Alter,
                                      AnyAction,
                                      BeginActions,
                                      BuyDiceUpgrade,
                                      BuyUpgrade,
                                      CorporationTurn,
                                      Correct,
                                      Degrade,
                                      Discard,
                                      DrawChip,
                                      EndMove,
                                      EndTurn,
                                      Escape,
                                      Hop,
                                      InstallMod,
                                      JoanStun,
                                      JoanSurveil,
                                      Keypad,
                                      Move,
                                      NetworkCardAction,
                                      NetworkStep,
                                      Pass,
                                      Push,
                                      Reboot,
                                      Repair,
                                      Step,
                                      Strike,
                                      StrikeWall,
                                      Swap,
                                      Terminal,
                                      Trade,
                                      UnlockSlot,
                                      UseEquipment,
                                      apply,
                                      apply_action,
                                      decode_action,
                                      encode_action,
                                      legal_actions,
)

# -- what a player of the agents' side reads of the rules (the auto-player, controller/autoplay, imports only these)
from controller.rules.board.awareness import sight
from controller.rules.board.floor_text import (
                                      AREA_KINDS,
                                      FEATURE_WORDS,
                                      SPACE_FEATURES,
                                      FloorPlan,
                                      ReserveKind,
                                      parse_floor,
)
from controller.rules.board.geometry import (
                                      DIRECTION_WORDS,
                                      DIRECTIONS,
                                      MAX_DESTROYED_WALLS,
                                      UNREACHABLE,
                                      Area,
                                      FacingWord,
                                      Floor,
                                      compile_floor,
                                      edge_id,
)
from controller.rules.board.guard_sight import security_sight
from controller.rules.cards.mods import power_bank
from controller.rules.cards.network_cards import HAND_LIMIT
from controller.rules.characters.proprietary_dice import USE as PROPRIETARY_DIE_USE
from controller.rules.content import Content, parse_content
from controller.rules.corporation.security import movement_of
from controller.rules.corporation.threat import MAX_THREAT, active_escalations
from controller.rules.corporation.threat_effects import apply_effect
from controller.rules.corporation.turn import corporation_turn
from controller.rules.dice import Dice, ScriptedDice, SeededDice
from controller.rules.errors import (
                                      BadFace,
                                      BurncycleError,
                                      ContentError,
                                      DiceError,
                                      DiceNeeded,
                                      DiceWanted,
                                      FloorError,
                                      IllegalAction,
                                      RecordError,
                                      RulesError,
                                      StateError,
)
from controller.rules.events import EVENT_VERSION, Event, IpMoved, decode_events, encode_events
from controller.rules.game_setup import (
    DIFFICULTIES,
    LEVELS,
    GameSetup,
    SetupProblem,
    check_setup,
    floor_state,
    new_game,
    players_place_module,
    starts_in_safe_zones,
)
from controller.rules.legal import Cost, DieChoice, LegalAction
from controller.rules.missions.cyberspace import hop_paths
from controller.rules.missions.draw_bag import TERMINAL_SPACES, module_bagged
from controller.rules.missions.floor_change import can_escape, floor_objectives
from controller.rules.missions.objectives import applies as objective_applies
from controller.rules.missions.objectives import done as objective_done
from controller.rules.missions.special_rules import durability as unit_durability
from controller.rules.phrasing import phrase
from controller.rules.players.ap import OPTIMIZED_BONUS
from controller.rules.players.burncycle import MAX_SLOTS, active_slot_count, next_slot_cost
from controller.rules.players.keypads import brute_force_durability, chip_inputs_payable
from controller.rules.players.keypads import column as keypad_column
from controller.rules.players.moves import current_chip_kind, movers
from controller.rules.players.network_moves import movement_chips
from controller.rules.players.steps import active_agent
from controller.rules.players.steps import usable as chip_usable
from controller.rules.players.strikes import WALL_DURABILITY
from controller.rules.record import (
                                      Entry,
                                      Face,
                                      GameRecord,
                                      RecordingDice,
                                      check_record,
                                      decode_record,
                                      encode_record,
                                      record_action,
                                      redo,
                                      replay,
                                      start_record,
                                      state_digest,
                                      undo,
)
from controller.rules.resolution import Resolution
from controller.rules.schemas import schema, state_schema
from controller.rules.state import (
                                      MAX_POWER,
                                      STATE_VERSION,
                                      Bot,
                                      DicePool,
                                      Difficulty,
                                      Direction,
                                      GameState,
                                      KeypadColumn,
                                      Objective,
                                      Outcome,
                                      SecurityUnit,
                                      copy_state,
                                      decode_state,
                                      encode_state,
)
from controller.rules.validate import check_state, state_problems

__all__ = [
    "players_place_module", "starts_in_safe_zones", "floor_state",
    "ACTION_VERSION", "Action", "Alter", "AnyAction", "BeginActions", "BuyDiceUpgrade", "BuyUpgrade",
    "CorporationTurn", "Correct", "Degrade", "Discard", "DrawChip", "EndMove", "EndTurn", "Escape", "Hop",
    "InstallMod", "JoanStun", "JoanSurveil", "Keypad", "Move", "NetworkCardAction", "NetworkStep", "Pass", "Push",
    "Reboot", "Repair", "Step", "Strike", "StrikeWall", "Swap", "Terminal", "Trade", "UnlockSlot", "UseEquipment",
    "apply", "apply_action", "decode_action", "encode_action", "legal_actions", "MAX_DESTROYED_WALLS", "Floor",
    "UNREACHABLE", "compile_floor", "FloorPlan", "parse_floor",
    "HAND_LIMIT", "power_bank", "Content", "parse_content", "active_escalations", "corporation_turn", "Dice",
    "ScriptedDice", "SeededDice", "BadFace", "ContentError", "DiceError", "DiceNeeded", "DiceWanted", "FloorError",
    "IllegalAction", "RecordError", "RulesError", "StateError", "BurncycleError", "EVENT_VERSION", "Event",
    "decode_events", "encode_events", "GameSetup", "SetupProblem", "check_setup", "new_game", "Cost", "DieChoice",
    "LegalAction", "phrase",
    # the game's words, declared once: the difficulties, an Adaptable mission's levels, the compass directions
    # a unit faces (letters, and the words people say), what each character of a drawn floor's space means (and
    # what people call it), a drawn area's kinds and a room's reserve chips
    "DIFFICULTIES", "Difficulty", "LEVELS", "DIRECTIONS", "Direction", "DIRECTION_WORDS", "FacingWord",
    "SPACE_FEATURES", "FEATURE_WORDS", "AREA_KINDS", "ReserveKind",
    "OPTIMIZED_BONUS", "MAX_SLOTS", "WALL_DURABILITY", "Entry", "Face", "GameRecord", "RecordingDice",
    "check_record", "decode_record", "encode_record", "record_action", "redo", "replay", "start_record",
    "state_digest", "undo",
    "schema", "state_schema", "MAX_POWER", "STATE_VERSION", "DicePool", "GameState", "KeypadColumn", "Outcome",
    "copy_state",
    "decode_state", "encode_state", "check_state", "state_problems", "sight", "security_sight", "Area", "edge_id",
    "PROPRIETARY_DIE_USE", "movement_of", "apply_effect", "IpMoved", "hop_paths", "TERMINAL_SPACES", "module_bagged",
    "MAX_THREAT",
    "can_escape", "floor_objectives", "objective_applies", "objective_done", "unit_durability", "active_slot_count",
    "next_slot_cost", "brute_force_durability", "chip_inputs_payable", "keypad_column", "current_chip_kind",
    "movers", "movement_chips", "active_agent", "chip_usable", "Bot", "Objective", "SecurityUnit", "Resolution",
]
