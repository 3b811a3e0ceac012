// Plays one whole pips match with connect-es: every seat is the server's
// greedy computer opponent (SuggestMove), every move goes through Play, and
// an illegal move shows how a refusal reads (its code, reason and field).
//
//   npx tsx src/play.ts [base URL] [connect|grpc-web] [variant] [players]
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { ErrorInfoSchema } from "../gen/google/rpc/error_details_pb.js";
import { BotLevel, DominoEngineService } from "../gen/pips/v1/engine_pb.js";
import { transportFor } from "./transport.js";

const [baseUrl = "http://127.0.0.1:50051", protocol = "connect", variant = "muggins", players = "2"] =
  process.argv.slice(2);
const transport = transportFor(baseUrl, protocol);
const engine = createClient(DominoEngineService, transport);

let update = await engine.newGame({ variant, players: Number(players), seed: 2026n });

// A move by the wrong seat is refused: FAILED_PRECONDITION, with the reason
// and field in google.rpc.ErrorInfo.
try {
  const notToAct = ((update.toAct ?? 0) + 1) % Number(players);
  await engine.play({
    stateSource: { case: "state", value: update.state! },
    move: { seat: notToAct, action: { case: "pass", value: {} } },
  });
  throw new Error("an illegal move was accepted");
} catch (error) {
  const refused = ConnectError.from(error);
  const [info] = refused.findDetails(ErrorInfoSchema);
  console.log(`refused: ${Code[refused.code]} ${info?.reason} at ${info?.metadata.field}`);
  if (refused.code !== Code.FailedPrecondition || info?.reason !== "ERROR_REASON_NOT_YOUR_TURN") process.exit(1);
}

let moves = 0;
let hands = 0;
while (update.toAct !== undefined) {
  const { move } = await engine.suggestMove({
    stateSource: { case: "state", value: update.state! },
    seat: update.toAct,
    level: BotLevel.GREEDY,
  });
  update = await engine.play({ stateSource: { case: "state", value: update.state! }, move });
  moves += 1;
  hands += update.events.filter((e) => e.kind.case === "handEnded").length;
}
const ended = update.events.find((e) => e.kind.case === "matchEnded");
if (ended?.kind.case !== "matchEnded") throw new Error("the match did not end");
const { result, scores } = ended.kind.value;
const winner = result?.winner === undefined ? "a draw" : `side ${result.winner} won`;
console.log(`${protocol}: ${variant} ${players}p over in ${hands} hands, ${moves} moves: ${winner}, scores ${scores.join(" to ")}`);
