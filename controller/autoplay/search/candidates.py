"""The actions a decision is searched over: the legal actions, grouped as a player would think of them.

A legal action often leaves fields to fill (how many dice, which doors); each candidate fills them the way the
blueprint does (a check rolls the whole pool: rolled AP cannot be saved), so one candidate stands for "Casing
forces the door" rather than for each count of dice. A candidate is a chip's whole action: the blueprint plays
its steps on. Only the decision where the team chooses what to do with a chip is searched (see `searched`); the
route step, the steps of a move, the network step, the end of the turn and the corporation's turn are the
blueprint's (a hint, `wide`, weighs them all).
"""

from __future__ import annotations

from controller.autoplay.search.tuning import MAX_CANDIDATES, MAX_WIDE
from controller.rules import (
    PROPRIETARY_DIE_USE,
    Action,
    BeginActions,
    DicePool,
    DrawChip,
    Escape,
    GameState,
    Keypad,
    LegalAction,
    Move,
    NetworkCardAction,
    Pass,
    Reboot,
    Repair,
    RulesError,
    Strike,
    Terminal,
    UnlockSlot,
    UseEquipment,
    active_agent,
    apply_action,
    encode_action,
    legal_actions,
)


def searched(state: GameState) -> bool:
    """Whether this decision is searched: the start of a chip's action. The route step (reboot, the fourth
    slot) is the blueprint's: a reboot's chips pay off within the rollout's round while its threat is paid at
    the end of the game, and searched with a round's horizon it rebooted twice as often and lost more (two
    players on the lobby, seeds 1000-1015: 9 wins against the heuristic's 13)."""
    turn = state.turn
    return state.outcome is None and turn.pending is None and turn.step == "actions"


def whole_pool(state: GameState, la: LegalAction) -> DicePool:
    """Every die of the pool the action may roll (the agent's own die where its use is this action's)."""
    pool = DicePool()
    for choice in la.dice:
        setattr(pool, choice.field, choice.most)
    if pool.proprietary:
        use = PROPRIETARY_DIE_USE.get(active_agent(state).proprietary_die or "")
        wanted = {Move: "move", Keypad: "force"}.get(type(la.action))
        if use != wanted:
            pool.proprietary = 0
    return pool


def _filled(state: GameState, la: LegalAction) -> Action | None:
    """The candidate one legal action stands for, its fields filled; None for what is not worth a rollout."""
    action = la.action
    if state.turn.step == "route":
        if isinstance(action, (BeginActions, Reboot, UnlockSlot)):
            return action
        return None
    if isinstance(action, Move):
        return Move(dice=whole_pool(state, la)) if "dice" in la.choose else action
    if isinstance(action, Terminal):
        # the calibration counts the access, success or not: one access a bot, the first with the most options
        # (as the blueprint takes it), no dice
        mine = [la.action for la in legal_actions(state) if isinstance(la.action, Terminal)
                and la.action.bot == action.bot]
        return action if action == max(mine, key=lambda a: len(a.options)) else None
    if isinstance(action, Keypad):
        if action.approach == "abort":
            return None
        if action.approach == "brute_force":
            return Keypad(bot=action.bot, beyond=action.beyond, approach="brute_force", dice=whole_pool(state, la))
        return action
    if isinstance(action, Strike):
        if action.stun_only or action.disguise:
            return None
        return Strike(bot=action.bot, unit=action.unit, dice=whole_pool(state, la))
    if isinstance(action, (NetworkCardAction, Pass, Escape, UseEquipment, Repair)):
        return action
    if isinstance(action, DrawChip):
        return action if action.chip == "physical" else None
    return None


def _applies(state: GameState, action: Action) -> bool:
    try:
        apply_action(state, action)
    except RulesError:
        return False
    return True


def candidates(state: GameState, blueprint: Action, wide: bool = False) -> list[Action]:
    """The blueprint's action first, then the other candidates of this decision (at most MAX_CANDIDATES in
    all, MAX_WIDE when `wide`), each one an action `state` accepts. `state` is a determinized position (it is
    applied to). A hint is `wide`: every decision is searched (a step of a move too) and every legal action
    whose fields need no choice is a candidate beside the grouped ones."""
    out: list[Action] = [blueprint]
    if not wide and not searched(state):
        return out
    seen = {_key(blueprint)}
    most = MAX_WIDE if wide else MAX_CANDIDATES
    for la in legal_actions(state):
        action = _filled(state, la)
        if action is None and wide and not set(la.choose) - _DEFAULTED:
            action = la.action
        if action is None or _key(action) in seen:
            continue
        seen.add(_key(action))
        if _applies(state, action):
            out.append(action)
        if len(out) >= most:
            break
    return out

_DEFAULTED = frozenset({"doors", "discard", "choose", "chip"})
"""Fields a hint's candidate may leave at their defaults (the engine's own choice)."""


def _key(action: Action) -> bytes:
    return encode_action(action)
