"""The PettingZoo environment passes PettingZoo's own API and seed tests and
pays the rewards it documents."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from pips.pettingzoo import env, raw_env  # noqa: E402

TABLES = [
    dict(variant="block", players=2),
    dict(variant="muggins", players=3, reward="match"),
    dict(variant="cuban", players=4),
    dict(variant="mexican_train", players=4),
    dict(variant="chicken_foot", players=3, reward="match"),
    dict(variant="texas42", players=4),
    dict(variant="moon", players=3, reward="match"),
]


@pytest.mark.parametrize("options", TABLES, ids=lambda o: f"{o['variant']}-{o['players']}")
def test_pettingzoos_api_test(options):
    api_test(env(**options), num_cycles=300)
    api_test(raw_env(**options), num_cycles=300)


def test_pettingzoos_seed_test():
    seed_test(lambda: env(variant="draw", players=2), num_cycles=300)


def play_out(environment, seed: int) -> dict[str, float]:
    environment.reset(seed=seed)
    totals = {agent: 0.0 for agent in environment.possible_agents}
    chooser = np.random.default_rng(seed)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        totals[agent] += reward
        if termination or truncation:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert observation["action_mask"].dtype == np.int8
        assert observation["observation"].shape == environment.observation_space(agent)["observation"].shape
        environment.step(int(chooser.choice(legal)))
    return totals


def test_hand_rewards_add_up_to_the_final_scores():
    environment = raw_env(variant="all_fives", players=2, reward="hand")
    totals = play_out(environment, seed=3)
    scores = environment.game.scores
    assert environment.game.is_over
    assert totals["player_0"] == pytest.approx(scores[0] - scores[1])
    assert totals["player_1"] == pytest.approx(scores[1] - scores[0])


def test_match_rewards_name_the_winner():
    environment = raw_env(variant="cuban", players=4, reward="match")
    totals = play_out(environment, seed=4)
    winner = environment.game.winner
    for seat, agent in enumerate(environment.possible_agents):
        expected = 1.0 if environment.game.side_of(seat) == winner else -1.0
        assert totals[agent] == expected


def test_penalty_games_reward_the_lowest_score():
    environment = raw_env(variant="mexican_train", players=2, reward="hand", rules={"rounds": 1})
    totals = play_out(environment, seed=5)
    low = min(range(2), key=lambda s: environment.game.scores[s])
    if environment.game.scores[0] != environment.game.scores[1]:
        assert totals[f"player_{low}"] > 0


def test_bad_options_are_refused():
    import pips

    with pytest.raises(ValueError):
        raw_env(reward="sometimes")
    with pytest.raises(pips.InvalidArgument):
        raw_env(variant="block", players=9)
