// Two people play a whole match at a pips table with connect-es: the table
// is created with a link per seat and a watch link; each seat watches its
// table (a server stream) and, when an update says it is to act, plays its
// first legal move at the table's move number; a third stream follows the
// watch link, which sees no hand and may not act. Both seats must end on
// the same scores.
//
//   npx tsx src/table.ts [base URL] [connect|grpc-web] [variant]
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { ErrorInfoSchema } from "../gen/google/rpc/error_details_pb.js";
import { Phase } from "../gen/pips/v1/state_pb.js";
import { TableService, type TableUpdate } from "../gen/pips/v1/tables_pb.js";
import { transportFor } from "./transport.js";

const [baseUrl = "http://127.0.0.1:50051", protocol = "connect", variant = "muggins"] = process.argv.slice(2);
const transport = transportFor(baseUrl, protocol);
const tables = createClient(TableService, transport);

const person = { who: { case: "person" as const, value: {} } };
const created = await tables.createTable({ variant, players: 2, seats: [person, person] });
console.log(`table ${created.tableId}: ${created.seatLinks.length} seat links and a watch link`);

// Ends the watches once the match is over.
const done = new AbortController();
const over = (update: TableUpdate) => update.view?.phase === Phase.MATCH_OVER;

// A watch link acts for nobody: PERMISSION_DENIED, with the reason and field.
try {
  const view = created.update?.view;
  await tables.act({ link: created.watchLink, number: created.update?.number ?? 0n, move: view?.legalMoves[0] });
  throw new Error("the watch link acted");
} catch (error) {
  const refused = ConnectError.from(error);
  const [info] = refused.findDetails(ErrorInfoSchema);
  console.log(`watch link refused: ${Code[refused.code]} ${info?.reason} at ${info?.metadata.field}`);
  if (refused.code !== Code.PermissionDenied) process.exit(1);
}

/** One seat: watches its table and plays each time it is to act; answers
 * the last update it saw (the match's end) and how many moves it made. */
async function seat(link: string): Promise<{ last: TableUpdate; moves: number }> {
  let moves = 0;
  for await (const { update } of tables.watch({ link }, { signal: done.signal })) {
    if (update === undefined) continue;
    if (over(update)) return { last: update, moves };
    const view = update.view!;
    if (view.toAct === update.seat && view.legalMoves.length > 0) {
      // A move the other seat's made since is answered as stale: the
      // stream brings the table as it now stands.
      const { stale } = await tables.act({ link, number: update.number, move: view.legalMoves[0] });
      if (!stale) moves += 1;
    }
  }
  throw new Error("the watch ended before the match did");
}

/** The watch link's stream, to the match's end: updates seen, and whether
 * any showed a hand or a legal move. */
async function watcher(link: string): Promise<{ last: TableUpdate; updates: number; peeked: boolean }> {
  let updates = 0;
  let peeked = false;
  for await (const { update } of tables.watch({ link }, { signal: done.signal })) {
    if (update === undefined) continue;
    updates += 1;
    peeked ||= (update.view?.hand.length ?? 0) > 0 || (update.view?.legalMoves.length ?? 0) > 0;
    if (!update.watching) throw new Error("the watch link's updates are not a watcher's");
    if (over(update)) return { last: update, updates, peeked };
  }
  throw new Error("the watch ended before the match did");
}

const [first, second, public_] = await Promise.all([
  seat(created.seatLinks[0].link),
  seat(created.seatLinks[1].link),
  watcher(created.watchLink),
]);
done.abort();
const scores = (update: TableUpdate) => update.view?.scores.join(" to ");
if (scores(first.last) !== scores(second.last) || scores(first.last) !== scores(public_.last)) {
  throw new Error(`the seats disagree: ${scores(first.last)}, ${scores(second.last)}, ${scores(public_.last)}`);
}
if (public_.peeked) throw new Error("the watch link saw a hand or a move");
console.log(
  `${protocol}: ${variant} table over at move ${first.last.number}: seats moved ${first.moves} and ${second.moves} times, ` +
    `the watcher saw ${public_.updates} updates and no hand, scores ${scores(first.last)}`,
);
