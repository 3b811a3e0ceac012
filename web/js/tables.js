"use strict";
// Tables by link: creating, joining and following one.

// ---- tables: play with friends by a link -------------------------------------
// With "Friends, a link each" the page creates a table on the server
// (`TableService`) and shows a link per friend's seat; a page opened at
// `#t=<link>` sits at that link's seat. The link is a seat's credential: it
// travels after `#`, which browsers send to no server (nor in `Referer`),
// so that no request line or log holds it; the page sends it only in a
// request's body. The server keeps the match and plays its computer
// seats; the page holds no state: every change arrives as it happens
// (server-sent events from `POST /v1/Watch`), as the seat may see it, and a
// reload or a lost connection opens the seat again.
const linkInAddress = () => new URLSearchParams(location.hash.slice(1)).get("t");
const table = {
  link: linkInAddress(), number: -1, match: 0, presence: [], invite: null,
  // The table's settings (its turn timer), and when the seat to act's
  // time ends, on this device's clock (null: no timer runs).
  settings: null, turnEndsAt: null,
  // The watch is down: nothing done here reaches the table until it is
  // back. `refused` says what was not sent meanwhile.
  offline: false, refused: null,
  // The invitations were folded or opened by hand: left as they are.
  inviteFolded: false,
};
// An address of the old form (`?table=<link>`) is rewritten at once: its
// link leaves the history, and is carried after `#` from then on.
if (!table.link && params.get("table")) {
  table.link = params.get("table");
  params.delete("table");
  const query = params.toString();
  history.replaceState(null, "", `${location.pathname}${query ? `?${query}` : ""}#t=${encodeURIComponent(table.link)}`);
}
function atTable() { return Boolean(table.link); }
const TABLE_KEPT = "pips.table.";
// What a page keeps of a table is forgotten after this long unplayed,
// should the page never hear that the table is gone.
const TABLE_KEPT_FOR_MS = 7 * 24 * 60 * 60 * 1000;
const seatUrl = (link) => `${location.origin}${location.pathname}#t=${encodeURIComponent(link)}`;

async function createTable() {
  clearError();
  describeSetup();
  const players = Number($("players").value);
  const seats = seatKinds().map((isPerson) => (isPerson ? { person: {} } : { computer: { level: $("level").value } }));
  const request = { variant: $("variant").value, players, seats, ...chosenRules() };
  const seed = $("seed").value.trim();
  if (seed) request.seed = seed;
  const timer = Number($("timer").value);
  if (timer) request.settings = { turnSeconds: timer, onTimeout: $("on-timeout").value };
  table.inviteFolded = false;
  try {
    const created = await call("CreateTable", request);
    const mine = created.seatLinks?.[0]?.link;
    if (!mine) throw new PlaygroundError(tr("table.no_seat"));
    table.invite = { seats: created.seatLinks.slice(1), watch: created.watchLink };
    // Your seat opens; the invitations stay with it across reloads.
    history.pushState(null, "", seatUrl(mine));
    table.link = mine;
    keepTable();
    joinTable();
  } catch (error) {
    showError(error, createTable);
  }
}

// Leaves the table (a local game starts): the address no longer names it.
function leaveTable() {
  if (!atTable()) return;
  game.generation++;
  table.link = null;
  history.pushState(null, "", location.pathname);
}

// What a reload of this seat keeps: the score sheet and the log, and on
// the creator's device only the other seats' links (the invitations; a
// friend's page never has them). The table itself is the server's.
function keepTable() {
  const kept = { invite: table.invite, sheet: game.sheet, log: game.logItems, match: table.match, at: Date.now() };
  try { localStorage.setItem(TABLE_KEPT + table.link, JSON.stringify(kept)); } catch { /* storage off */ }
}

// Forgets what this device kept of the table of `link` (it is gone).
function forgetTable(link) {
  try { localStorage.removeItem(TABLE_KEPT + link); } catch { /* storage off */ }
}

// Forgets every table kept here and unplayed for long (or kept before
// pages noted when).
function forgetOldTables() {
  try {
    for (const key of Object.keys(localStorage)) {
      if (!key.startsWith(TABLE_KEPT)) continue;
      let at = 0;
      try { at = JSON.parse(localStorage.getItem(key) ?? "null")?.at ?? 0; } catch { at = 0; }
      if (Date.now() - at > TABLE_KEPT_FOR_MS) localStorage.removeItem(key);
    }
  } catch { /* storage off */ }
}
forgetOldTables();

