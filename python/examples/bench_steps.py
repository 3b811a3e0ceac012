"""Steps a second of random play of two-player block dominoes (double six,
seven tiles each, one hand an episode: the game OpenSpiel calls
`python_block_dominoes`), side by side: OpenSpiel's own Python game, pips's
single-step API (`Game.legal_actions` and `Game.apply_action`) and pips's
batched API (`Batch.step`, with and without observations). A step is one
action applied (OpenSpiel's chance deals count as steps too, as OpenSpiel
applies them). Medians of `--repeats` runs; pin it to one core:

    taskset -c 0 python python/examples/bench_steps.py
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

import pips

# One hand an episode, as OpenSpiel's game.
ONE_HAND = {"matchEnd": "MATCH_END_SINGLE_HAND", "target": 0}


def openspiel_steps(seconds: float) -> float:
    import pyspiel
    from open_spiel.python import games  # noqa: F401  (registers the Python games)

    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(1)
    steps = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
            steps += 1
    return steps / (time.perf_counter() - started)


def single_steps(seconds: float) -> float:
    rng = random.Random(1)
    seed = 0
    steps = 0
    game = pips.Game("block", players=2, seed=seed, rules=ONE_HAND)
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        for _ in range(1000):
            if game.is_over:
                seed += 1
                game.restart(seed)
            actions = game.legal_actions()
            game.apply_action(actions[rng.randrange(len(actions))])
        steps += 1000
        if time.perf_counter() > deadline:
            return steps / (time.perf_counter() - started)


def batched_steps(seconds: float, size: int, observations: bool) -> tuple[float, float]:
    """Steps a second of the whole loop (numpy's random choice included),
    and of `Batch.step` alone."""
    batch = pips.Batch("block", players=2, size=size, seed=0, rules=ONE_HAND, observations=observations)
    rng = np.random.default_rng(1)
    _, masks, _, _ = batch.reset()
    steps = 0
    in_step = 0.0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        # A uniform legal action a game: the largest random key among the legal ones.
        keys = rng.random(masks.shape, dtype=np.float32)
        actions = np.argmax(np.where(masks, keys, -1.0), axis=1).astype(np.int64)
        before = time.perf_counter()
        _, masks, _, _ = batch.step(actions)
        in_step += time.perf_counter() - before
        steps += size
    return steps / (time.perf_counter() - started), steps / in_step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="a run's length")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--sizes", default="1024,4096", help="games a batch, comma-separated: each size is measured (a batch that fits in cache steps faster)"
    )
    args = parser.parse_args()

    def median(run):
        return statistics.median(run() for _ in range(args.repeats))

    try:
        print(f"OpenSpiel python_block_dominoes: {median(lambda: openspiel_steps(args.seconds)):,.0f} steps/s")
    except ImportError:
        print("OpenSpiel python_block_dominoes: not installed (pip install open_spiel)")
    print(f"pips Game (single step):         {median(lambda: single_steps(args.seconds)):,.0f} steps/s")
    for size in (int(size) for size in args.sizes.split(",")):
        for observations in (True, False):
            runs = [batched_steps(args.seconds, size, observations) for _ in range(args.repeats)]
            loop = statistics.median(r[0] for r in runs)
            step = statistics.median(r[1] for r in runs)
            label = "with observations" if observations else "masks only"
            print(
                f"pips Batch ({size} games, {label}): {loop:,.0f} steps/s with numpy's random choice, "
                f"{step:,.0f} steps/s in Batch.step"
            )


if __name__ == "__main__":
    main()
