"""The engine's front door: `new_game` from one serializable `GameSetup`, one `apply` for every action, the
corporation's turn included, refused out of turn."""

from __future__ import annotations

import msgspec
import pytest

from controller.autoplay.player import play_game
from controller.rules import (
    BeginActions,
    CorporationTurn,
    GameSetup,
    IllegalAction,
    Outcome,
    RulesError,
    apply,
    corporation_turn,
    decode_state,
    encode_state,
    new_game,
)
from tests.support.rules_scenarios import CONTENT

RULE = "the corporation turn follows the player with the corporation marker chip"


def test_a_setup_is_one_serializable_value_that_builds_the_same_table():
    setup = GameSetup(floor="meridian-labs", mission="tsm-103c", level=2, players=3, agents=["nano", "bit", "byte"],
                      difficulty="seasoned", captain="overseer", seed=41)
    again = msgspec.json.decode(msgspec.json.encode(setup), type=GameSetup)
    assert again == setup
    a, b = new_game(CONTENT, setup), new_game(CONTENT, again)
    assert encode_state(a) == encode_state(b)
    assert a.floor.level == 2 and a.players == 3 and a.difficulty == "seasoned" and a.seed == 41
    assert [x.id for x in a.bots if x.kind == "agent"] == ["nano", "bit", "byte"]


def test_a_custom_floor_comes_with_its_text_and_file_name():
    text = CONTENT.floors["meridian-lobby"]
    custom = new_game(CONTENT, GameSetup(floor="my-lobby.floor", floor_text=text, seed=2))
    shipped = new_game(CONTENT, GameSetup(floor="meridian-lobby", seed=2))
    assert custom.floor.text == shipped.floor.text and custom.security == shipped.security


def test_an_unknown_floor_names_the_choices():
    with pytest.raises(RulesError, match="unknown floor 'basement': expected one of meridian-annex, "):
        new_game(CONTENT, GameSetup(floor="basement"))


def test_the_corporations_turn_is_refused_while_a_player_routes_power():
    """On a fresh game the first player routes power: neither `apply` nor `corporation_turn` may run the
    corporation's turn (`corporation_turn` used to move the round on)."""
    state = new_game(CONTENT, GameSetup(seed=1))
    before = encode_state(state)
    with pytest.raises(IllegalAction, match=RULE):
        apply(state, CorporationTurn())
    with pytest.raises(IllegalAction, match=f"it is Byte's turn, not the corporation's: \"{RULE}\""):
        corporation_turn(state)
    assert encode_state(state) == before


def test_apply_takes_the_corporations_turn_at_its_step_and_starts_the_next_round():
    state = new_game(CONTENT, GameSetup(seed=1))
    state.turn.step, state.turn.active = "corporation", state.turn.order.index(state.turn.marker)
    with pytest.raises(IllegalAction, match="it is the corporation's turn: begin_actions belongs to"):
        apply(state, BeginActions())
    new, events = apply(state, CorporationTurn())
    assert new.round == 2 and new.turn.step == "route" and new.turn.active == 0
    assert events and state.round == 1


def test_an_ended_game_has_a_typed_outcome():
    """Victory or defeat and why, as data: callers test `result` and `cause`, never a string's prefix."""
    seen = {}
    for seed in range(1, 21):
        final = play_game(new_game(CONTENT, GameSetup(agents=["nano", "casing"], seed=seed)))
        assert isinstance(final.outcome, Outcome)
        seen[final.outcome.cause] = final.outcome
    assert seen["mission_won"] == Outcome(result="victory", cause="mission_won", text="Clean Exit")
    assert seen["mission_won"].won and str(seen["mission_won"]) == "victory: Clean Exit"
    assert seen["threat_maxed"] == Outcome(result="defeat", cause="threat_maxed", text="threat reached 26")
    assert not seen["threat_maxed"].won
    state = decode_state(encode_state(final))
    assert state.outcome == final.outcome
    assert msgspec.json.decode(encode_state(final))["outcome"]["result"] in ("victory", "defeat")


def test_every_players_action_has_its_step_and_its_play():
    """`STEPS` (when an action may come) and the dispatch table (how it is played) name the same actions, so an
    action added to one and forgotten in the other fails here rather than as a KeyError in a game."""
    from controller.rules import actions

    assert set(actions.STEPS) - {CorporationTurn} == set(actions._PLAYS)
