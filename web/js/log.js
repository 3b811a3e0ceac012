"use strict";
// What happened: each event in words.

// ---- the event log --------------------------------------------------------
// An event in words: its kind (the log line's class) and its line.
const PLAYED_ENDS = { END_LEFT: "log.played.left", END_RIGHT: "log.played.right", END_UP: "log.played.up", END_DOWN: "log.played.down" };
const SCORED_WHY = {
  SCORE_REASON_ENDS: "log.scored.ends", SCORE_REASON_DOMINO: "log.scored.domino", SCORE_REASON_BLOCKED: "log.scored.blocked",
  SCORE_REASON_CLOSED: "log.scored.closed", SCORE_REASON_OWN_PIPS: "log.scored.own_pips",
  SCORE_REASON_HAND_POINTS: "log.scored.hand", SCORE_REASON_TRICKS: "log.scored.hand",
};
const LOST_WHY = {
  SCORE_REASON_ENDS: "log.lost.ends", SCORE_REASON_DOMINO: "log.lost.domino", SCORE_REASON_BLOCKED: "log.lost.blocked",
  SCORE_REASON_CLOSED: "log.lost.closed", SCORE_REASON_OWN_PIPS: "log.lost.own_pips",
  SCORE_REASON_HAND_POINTS: "log.lost.hand", SCORE_REASON_TRICKS: "log.lost.hand",
};
// Tiles are written as digits (`6-4`), or in words when `said` is
// `tileSaid` (what a screen reader is told).
function describe(event, said = tileText) {
  if (event.tilePlayed) {
    const e = event.tilePlayed;
    const vars = { who: who(e.seat ?? 0), tile: said(e.tile) };
    if (e.train) return ["played", tr("log.played.train", { ...vars, train: trainName(e.train) })];
    if (e.startedArm !== undefined) return ["played", tr("log.played.started_arm", { ...vars, arm: e.startedArm + 1 })];
    if (e.arm) return ["played", e.arm.newArm ? tr("log.played.new_arm", vars) : tr("log.played.arm", { ...vars, arm: (e.arm.arm ?? 0) + 1 })];
    const line = tr(PLAYED_ENDS[e.end] ?? "log.played.lead", vars);
    return ["played", scoring() ? tr("log.played.counting", { line, total: e.endsTotal ?? 0 }) : tr("log.sentence", { line })];
  }
  if (event.tileDrawn) {
    const e = event.tileDrawn;
    // (Passing the device, nobody's draws are shown: everyone sees the log.)
    return ["drawn", (e.seat ?? 0) === 0 && e.tile && !together() ? tr("log.drew.you", { tile: said(e.tile) }) : tr("log.drew", { who: who(e.seat ?? 0) })];
  }
  if (event.passed) return ["passed", tr("log.passed", { who: who(event.passed.seat ?? 0) })];
  if (event.bidMade) return ["bid", tr("log.bid", { who: who(event.bidMade.seat ?? 0), bid: bidText(event.bidMade.bid) })];
  if (event.auctionWon) {
    const e = event.auctionWon;
    const vars = { who: who(e.seat ?? 0), bid: bidText(e.bid) };
    return ["auction", e.declarer !== undefined && e.declarer !== e.seat
      ? tr("log.auction.declarer", { ...vars, declarer: lowerWho(e.declarer) }) : tr("log.auction", vars)];
  }
  if (event.contractNamed) return ["contract", tr("log.contract", { who: who(event.contractNamed.seat ?? 0), contract: contractText(event.contractNamed.contract) })];
  if (event.widowTaken) {
    const e = event.widowTaken;
    return ["widow", e.tile && !together() ? tr("log.widow.tile", { who: who(e.seat ?? 0), tile: said(e.tile) }) : tr("log.widow", { who: who(e.seat ?? 0) })];
  }
  if (event.discarded) {
    const e = event.discarded;
    return ["discard", e.tile && !together() ? tr("log.discard.tile", { who: who(e.seat ?? 0), tile: said(e.tile) }) : tr("log.discard", { who: who(e.seat ?? 0) })];
  }
  if (event.trickPlayed) return ["trick", tr("log.trick", { who: who(event.trickPlayed.seat ?? 0), tile: said(event.trickPlayed.tile) })];
  if (event.trickWon) {
    const e = event.trickWon;
    return ["trick-won", tr("log.trick_won", { who: who(e.seat ?? 0), points: tr("count.points", { count: e.points ?? 0 }) })];
  }
  if (event.handDecided) return ["decided", event.handDecided.made ? tr("log.decided.made") : tr("log.decided.set")];
  if (event.markerRaised) return ["marker", capital(owned(event.markerRaised.seat ?? 0, "log.marker_up.yours", "log.marker_up"))];
  if (event.markerLowered) return ["marker", capital(owned(event.markerLowered.seat ?? 0, "log.marker_down.yours", "log.marker_down"))];
  if (event.doubleSatisfied) {
    const e = event.doubleSatisfied;
    return ["satisfied", tr("log.satisfied", { who: who(e.seat ?? 0), tile: said(e.double), train: trainName(e.train) })];
  }
  if (event.turnEnded) return ["turn-ended", tr("log.turn_ended", { who: who(event.turnEnded.seat ?? 0) })];
  if (event.footCompleted) {
    const e = event.footCompleted;
    return ["foot", tr("log.foot", { who: who(e.seat ?? 0), arm: (e.arm ?? 0) + 1 })];
  }
  if (event.pointsScored) {
    const e = event.pointsScored;
    const points = e.points ?? 0;
    const side = sideName(e.side ?? 0);
    if (e.reason === "SCORE_REASON_MARKS") return ["scored", tr("log.scored.marks", { side, marks: tr("bid.marks", { count: points }) })];
    const bonus = bonusName(e.reason);
    if (bonus) return ["bonus", tr("log.bonus", { bonus, side, points, why: bonusWhy(e) })];
    // A penalty is points nobody wants: counted against the side.
    if (e.reason === "SCORE_REASON_PENALTY") return ["penalty", tr("log.penalty", { side, count: points })];
    return points < 0
      ? ["lost", tr(LOST_WHY[e.reason] ?? "log.lost", { side, points: -points })]
      : ["scored", tr(SCORED_WHY[e.reason] ?? "log.scored", { side, points })];
  }
  if (event.pointsVoided) {
    const e = event.pointsVoided;
    return ["voided", tr("log.voided", { side: sideName(e.side ?? 0), points: e.points ?? 0 })];
  }
  if (event.handEnded) {
    const e = event.handEnded;
    const won = tricksRules(game.view?.rules)
      ? tr({ HAND_END_REASON_MADE: "log.ended.made", HAND_END_REASON_SET: "log.ended.set" }[e.reason] ?? "log.ended.all_passed")
      : e.winner === undefined ? tr("log.ended.nobody") : tr("log.ended.won", { side: lowerSide(e.winner) });
    return ["hand-ended", tr(roundKey("log.hand_ended", "log.round_ended"), { n: e.hand, won })];
  }
  if (event.handDealt) {
    const e = event.handDealt;
    const bids = tricksRules(game.view?.rules);
    const leader = e.leader ?? 0;
    const you = isYou(leader);
    const leads = e.requiredLead
      ? tr(you ? "log.leads.you.with" : "log.leads.with", { who: who(leader), tile: said(e.requiredLead) })
      : bids ? tr(you ? "log.bids_first.you" : "log.bids_first", { who: who(leader) })
      : tr(you ? "log.leads.you" : "log.leads", { who: who(leader) });
    return ["dealt", tr(roundKey("log.hand_dealt", "log.round_dealt"), { n: e.hand, leads })];
  }
  if (event.matchEnded) {
    const r = event.matchEnded.result ?? {};
    const scores = scoreLine(event.matchEnded.scores ?? []);
    return ["match-ended", r.draw || r.winner === undefined ? tr("log.match.draw", { scores }) : tr("log.match.won", { side: sideName(r.winner), scores })];
  }
  return ["other", JSON.stringify(event)];
}

