"""The search player: it never sees the future, it is reproducible, it only plays legal actions, and its
hints rank three actions with bands and reasons (issue 35)."""

from __future__ import annotations

import json
import random
import statistics

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.autoplay.memory import AutoplayMemory
from controller.autoplay.player import AutoPlayer, team
from controller.autoplay.players import PlayerSettings, make_player, player_names
from controller.autoplay.search import SearchCancelled, SearchPlayer, SearchSettings, hint
from controller.autoplay.search.candidates import candidates
from controller.autoplay.search.determinize import UNSEEN_PILES, canonical, determinize, public_digest, realign
from controller.autoplay.search.evaluation import value
from controller.autoplay.search.search import blueprint_decision, future_seed, rollout
from controller.library import floor_text
from controller.rules import (
    Action,
    GameSetup,
    GameState,
    Terminal,
    apply_action,
    copy_state,
    encode_state,
    legal_actions,
    new_game,
)
from controller.rules.dice import SeededDice
from tests.support.cli_run import refused, run
from tests.support.rules_scenarios import CONTENT


def start(floor: str = "meridian-lobby", mission: str = "data-heist", seed: int = 1000) -> GameState:
    text, source = floor_text(floor)
    return new_game(CONTENT, GameSetup(floor=source, floor_text=text, mission=mission, players=2,
                                       agents=team(2), seed=seed))


def position(state: GameState, actions: int) -> GameState:
    """The game after the heuristic's first `actions` actions, stopped early at its end."""
    player = AutoPlayer()
    for _ in range(actions):
        if state.outcome is not None:
            break
        state, _ = apply_action(state, player.choose(state))
    return state


def chip_decision(state: GameState, after: int = 0) -> GameState:
    """The first start of a chip's action (several candidates, no terminal under a bot) after `after` actions."""
    player = AutoPlayer()
    for k in range(2000):
        turn = state.turn
        if k >= after and turn.step == "actions" and turn.pending is None and \
                len({type(la.action) for la in legal_actions(state)}) >= 3 and \
                not any(isinstance(la.action, Terminal) for la in legal_actions(state)):
            return state
        state, _ = apply_action(state, player.choose(state))
    raise AssertionError("no chip's decision in the game")


def listed(action: Action, state: GameState) -> bool:
    """`action` is one of the state's legal actions with the fields the player may choose filled in, and the
    engine accepts it."""
    fixed = [la for la in legal_actions(state) if type(la.action) is type(action)
             and all(getattr(la.action, f) == getattr(action, f)
                     for f in type(action).__struct_fields__ if f not in la.choose)]
    if not fixed:
        return False
    apply_action(state, action)  # raises on an illegal one
    return True


def hidden_future_changed(state: GameState, seed: int) -> GameState:
    """The same position with another future: another seed and roll count, every unseen pile reordered."""
    other = copy_state(state)
    rng = random.Random(seed)
    other.seed, other.rolls = rng.getrandbits(31), rng.randrange(10_000)
    for pile in UNSEEN_PILES:
        rng.shuffle(getattr(other, pile))
    return other


def test_the_search_never_reads_the_hidden_future():
    """Another seed, roll count and order of every unseen deck and bag: the same position as the table shows
    it, the same choice and the same figures for the same search seed (what it does not know cannot matter)."""
    state = chip_decision(start(seed=1001), after=30)
    search = SearchSettings(seed=7, iterations=24)
    first = SearchPlayer(search)
    action = first.choose(state)
    assert first.last is not None and first.last.searched
    for k in range(3):
        other = hidden_future_changed(state, k)
        assert encode_state(other) != encode_state(state) and public_digest(other) == public_digest(state)
        again = SearchPlayer(search)
        assert again.choose(other) == action
        assert again.last is not None
        assert [o.chance for o in again.last.options] == [o.chance for o in first.last.options]


def test_the_oracle_does_read_the_future():
    """The oracle plays the position's own future: the same position with other dice is weighed differently."""
    state = chip_decision(start(seed=1001), after=30)
    oracle = SearchSettings(oracle=True, horizon=2)
    seen = SearchPlayer(oracle)
    seen.choose(state)
    figures = {tuple(o.chance for o in seen.last.options)} if seen.last else set()
    for k in range(4):
        other = SearchPlayer(oracle)
        other.choose(hidden_future_changed(state, k))
        assert other.last is not None
        figures.add(tuple(o.chance for o in other.last.options))
    assert len(figures) > 1


