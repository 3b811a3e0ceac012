"""pips: an authoritative dominoes rules engine, in-process.

The rules of every pips preset (and their house rules) run here in Rust, the
same code a pips server runs: deal a match, list legal moves or actions, play
them, look at it as one seat sees it, ask a built-in bot, and move states to
and from a pips server in its JSON or token form.

>>> import pips
>>> game = pips.Game("block", players=2, seed=7)
>>> move = game.legal_moves()[0]
>>> update = game.play(move)
>>> game.to_act
1
"""

from __future__ import annotations

from ._pips import (
    LEVELS,
    Batch,
    Game,
    Move,
    Update,
    hand_rewards,
    match_rewards,
    read_notation,
    review,
    variants,
    write_notation,
)
from .errors import IllegalMove, InvalidArgument, PermissionDenied, PipsError, Unauthenticated

__all__ = [
    "LEVELS",
    "Batch",
    "Game",
    "IllegalMove",
    "InvalidArgument",
    "Move",
    "PermissionDenied",
    "PipsError",
    "Unauthenticated",
    "Update",
    "hand_rewards",
    "match_rewards",
    "read_notation",
    "review",
    "variants",
    "write_notation",
]
