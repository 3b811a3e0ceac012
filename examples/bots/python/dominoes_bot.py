"""PyPI `dominoes`' players as a pips bot: the opponent anyone can run.

Serves pips.v1.BotService for `puerto_rican` (four seats, two partnerships,
all 28 tiles dealt: the package's own game). Each `ChooseMove` carries the
seat's view only; the bot rebuilds from it the `dominoes.Game` that seat
would see — its hand, the board's ends, every play and pass of the hand
(so the package knows which numbers each seat lacks), and hands of the
right sizes for the others, filled with the tiles it cannot see (the
package's searches resample them: they never read them as known) — asks
the package's player to order the moves, and answers the first.

Players (`--player`):
- `random`: the package's uniform choice.
- `bota_gorda`: the heaviest tile first.
- `probabilistic_alphabeta`: samples hands for the others consistent with
  everything seen, passes included, solves each deal with alpha-beta and
  plays the move most often best. `--samples` deals a move (the package's
  `sample_size`); once at most `--exact-below` deals remain it enumerates
  every one of them instead (the package's exact mode). Before move
  `--start-move` of a hand it plays as `bota_gorda`.

    pip install -r requirements.txt dominoes==6.1.0
    python -m grpc_tools.protoc -I ../../../proto --python_out=gen \\
        --grpc_python_out=gen ../../../proto/pips/v1/*.proto
    python dominoes_bot.py --port 50062 --player probabilistic_alphabeta --workers 2
    pips arena --variant puerto_rican --players 4 --duplicate \\
        --pair expert:grpc://127.0.0.1:50062
"""

import argparse
import copy
import hashlib
import math
import multiprocessing
import os
import random
import sys
import types
import time
from concurrent import futures
from importlib.metadata import version

import dominoes
import grpc

# protoc writes the package pips.v1 under gen/ with no __init__.py, so an
# installed package named pips (the pips-dominoes package) would hide it:
# gen/pips is made this program's pips.
sys.modules["pips"] = types.ModuleType("pips")
sys.modules["pips"].__path__ = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen", "pips")]

from pips.v1 import bots_pb2, bots_pb2_grpc, engine_pb2, state_pb2  # noqa: E402

PLAYERS = ("random", "bota_gorda", "probabilistic_alphabeta")


class NotThisGame(Exception):
    """The view is not of a game this bot plays."""


def domino(tile):
    return dominoes.Domino(tile.a, tile.b)


def same_tile(d, tile):
    return sorted((d.first, d.second)) == sorted((tile.a, tile.b))


def lead_orientation(layout):
    """The lead's halves as (left, right): the half each arm grows from."""
    a, b = layout.lead.a, layout.lead.b
    if layout.left:
        left = layout.left[0].inner
        return (left, b if left == a else a)
    if layout.right:
        right = layout.right[0].inner
        return (b if right == a else a, right)
    return (a, b)


def rebuild(view):
    """The `dominoes.Game` the seat of `view` sees (see the module's text)."""
    if view.variant != "puerto_rican" or view.players != 4:
        raise NotThisGame(f"plays puerto_rican at four seats, not {view.variant} at {view.players}")
    seat = view.seat
    moves = []
    board = dominoes.SkinnyBoard()
    played = []
    for entry in view.history:
        if entry.HasField("play"):
            tile = entry.play.tile
            played.append(tile)
            if len(board) == 0:
                left, right = lead_orientation(view.layout)
                d = dominoes.Domino(left, right)
                on_left = True
            else:
                d = domino(tile)
                on_left = entry.play.end == state_pb2.END_LEFT
            board.add(d, on_left)
            moves.append((d, on_left))
        elif entry.HasField("pass"):
            moves.append(None)
        else:
            raise NotThisGame("a draw or an end of turn: not puerto_rican")
    own = [domino(t) for t in view.hand]
    seen = {(max(t.a, t.b), min(t.a, t.b)) for t in list(view.hand) + played}
    hidden = [dominoes.Domino(a, b) for a in range(7) for b in range(a + 1) if (a, b) not in seen]
    hands = []
    for s in range(4):
        if s == seat:
            hands.append(dominoes.Hand(own))
        else:
            size = view.hand_sizes[s]
            hands.append(dominoes.Hand(hidden[:size]))
            hidden = hidden[size:]
    game = dominoes.Game(board, hands, moves, seat, (), view.hand_leader, None)
    if len(board):
        game._update_valid_moves()
    elif view.HasField("required_lead"):
        game.valid_moves = ((domino(view.required_lead), True),)
    else:
        game.valid_moves = tuple((d, True) for d in own)
    return game