def test_a_decision_is_reproducible_for_the_same_seed_and_budget():
    state = chip_decision(start(seed=1002), after=10)
    a, b = SearchPlayer(SearchSettings(seed=3, iterations=20)), SearchPlayer(SearchSettings(seed=3, iterations=20))
    assert a.choose(state) == b.choose(state)
    assert a.last is not None and b.last is not None
    assert msgspec.json.encode(a.last.options) == msgspec.json.encode(b.last.options)
    other = SearchPlayer(SearchSettings(seed=4, iterations=20))
    other.choose(state)
    assert other.last is not None
    assert [o.chance for o in other.last.options] != [o.chance for o in a.last.options]


def test_worker_processes_give_the_figures_of_one():
    """Futures shared among two processes are merged by number: the same decision as one process."""
    state = chip_decision(start(seed=1003), after=10)
    one = SearchPlayer(SearchSettings(seed=5, iterations=24))
    two = SearchPlayer(SearchSettings(seed=5, iterations=24, workers=2))
    assert one.choose(state) == two.choose(state)
    assert one.last is not None and two.last is not None
    assert msgspec.json.encode(one.last.options) == msgspec.json.encode(two.last.options)


def test_a_seconds_budget_only_cuts_the_search_short():
    state = chip_decision(start(seed=1002), after=10)
    player = SearchPlayer(SearchSettings(iterations=10_000, seconds=0.0))
    action = player.choose(state)
    assert player.last is not None and player.last.futures == 1
    assert listed(action, state)
    # one future tells no luck from worth: the blueprint's action stands
    assert player.last.chosen == 0 and action == player.last.options[0].action


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 160),
       mission=st.sampled_from(["data-heist", "tower-run", "rescue-rangers", "tsm-103c", "preconnaissance",
                                "ghost-in-the-dell"]),
       floor=st.sampled_from(["meridian-lobby", "meridian-annex", "meridian-labs"]))
def test_the_search_only_ever_plays_legal_actions(seed, actions, mission, floor):
    """Over random positions of random seeded games, the search's choice is always one of the legal actions."""
    state = position(start(floor, mission, seed), actions)
    if state.outcome is not None:
        return
    player = SearchPlayer(SearchSettings(seed=seed, iterations=6))
    for _ in range(3):  # a few decisions in a row, with the memory it carries
        if state.outcome is not None:
            break
        action = player.choose(state)
        assert listed(action, state), action
        state, _ = apply_action(state, action)


def test_the_players_registry_makes_the_search_and_the_oracle():
    assert {"heuristic", "search", "oracle"} <= set(player_names())
    search = make_player("search", PlayerSettings(seed=2, iterations=8))
    assert isinstance(search, SearchPlayer) and search.settings.iterations == 8 and not search.settings.oracle
    oracle = make_player("oracle", PlayerSettings(seed=2))
    assert isinstance(oracle, SearchPlayer) and oracle.settings.oracle


def test_the_search_says_why_in_the_game_s_words():
    state = chip_decision(start(seed=1001), after=30)
    player = SearchPlayer(SearchSettings(iterations=24))
    player.choose(state)
    reason = player.explain()
    assert reason is not None and "% of futures won" in reason
    assert reason.startswith(("Nano", "Casing"))


def test_a_hint_ranks_three_legal_actions_with_bands_and_reasons():
    state = chip_decision(start(seed=1004), after=20)
    progress: list[float] = []
    found = hint(state, iterations=30, seed=1, progress=progress.append)
    assert found.searched and len(found.actions) == 3
    chances = [a.chance for a in found.actions]
    assert chances == sorted(chances, reverse=True)
    for action in found.actions:
        assert 0.0 <= action.low <= action.chance <= action.high <= 1.0
        assert action.futures > 0 and "% of futures won" in action.reason
        assert listed(action.action, state)
    assert len({msgspec.json.encode(a.action) for a in found.actions}) == 3
    assert progress == sorted(progress) and progress[-1] == 1.0
    again = hint(state, iterations=30, seed=1)
    assert [msgspec.json.encode(a.action) for a in again.actions] == \
        [msgspec.json.encode(a.action) for a in found.actions]
    assert [a.chance for a in again.actions] == chances


