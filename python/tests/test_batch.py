"""Batched stepping: every game of a batch is the match a single `Game`
would be, its answers are that game's, finished matches are dealt again in
the same call, and a refused call moves nothing."""

from __future__ import annotations

import json

import numpy as np
import pytest

import pips


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    keys = rng.random(masks.shape)
    return np.argmax(np.where(masks, keys, -1.0), axis=1).astype(np.int64)


@pytest.mark.parametrize(
    "variant,players,reward,rules",
    [
        ("block", 2, "hand", None),
        ("all_fives", 3, "match", {"target": 61}),
        ("cuban", 4, "hand", {"target": 50}),
        ("mexican_train", 3, "hand", {"rounds": 2}),
        ("chicken_foot", 2, "match", {"rounds": 1}),
        ("texas42", 4, "hand", None),
        ("moon", 3, "match", None),
    ],
)
def test_a_batch_is_its_games(variant, players, reward, rules):
    size = 6
    batch = pips.Batch(variant, players=players, size=size, seed=40, reward=reward, rules=rules)
    singles = [pips.Game(variant, players=players, seed=40 + i, rules=rules) for i in range(size)]
    observations, masks, rewards, done = batch.reset()
    assert observations.shape == (size, batch.observation_size) and observations.dtype == np.float32
    assert masks.shape == (size, batch.num_actions) and masks.dtype == np.bool_
    assert rewards.shape == (size, players) and not rewards.any()
    assert done.shape == (size,) and not done.any()
    rng = np.random.default_rng(1)
    totals = np.zeros((size, players))
    finished = 0
    next_seed = 40 + size
    seeds = [40 + i for i in range(size)]
    for _ in range(400):
        for i, game in enumerate(singles):
            assert batch.to_act[i] == game.to_act
            assert np.array_equal(masks[i], game.legal_action_mask())
            assert np.array_equal(observations[i], game.observation(game.to_act))
        actions = random_actions(masks, rng)
        hands_before = [g.hand_number for g in singles]
        observations, masks, rewards, done = batch.step(actions)
        totals += rewards
        for i, game in enumerate(singles):
            before = game.scores
            game.apply_action(int(actions[i]))
            assert done[i] == game.is_over
            if reward == "hand" and game.hand_number == hands_before[i] and not game.is_over:
                assert not rewards[i].any()
            if game.is_over:
                final = pips.hand_rewards(game, game.scores) if reward == "hand" else pips.match_rewards(game)
                assert np.allclose(totals[i], final), (totals[i], final, before)
                totals[i] = 0
                finished += 1
                singles[i] = pips.Game(variant, players=players, seed=next_seed, rules=rules)
                seeds[i] = next_seed
                next_seed += 1
    assert finished > 0
    # A batch keeps no record: a game's digest is its deal's, new matches' too.
    for i, seed in enumerate(seeds):
        dealt = pips.Game(variant, players=players, seed=seed, rules=rules)
        assert batch.game(i).match_digest == dealt.match_digest


def test_a_batch_is_reproducible_from_its_seed_and_actions():
    def run():
        batch = pips.Batch("muggins", players=2, size=8, seed=3)
        _, masks, _, _ = batch.reset()
        rng = np.random.default_rng(9)
        seen = []
        for _ in range(200):
            answer = batch.step(random_actions(masks, rng))
            masks = answer[1]
            seen.append(answer)
        return seen

    for a, b in zip(run(), run()):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)


def test_a_refused_step_moves_nothing():
    batch = pips.Batch("block", players=2, size=3, seed=1)
    _, masks, _, _ = batch.reset()
    before = [batch.game(i).to_json() for i in range(3)]
    actions = random_actions(masks, np.random.default_rng(0))
    illegal = next(a for a in range(batch.num_actions) if not masks[2][a])
    actions[2] = illegal
    with pytest.raises(pips.IllegalMove) as refused:
        batch.step(actions)
    assert refused.value.field == "actions[2]"
    actions[2] = batch.num_actions
    with pytest.raises(pips.InvalidArgument) as refused:
        batch.step(actions)
    assert (refused.value.reason, refused.value.field) == ("ERROR_REASON_MALFORMED_MOVE", "actions[2]")
    with pytest.raises(pips.InvalidArgument):
        batch.step(actions[:2])
    assert [batch.game(i).to_json() for i in range(3)] == before
    with pytest.raises(IndexError):
        batch.game(3)


def test_observations_can_be_left_out():
    batch = pips.Batch("block", players=4, size=5, seed=2, observations=False)
    observations, masks, _, _ = batch.reset()
    assert observations.shape == (5, 0) and batch.observation_size == 0
    assert masks.any(axis=1).all()


def test_actions_of_any_integer_type_are_taken():
    # int32 (numpy's default integer on some platforms) plays as int64 does.
    wide, narrow = pips.Batch("block", size=4, seed=2), pips.Batch("block", size=4, seed=2)
    _, masks, _, _ = wide.reset()
    narrow.reset()
    for _ in range(30):
        actions = masks.argmax(axis=1)
        a = wide.step(actions.astype(np.int64))
        b = narrow.step(actions.astype(np.int32))
        assert all(np.array_equal(x, y) for x, y in zip(a, b))
        masks = a[1]
    with pytest.raises(TypeError, match="actions must be a one-dimensional array of integers"):
        wide.step(np.zeros(4, dtype=np.float64))


def test_bad_batches_are_refused():
    with pytest.raises(ValueError):
        pips.Batch("block", size=0)
    # Too many games to hold is refused, not left to abort the interpreter.
    for size in (2**20 + 1, 2**40):
        with pytest.raises(ValueError, match="size must be from 1 to 1048576 games"):
            pips.Batch("block", players=2, size=size)
    with pytest.raises(ValueError):
        pips.Batch("block", reward="often")
    with pytest.raises(pips.InvalidArgument):
        pips.Batch("no such game")
    state = json.loads(pips.Batch("draw", size=2, seed=5).game(1).to_json())
    assert state["seed"] == "6"