// A link opened in this page's address bar (only what follows `#`
// changed, so the page did not load again) sits at its seat.
window.addEventListener("hashchange", () => {
  const link = linkInAddress();
  if (!link || link === table.link) return;
  game.generation++;
  table.link = link;
  table.invite = null;
  joinTable();
});

function joinTable() {
  clearError();
  document.body.classList.add("playing");
  const generation = ++game.generation;
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(TABLE_KEPT + table.link) ?? "null"); } catch { kept = null; }
  Object.assign(game, { state: null, view: null, toAct: undefined, busy: false, paused: false, finished: null,
    over: null, choosing: null, hint: null, lastPlaced: null, lastTrick: null, names: [], record: null, sheet: kept?.sheet ?? [],
    logItems: [], viewer: 0, cover: null, mode: "friends", people: [] });
  table.invite = kept?.invite ?? table.invite;
  table.match = kept?.match ?? 0;
  table.number = -1;
  $("log").replaceChildren();
  showLog(kept?.log ?? []);
  $("banner").hidden = true;
  watchTable(generation);
}

const pause = (ms) => new Promise((done) => setTimeout(done, ms));

// Follows the table until the page leaves it: each update shown as it
// comes; a lost connection opened again after a second.
async function watchTable(generation) {
  // A watch the server ended in order (its idle time, a newer watch of the
  // seat) is opened again at once; one that ended with no update, or
  // broke, means the table cannot be reached.
  let again = false;
  while (atTable() && generation === game.generation) {
    let heard = false, ended = false;
    try {
      const response = await fetch("/v1/Watch", {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ link: table.link }),
      });
      if (!response.ok) {
        const body = await response.json().catch(() => null);
        if (body?.reason === "ERROR_REASON_TABLE_NOT_FOUND") {
          forgetTable(table.link);
          showError(new PlaygroundError(tr("table.not_found"), body.reason));
          return;
        }
        throw new PlaygroundError(body?.message ?? `HTTP ${response.status}`);
      }
      ended = await readEvents(response, (message) => {
        if (!message.update) return;
        heard = true;
        // The table is back: its first update says where it stands.
        if (table.offline && generation === game.generation) {
          table.offline = false;
          table.refused = null;
        }
        takeUpdate(message.update, generation);
      }, () => generation !== game.generation);
    } catch {
      // (Lost: said below.)
    }
    if (generation !== game.generation) return;
    again = ended && heard && !again;
    if (again) continue;
    // The watch broke or never opened: until a new one answers, nothing
    // done here reaches the table.
    if (!table.offline) {
      table.offline = true;
      render();
    }
    await pause(1000);
  }
}

// The options above show the table's game (its preset, its seats, who
// sits where), not the page's defaults: "New game" starts the same game.
function showTableGame(update) {
  const view = update.view;
  if (!game.variants.some((v) => v.id === view.variant)) return;
  $("variant").value = view.variant;
  fillPlayers();
  $("players").value = `${view.players}`;
  $("mode").value = "friends";
  fillTeams();
  fillPeople((update.seats ?? []).map((s) => !s.computer));
  if (texas(view.rules)) {
    const extras = ["nello", "plunge", "splash", "sevens"].filter((name) => view.rules[name]).join(",");
    if ([...$("extras").options].some((o) => o.value === extras)) $("extras").value = extras;
  }
}

// Shows a table's update (from the watch, or the answer to a move), unless
// a later one was shown; whether it was.
function takeUpdate(update, generation) {
  if (generation !== game.generation || !update?.view) return false;
  const number = Number(update.number ?? 0);
  if (number < table.number) return false;
  const fresh = number > table.number;
  const match = update.match ?? 1;
  if (match !== table.match) {
    // A rematch: a new match for the same seats.
    Object.assign(game, { over: null, paused: false, finished: null, sheet: [], lastPlaced: null, lastTrick: null });
    if (table.match) $("log").replaceChildren();
    table.match = match;
  }
  table.number = number;
  table.presence = update.presence ?? [];
  table.kinds = (update.seats ?? []).map((s) => (s.computer ? "computer" : "person"));
  table.settings = update.settings ?? null;
  // The time left, counted from the server's clock (this device's may be
  // off), from now.
  const ends = Number(update.turnEndsAtMs ?? 0);
  table.turnEndsAt = ends > 0 ? Date.now() + ends - Number(update.serverTimeMs ?? Date.now()) : null;
  game.viewer = update.seat ?? 0;
  table.watching = Boolean(update.watching);
  if (!game.names.length) {
    showTableGame(update);
    nameSeats(update.view);
    game.tableSetup = { variant: update.view.variant, players: update.view.players, watching: table.watching };
    describeSetup();
  }
  const view = update.view;
  if (view.phase === "PHASE_MATCH_OVER" && !game.over) {
    game.over = { result: view.result ?? {}, scores: view.scores ?? [], inPlay: false };
    game.paused = true;
  }
  show(view, fresh ? update.events ?? [] : [], view.toAct);
  return true;
}

