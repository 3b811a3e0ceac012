"use strict";
// The end of a hand and of the match, and the bonuses called out.

// ---- the end of a hand and of the match ----------------------------------
// A seat's pips in a list of them ("West's 12"; `key` "pips.own": "West's
// own 12").
const pipsText = (seat, pips, key = "pips.of") => tr(key, { of: whose(seat), who: lowerWho(seat), pips });
function handSummary(ended, settlement) {
  if (tricksRules(game.view?.rules)) return trickSummary(ended, settlement);
  const reason = ended.reason;
  const penalty = game.view?.rules?.settlement === "SETTLEMENT_PENALTY_OWN_PIPS";
  let how;
  if (reason === "HAND_END_REASON_DOMINO") how = tr("ended.domino", { who: who(ended.wentOut ?? 0) });
  else if (reason === "HAND_END_REASON_CLOSED") how = tr("ended.closed", { who: who(ended.closedBy ?? 0) });
  else if (penalty && ended.lastPlacer !== undefined) how = tr("ended.fish", { who: lowerWho(ended.lastPlacer) });
  else {
    const totals = Array.from({ length: sideCount() }, (_, side) => (ended.pips ?? []).reduce((sum, p, seat) => sum + (game.sideOfSeat[seat] === side ? p : 0), 0));
    const held = listing(totals.map((total, side) => tr("pips.side", { side: lowerSide(side), pips: total })));
    how = ended.winner !== undefined
      ? tr("ended.blocked", { held, side: lowerSide(ended.winner) })
      : tr("ended.blocked.tie", { held });
  }
  const pips = ended.pips ?? [];
  const rules = game.view?.rules ?? {};
  const words = [];
  for (const event of settlement) {
    const e = event.pointsScored ?? event.pointsVoided;
    const side = e.side ?? 0;
    // The hands the side is credited with: the opponents', and its own
    // where the rules count the partner's (going out) or every hand (a
    // blocked hand under blocked_own added).
    const ownToo = e.reason === "SCORE_REASON_BLOCKED"
      ? rules.blockedOwn === "BLOCKED_OWN_PIPS_ADDED"
      : Boolean(rules.countPartner);
    const opponents = pips.map((p, seat) => [p, seat])
      .filter(([, seat]) => game.sideOfSeat[seat] !== side || (ownToo && seat !== e.endedBy));
    const points = e.points ?? 0;
    const held = listing(opponents.map(([p, seat]) => pipsText(seat, p)));
    const vars = { who: who(e.endedBy ?? 0), side: lowerSide(side), points, held };
    const oneWins = rules.settlement === "SETTLEMENT_WINNER_TAKES_ONE";
    let text;
    switch (e.reason) {
      case "SCORE_REASON_DOMINO":
        text = oneWins ? tr("settle.domino.one", vars) : opponents.length ? tr("settle.domino", vars) : tr("settle.domino.none", vars);
        break;
      case "SCORE_REASON_CLOSED":
        text = oneWins ? tr("settle.closed.one", vars) : opponents.length ? tr("settle.closed", vars) : tr("settle.closed.none", vars);
        break;
      case "SCORE_REASON_BLOCKED": {
        const own = pips.map((p, seat) => [p, seat]).filter(([p, seat]) => p > 0 && game.sideOfSeat[seat] === side);
        const less = own.length && !["BLOCKED_OWN_PIPS_IGNORED", "BLOCKED_OWN_PIPS_ADDED"].includes(rules.blockedOwn);
        text = less
          ? tr("settle.blocked.less", { ...vars, side: sideName(side), own: listing(own.map(([p, seat]) => pipsText(seat, p, "pips.own"))) })
          : tr("settle.blocked", { ...vars, side: sideName(side) });
        break;
      }
      case "SCORE_REASON_CAPICUA":
      case "SCORE_REASON_PASS_BONUS":
        text = tr("settle.bonus", { ...vars, bonus: bonusName(e.reason), why: bonusWhy(e) });
        break;
      case "SCORE_REASON_PENALTY":
        text = tr("settle.penalty", { who: who(e.holder ?? 0), of: whose(e.holder ?? 0), points });
        break;
      case "SCORE_REASON_OWN_PIPS":
        text = owned(e.holder ?? 0, "settle.own_pips.yours", "settle.own_pips", { pips: pips[e.holder ?? 0] ?? 0, side: lowerSide(side), points: -points });
        break;
      default:
        text = tr("settle.scored", { side: sideName(side), points });
    }
    if (event.pointsVoided) text = tr("settle.void", { text, target: rules.target ?? 0 });
    words.push(`${capital(text)}.`);
  }
  if (!words.length) words.push(ended.winner === undefined ? tr("settle.nobody") : tr("settle.no_points"));
  return { how, settlement: words.join(" ") };
}

