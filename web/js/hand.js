"use strict";
// Your hand, the hint, passing the device.

// The buttons naming an end, for a tile that fits more than one.
const CHOOSE_ENDS = { END_LEFT: "choose.end.left", END_RIGHT: "choose.end.right", END_UP: "choose.end.up", END_DOWN: "choose.end.down" };
function renderHand(view) {
  const mine = yourMoves();
  const hand = $("hand");
  hand.replaceChildren();
  // Away: the computer plays your seat since your time ran out, until
  // you take it back. Offline: your turn, and the table out of reach.
  const away = atTable() && !table.watching && Boolean(table.presence[game.viewer]?.computerPlays);
  const offline = turnOffline();
  $("away").hidden = !away;
  $("away-text").textContent = tr("away.text");
  $("mine").classList.toggle("away", away);
  $("mine").classList.toggle("offline", offline && !away);
  $("mine").classList.toggle("tricks", tricksRules(view.rules));
  $("mine").classList.toggle("your-turn", mine.length > 0);
  $("mine").classList.toggle("choosing", Boolean(game.choosing));
  $("turn").hidden = mine.length === 0 && !offline;
  const said = offline ? table.refused ?? tr("turn.offline")
    : mine.length ? yourTurnText(mine) : "";
  $("turn").replaceChildren(said);
  if (mine.length && timeLeft()) $("turn").append(" ", clockEl());
  $("mine").classList.toggle("between", game.paused && !game.review?.shown);
  if (game.review?.shown) {
    reviewHand(view, hand);
  } else if (game.paused) {
    $("hand-title").textContent = tr("hand.label");
    const p = document.createElement("p");
    p.className = "small";
    p.textContent = game.over ? tr("status.over") : tr(roundKey("hand.next_hand", "hand.next_round"));
    hand.append(p);
  } else {
    const count = (view.hand ?? []).length;
    $("hand-title").textContent = together() ? tr("hand.title.of", { of: whose(game.viewer), who: lowerWho(game.viewer), count }) : tr("hand.title", { count });
    for (const t of view.hand ?? []) {
      const [a, b] = pipsOf(t);
      const el = tileEl(a, b, true, true);
      const plays = mine.filter((m) => moveTile(m) && tileText(moveTile(m)) === `${a}-${b}`);
      if (plays.length) {
        el.classList.add("playable");
        el.setAttribute("aria-label", tr("hand.tile.plays", { tile: tileWords(a, b), moves: new Intl.ListFormat(i18n.lang, { type: "disjunction" }).format(plays.map((m) => moveText(m, true))) }));
        el.addEventListener("click", () => (plays.length === 1 ? play(plays[0]) : choose(plays)));
      } else if (offline) {
        // Not playable now; pressed, it is refused in words.
        el.setAttribute("aria-disabled", "true");
        el.addEventListener("click", () => {
          table.refused = tr("hand.not_sent", { tile: `${a}-${b}` });
          render();
        });
      } else {
        el.disabled = true;
      }
      if (game.choosing && tileText(game.choosing[0].play.tile) === `${a}-${b}`) el.classList.add("choosing");
      if (moveTile(game.hint?.move) && tileText(moveTile(game.hint.move)) === `${a}-${b}` && mine.length) el.classList.add("hinted");
      hand.append(el);
    }
  }
  // Which end, for a tile that fits more than one.
  $("choose-end").hidden = !game.choosing;
  const buttons = $("choose-buttons");
  buttons.replaceChildren();
  if (game.choosing) {
    $("choose-text").textContent = tr("choose.where", { tile: tileText(game.choosing[0].play.tile) });
    const ends = game.view?.layout?.openEnds ?? [];
    for (const move of game.choosing) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "end";
      const pips = ends.find((e) => e.end === move.play.end)?.pips;
      button.textContent = move.play.train ? capital(trainName(move.play.train))
        : move.play.arm ? (move.play.arm.newArm ? tr("choose.new_arm") : tr("choose.arm", { arm: (move.play.arm.arm ?? 0) + 1 }))
        : `${tr(CHOOSE_ENDS[move.play.end] ?? "choose.end.left")}${pips === undefined ? "" : ` (${number(pips)})`}`;
      button.addEventListener("click", () => play(move));
      buttons.append(button);
    }
  }
  const others = $("other-moves");
  others.replaceChildren();
  for (const move of mine.filter((m) => !moveTile(m))) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move primary";
    button.textContent = capital(moveText(move));
    // A trick game's bids and contracts: a button each, as short as reads.
    if (move.bid) {
      button.className = "move bid";
      button.textContent = bidLabel(move.bid);
      button.setAttribute("aria-label", capital(moveText(move, true)));
    } else if (move.contract) {
      button.className = "move contract";
      button.textContent = contractLabel(move.contract, view.hand ?? []);
      button.setAttribute("aria-label", capital(moveText(move, true)));
    }
    if (game.hint && JSON.stringify(game.hint.move) === JSON.stringify(move)) button.classList.add("hinted");
    button.addEventListener("click", () => play(move));
    others.append(button);
  }
  // (At a table by link the server keeps the state: no hint.)
  $("hint").hidden = mine.length === 0 || atTable();
  const hint = game.hint && mine.length ? game.hint : null;
  $("hint-text").hidden = !hint;
  if (hint) {
    const where = hint.move.play ? "hint.on_table" : moveTile(hint.move) ? "hint.in_hand" : "hint.button_marked";
    const said = hint.value === undefined ? tr("hint.text", { move: moveText(hint.move) })
      : tr("hint.text.chance", { move: moveText(hint.move), percent: Math.round(hint.value * 100) });
    $("hint-text").textContent = `${said} ${tr(where)}`;
    $("hint-text").dataset.move = JSON.stringify(hint.move);
  }
}

// On your turn, what you must follow stays in view above the docked hand:
// the whole table when it fits beside it, else at a trick game the trick
// being played (or the auction). Once a turn, so that the page never
// fights a reader's own scrolling.
let turnInView = null;
function keepInView() {
  if (!yourMoves().length || game.choosing || game.cover !== null) return;
  if (turnInView === game.shown) return;
  turnInView = game.shown;
  const room = window.innerHeight - $("mine").getBoundingClientRect().height;
  let target = $("table").getBoundingClientRect();
  if (target.height > room) {
    if (!tricksRules(game.view?.rules)) return;
    const part = document.querySelector("#layout .trick") ?? document.querySelector("#layout .auction");
    if (!part) return;
    target = part.getBoundingClientRect();
    // Bidding: the seats' calls above the auction too, when they fit.
    if (!document.querySelector("#layout .trick")) {
      const top = Math.min(target.top, $("table").getBoundingClientRect().top);
      if (target.bottom - top <= room) target = { top, bottom: target.bottom };
    }
  }
  if (target.bottom > room) window.scrollBy(0, target.bottom - room + 4);
  else if (target.top < 0) window.scrollBy(0, target.top - 4);
}

// Passing the device: the next person's hand stays hidden until they say
// they hold it.
function renderCover() {
  const covered = game.cover !== null && !game.paused;
  $("cover").hidden = !covered;
  // (A watch link holds no hand.)
  $("mine").hidden = covered || (atTable() && table.watching);
  if (!covered) return;
  const name = who(game.cover);
  $("cover-title").textContent = tr("cover.title", { who: name });
  $("cover-text").textContent = tr("cover.text", { who: name });
  $("uncover").textContent = tr("cover.button", { who: name });
}
