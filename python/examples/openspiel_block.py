"""OpenSpiel's algorithms on pips's 2-player block dominoes (double six,
seven tiles each): ISMCTS against pips's own expert, and outcome-sampling
MCCFR against random play.

    pip install ./python open_spiel
    python python/examples/openspiel_block.py --hands 200

Each hand is dealt by OpenSpiel's chance (the same deal for both searchers'
seatings: hand ``i`` is played twice, the seats swapped, so the deal's luck
cancels). The figures are OpenSpiel's player's mean return a hand (points,
zero-sum) with a 95% interval, and the share of hands it won.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np


def play_hand(game, deal_seed: int, choose, seat_of_a: int) -> float:
    """Plays one hand: `choose(state, seat)` answers an action for each
    seat; chance from `deal_seed`. Returns seat `seat_of_a`'s return."""
    rng = np.random.RandomState(deal_seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(choose(state, state.current_player()))
    return state.returns()[seat_of_a]


def play_pairing(game, chooser_for, hands: int, seed: int) -> list[float]:
    """Hand `i` is deal `i // 2`, the first player at seat `i % 2`:
    `chooser_for(seat)` answers the choosing function with the first
    player at `seat`. Returns the first player's returns."""
    returns = []
    for i in range(hands):
        seat = i % 2
        returns.append(play_hand(game, seed * 100_000 + i // 2, chooser_for(seat), seat))
    return returns


def summary(name: str, returns: list[float], seconds: float) -> str:
    n = len(returns)
    mean = sum(returns) / n
    sd = math.sqrt(sum((r - mean) ** 2 for r in returns) / max(1, n - 1))
    half = 1.96 * sd / math.sqrt(n)
    won = sum(1.0 if r > 0 else 0.5 if r == 0 else 0.0 for r in returns) / n
    return (
        f"{name}: {n} hands, mean return {mean:+.2f} ({mean - half:+.2f}..{mean + half:+.2f}), "
        f"won {100 * won:.1f}% of hands, {seconds:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200, help="hands a pairing (even: each deal twice)")
    parser.add_argument("--simulations", type=int, default=300, help="ISMCTS simulations a move")
    parser.add_argument("--playouts", type=int, default=5000, help="pips expert's playouts a move")
    parser.add_argument("--mccfr-iterations", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # OpenSpiel only once the arguments are read: `--help` works without it.
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr

    import pips.openspiel  # noqa: F401  (registers python_pips)

    game = pyspiel.load_game("python_pips", {"variant": "block", "players": 2})

    # ISMCTS (random rollouts) against pips's expert.
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(args.seed)),
        uct_c=2.0,
        max_simulations=args.simulations,
        random_state=np.random.RandomState(args.seed),
    )

    def ismcts_or_expert(ismcts_seat):
        def choose(state, seat):
            if seat == ismcts_seat:
                return bot.step(state)
            move = state.pips.suggest("expert", playouts=args.playouts, seed=args.seed)
            return state.pips.move_to_action(move)

        return choose

    started = time.time()
    returns = play_pairing(game, ismcts_or_expert, args.hands, args.seed)
    print(summary(f"ISMCTS ({args.simulations} simulations) vs pips expert ({args.playouts} playouts)", returns, time.time() - started))

    # Outcome-sampling MCCFR, then its average policy against random play.
    started = time.time()
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(args.mccfr_iterations):
        solver.iteration()
    average = solver.average_policy()
    trained = time.time() - started
    pick = np.random.RandomState(args.seed)

    def mccfr_or_random(mccfr_seat):
        def choose(state, seat):
            legal = state.legal_actions()
            if seat == mccfr_seat:
                probs = average.action_probabilities(state, seat)
                actions = list(probs)
                weights = np.array([probs[a] for a in actions], dtype=float)
                return int(pick.choice(actions, p=weights / weights.sum()))
            return int(pick.choice(legal))

        return choose

    started_play = time.time()
    returns = play_pairing(game, mccfr_or_random, args.hands, args.seed)
    print(
        summary(f"MCCFR ({args.mccfr_iterations} iterations, {trained:.0f} s) vs random", returns, time.time() - started_play)
    )


if __name__ == "__main__":
    main()