// Logs `events`; the log keeps the events themselves, so that it can be
// said again in another language.
function logEvents(events) {
  showLog(events);
  // (Said to a screen reader: the moves as they come, not the log again.)
  const spoken = events.map((event) => describe(event, tileSaid)[1]).filter((line) => !line.startsWith("{"));
  if (spoken.length) $("announce").textContent = spoken.join(" ");
}
// Adds `items` (events; a log kept by an older page holds its lines as
// `[kind, text, token]`) to the log.
function showLog(items) {
  const log = $("log");
  for (const item of items) {
    game.logItems.push(item);
    log.append(logLine(item));
  }
  log.scrollTop = log.scrollHeight;
}
// A log line: the event in words, then (for a move) its token in the
// match notation (`6-4L`).
function logLine(item) {
  const [kind, text, token] = Array.isArray(item) ? item : [...describe(item), item.token ?? ""];
  const li = document.createElement("li");
  li.className = kind;
  li.textContent = text;
  if (token) {
    const code = document.createElement("code");
    code.className = "token";
    code.textContent = token;
    li.append(" ", code);
  }
  return li;
}
// Says the whole log again (the language changed).
function redrawLog() {
  $("log").replaceChildren(...game.logItems.map(logLine));
  if (game.review && !game.review.running) gradeTheLog();
}
