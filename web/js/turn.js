"use strict";
// Whose turn, what it may do, and its clock.

// "1 tile", "5 tiles".
const tiles = (n) => tr("count.tiles", { count: n });

// The open ends in words; where the ends score, what each counts and
// why (a double lying crosswise counts both halves, a spinner's free side
// nothing until a tile is on it), so that the total adds up.
function endsText(layout) {
  const ends = layout?.openEnds ?? [];
  if (!ends.length) return "";
  const plain = listing(ends.map((e) => number(e.pips ?? 0)));
  if (!scoring()) return ` ${tr("ends.open", { ends: plain })}`;
  const lone = !(layout.left ?? []).length && !(layout.right ?? []).length && !(layout.up ?? []).length && !(layout.down ?? []).length;
  if (lone) return ` ${tr("ends.lone", { ends: plain, total: layout.endsTotal ?? 0 })}`;
  const parts = ends.map((e) => {
    const pips = e.pips ?? 0, counts = e.counts ?? 0;
    if (counts === pips) return number(pips);
    if (counts === 0) return tr("ends.free_side", { pips });
    return tr("ends.double", { double: `${pips}-${pips}`, counts });
  });
  return ` ${tr("ends.count", { ends: listing(parts), total: layout.endsTotal ?? 0 })}`;
}

// What the seat to act does now: bid, name the contract, lay a tile away
// or play (a key of ACTING and TO_ACT).
function actVerb(view) {
  return { TRICK_STAGE_BIDDING: "bid", TRICK_STAGE_NAMING: "name", TRICK_STAGE_DISCARDING: "discard" }[view?.tricks?.stage] ?? "play";
}
// A seat's note while it acts ("to bid"), and the table's line ("West is
// to bid.").
const ACTING = { play: "acting.play", bid: "acting.bid", name: "acting.name", discard: "acting.discard" };
const TO_ACT = { play: "status.to_act.play", bid: "status.to_act.bid", name: "status.to_act.name", discard: "status.to_act.discard" };
// What the seat to act is told when it is its turn.
function yourTurnText(mine) {
  const tricks = game.view?.tricks;
  if (tricks) return trickTurnText(tricks, mine);
  // A train table's first turn of a round may lay a chain on your own
  // train: its end is a move of its own.
  if (mine.some((m) => m.endTurn)) return tr("turn.chain");
  return mine.some((m) => m.play) ? tr("turn.pick") : tr("turn.forced", { move: moveText(mine[0] ?? {}) });
}

// At a trick game: what to do, and what the rules allow.
function trickTurnText(t, mine) {
  const rules = game.view?.rules;
  switch (t.stage) {
    case "TRICK_STAGE_BIDDING": {
      const standing = (t.auction ?? []).findLast((c) => c.bid);
      if (standing) return owned(standing.seat ?? 0, "turn.bid.over.yours", "turn.bid.over", { bid: bidText(standing.bid) });
      return tr(texas(rules) ? "turn.bid.open.texas" : "turn.bid.open.moon");
    }
    case "TRICK_STAGE_NAMING":
      if (t.bidder === game.viewer) return tr(texas(rules) ? "turn.name.texas" : "turn.name.moon", { bid: bidText(t.bid) });
      return tr("turn.name.partner", { who: lowerWho(t.bidder ?? 0), bid: bidText(t.bid) });
    case "TRICK_STAGE_DISCARDING":
      return tr("turn.discard", { count: (game.view?.hand ?? []).length });
    default: {
      const hand = (game.view?.hand ?? []).length;
      const plays = mine.filter((m) => m.trick).length;
      if (t.contract?.sevens) return tr("turn.sevens");
      if (!(t.trick ?? []).length) return tr("turn.lead");
      const suit = ledText(t.led, t.contract);
      return plays < hand ? tr("turn.follow", { suit }) : tr("turn.cannot_follow", { suit });
    }
  }
}

// Your legal moves, when you may make one now (at a table, while the
// move can reach it).
function yourMoves() {
  if (game.paused || game.busy || game.over || !viewerActs() || (atTable() && table.offline)) return [];
  return game.view?.legalMoves ?? [];
}
// Whether the connection to the table is lost while it is your turn: the
// hand says so, and a tile pressed is refused in words.
const turnOffline = () => atTable() && table.offline && !table.watching && !game.paused && !game.over && game.toAct === game.viewer;
// The seat to act's time left, "0:42" (null: no timer runs).
function timeLeft() {
  if (!atTable() || table.turnEndsAt === null || game.over || game.toAct === undefined) return null;
  const left = Math.max(0, Math.ceil((table.turnEndsAt - Date.now()) / 1000));
  const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), sec = left % 60;
  const text = h ? `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}` : `${m}:${String(sec).padStart(2, "0")}`;
  return { left, text };
}
// A countdown of the seat to act's time, kept up by `tickClocks`.
function clockEl() {
  const el = document.createElement("span");
  el.className = "clock";
  tickClock(el);
  return el;
}
function tickClock(el) {
  const t = timeLeft();
  el.hidden = !t;
  if (!t) return;
  el.textContent = tr("clock.left", { time: t.text });
  el.classList.toggle("low", t.left <= 10);
  el.setAttribute("aria-label", tr("clock.seconds_left", { count: t.left }));
}
setInterval(() => document.querySelectorAll(".clock").forEach(tickClock), 250);
