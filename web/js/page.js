"use strict";
// Drawing the page: the scores, the seats, the table.

// ---- drawing the page -----------------------------------------------------
function render() {
  const view = game.view;
  // Your seat's view unless the developer switch is on: the full state
  // holds every hidden tile. Nothing while the device is being passed.
  const covered = game.cover !== null && !game.paused;
  $("state-json").value = covered ? "" : JSON.stringify(game.devFull ? game.state : game.view, null, 1);
  $("state-json").setAttribute("aria-label", game.devFull ? tr("state.full_label") : tr("state.view_label"));
  if (!view) return;
  $("welcome").hidden = true;
  $("game").hidden = false;
  renderScores(view);
  renderSeats(view);
  renderTable(view);
  renderHand(view);
  renderBanner();
  renderSheet();
  renderReview();
  renderCover();
  renderInvite();
  $("connection").hidden = !(atTable() && table.offline);
  $("connection").textContent = tr("connection.lost");
  keepInView();
  if (game.keyboard && (document.activeElement === document.body || !document.activeElement)) {
    const target = document.querySelector("#banner:not([hidden]) button:not([hidden]), #choose-buttons button, #hand button.playable, #other-moves button");
    target?.focus({ preventScroll: true });
  }
}

function renderScores(view) {
  const scores = $("scores");
  scores.classList.toggle("many", sideCount() > 4);
  scores.replaceChildren();
  const points = view.scores ?? [];
  const watching = atTable() && table.watching;
  const lowWins = view.rules?.matchEnd === "MATCH_END_LOSE_AT_TARGET" || view.rules?.settlement === "SETTLEMENT_PENALTY_OWN_PIPS";
  const best = lowWins ? Math.min(...points) : Math.max(...points);
  sideOrder(points.length).forEach((side) => {
    const p = points[side];
    const li = document.createElement("li");
    li.dataset.side = side;
    li.dataset.points = p ?? 0;
    if (side === mySide() && !watching) li.classList.add("mine");
    if (points.some((q) => q !== best) && p === best) li.classList.add("leading");
    const name = document.createElement("span");
    name.textContent = sideName(side);
    const value = document.createElement("span");
    value.className = "points";
    value.textContent = num(p ?? 0);
    li.append(name);
    // Texas 42's marks, as a tally beside their number.
    if (marksScored(view.rules)) {
      const right = document.createElement("span");
      right.append(tally(p ?? 0), value);
      li.append(right);
    } else li.append(value);
    scores.append(li);
  });
  const when = game.over ? tr("scores.final")
    : game.paused && game.finished ? tr(roundKey("scores.after_hand", "scores.after_round"), { n: game.finished.ended.hand })
    : tr(roundKey("scores.hand", "scores.round"), { n: view.handNumber });
  $("target").textContent = `${when} ${targetText(view.rules)}`;
}

// The sides in the order the scoreboard and the score sheet list them:
// yours first, then the others clockwise.
function sideOrder(sides) {
  const first = mySide();
  return Array.from({ length: sides }, (_, k) => (first + k) % sides);
}

// `n` marks as a tally: a group of five is four strokes and one across.
function tally(n) {
  const el = document.createElement("span");
  el.className = "tally";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", tr("bid.marks", { count: n }));
  for (let left = Math.max(0, n); left > 0; left -= 5) {
    const group = document.createElement("span");
    group.className = `group${left >= 5 ? " five" : ""}`;
    for (let i = 0; i < Math.min(left, 5) - (left >= 5 ? 1 : 0); i++) {
      const stroke = document.createElement("span");
      stroke.className = "stroke";
      group.append(stroke);
    }
    el.append(group);
  }
  return el;
}