// A trick hand's end: made or set and why, then what each side scores.
function trickSummary(ended, settlement) {
  if (ended.reason === "HAND_END_REASON_ALL_PASSED") return { how: tr("ended.all_passed"), settlement: "" };
  const words = settlement.map((event) => {
    const e = event.pointsScored ?? event.pointsVoided;
    const points = e?.points ?? 0, side = e?.side ?? 0;
    if (e?.reason === "SCORE_REASON_MARKS") return tr("settle.marks", { marks: tr("bid.marks", { count: points }), side: lowerSide(side) });
    return points < 0
      ? tr("settle.trick.lose", { side: sideName(side), points: -points, count: seatsIn(side) })
      : tr("settle.trick.score", { side: sideName(side), points, count: seatsIn(side) });
  });
  return { how: trickVerdict(ended, game.finished?.tricks), settlement: words.map(capital).join(" ") };
}
// How many people a side's name stands for, for its verb ("West scores",
// "You & your partner score"; "You" takes the plural verb in English).
const seatsIn = (side) => (seatsOf(side).length > 1 || isYou(seatsOf(side)[0]) ? 2 : 1);
// A trick hand's banner title: who bid, and whether it was made.
function trickTitle(ended) {
  if (ended.reason === "HAND_END_REASON_ALL_PASSED") return tr("title.all_passed", { n: ended.hand });
  const tricks = game.finished?.tricks;
  const side = game.sideOfSeat[ended.bidder ?? tricks?.bidder ?? 0] ?? 0;
  return ended.reason === "HAND_END_REASON_MADE"
    ? tr("title.made", { n: ended.hand, side: sideName(side), bid: bidText(tricks?.bid), count: seatsIn(side) })
    : tr("title.set", { n: ended.hand, side: sideName(side), count: seatsIn(side) });
}