def test_a_hint_can_be_cancelled():
    state = chip_decision(start(seed=1004), after=20)
    with pytest.raises(SearchCancelled):
        hint(state, iterations=200, cancel=lambda: True)


def test_no_hint_for_the_corporation_or_a_game_over():
    state = start()
    state.turn.step = "corporation"
    with pytest.raises(ValueError, match="corporation"):
        hint(state, iterations=4)


def test_the_hint_command_on_a_saved_state(capsys, tmp_path):
    state = chip_decision(start(seed=1004), after=20)
    path = tmp_path / "state.json"
    path.write_bytes(encode_state(state))
    code, out, err = run(capsys, "hint", path, "--iterations", "24")
    assert code == 0, err
    answer = json.loads(out)
    assert len(answer["actions"]) == 3 and answer["searched"]
    assert all(0 <= a["low"] <= a["chance"] <= a["high"] <= 1 for a in answer["actions"])
    code, out, err = run(capsys, "hint", path, "--iterations", "24", "--text")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("1. ") and "% of futures won" in lines[0] and "band" in lines[0]
    assert json.loads(lines[1]) == answer["actions"][0]["action"]
    missing = refused(capsys, "hint", tmp_path / "nowhere.json")
    assert "nowhere.json" in missing
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert "bad.json" in refused(capsys, "hint", bad)
    over = copy_state(state)
    over.turn.step = "corporation"
    corporation = tmp_path / "corporation.json"
    corporation.write_bytes(encode_state(over))
    assert "corporation" in refused(capsys, "hint", corporation)


@pytest.mark.slow  # a whole game, searched
def test_a_whole_searched_game_ends():
    state = start(seed=1005)
    player = SearchPlayer(SearchSettings(iterations=12))
    for _ in range(5000):
        if state.outcome is not None:
            break
        action = player.choose(state)
        assert listed(action, state)
        state, _ = apply_action(state, action)
    assert state.outcome is not None


@pytest.mark.slow  # a whole game of the oracle: each candidate played to the end at every decision
def test_the_oracle_wins_a_game_the_heuristic_loses():
    """Part 3's witness: seeing the dice, one step off the blueprint at the right decision wins (two players on
    the labs, seed 1001: the heuristic loses it; seed 1000 until the boxed-in agents bought push, which won it)."""
    state = start("meridian-labs", seed=1001)
    final = play_with(AutoPlayer(), state)
    assert final.outcome is not None and not final.outcome.won
    final = play_with(make_player("oracle"), state)
    assert final.outcome is not None and final.outcome.won


def play_with(player, state: GameState) -> GameState:
    for _ in range(20_000):
        if state.outcome is not None:
            break
        state, _ = apply_action(state, player.choose(state))
    return state


def test_a_race_drops_the_candidates_that_cannot_reach_the_margin():
    """After a batch of futures, a candidate whose lead over the blueprint's stays far below the margin gets no
    more futures; one that may still reach it does; one that beats it clearly ends the race beside the
    blueprint's alone."""
    from controller.autoplay.search.search import _raced

    race = SearchSettings(margin=0.05, noise=2.0)
    blueprint = {k: (0.5, frozenset()) for k in range(4)}
    hopeless = {k: (0.2, frozenset()) for k in range(4)}
    close = {k: (0.5 + (0.1 if k % 2 else -0.08), frozenset()) for k in range(4)}
    clear = {k: (0.8 + 0.01 * k, frozenset()) for k in range(4)}
    assert _raced([blueprint, hopeless, close], [0, 1, 2], race) == [0, 2]
    assert _raced([blueprint, hopeless, close, clear], [0, 1, 2, 3], race) == [0, 3]
    assert _raced([blueprint, hopeless], [0, 1], race) == [0]