// Where each seat sits, seen from seat 0 (play passes to the left).
const PLACES = { 2: ["south", "north"], 3: ["south", "west", "east"], 4: ["south", "west", "north", "east"] };
// The most face-down tiles drawn for a seat; past it, a count.
const MAX_BACKS = 12;
function renderSeats(view) {
  const seats = $("seats");
  seats.replaceChildren();
  const ended = game.paused ? game.finished?.ended : null;
  const places = PLACES[view.players] ?? [];
  const n = view.players;
  $("table").classList.toggle("many", n > 4);
  const watching = atTable() && table.watching;
  $("table").classList.toggle("watching", watching);
  // Seen from the seat holding the device: it sits at the bottom, and the
  // others follow clockwise from its left (the order play goes in). A
  // watcher holds no seat: seat 0 sits at the bottom, with the others.
  for (let k = watching ? 0 : 1; k < n; k++) {
    const seat = (game.viewer + k) % n;
    const li = document.createElement("li");
    li.dataset.seat = seat;
    li.className = `seat ${places[(seat - game.viewer + n) % n] ?? "other"}`;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = who(seat);
    const note = document.createElement("span");
    note.className = "note";
    li.append(name);
    const t = tricksRules(view.rules) ? (ended ? game.finished.tricks : view.tricks) : null;
    if (ended) {
      const won = t?.tricksWon?.[seat] ?? 0;
      note.textContent = t ? tr("count.tricks", { count: won }) : tr("seat.pips_left", { count: ended.pips?.[seat] ?? 0 });
      li.append(note);
    } else {
      const n = view.handSizes?.[seat] ?? 0;
      const acting = !game.over && view.toAct === seat;
      if (acting) li.classList.add("acting");
      // At a table with trains: whether its train is open to everyone.
      const open = (view.trains?.trains ?? []).some((t) => t.marker && !t.train?.mexican && (t.train?.seat ?? 0) === seat);
      note.textContent = [acting ? tr(ACTING[actVerb(view)]) : "", open ? tr("seat.train_open") : "", ...(t ? trickNotes(t, seat) : [])]
        .filter(Boolean).join(" · ");
      if (acting && timeLeft()) note.append(" ", clockEl());
      // Its tiles, face down.
      const backs = document.createElement("span");
      backs.className = "backs";
      backs.setAttribute("role", "img");
      backs.setAttribute("aria-label", tr("seat.face_down", { count: n }));
      for (let i = 0; i < Math.min(n, MAX_BACKS); i++) {
        const back = document.createElement("span");
        back.className = "back";
        backs.append(back);
      }
      if (n > MAX_BACKS) {
        const more = document.createElement("span");
        more.className = "more";
        more.textContent = `+${n - MAX_BACKS}`;
        backs.append(more);
      }
      li.append(backs);
      if (note.textContent) li.append(note);
      li.title = tr("seat.tiles", { who: who(seat), tiles: tiles(n) });
    }
    seats.append(li);
  }
}

// What a trick table says of a seat: its call in the auction, that it
// bid or sits out, the tricks it took.
function trickNotes(t, seat) {
  if (seat === t.sitsOut) return ["sits out"];
  if (t.stage === "TRICK_STAGE_BIDDING") {
    const call = (t.auction ?? []).findLast((c) => (c.seat ?? 0) === seat);
    return call ? [call.bid ? tr("seat.bid", { bid: bidText(call.bid) }) : tr("seat.passed")] : [];
  }
  const won = t.tricksWon?.[seat] ?? 0;
  return [seat === t.bidder ? tr("seat.bidder", { bid: bidText(t.bid) }) : "", won ? tr("count.tricks", { count: won }) : ""];
}

// The table a round ended with (HandEnded carries it).
const hubOf = (ended) => ({ trains: ended?.trains ?? null, foot: ended?.foot ?? null });

function renderTable(view) {
  const layout = game.paused && game.finished ? game.finished.ended.layout : view.layout;
  const mine = yourMoves();
  let ghosts = [];
  if (game.choosing) ghosts = game.choosing.map((move) => ({ move, kind: "choice" }));
  else if (game.hint?.move.play && mine.length) ghosts = [{ move: game.hint.move, kind: "hint" }];
  if (tricksRules(view.rules)) drawTricks(view, game.paused && game.finished ? game.finished.tricks : view.tricks);
  else {
    $("layout").classList.remove("trick-table");
    if (view.trains || view.foot) drawHub(game.paused && game.finished ? { ...view, ...hubOf(game.finished.ended) } : view, ghosts);
    else drawLayout(layout, ghosts);
  }
  // (Empty but at a line: only a line has a lead.)
  $("line-words").textContent = lineWords(layout);
  let text;
  if (atTable() && table.offline) text = tr("status.offline");
  else if (game.over) text = tr("status.over");
  else if (game.paused && game.finished) text = tr(roundKey("status.hand_over", "status.round_over"), { n: game.finished.ended.hand });
  else {
    const turn = viewerActs()
      ? yourTurnText(mine)
      : person(view.toAct) || (atTable() && table.kinds?.[view.toAct] === "person") ? tr(TO_ACT[actVerb(view)], { who: who(view.toAct) })
      : tr("status.thinking", { who: who(view.toAct) });
    if (tricksRules(view.rules)) {
      $("status").textContent = turn;
      return;
    }
    const bone = view.boneyardSize
      ? ` ${tr(view.rules?.draw === "DRAW_RULE_NONE" ? "status.out_of_play" : "status.boneyard", { count: view.boneyardSize })}`
      : "";
    text = `${turn}${endsText(view.layout)}${bone}`;
  }
  $("status").textContent = text;
}
