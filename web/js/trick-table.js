"use strict";
// Drawing a trick table: the auction, the contract, the trick.

// The trick table: the auction, the contract, the trick in the middle and
// what each side has taken. `t` is the TrickTable to draw (at a hand's
// end, as it finished).
function drawTricks(view, t) {
  const box = $("layout");
  box.replaceChildren();
  box.className = "trick-table";
  box.style.height = "";
  box.style.removeProperty("--half");
  if (!t) return;
  const n = view.players;
  const bidding = t.stage === "TRICK_STAGE_BIDDING";
  // The auction, a call a seat in turn; the standing bid lit, the seat to
  // call next marked.
  const auction = document.createElement("ol");
  auction.className = "auction";
  auction.setAttribute("aria-label", tr("auction.label"));
  const label = document.createElement("li");
  label.className = "auction-label";
  label.textContent = tr("auction.bids");
  auction.append(label);
  const calls = t.auction ?? [];
  const standing = calls.findLastIndex((c) => c.bid);
  calls.forEach((c, i) => {
    const li = document.createElement("li");
    li.className = `call${c.bid ? "" : " pass"}${i === standing ? " standing" : ""}`;
    li.dataset.seat = c.seat ?? 0;
    li.textContent = tr("auction.call", { who: who(c.seat ?? 0), call: c.bid ? bidText(c.bid) : tr("auction.pass") });
    auction.append(li);
  });
  if (bidding && view.toAct !== undefined && !game.paused) {
    const li = document.createElement("li");
    li.className = "call next";
    li.textContent = tr("auction.call", { who: who(view.toAct), call: "…" });
    auction.append(li);
  } else if (!calls.length) {
    const li = document.createElement("li");
    li.className = "call pass";
    li.textContent = tr("auction.none");
    auction.append(li);
  }
  box.append(auction);
  // The contract, once the auction is won.
  if (!bidding && t.bidder !== undefined) {
    const p = document.createElement("p");
    p.className = "contract";
    const vars = { who: who(t.bidder), bid: bidText(t.bid) };
    const contract = t.contract ? tr("contract.named", { ...vars, contract: contractText(t.contract) })
      : t.declarer !== undefined && t.declarer !== t.bidder ? tr("contract.declarer", { ...vars, declarer: who(t.declarer) })
      : tr("contract.naming", vars);
    p.textContent = t.sitsOut !== undefined ? tr("contract.sits_out", { contract, who: who(t.sitsOut) }) : contract;
    box.append(p);
  }
  // Before the play (the auction, the contract, the widow), nothing more.
  if (!["TRICK_STAGE_PLAYING", "TRICK_STAGE_OVER"].includes(t.stage) && !game.paused) return;
  // The trick in the middle, each tile by its player; with none played
  // yet, the last trick, dimmed, with who won it.
  const current = t.trick ?? [];
  const past = !current.length && game.lastTrick ? game.lastTrick : null;
  const tiles = past ? past.tiles ?? [] : current;
  const leader = past ? past.leader ?? 0 : t.leader ?? 0;
  const order = trickSeats({ leader, sitsOut: t.sitsOut }, n);
  const trick = document.createElement("div");
  trick.className = `trick${past ? " past" : ""}`;
  trick.setAttribute("aria-label", past ? tr("trick.last") : tr("trick.label"));
  const winning = past ? past.seat : t.winning;
  const places = PLACES[n] ?? [];
  for (let seat = 0; seat < n; seat++) {
    const spot = document.createElement("div");
    const place = places[(seat - game.viewer + n) % n] ?? "north";
    spot.className = `spot ${place}`;
    spot.dataset.seat = seat;
    const at = order.indexOf(seat);
    const tile = at >= 0 ? tiles[at] : undefined;
    if (tile) {
      const el = tileEl(...pipsOf(tile), place === "north" || place === "south");
      if (seat === winning) el.classList.add("winning");
      spot.append(el);
    }
    const name = document.createElement("span");
    name.textContent = seat === t.sitsOut ? tr("trick.out", { who: who(seat) }) : who(seat);
    spot.append(name);
    trick.append(spot);
  }
  const centre = document.createElement("div");
  centre.className = "centre";
  if (past) {
    const b = document.createElement("b");
    b.textContent = tr("trick.won_last", { who: who(past.seat ?? 0) });
    centre.append(b, `(${tr("count.points", { count: past.points ?? 0 })})`);
  } else if (current.length) {
    const b = document.createElement("b");
    b.textContent = t.led ? tr("trick.led", { suit: ledText(t.led, t.contract) }) : tr("trick.no_suits");
    const win = t.winning !== undefined ? owned(t.winning, "trick.winning.yours", "trick.winning.of", { tile: tileText(tiles[order.indexOf(t.winning)]) }) : "";
    centre.append(b, capital(win));
  } else if (t.stage === "TRICK_STAGE_PLAYING") {
    centre.textContent = tr("trick.to_lead", { who: who(t.leader ?? 0) });
  }
  trick.append(centre);
  box.append(trick);
  // What each side has taken (at Moon, each player), the bidders' lit,
  // with what the bid needs.
  const taken = document.createElement("ul");
  taken.className = "taken";
  taken.setAttribute("aria-label", tr("taken.label"));
  const bidderSide = t.bidder !== undefined && !bidding ? game.sideOfSeat[t.bidder] : undefined;
  Array.from({ length: sideCount() }, (_, side) => side).forEach((side) => {
    const got = takenBy(t, seatsOf(side));
    const li = document.createElement("li");
    li.dataset.side = side;
    li.dataset.tricks = got.tricks;
    li.dataset.points = got.points;
    if (side === bidderSide) li.classList.add("bidders");
    li.textContent = tr("taken.side", { side: sideName(side), taken: takenText(got) });
    const need = needText(t, side, bidderSide);
    if (need) li.append(element("span", "need", need));
    taken.append(li);
  });
  box.append(taken);
}
// What a side needs this hand, once the contract stands.
function needText(t, side, bidderSide) {
  if (bidderSide === undefined || !t.contract) return "";
  const bid = t.bid;
  if (!texas(game.view?.rules)) {
    if (side !== bidderSide) return "";
    return bid?.moon ? tr("need.all") : tr("need.tricks", { count: bid?.tricks ?? 0 });
  }
  if (t.contract.nello) {
    if (side === bidderSide) return isYou(t.bidder) ? tr("need.nello.you") : tr("need.nello", { who: who(t.bidder) });
    return isYou(t.bidder) ? tr("need.nello.set.you") : tr("need.nello.set", { who: lowerWho(t.bidder) });
  }
  if (allTricks(bid, t.contract)) return side === bidderSide ? tr("need.all") : tr("need.one_sets");
  const b = bid?.points ?? 0;
  return side === bidderSide ? tr("need.points", { points: b }) : tr("need.sets_with", { points: 43 - b });
}