def possible_deals(game):
    """How many ways the hidden tiles split among the others' hands (an
    upper bound on the deals consistent with what was seen)."""
    sizes = [len(h) for s, h in enumerate(game.hands) if s != game.turn]
    ways = math.factorial(sum(sizes))
    for size in sizes:
        ways //= math.factorial(size)
    return ways


def choose(view, options):
    """The package player's move for `view`, as a pips move."""
    game = rebuild(view)
    legal = list(view.legal_moves)
    if len(legal) == 1 or not game.valid_moves:
        return legal[0]
    player = options["player"]
    if player == "random":
        dominoes.players.random(game)
    else:
        dominoes.players.bota_gorda(game)
        if player == "probabilistic_alphabeta" and len(game.moves) >= options["start_move"]:
            exact = possible_deals(game) <= options["exact_below"]
            samples = float("inf") if exact else options["samples"]
            dominoes.players.probabilistic_alphabeta(
                sample_size=samples, player=dominoes.players.bota_gorda
            )(game)
    d, on_left = game.valid_moves[0]
    if len(game.board) == 0:
        wanted = None
    else:
        wanted = game.board.left_end() if on_left else game.board.right_end()
    ends = {e.end: e.pips for e in view.layout.open_ends}
    for move in legal:
        if not move.HasField("play") or not same_tile(d, move.play.tile):
            continue
        if wanted is None or ends.get(move.play.end) == wanted:
            return move
    raise NotThisGame(f"the package's move {d} {'left' if on_left else 'right'} is not a pips move")


def decide(view_bytes, options):
    """`choose` in a worker process: the view as bytes in, the move as bytes
    out, the package's random generator seeded from the position, so that a
    position gets the same answer whichever worker takes it."""
    view = engine_pb2.ViewResponse.FromString(view_bytes)
    key = f"{options['seed']}:{view_bytes.hex()}".encode()
    random.seed(int.from_bytes(hashlib.sha256(key).digest()[:8], "little"))
    return choose(view, options).SerializeToString()


class PackagePlayer(bots_pb2_grpc.BotServiceServicer):
    """Answers with the package player's move, worked out in a process pool
    (the package is pure Python: processes, not threads, use the cores)."""

    def __init__(self, options, workers):
        self.options = options
        # Spawned, not forked: a fork of a process running gRPC's threads
        # is not safe. Started (and the package imported) before the first
        # move, so that no decision pays for it.
        self.pool = futures.ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
        list(self.pool.map(version, ["dominoes"] * workers))
        self.decisions = 0
        self.seconds = 0.0

    def ChooseMove(self, request, context):
        if not request.view.legal_moves:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, "no legal move: not my turn")
        started = time.perf_counter()
        try:
            answer = self.pool.submit(decide, request.view.SerializeToString(), self.options).result()
        except NotThisGame as error:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(error)[:200])
        except Exception as error:  # a failed worker: said, and answered as an error
            print(f"decision failed: {error!r}", file=sys.stderr, flush=True)
            context.abort(grpc.StatusCode.INTERNAL, repr(error)[:200])
        self.decisions += 1
        self.seconds += time.perf_counter() - started
        if self.decisions % 500 == 0:
            print(f"{self.decisions} decisions, {1000 * self.seconds / self.decisions:.1f} ms each on average",
                  flush=True)
        return bots_pb2.ChooseMoveResponse(move=state_pb2.Move.FromString(answer))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=50062)
    parser.add_argument("--player", choices=PLAYERS, default="probabilistic_alphabeta")
    parser.add_argument("--samples", type=int, default=8,
                        help="probabilistic_alphabeta: deals sampled a move (default 8)")
    parser.add_argument("--exact-below", type=int, default=200,
                        help="probabilistic_alphabeta: enumerate every deal once at most this many "
                             "remain (default 200)")
    parser.add_argument("--start-move", type=int, default=0,
                        help="probabilistic_alphabeta: play as bota_gorda before this move of a hand")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes deciding moves (default: every core)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    options = {"player": args.player, "samples": args.samples, "exact_below": args.exact_below,
               "start_move": args.start_move, "seed": args.seed}
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=max(4, args.workers)))
    bots_pb2_grpc.add_BotServiceServicer_to_server(PackagePlayer(options, args.workers), server)
    server.add_insecure_port(f"127.0.0.1:{args.port}")
    server.start()
    print(f"dominoes {version('dominoes')} {args.player} serving pips.v1.BotService on 127.0.0.1:{args.port}",
          flush=True)
    server.wait_for_termination()


if __name__ == "__main__":
    main()