def test_a_raced_decision_spends_its_futures_on_the_candidates_still_in_the_race():
    """Raced, the blueprint's action is played in the most futures and the race ends early where no other
    candidate can reach the margin; unraced (a hint), every candidate is played in the same futures, the whole
    budget."""
    state = chip_decision(start(seed=1001), after=30)
    raced = SearchPlayer(SearchSettings(seed=2, iterations=96))
    raced.choose(state)
    assert raced.last is not None and raced.last.searched
    visits = [o.visits for o in raced.last.options]
    assert visits[0] == raced.last.futures == max(visits) and sum(visits) <= 96
    even = SearchPlayer(SearchSettings(seed=2, iterations=96, race=False))
    even.choose(state)
    assert even.last is not None and len({o.visits for o in even.last.options}) == 1
    assert sum(visits) < sum(o.visits for o in even.last.options) <= 96 + len(visits)


def test_realigned_dice_are_the_step_s_own_whatever_was_rolled_before() -> None:
    """Two candidates' rollouts in one future meet the same dice at each later step of a turn, however many
    dice each rolled before it; another future, or another step, rolls other dice."""
    state = chip_decision(start())
    early, late = copy_state(state), copy_state(state)
    late.rolls = 7  # as if its candidate had rolled seven dice more
    for world in (early, late):
        realign(world, future=11)
    faces = [str(k) for k in range(1, 7)]

    def dice(world: GameState) -> list[str]:
        roller = SeededDice(world.seed, world.rolls)
        return [roller.roll("action", faces) for _ in range(8)]

    assert dice(early) == dice(late)
    other_future = copy_state(state)
    realign(other_future, future=12)
    next_step = copy_state(state)
    next_step.turn.step = "network"
    realign(next_step, future=11)
    assert dice(other_future) != dice(early)
    assert dice(next_step) != dice(early)


def test_common_dice_make_the_paired_differences_less_noisy() -> None:
    """Common random numbers: over the same futures of the same decisions, the spread of each candidate's
    difference from the blueprint's is smaller when every later step rolls dice of its own (`realign`) than
    when one extra die shifts all the dice after it."""
    spreads: dict[bool, list[float]] = {True: [], False: []}
    for seed, after in ((1000, 0), (1000, 120), (1001, 60), (1002, 200)):
        state = chip_decision(start(seed=seed), after=after)
        digest = public_digest(state)
        world, blueprint, memory = blueprint_decision(state, AutoplayMemory(), SearchSettings(), digest)
        actions = candidates(world, blueprint)
        assert len(actions) > 1
        for common in (True, False):
            values = [[rollout(determinize(canonical(state), random.Random(future_seed(0, digest, n))), action,
                               memory, 1, AutoPlayer(), common_dice=common)[0] for n in range(12)]
                      for action in actions]
            for other in values[1:]:
                spreads[common].append(statistics.stdev(b - a for a, b in zip(values[0], other, strict=True)))
    assert statistics.mean(spreads[True]) < 0.9 * statistics.mean(spreads[False])


@pytest.mark.slow  # 40 whole heuristic games of each mission
@pytest.mark.parametrize("mission", ["tower-run", "rescue-rangers"])
def test_a_rollout_s_end_is_scored_near_the_share_of_games_won_from_there(mission: str) -> None:
    """The evaluation scores where a rollout stops by the chance to win from there. Fitted on Data Heist alone it
    forecast 41% at the tower run's round starts and 34% at Rescue Rangers', where 15% and 5% of the games are
    won: the tower run's climb to the labs read as a loss (their security level). Each now has its own weights."""
    level = 1 if CONTENT.missions[mission].adaptable else None
    forecasts: list[float] = []
    from_won: list[bool] = []
    for seed in range(7000, 7040):
        text, source = floor_text("meridian-lobby")
        state = new_game(CONTENT, GameSetup(floor=source, floor_text=text, mission=mission, level=level,
                                            players=2, agents=team(2), seed=seed))
        player, last_round, seen = AutoPlayer(), 0, 0
        for _ in range(20_000):
            if state.outcome is not None:
                break
            if state.round != last_round and state.turn.step == "route":
                forecasts.append(value(state))
                last_round, seen = state.round, seen + 1
            state, _ = apply_action(state, player.choose(state), in_place=True)
        from_won += [bool(state.outcome and state.outcome.won)] * seen
    assert abs(statistics.fmean(forecasts) - statistics.fmean(from_won)) < 0.12, \
        (statistics.fmean(forecasts), statistics.fmean(from_won))
