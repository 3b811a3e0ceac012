"""Plays one whole pips match over gRPC with grpcio.

Seat 0 is this script's own bot: it reads only its seat's view (``View``)
and plays the heaviest tile it may (else draws or passes). The other seats
are the server's greedy opponent (``SuggestMove``). Before the first move,
a move by the wrong seat shows how a refusal reads: its status code and,
from the ``google.rpc.ErrorInfo`` in the status details (grpcio-status),
the machine-readable reason and the field at fault.

    python play.py [--target 127.0.0.1:50051] [--variant muggins] [--players 2]
"""

import argparse
import os
import sys
import types

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

# protoc writes the package pips.v1 under gen/ with no __init__.py, so an
# installed package named pips (the pips-dominoes package) would hide it:
# gen/pips is made this program's pips.
sys.modules["pips"] = types.ModuleType("pips")
sys.modules["pips"].__path__ = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen", "pips")]
from pips.v1 import engine_pb2, engine_pb2_grpc, state_pb2  # noqa: E402


def refusal(error: grpc.RpcError) -> str:
    """The code, reason and field of a refused call."""
    status = rpc_status.from_call(error)
    for detail in status.details if status else []:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return f"{error.code().name} {info.reason} at {info.metadata['field']}"
    return f"{error.code().name} {error.details()}"


def own_move(engine, state) -> state_pb2.Move:
    """Seat 0's choice from its own view: the heaviest tile it may play."""
    view = engine.View(engine_pb2.ViewRequest(state=state, seat=0))
    plays = [m for m in view.legal_moves if m.WhichOneof("action") == "play"]
    if plays:
        return max(plays, key=lambda m: m.play.tile.a + m.play.tile.b)
    return view.legal_moves[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="127.0.0.1:50051")
    parser.add_argument("--variant", default="muggins")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()

    with grpc.insecure_channel(args.target) as channel:
        engine = engine_pb2_grpc.DominoEngineServiceStub(channel)
        update = engine.NewGame(
            engine_pb2.NewGameRequest(variant=args.variant, players=args.players, seed=2026)
        )

        wrong_seat = (update.to_act + 1) % args.players
        try:
            engine.Play(
                engine_pb2.PlayRequest(
                    state=update.state, move=state_pb2.Move(seat=wrong_seat, **{"pass": state_pb2.Pass()})
                )
            )
            print("an illegal move was accepted", file=sys.stderr)
            return 1
        except grpc.RpcError as error:
            print(f"refused: {refusal(error)}")
            if error.code() != grpc.StatusCode.FAILED_PRECONDITION:
                return 1

        moves = hands = 0
        while update.HasField("to_act"):
            if update.to_act == 0:
                move = own_move(engine, update.state)
            else:
                move = engine.SuggestMove(
                    engine_pb2.SuggestMoveRequest(
                        state=update.state, seat=update.to_act, level=engine_pb2.BOT_LEVEL_GREEDY
                    )
                ).move
            update = engine.Play(engine_pb2.PlayRequest(state=update.state, move=move))
            moves += 1
            hands += sum(1 for e in update.events if e.WhichOneof("kind") == "hand_ended")

        ended = next(e.match_ended for e in update.events if e.WhichOneof("kind") == "match_ended")
        winner = f"side {ended.result.winner} won" if ended.result.HasField("winner") else "a draw"
        scores = " to ".join(str(s) for s in ended.scores)
        print(f"grpc: {args.variant} {args.players}p over in {hands} hands, {moves} moves: {winner}, scores {scores}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