function renderBanner() {
  const ended = game.paused ? game.finished?.ended : null;
  const over = game.over;
  $("banner").hidden = !(ended || over);
  if (!(ended || over)) return;
  const banner = $("banner");
  let title, text = "", settlement = "";
  if (ended) {
    const summary = handSummary(ended, game.finished.settlement);
    text = summary.how;
    settlement = summary.settlement;
  }
  if (over) {
    const r = over.result ?? {};
    const scores = over.scores ?? game.view?.scores ?? [];
    title = r.draw || r.winner === undefined ? tr("match.draw") : tr("match.won", { side: sideName(r.winner) });
    banner.dataset.winner = r.winner ?? "";
    const final = tr("match.final", { scores: scoreLine(scores) });
    text = ended ? `${final} ${tr(roundKey("match.last_hand", "match.last_round"), { text })}`
      : game.over.inPlay ? `${final} ${tr("match.reached", { side: sideName(r.winner ?? 0), target: game.view?.rules?.target ?? 0 })}` : final;
    if (over.ranking?.length && rounds()) {
      // The ranking says the final scores already.
      const ranking = over.ranking.map((side, i) => `${i + 1}. ${sideName(side)} ${num(scores[side] ?? 0)}`).join(", ");
      text = tr("match.ranking", { ranking });
      if (ended) text += ` ${tr("match.last_round", { text: handSummary(ended, []).how })}`;
    }
  } else {
    title = tricksRules(game.view?.rules) ? trickTitle(ended)
      : ended.winner === undefined ? tr(roundKey("title.hand.nobody", "title.round.nobody"), { n: ended.hand })
      : tr(roundKey("title.hand.won", "title.round.won"), { n: ended.hand, side: sideName(ended.winner) });
    banner.dataset.winner = ended.winner ?? "";
  }
  $("banner-title").textContent = title;
  $("banner-text").textContent = text;
  $("banner-settlement").textContent = settlement;
  // Everyone's tiles, face up (at a trick game, what each side took: the
  // tiles left in hand count for nobody).
  const revealed = $("revealed");
  revealed.replaceChildren();
  revealed.setAttribute("aria-label", tricksRules(game.view?.rules) ? tr("revealed.taken") : tr("revealed.tiles"));
  if (tricksRules(game.view?.rules)) {
    const t = ended ? game.finished.tricks : null;
    if (t) {
      Array.from({ length: sideCount() }, (_, side) => side).forEach((side) => {
        const got = takenBy(t, seatsOf(side));
        const li = document.createElement("li");
        li.dataset.tricks = got.tricks;
        li.dataset.points = got.points;
        const name = document.createElement("span");
        name.className = "who";
        name.textContent = sideName(side);
        const note = document.createElement("span");
        note.textContent = takenText(got);
        li.append(name, note);
        revealed.append(li);
      });
    }
  }
  const hands = tricksRules(game.view?.rules) ? []
    : ended ? (ended.hands ?? []).map((h) => h.tiles ?? []) : (game.state?.hands ?? []).map((h) => h.tiles ?? []);
  hands.forEach((tiles, seat) => {
    const li = document.createElement("li");
    const name = document.createElement("span");
    name.className = "who";
    name.textContent = who(seat);
    const shown = document.createElement("span");
    shown.className = "tiles";
    for (const t of tiles) shown.append(tileEl(...pipsOf(t), false));
    // The pips as the server counted them (0-0 may count 50 at a table
    // with a hub), else as the tiles show.
    const pips = ended?.pips?.[seat] ?? tiles.reduce((sum, t) => sum + pipsOf(t)[0] + pipsOf(t)[1], 0);
    const note = document.createElement("span");
    note.className = "small";
    note.textContent = tiles.length ? tr("revealed.pips", { count: pips }) : tr("revealed.none");
    li.dataset.pips = pips;
    if (rounds()) {
      // At a table with a hub the pips are the round's score: the running
      // total beside them.
      const total = (over?.scores ?? game.view?.scores ?? [])[game.sideOfSeat[seat] ?? seat] ?? 0;
      note.textContent = tr("revealed.total", { pips: tiles.length ? tr("revealed.pips", { count: pips }) : tr("revealed.out"), total });
      li.dataset.total = total;
    }
    shown.append(note);
    li.append(name, shown);
    revealed.append(li);
  });
  $("next-hand").hidden = Boolean(over);
  $("next-hand").textContent = tr(roundKey("banner.next_hand", "banner.next_round"));
  if (atTable() && table.watching && !over) {
    $("banner-settlement").textContent = `${settlement} ${tr(roundKey("banner.follows_hand", "banner.follows_round"))}`.trim();
  }
  // (A watch link asks for no rematch: a seat does.)
  $("again").hidden = !over || (atTable() && table.watching);
  $("again").textContent = atTable() ? tr("banner.rematch") : tr("options.new_game");
}

// ---- bonuses --------------------------------------------------------------
// A bonus's name as players call it out, for a bonus reason.
function bonusName(reason) {
  const key = { SCORE_REASON_CAPICUA: "bonus.capicua.name", SCORE_REASON_PASS_BONUS: "bonus.pass.name" }[reason];
  return key ? tr(key) : undefined;
}
function bonusWhy(e) {
  return e.reason === "SCORE_REASON_CAPICUA"
    ? tr("bonus.capicua", { who: lowerWho(e.endedBy ?? 0) })
    : owned(e.placer ?? 0, "bonus.pass.yours", "bonus.pass");
}
// Calls out the bonuses among `events` above the scores for a few seconds.
function announceBonuses(events) {
  const called = events.map((event) => event.pointsScored).filter((e) => e && bonusName(e.reason))
    .map((e) => `${bonusName(e.reason)} ${sideName(e.side ?? 0)} +${e.points ?? 0}`);
  if (!called.length) return;
  game.bonusesCalled = (game.bonusesCalled ?? 0) + called.length;
  const note = $("bonus");
  note.textContent = called.join("  ");
  note.hidden = false;
  clearTimeout(game.bonusTimer);
  game.bonusTimer = setTimeout(() => { note.hidden = true; }, 4000);
}
