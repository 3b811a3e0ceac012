"""The OpenSpiel game passes OpenSpiel's random-simulation test, runs its
ISMCTS and MCCFR, and observes nothing a seat cannot see."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import pips  # noqa: E402
import pips.openspiel  # noqa: E402,F401
from tables import EVERY_TABLE  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr  # noqa: E402

TABLES = [
    {"variant": "block", "players": 2},
    {"variant": "draw", "players": 3},
    {"variant": "puerto_rican", "players": 4},
    {"variant": "all_fives", "players": 2, "rules": '{"target": 50}'},
    {"variant": "chicken_foot", "players": 2},
    {"variant": "mexican_train", "players": 3},
    {"variant": "texas42", "players": 4},
    {"variant": "moon", "players": 3},
]


@pytest.mark.parametrize("params", TABLES, ids=lambda p: f"{p['variant']}-{p['players']}")
def test_openspiels_random_simulation_test(params):
    game = pyspiel.load_game("python_pips", params)
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


@pytest.mark.parametrize("variant,players", EVERY_TABLE, ids=lambda v: str(v))
def test_returns_sum_to_zero_at_every_table(variant, players):
    # OpenSpiel's own check (within its 1e-9) on a whole match of every
    # preset at every seat count: rewards shared out in thirds or sevenths
    # must still sum to zero.
    game = pyspiel.load_game("python_pips", {"variant": variant, "players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_block_2p_matches_openspiels_own_figures():
    game = pyspiel.load_game("python_pips", {"variant": "block", "players": 2})
    assert game.num_players() == 2
    assert game.max_chance_outcomes() == 28
    assert game.num_distinct_actions() == 28 * 5 + 3
    state = game.new_initial_state()
    for _ in range(14):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[0][0])
    assert not state.is_chance_node()
    assert sorted(len(state.pips.hand(s)) for s in range(2)) == [7, 7]


@pytest.mark.parametrize("variant,players,tiles", [("texas42", 4, 28), ("moon", 3, 22)])
def test_a_trick_games_deal_is_chance_and_is_played(variant, players, tiles):
    game = pyspiel.load_game("python_pips", {"variant": variant, "players": players})
    assert game.max_chance_outcomes() == 28
    state = game.new_initial_state()
    # Chance deals 7 tiles a seat from the game's set (Moon's 22: the widow
    # is the tile left), the last outcomes first, so that the deal differs
    # from the seed's.
    assert len(state.chance_outcomes()) == tiles
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    for seat in range(players):
        assert sorted(state.pips.hand(seat)) == sorted(state.dealt[seat])
    # The hand plays that deal: a bid or pass first, then on to its end.
    rng = np.random.RandomState(1)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert sum(state.returns()) == pytest.approx(0.0)


def play_to_decision(game, seed: int, moves: int):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    played = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif played == moves:
            return state
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            played += 1
    return None


@pytest.mark.parametrize(
    "variant,players",
    [("block", 2), ("draw", 2), ("cuban", 4), ("mexican_train", 3), ("texas42", 4), ("moon", 3)],
)
def test_a_resampled_state_looks_the_same_to_the_seat(variant, players):
    game = pyspiel.load_game("python_pips", {"variant": variant, "players": players})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    for seed in range(12):
        state = play_to_decision(game, seed, moves=seed % 6 + 1)
        if state is None:
            continue
        seat = state.current_player()
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_string(seat) == state.observation_string(seat)
        assert np.array_equal(other.information_state_tensor(seat), state.information_state_tensor(seat))
        assert np.array_equal(other.observation_tensor(seat), state.observation_tensor(seat))
        assert other.legal_actions() == state.legal_actions()
        checked += 1
        # (The other world has a seed of its own, so it prints otherwise
        # even when the sample dealt the same hands: compare the hands.)
        def hands(world):
            return [sorted(world.pips.hand(s)) for s in range(players)]

        if hands(other) != hands(state):
            # Another seat sees a different hand in the other world.
            differs = [s for s in range(players) if other.observation_string(s) != state.observation_string(s)]
            assert seat not in differs and differs
    assert checked >= 8


def test_ismcts_and_mccfr_run_on_block():
    game = pyspiel.load_game("python_pips", {"variant": "block", "players": 2})
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(1)),
        uct_c=2.0,
        max_simulations=30,
        random_state=np.random.RandomState(1),
    )
    rng = np.random.RandomState(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            move = state.pips.suggest("greedy")
            state.apply_action(state.pips.move_to_action(move))
    assert sum(state.returns()) == pytest.approx(0.0)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(50):
        solver.iteration()
    policy = solver.average_policy()
    state = play_to_decision(game, 3, moves=0)
    probs = policy.action_probabilities(state, state.current_player())
    assert set(probs) == set(state.legal_actions())
    assert sum(probs.values()) == pytest.approx(1.0)
