"""An example bot for pips, in Python with grpcio: it serves
pips.v1.BotService, and `pips arena` (or any backend) asks it for moves.

It sees only its seat's view (`ChooseMoveRequest.view`, a ViewResponse) and
answers one of the view's legal moves: the heaviest tile it can place,
doubles first among equals, else the draw or pass it is offered.

    pip install -r requirements.txt
    python -m grpc_tools.protoc -I ../../../proto --python_out=gen \
        --grpc_python_out=gen ../../../proto/pips/v1/*.proto
    python bot.py --port 50061
    pips arena --variant muggins --pair grpc://127.0.0.1:50061:greedy
"""

import argparse
import os
import sys
import types
from concurrent import futures

import grpc

# protoc writes the package pips.v1 under gen/ with no __init__.py, so an
# installed package named pips (the pips-dominoes package) would hide it:
# gen/pips is made this program's pips.
sys.modules["pips"] = types.ModuleType("pips")
sys.modules["pips"].__path__ = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen", "pips")]

from pips.v1 import bots_pb2, bots_pb2_grpc  # noqa: E402


def weight(move):
    """How much the bot likes a move: a tile's pips, doubles first."""
    if not move.HasField("play"):
        return (-1, False)
    tile = move.play.tile
    return (tile.a + tile.b, tile.a == tile.b)


class HeaviestTile(bots_pb2_grpc.BotServiceServicer):
    """Plays the heaviest legal tile."""

    def ChooseMove(self, request, context):
        moves = list(request.view.legal_moves)
        if not moves:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, "no legal move: not my turn")
        return bots_pb2.ChooseMoveResponse(move=max(moves, key=weight))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=50061)
    args = parser.parse_args()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    bots_pb2_grpc.add_BotServiceServicer_to_server(HeaviestTile(), server)
    server.add_insecure_port(f"127.0.0.1:{args.port}")
    server.start()
    print(f"bot serving pips.v1.BotService on 127.0.0.1:{args.port}", flush=True)
    server.wait_for_termination()


if __name__ == "__main__":
    main()
