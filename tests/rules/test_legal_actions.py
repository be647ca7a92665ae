"""`legal_actions` and `apply_action` agree: on random states reached by play, every listed action applies (as
listed, and with its free fields filled in within the listed values), and variations that are not listed are
refused with IllegalAction.

States come from new games on the shipped floors and missions, played on by random listed actions with the
game's virtual dice; the choices are drawn from one seeded random source, so each example replays exactly.
"""

from __future__ import annotations

import random

import msgspec
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from controller.rules import MAX_SLOTS, GameSetup, IllegalAction, RulesError, new_game
from controller.rules.actions import (
    BeginActions,
    CorporationTurn,
    Degrade,
    DrawChip,
    EndMove,
    EndTurn,
    JoanSurveil,
    LegalAction,
    Move,
    NetworkCardAction,
    NetworkStep,
    Pass,
    Reboot,
    apply_action,
    legal_actions,
)
from controller.rules.board.geometry import compile_floor
from controller.rules.state import DicePool, GameState
from tests.support.rules_scenarios import CONTENT

SETTINGS = settings(max_examples=30, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# the fields that say which action it is (the rest are the player's free choices: dice, discards, caches)
IDENTITY = ("bot", "to", "unit", "beyond", "other", "target", "side", "card", "cards", "upgrade", "slot", "source",
            "options", "path", "approach", "reassemble", "disguise", "transfers")
TARGETS = ("bot", "to", "unit", "beyond", "other", "target")
FREE = {"alter", "trade", "use_equipment", "install_mod", "discard", "buy_upgrade", "buy_dice_upgrade"}
NO_FIELDS = (BeginActions(), Reboot(), Pass(), EndMove(), EndTurn(), Degrade(), NetworkStep(), CorporationTurn(),
             JoanSurveil(), NetworkCardAction(), DrawChip(), Move())


def key(action) -> tuple:
    tag = action.__struct_config__.tag
    fields = IDENTITY + (("chip",) if tag == "alter" else ())
    return (tag,) + tuple(msgspec.to_builtins(getattr(action, f, None)) for f in fields)


def filled(rng: random.Random, la: LegalAction):
    """The listed action with its free fields chosen at random within the listed values."""
    changes: dict[str, object] = {}
    if "dice" in la.choose:
        changes["dice"] = DicePool(**{d.field: rng.randint(0, d.most) for d in la.dice})
    for field in la.choose:
        values = la.options.get(field)
        # (a mapping, the network step's transfers, is tried whole by test_legal_listing, choice by choice)
        if values and not isinstance(getattr(la.action, field), (list, dict)):
            changes[field] = rng.choice(values)
    return msgspec.structs.replace(la.action, **changes) if changes else la.action


@st.composite
def played(draw) -> tuple[list[GameState], random.Random]:
    """Every third state of a game played on by random listed actions (half of them chosen among the actions
    that move the turn on, so that games reach every step and later rounds), up to the last before it ends."""
    mission = draw(st.sampled_from(sorted(CONTENT.missions)))
    floor = draw(st.sampled_from(sorted(CONTENT.floors)))
    players = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = random.Random(seed)
    team = rng.sample(sorted(a.id for a in CONTENT.agents), players)
    level = draw(st.integers(1, 3)) if CONTENT.missions[mission].adaptable else None
    try:
        state = new_game(CONTENT, GameSetup(floor=floor, players=players, mission=mission, seed=seed, agents=team,
                                            level=level))
    except RulesError:  # a mission that needs another floor
        assume(False)
    states = []
    for k in range(draw(st.integers(1, 150))):
        if k % 3 == 0:
            states.append(state)
        listed = legal_actions(state)
        onward = [la for la in listed if la.tag not in FREE]
        new, _ = apply_action(state, filled(rng, rng.choice(onward if onward and rng.random() < 0.5 else listed)))
        if new.outcome is not None:
            break  # a finished game lists nothing
        state = new
    return states, rng


def refused(state: GameState, action) -> bool:
    try:
        apply_action(state, action)
    except IllegalAction:
        return True
    return False


@SETTINGS
@given(played())
def test_every_listed_action_applies(case):
    states, rng = case
    for state in states:
        for la in legal_actions(state):
            apply_action(state, la.action)  # as listed
            apply_action(state, filled(rng, la))  # with its choices made


@SETTINGS
@given(played())
def test_variations_not_listed_are_refused(case):
    states, rng = case
    for state in states:
        _check_refusals(state, rng)


def _check_refusals(state: GameState, rng: random.Random) -> None:
    listed = legal_actions(state)
    spaces = list(compile_floor(state.floor.text, state.floor.name).ids)
    names = [b.id for b in state.bots] + ["joan", "nobody"] + [u.id for u in state.security] + spaces
    tried = []
    for la in listed:
        for field in TARGETS:
            if isinstance(getattr(la.action, field, None), str):
                tried.append(msgspec.structs.replace(la.action, **{field: rng.choice(names)}))
        if la.dice:  # one die more than the pool holds
            grade = rng.choice(la.dice)
            tried.append(msgspec.structs.replace(la.action, dice=DicePool(**{grade.field: grade.most + 1})))
        if hasattr(la.action, "dice") and "proprietary" not in {d.field for d in la.dice}:
            tried.append(msgspec.structs.replace(la.action, dice=DicePool(proprietary=1)))
        for field in ("amount", "keys"):
            if field in la.options:
                tried.append(msgspec.structs.replace(la.action, **{field: max(la.options[field]) + 1}))
        if "choose" in la.choose:  # a slot whose chip cannot degrade
            others = [k for k in range(1, MAX_SLOTS + 1) if k not in la.options["choose"]]
            if others:
                tried.append(msgspec.structs.replace(la.action, choose=rng.choice(others)))
    tags = {la.tag for la in listed}
    tried += [a for a in NO_FIELDS if a.__struct_config__.tag not in tags]
    for action in tried:
        if not any(allows(la, action) for la in listed):
            assert refused(state, action), f"{msgspec.json.encode(action).decode()} is not listed but applies"


def allows(la: LegalAction, action) -> bool:
    """The listed action covers `action`: the same action, its dice within the listed counts, its amounts and
    keys among the listed values."""
    if key(la.action) != key(action):
        return False
    dice = getattr(action, "dice", None)
    if dice is not None:
        most = {d.field: d.most for d in la.dice}
        if any(getattr(dice, f) > most.get(f, 0) for f in ("basic", "advanced", "elite", "proprietary")):
            return False
    return all(getattr(action, f) in la.options[f] for f in ("amount", "keys", "choose") if f in la.options
               and getattr(action, f) is not None)


@SETTINGS
@given(played())
def test_each_listed_action_names_the_space_it_aims_at_on_the_floor(case):
    """`at` (what a board lights for a tap) is a space of the floor: a step's own `to`, the space of the unit an
    action aims at, the bot's own space for a terminal or an escape, and none for an action that aims nowhere."""
    states, _ = case
    for state in states:
        spaces = set(compile_floor(state.floor.text, state.floor.name).ids)
        where = {b.id: b.space for b in state.bots} | {u.id: u.space for u in state.security}
        for la in legal_actions(state):
            a = la.action
            assert la.at is None or la.at in spaces, (la.tag, la.at)
            if la.tag == "step":
                assert la.at == a.to
            elif la.tag in ("strike", "push", "joan_stun"):
                assert la.at == where[a.unit]
            elif la.tag in ("terminal", "escape"):
                assert la.at == where[a.bot]
            elif la.tag in ("swap", "trade", "repair"):
                assert la.at == where[getattr(a, {"swap": "other", "trade": "to", "repair": "target"}[la.tag])]
            elif any(type(a) is type(plain) for plain in NO_FIELDS):
                assert la.at is None, la.tag
