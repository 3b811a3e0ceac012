#!/usr/bin/env python3
"""Random hands per second of PyPI `dominoes`, measured as pips's
`examples/hands.rs` measures its own: hands dealt and played to their end
back to back (a `Series` to 200 points, a new one when one ends, the deal
counted), each move a seeded uniform choice among the legal moves
(`random.choice(game.valid_moves)`). Its game is pips's `puerto_rican`.

    python3 scripts/dominoes-hands.py --seconds 2 --runs 3
"""

import argparse
import random
import statistics
import time

import dominoes


def run(seconds, rng):
    hands = moves = 0
    series = dominoes.Series(target_score=200)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = series.games[-1]
        while game.result is None:
            game.make_move(*rng.choice(game.valid_moves))
            moves += 1
        hands += 1
        if time.perf_counter() >= deadline:
            break
        if series.next_game() is None:
            series = dominoes.Series(target_score=200)
    elapsed = time.perf_counter() - start
    return hands / elapsed, moves / elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    random.seed(args.seed)
    rng = random.Random(args.seed)
    results = []
    for number in range(args.runs):
        hands, moves = run(args.seconds, rng)
        results.append(hands)
        print(f"run {number + 1}: {hands:,.0f} hands/s ({moves:,.0f} moves/s)")
    print(f"median: {statistics.median(results):,.0f} hands/s")


if __name__ == "__main__":
    main()
