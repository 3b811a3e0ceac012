"use strict";
// The trick games' bids, contracts and verdicts in words.

// ---- the trick games (Texas 42, Moon) ---------------------------------------
// The table's kind the rules name: a line, a hub (trains, chicken foot), or
// tricks.
const tricksRules = (rules) => rules?.table === "TABLE_KIND_TRICKS";
const texas = (rules) => rules?.bidding === "TRICK_BIDDING_TEXAS42";
// Texas 42 scored in marks: the scores are marks, drawn as a tally.
const marksScored = (rules) => texas(rules) && (rules?.scoring ?? "TRICK_SCORING_MARKS") === "TRICK_SCORING_MARKS";
// A number's tiles, as 42 players call the suits.
const SUITS = ["suit.0", "suit.1", "suit.2", "suit.3", "suit.4", "suit.5", "suit.6"];
const suitName = (n) => (SUITS[n] ? tr(SUITS[n]) : `${n}`);
// A bid as players say it: "31", "2 marks", "a plunge (4 marks)", "5 tricks".
function bidText(bid) {
  if (!bid) return tr("bid.nothing");
  if (bid.points !== undefined) return `${bid.points}`;
  if (bid.marks !== undefined) return bid.marks === 1 ? tr("bid.42") : tr("bid.marks", { count: bid.marks });
  if (bid.plunge !== undefined) return tr("bid.plunge", { count: bid.plunge });
  if (bid.splash !== undefined) return tr("bid.splash", { count: bid.splash });
  if (bid.tricks !== undefined) return tr("bid.tricks", { count: bid.tricks });
  return bid.moon ? tr("bid.moon") : tr("bid.nothing");
}
// A contract's button: trumps with how many of them you hold.
function contractLabel(c, hand) {
  const held = (test) => hand.filter((tile) => test(...pipsOf(tile))).length;
  if (c.trumps !== undefined) return `${capital(suitName(c.trumps))} (${held((a, b) => a === c.trumps || b === c.trumps)})`;
  if (c.doubles) return tr("contract.button.doubles", { count: held((a, b) => a === b) });
  if (c.followMe) return tr("contract.button.follow_me");
  return capital(contractText(c));
}
// A bid's button: as short as it reads.
function bidLabel(bid) {
  if (bid.points !== undefined) return `${bid.points}`;
  if (bid.marks !== undefined) return bid.marks === 1 ? "42" : tr("bid.marks", { count: bid.marks });
  if (bid.plunge !== undefined) return tr("bid.button.plunge", { count: bid.plunge });
  if (bid.splash !== undefined) return tr("bid.button.splash", { count: bid.splash });
  if (bid.tricks !== undefined) return tr("bid.tricks", { count: bid.tricks });
  return tr("bid.button.moon");
}
// "sixes trump", "doubles trump", "follow-me", "nello", "sevens".
function contractText(c) {
  if (!c) return "";
  if (c.trumps !== undefined) return tr("contract.trumps", { suit: suitName(c.trumps) });
  if (c.doubles) return tr("contract.doubles");
  if (c.followMe) return tr("contract.follow_me");
  if (c.nello) return tr("contract.nello");
  return c.sevens ? tr("contract.sevens") : "";
}
// The suit a trick was led in, in words.
function ledText(led, contract) {
  if (!led) return "";
  if (led.trumps) return contract?.trumps !== undefined ? tr("led.trumps", { suit: suitName(contract.trumps) }) : tr("led.trumps_doubles");
  if (led.doubles) return tr("led.doubles");
  return suitName(led.number ?? 0);
}
// The seats of a trick in the order played: from the leader, to the
// left, past the seat sitting out.
function trickSeats(t, players) {
  const seats = [];
  for (let k = 0; k < players; k++) {
    const seat = ((t.leader ?? 0) + k) % players;
    if (seat !== t.sitsOut) seats.push(seat);
  }
  return seats;
}
// What `seats` (a side) took: tricks and points.
function takenBy(t, seats) {
  return {
    tricks: seats.reduce((sum, s) => sum + (t?.tricksWon?.[s] ?? 0), 0),
    points: seats.reduce((sum, s) => sum + (t?.pointsWon?.[s] ?? 0), 0),
  };
}
// "3 tricks, 18 points" (at Moon a trick is a point: "3 tricks").
const takenText = (got) => (texas(game.view?.rules)
  ? tr("taken.tricks_points", { tricks: tr("count.tricks", { count: got.tricks }), points: tr("count.points", { count: got.points }) })
  : tr("count.tricks", { count: got.tricks }));
// The trick table once `events` are played on `t`: the tricks they won
// counted (the hand's last trick wins no view of its own).
function afterTricks(t, events) {
  if (!t) return null;
  const tricksWon = [...(t.tricksWon ?? [])], pointsWon = [...(t.pointsWon ?? [])];
  for (const event of events) {
    const won = event.trickWon;
    if (!won) continue;
    tricksWon[won.seat ?? 0] = (tricksWon[won.seat ?? 0] ?? 0) + 1;
    pointsWon[won.seat ?? 0] = (pointsWon[won.seat ?? 0] ?? 0) + (won.points ?? 0);
  }
  return { ...t, tricksWon, pointsWon, trick: [] };
}
// The trick games' contracts that need every trick: marks bids, a plunge
// or splash, sevens.
const allTricks = (bid, contract) => bid?.points === undefined || Boolean(contract?.sevens);
// How a trick hand was decided, in words: "set: West & East took 13,
// more than 42 − 31"; `t` is the table as the hand finished.
function trickVerdict(ended, table) {
  const bidder = ended.bidder ?? table?.bidder ?? 0;
  const made = ended.reason === "HAND_END_REASON_MADE";
  const bid = table?.bid, contract = table?.contract;
  const head = contract
    ? tr("verdict.head.contract", { who: who(bidder), bid: bidText(bid), contract: contractText(contract) })
    : tr("verdict.head", { who: who(bidder), bid: bidText(bid) });
  if (!texas(game.view?.rules)) {
    const took = tr("count.tricks", { count: table?.tricksWon?.[bidder] ?? 0 });
    const them = lowerWho(bidder);
    const needs = bid?.moon ? 7 : bid?.tricks ?? 0;
    if (!made) return tr("verdict.moon.set", { head, who: them, took, needs });
    return bid?.moon ? tr("verdict.moon.made_all", { head, who: them, took }) : tr("verdict.moon.made", { head, who: them, took, needs });
  }
  const side = game.sideOfSeat[bidder] ?? 0;
  const others = Array.from({ length: sideCount() }, (_, s) => s).find((s) => s !== side) ?? 0;
  const ours = takenBy(table, seatsOf(side)), theirs = takenBy(table, seatsOf(others));
  if (contract?.nello) {
    return tr(made ? "verdict.nello.made" : "verdict.nello.set", { head, who: lowerWho(bidder) });
  }
  if (allTricks(bid, contract)) {
    return made
      ? tr("verdict.all.made", { head, side: lowerSide(side) })
      : tr("verdict.all.set", { head, side: lowerSide(others) });
  }
  const b = bid?.points ?? 0;
  return made
    ? tr("verdict.points.made", { head, side: lowerSide(side), points: ours.points, bid: b })
    : tr("verdict.points.set", { head, side: lowerSide(others), points: theirs.points, bid: b });
}
