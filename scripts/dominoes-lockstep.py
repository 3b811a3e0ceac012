#!/usr/bin/env python3
"""Checks pips's `puerto_rican` against PyPI `dominoes` 6.1.0, move by move.

Reads the JSON lines of `examples/lockstep.rs` (random matches, one line per
hand: pips deals and picks each move) and replays every hand in the
package: each deal is loaded into a `dominoes.Game` inside a
`dominoes.Series` to 200, so the package decides on its own who leads, which
moves are legal, who passes, how the hand ends, who wins it and for how
many points, the scores and the next leader. At every step the legal moves
must be the same (a play compared as its tile and the number of the end it
goes on, since pips names both ends of a tile that fits two ends showing
one number and the package names one); every pass, the hand's end, its
winner and points, the scores, the end of the match and the next leader
must agree. The first disagreement fails the check, with its example.

    cargo run --release --example lockstep -- --hands 2000 | python3 scripts/dominoes-lockstep.py
"""

import json
import sys
from importlib.metadata import version

import dominoes


class Disagreement(Exception):
    """pips and the package disagree."""


def domino(pair):
    return dominoes.Domino(pair[0], pair[1])


def tile_key(d):
    return (max(d.first, d.second), min(d.first, d.second))


def package_moves(game):
    """The package's legal moves as (high, low, number of the end or None)."""
    if not game.board:
        return {tile_key(d) + (None,) for d, _ in game.valid_moves}
    left, right = game.board.left_end(), game.board.right_end()
    return {tile_key(d) + (left if on_left else right,) for d, on_left in game.valid_moves}


def pips_moves(step):
    plays = {tuple(m) for m in step["legal"] if m not in ("pass", "draw")}
    others = [m for m in step["legal"] if m in ("pass", "draw")]
    return plays, others


def passes_after(game, mover):
    """The seats the package skipped (they passed) after `mover`'s tile."""
    seats = []
    seat = dominoes.game.next_player(mover)
    while seat != game.turn:
        seats.append(seat)
        seat = dominoes.game.next_player(seat)
    return seats


def load_deal(game, hands):
    """Puts pips's deal into the package's game, as a new game would be."""
    game.hands = [dominoes.Hand([domino(t) for t in hand]) for hand in hands]
    game.valid_moves = tuple((d, True) for d in game.hands[game.turn])


def check_hand(series, record, compared):
    where = f"match {record['match']} (seed {record['seed']}), hand {record['hand']}"

    def expect(what, package, pips):
        if package != pips:
            raise Disagreement(f"{where}: {what}: dominoes says {package!r}, pips says {pips!r}")

    game = series.games[-1]
    hands = record["hands"]
    expect("players", 4, len(hands))
    expect("scores before the hand", series.scores, record["scores_before"])
    if record["hand"] == 1:
        # The first game of a series is led by the holder of 6-6, with it.
        six = dominoes.Domino(6, 6)
        holder = next(i for i, hand in enumerate(hands) if [6, 6] in hand)
        game.board = dominoes.Board()
        game.moves = []
        game.result = None
        game.turn = game.starting_player = holder
        load_deal(game, hands)
        game.valid_moves = ((six, True),)
        expect("required lead", [6, 6], record["required_lead"])
    else:
        load_deal(game, hands)
        expect("required lead", None, record["required_lead"])
    expect("leader", game.starting_player, record["leader"])

    pending_passes = []
    for number, step in enumerate(record["steps"]):
        at = f"step {number + 1}"
        plays, others = pips_moves(step)
        if others == ["pass"]:
            # The package skips a seat that cannot play: it must have.
            expect(f"{at}: seat that passes next", pending_passes[:1], [step["seat"]])
            pending_passes.pop(0)
            compared["passes"] += 1
            continue
        expect(f"{at}: passes still owed", [], pending_passes)
        expect(f"{at}: seat to act", game.turn, step["seat"])
        expect(f"{at}: legal moves", sorted(package_moves(game), key=str), sorted(plays, key=str))
        expect(f"{at}: moves other than plays", [], others)
        compared["positions"] += 1
        high, low, on = step["move"]
        mover = game.turn
        on_left = on is None or on == game.board.left_end()
        result = game.make_move(dominoes.Domino(high, low), on_left)
        if result is None:
            pending_passes = passes_after(game, mover)
    expect("passes owed at the hand's end", [], pending_passes)

    result = game.result
    if result is None:
        raise Disagreement(f"{where}: pips ended the hand, dominoes did not")
    kind = "domino" if result.won else "blocked"
    expect("how the hand ended", (kind, result.player), (record["end"]["kind"], record["end"]["by"]))
    winner = None if result.points == 0 else (0 if result.points > 0 else 1)
    expect("the hand's winner", winner, record["winner"])
    settlement = [max(result.points, 0), max(-result.points, 0)]
    expect("the hand's points", settlement, record["settlement"])

    over = series.next_game() is None
    expect("scores after the hand", series.scores, record["scores_after"])
    expect("match over", over, record["next_leader"] is None)
    if not over:
        expect("next leader", series.games[-1].starting_player, record["next_leader"])
    compared["hands"] += 1
    return over


def main():
    compared = {"hands": 0, "positions": 0, "passes": 0, "matches": 0}
    series = None
    try:
        for line in sys.stdin:
            record = json.loads(line)
            if record["hand"] == 1:
                if series is not None:
                    raise Disagreement(f"match {record['match']} began before the last one ended")
                series = dominoes.Series(target_score=200)
            if check_hand(series, record, compared):
                series = None
                compared["matches"] += 1
    except Disagreement as error:
        print(f"DISAGREEMENT: {error}", file=sys.stderr)
        return 1
    if series is not None:
        print("DISAGREEMENT: the last match did not end with the input", file=sys.stderr)
        return 1
    if compared["hands"] == 0:
        print("no hands were read", file=sys.stderr)
        return 1
    print(
        f"{compared['hands']} hands ({compared['matches']} matches) of puerto_rican agree with "
        f"PyPI dominoes {version('dominoes')}: "
        f"{compared['positions']} positions' legal moves compared, {compared['passes']} passes, "
        f"0 disagreements"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
