"""The game record: a random game's record replays bit for bit, undo then redo restores it, and it round-trips
through JSON; faces typed in at the table are recorded as well as the virtual dice's."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.autoplay.player import AutoPlayer, team
from controller.rules import (
    GameRecord,
    GameSetup,
    RecordError,
    ScriptedDice,
    decode_record,
    encode_record,
    encode_state,
    new_game,
    record_action,
    redo,
    replay,
    start_record,
    state_digest,
    undo,
)
from controller.rules.actions import BeginActions, Move, legal_actions
from controller.rules.state import DicePool
from tests.support.rules_scenarios import CONTENT

SETTINGS = settings(max_examples=20, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
GAMES = [("data-heist", "meridian-lobby", None), ("tower-run", "meridian-annex", None),
         ("rescue-rangers", "meridian-lobby", 1), ("tsm-103c", "meridian-labs", 1)]


def _start(mission: str, floor: str, level: int | None, players: int, seed: int):
    return new_game(CONTENT, GameSetup(floor=floor, mission=mission, level=level, players=players,
                                       agents=team(players), seed=seed))


def _recorded_game(seed: int, game: int, players: int, actions: int, randomness: float):
    """A game of up to `actions` actions, each chosen by the auto-player or, with probability `randomness`,
    at random among the legal ones; returns its record and the state it reached."""
    state = _start(*GAMES[game], players, seed)
    record = start_record(state)
    player, rng = AutoPlayer(), random.Random(seed)
    for _ in range(actions):
        if state.outcome is not None:
            break
        if rng.random() < randomness:
            action = rng.choice(legal_actions(state)).action
        else:
            action = player.choose(state)
        state, _ = record_action(record, state, action)
    return record, state


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), game=st.integers(0, len(GAMES) - 1), players=st.integers(1, 3),
       actions=st.integers(1, 160), randomness=st.sampled_from([0.0, 0.2, 1.0]))
def test_a_random_games_record_replays_undoes_redoes_and_round_trips(seed, game, players, actions, randomness):
    record, state = _recorded_game(seed, game, players, actions, randomness)
    replayed = replay(record)
    assert encode_state(replayed) == encode_state(state)
    assert state_digest(replayed) == record.entries[-1].digest

    before = replay(record, len(record.entries) - 1)
    last = record.entries[-1]
    assert encode_state(undo(record)) == encode_state(before)
    assert record.undone == [last]
    redone, events = redo(record, before)
    assert encode_state(redone) == encode_state(state)
    assert record.entries[-1] == last and record.undone == []
    assert events == last.events

    decoded = decode_record(encode_record(record))
    assert decoded == record
    assert encode_state(replay(decoded)) == encode_state(state)


def test_faces_typed_in_at_the_table_are_recorded_and_replayed():
    state = _start("data-heist", "meridian-lobby", None, 2, seed=3)
    record = start_record(state)
    state, _ = record_action(record, state, BeginActions())
    rolls_before = state.rolls
    # a move action with two basic dice, rolled at the table: "2" and "blank"
    state, _ = record_action(record, state, Move(dice=DicePool(basic=2)), ScriptedDice(["2", "blank"]))
    entry = record.entries[-1]
    assert [(f.kind, f.die, f.face) for f in entry.faces] == [("roll", "basic die", "2"),
                                                                ("roll", "basic die", "blank")]
    assert entry.seeded_rolls is None and state.rolls == rolls_before  # typed-in faces leave the game's count
    assert encode_state(replay(decode_record(encode_record(record)))) == encode_state(state)


def test_the_virtual_dice_are_recorded_with_the_count_they_advance():
    state = _start("data-heist", "meridian-lobby", None, 2, seed=3)
    record = start_record(state)
    state, _ = record_action(record, state, BeginActions())
    state, _ = record_action(record, state, Move(dice=DicePool(basic=3)))
    entry = record.entries[-1]
    assert [f.die for f in entry.faces] == ["basic die"] * 3
    assert entry.seeded_rolls is not None and state.rolls == entry.seeded_rolls + 3


def test_a_record_that_no_longer_matches_names_the_entry():
    record, _ = _recorded_game(seed=5, game=0, players=2, actions=40, randomness=0.0)
    rolled = next(k for k, e in enumerate(record.entries) if e.faces)
    face = record.entries[rolled].faces[0]
    record.entries[rolled].faces[0] = type(face)(kind=face.kind, die="ping die", index=0, face=face.face)
    with pytest.raises(RecordError, match=f"entry {rolled + 1}: result 1 was recorded as ping die"):
        replay(record)
    record.entries[rolled].faces[0] = face
    events = record.entries[rolled].events
    record.entries[rolled].events = events[1:]
    with pytest.raises(RecordError, match=f"entry {rolled + 1} .* replays with different events"):
        replay(record)
    record.entries[rolled].events = events
    record.entries[-1].digest = "0" * 64
    with pytest.raises(RecordError, match=f"entry {len(record.entries)} .* replays to a different state"):
        replay(record)


def test_applying_to_a_state_the_record_is_not_at_is_refused():
    state = _start("data-heist", "meridian-lobby", None, 2, seed=3)
    record = start_record(state)
    record_action(record, state, BeginActions())
    with pytest.raises(RecordError, match="not the record's state after its 1 entries"):
        record_action(record, state, BeginActions())
    with pytest.raises(RecordError, match="nothing to redo"):
        redo(record, state)
    assert undo(record) == state
    with pytest.raises(RecordError, match="nothing to undo"):
        undo(record)


def test_a_malformed_record_is_a_clear_error():
    with pytest.raises(RecordError, match="game record: not valid JSON"):
        decode_record(b"{")
    with pytest.raises(RecordError, match=r"game record: Object missing required field `start`"):
        decode_record(b"{}")
    assert isinstance(decode_record(encode_record(GameRecord(start=_start("data-heist", "meridian-lobby", None,
                                                                              1, 0)))), GameRecord)