// Takes the seat back from the computer, which played it since the
// person's time ran out: opening the seat again makes it theirs.
async function takeBack() {
  const generation = game.generation;
  $("take-back").disabled = true;
  try {
    const answer = await call("OpenSeat", { link: table.link });
    takeUpdate(answer.update, generation);
  } catch (error) {
    showError(error, takeBack);
  } finally {
    $("take-back").disabled = false;
  }
}

async function rematch() {
  try {
    const answer = await call("Rematch", { link: table.link, number: String(table.number) });
    takeUpdate(answer.update, game.generation);
  } catch (error) {
    showError(error, rematch);
  }
}

function renderInvite() {
  $("invite").hidden = !atTable();
  if (!atTable()) return;
  const list = $("invite-links");
  const links = table.invite ? [...table.invite.seats.map((s) => [who(s.seat ?? 0), s.link, s.seat ?? 0]),
    [tr("invite.watch_link"), table.invite.watch, null]] : [];
  const box = $("invite-box");
  box.hidden = !links.length;
  $("watching-label").hidden = !table.watching;
  // The invited seats not here yet: the summary says how many, and the
  // links show while any is missing (unless folded by hand), but not on
  // your turn, when the table must be in view.
  const missing = links.filter(([, , seat]) => seat !== null && !table.presence[seat]?.connected && !table.presence[seat]?.computerPlays);
  $("invite-summary").textContent = missing.length
    ? tr("invite.missing", { who: listing(missing.map(([name]) => name)), count: missing.length })
    : tr("invite.everyone");
  if (!table.inviteFolded) box.open = missing.length > 0 && !yourMoves().length;
  if (list.dataset.links !== JSON.stringify(links)) {
    list.dataset.links = JSON.stringify(links);
    list.replaceChildren();
    for (const [name, link, seat] of links) {
      const li = document.createElement("li");
      const label = document.createElement("span");
      label.className = "who";
      label.textContent = name;
      const input = document.createElement("input");
      input.readOnly = true;
      input.value = seatUrl(link);
      input.dataset.link = link;
      input.setAttribute("aria-label", seat === null ? tr("invite.watch_label") : tr("invite.seat_label", { who: name, of: whose(seat) }));
      li.append(label, input);
      const copy = document.createElement("button");
      copy.type = "button";
      copy.textContent = tr("invite.copy");
      copy.addEventListener("click", async () => {
        input.select();
        try { await navigator.clipboard.writeText(input.value); copy.textContent = tr("invite.copied"); } catch { document.execCommand?.("copy"); }
      });
      li.append(copy);
      if (navigator.share) {
        const share = document.createElement("button");
        share.type = "button";
        share.textContent = tr("invite.share");
        share.addEventListener("click", () => navigator.share({ title: tr("invite.share_title"), url: input.value }).catch(() => {}));
        li.append(share);
      }
      list.append(li);
    }
  }
  const seats = table.presence.map((p, seat) => {
    const mine = seat === game.viewer && !table.watching;
    const state = table.kinds?.[seat] === "computer" ? tr("presence.computer")
      : p.computerPlays ? (mine ? tr("presence.computer_for_you") : tr("presence.computer_for_them"))
      // (This page is here while its watch is up: the server hears of
      // it within a second.)
      : mine ? (table.offline ? tr("presence.lost") : tr("presence.here"))
      : p.connected ? tr("presence.here") : tr("presence.away");
    return tr("presence.seat", { who: who(seat), state });
  });
  const timer = table.settings?.turnSeconds ? ` · ${tr("presence.timer", { time: durationText(table.settings.turnSeconds) })}` : "";
  $("presence").textContent = seats.join(" · ") + timer;
}
