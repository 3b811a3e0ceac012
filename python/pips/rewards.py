"""Points as rewards: what a seat's side gained, zero-sum, the sign set by
who wins (shared by the PettingZoo and OpenSpiel environments)."""

from __future__ import annotations

from ._pips import Game


def zero_sum(game: Game, gains: list[int]) -> list[float]:
    """Each seat's reward for its side's `gains` (points per side): its
    side's gain less the mean of the other sides', negated where the lowest
    score wins. The seats' rewards of two sides sum to zero."""
    sign = -1.0 if game.lowest_score_wins else 1.0
    sides = len(gains)
    rewards = []
    for seat in range(game.players):
        own = game.side_of(seat)
        others = sum(g for side, g in enumerate(gains) if side != own)
        rewards.append(sign * (gains[own] - others / max(1, sides - 1)))
    return rewards
