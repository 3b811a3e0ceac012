"""A match's notation and its review in-process: the notation round-trips
every table, and `pips.review` answers what the service's `ReviewMatch`
does, from each seat's view, the same for the same seed."""

from __future__ import annotations

import json
import random

import pytest
from tables import EVERY_TABLE

import pips


def a_match(variant, players, seed, count=None):
    """A match dealt from `seed` and played by a seeded chooser: its first
    game, its moves and where it got to."""
    first = pips.Game(variant, players=players, seed=seed)
    game = first.clone()
    chooser = random.Random(seed)
    moves = []
    while not game.is_over and (count is None or len(moves) < count) and len(moves) < 600:
        move = chooser.choice(game.legal_moves())
        game.play(move)
        moves.append(move)
    return first, moves, game


@pytest.mark.parametrize("variant,players", EVERY_TABLE)
def test_the_notation_round_trips_every_table(variant, players):
    first, moves, last = a_match(variant, players, seed=3)
    text = pips.write_notation(first, moves)
    assert f'[Preset "{variant}"]' in text
    read_first, read_moves = pips.read_notation(text)
    assert read_first == first
    assert read_moves == moves
    replayed = read_first.clone()
    for move in read_moves:
        replayed.play(move)
    assert replayed.match_digest == last.match_digest
    # The moves are written as their tokens, in order, each hand on its
    # numbered line.
    written = [
        token
        for line in text.splitlines()
        if not line.startswith("[")
        for token in line.split(":", 1)[1].split()
    ]
    assert written == [move.token for move in moves]


def test_notation_refusals_name_the_line_and_the_move():
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.read_notation('[Preset "muggins"]\n[Seats "2"]\n[Seed "1"]\n\n1: 9-9\n')
    assert refused.value.reason == "ERROR_REASON_MALFORMED_NOTATION"
    assert "line 5" in str(refused.value)
    first = pips.Game("block", players=2, seed=1)
    with pytest.raises(pips.IllegalMove) as refused:
        pips.write_notation(first, [{"pass": {}}])
    assert refused.value.field == "moves[0]"


def test_a_review_grades_each_decision_from_its_seat():
    first, moves, _ = a_match("muggins", 2, seed=5, count=20)
    text = pips.write_notation(first, moves)
    review = pips.review(text, playouts=100, seed=9)
    assert review["complete"] is True
    assert len(review["moves"]) == len(moves)
    for index, (reviewed, move) in enumerate(zip(review["moves"], moves)):
        assert reviewed.get("index", 0) == index
        assert reviewed["played"] == move.to_dict()
        assert reviewed["token"] == move.token
        if reviewed.get("forced"):
            assert "grade" not in reviewed or reviewed["grade"] == "MOVE_GRADE_UNSPECIFIED"
        else:
            assert reviewed["bestValue"] >= reviewed["playedValue"]
            assert reviewed["grade"] != "MOVE_GRADE_UNSPECIFIED"
    seats = review["seats"]
    assert [seat.get("seat", 0) for seat in seats] == [0, 1]
    assert sum(s.get("graded", 0) + s.get("forced", 0) for s in seats) == len(moves)
    # The same record as the service's JSON, and the same seed: the same review.
    state = json.loads(first.to_json())
    again = pips.review({"state": state, "moves": [m.to_dict() for m in moves]}, playouts=100, seed=9)
    assert again == review
    # One seat's decisions alone.
    alone = pips.review(text, seats=[1], playouts=100, seed=9)
    assert {m["seat"] for m in alone["moves"]} == {1}


def test_a_review_refuses_a_seat_the_game_lacks():
    first, moves, _ = a_match("block", 2, seed=2, count=4)
    with pytest.raises(pips.InvalidArgument) as refused:
        pips.review(pips.write_notation(first, moves), seats=[3])
    assert refused.value.field == "seats[0]"
