"use strict";
// Playing: moves, the computer's turns, new games, and keeping a game across reloads.

// ---- playing --------------------------------------------------------------
async function accept(update, generation) {
  const events = update.events ?? [];
  // The device goes to the next person to play; their hand stays hidden
  // until they take it.
  let viewer = game.viewer, cover = game.cover;
  if (update.toAct !== undefined && person(update.toAct) && update.toAct !== viewer) {
    viewer = update.toAct;
    cover = update.toAct;
  }
  const view = await call("View", { state: update.state, seat: viewer });
  if (generation !== game.generation) return;
  game.viewer = viewer;
  game.cover = cover;
  game.state = update.state;
  // A move's answer is shown whole: until here the page is busy with it.
  game.busy = false;
  show(view, events, update.toAct);
}

// Shows `view` after `events`, `toAct` being the seat to act: the log, the
// end of a hand or of the match, the score sheet.
function show(view, events, toAct) {
  announceBonuses(events);
  // A trick game: the table before these events, and the last trick won
  // (shown until the next is led).
  const before = game.view?.tricks ?? null;
  const wonAt = events.findLastIndex((e) => e.trickWon);
  if (wonAt >= 0) game.lastTrick = events[wonAt].trickWon;
  if (events.slice(wonAt + 1).some((e) => e.trickPlayed)) game.lastTrick = null;
  game.toAct = toAct;
  game.view = view;
  // (Counts what was shown: a turn is kept in view once.)
  game.shown = (game.shown ?? 0) + 1;
  game.hint = null;
  game.choosing = null;
  if (!game.names.length) nameSeats(view);
  const endedAt = events.findIndex((e) => e.handEnded);
  const played = events.slice(0, endedAt < 0 ? events.length : endedAt).reverse().find((e) => e.tilePlayed)?.tilePlayed;
  if (endedAt >= 0) {
    const ended = events[endedAt].handEnded;
    const rest = events.slice(endedAt + 1);
    const until = rest.findIndex((e) => !(e.pointsScored || e.pointsVoided));
    // A capicúa is scored by the last tile, before the hand's settlement.
    const bonuses = events.slice(0, endedAt).filter((e) => bonusName((e.pointsScored ?? e.pointsVoided)?.reason));
    game.finished = { ended, settlement: [...bonuses, ...(until < 0 ? rest : rest.slice(0, until))],
      tricks: afterTricks(before, events.slice(0, endedAt)) };
    game.lastPlaced = lastPlaced(played, ended.layout);
    game.paused = true;
  } else if (played) {
    game.lastPlaced = lastPlaced(played, view.layout);
  }
  const over = events.find((e) => e.matchEnded)?.matchEnded;
  if (over) {
    game.over = { ...over, inPlay: endedAt < 0 };
    game.paused = true;
  }
  // A line of the score sheet for each hand that ended, or for the hand
  // in which the match was won outright.
  if (endedAt >= 0 || over) {
    const hand = endedAt >= 0 ? events[endedAt].handEnded.hand : view.handNumber;
    game.sheet.push({ hand, scores: over?.scores ?? view.scores ?? [], inPlay: endedAt < 0 });
  }
  logEvents(events);
  save();
  render();
  if (game.paused) {
    $("banner").scrollIntoView({ block: "nearest" });
    if (game.keyboard) $(game.over ? "again" : "next-hand").focus({ preventScroll: true });
  }
  // Watching, the page follows the table into the next hand by itself.
  if (atTable() && table.watching && endedAt >= 0 && !game.over) {
    const { finished, generation } = game;
    setTimeout(() => { if (game.finished === finished && generation === game.generation) nextHand(); }, WATCHED_RESULT_MS);
  }
  scheduleBot();
}

async function play(move) {
  if (game.busy || game.paused || game.over) return;
  const generation = game.generation;
  game.busy = true;
  game.choosing = null;
  render();
  try {
    if (atTable()) {
      // At a table by link the server plays the move at the table's number.
      const answer = await call("Act", { link: table.link, number: String(table.number), move });
      game.busy = false;
      // (The watch may have shown a later update already, the computer
      // seats having played on: the page is drawn again all the same.)
      if (!takeUpdate(answer.update, generation) && generation === game.generation) render();
      return;
    }
    const update = await call("Play", { state: game.state, move });
    if (generation !== game.generation) return;
    game.record?.moves.push(move);
    await accept(update, generation);
  } catch (error) {
    game.busy = false;
    if (generation !== game.generation) return;
    if (atTable() && !error?.reason) {
      // The table cannot be reached: the move is not sent, and the page
      // says so where the hand is; the turn comes back with the table.
      table.offline = true;
      table.refused = tr("play.not_sent", { move: moveText(move) });
    } else {
      showError(error, () => { clearError(); play(move); });
    }
    render();
  }
}

function choose(plays) {
  game.choosing = plays;
  render();
  $("choose-end").scrollIntoView({ block: "nearest" });
}

async function hint() {
  if (!yourMoves().length) return;
  const { state } = game;
  $("hint").disabled = true;
  $("hint").textContent = tr("hint.thinking");
  try {
    const suggestion = await call("SuggestMove", { state, seat: game.viewer, level: "BOT_LEVEL_EXPERT" });
    if (game.state !== state) return;
    const same = (m) => JSON.stringify(m) === JSON.stringify(suggestion.move);
    const value = (suggestion.values ?? []).find((v) => same(v.move))?.value;
    game.hint = { move: suggestion.move, value };
    game.choosing = null;
    render();
  } catch (error) {
    showError(error, () => { clearError(); hint(); });
  } finally {
    $("hint").disabled = false;
    $("hint").textContent = tr("hint.button");
  }
}

function scheduleBot() {
  if (atTable() || game.paused || game.over || game.toAct === undefined || person(game.toAct)) return;
  const { state, toAct: seat, generation } = game;
  setTimeout(async () => {
    if (game.state !== state || game.busy) return;
    try {
      const suggestion = await call("SuggestMove", { state, seat, level: $("level").value });
      if (game.state === state && generation === game.generation) await play(suggestion.move);
    } catch (error) {
      if (generation === game.generation) showError(error, () => { clearError(); scheduleBot(); });
    }
  }, botDelay);
}

// The game being played in a line, above the table on a phone: "Muggins
// (Viitoset): 2 players, greedy opponents". At a table by link, the
// table's own game (`game.tableSetup`).
function describeSetup() {
  if (atTable() && game.tableSetup) {
    const { variant, players, watching } = game.tableSetup;
    $("setup-text").textContent = tr(watching ? "setup.watching" : "setup.at_table", { game: gameTitle(variant), count: players });
    return;
  }
  const parts = [tr("setup.players", { count: Number($("players").value) })];
  const rounds = Number($("rounds").value);
  if (tricksChosen()) {
    if (texas(chosenDefaults()) && $("extras").value) parts.push($("extras").selectedOptions[0]?.textContent.toLocaleLowerCase(i18n.lang) ?? "");
  } else if (hubChosen()) parts.push(tr("setup.rounds", { count: rounds }));
  else if (Number($("players").value) === 4) parts.push($("teams").value === "partners" ? tr("setup.partners") : tr("setup.no_partners"));
  const people = seatKinds().filter(Boolean).length;
  if ($("mode").value === "people") parts.push(tr("setup.people", { count: people }));
  else if ($("mode").value === "friends") {
    parts.push(tr("setup.by_link", { count: people }));
    if (Number($("timer").value)) parts.push(tr("setup.timer", { time: durationText(Number($("timer").value)) }));
  } else parts.push(tr({ BOT_LEVEL_RANDOM: "setup.random", BOT_LEVEL_EXPERT: "setup.expert" }[$("level").value] ?? "setup.greedy"));
  $("setup-text").textContent = tr("setup.line", { game: gameTitle($("variant").value), parts: parts.join(", ") });
}

async function newGame() {
  if ($("mode").value === "friends") return createTable();
  leaveTable();
  clearError();
  describeSetup();
  document.body.classList.add("playing");
  document.body.classList.remove("options-open");
  $("setup-toggle").setAttribute("aria-expanded", "false");
  const generation = ++game.generation;
  Object.assign(game, { state: null, view: null, toAct: undefined, busy: false, paused: false,
    finished: null, over: null, choosing: null, hint: null, lastPlaced: null, lastTrick: null, names: [], bonusesCalled: 0,
    record: null, sheet: [], logItems: [], viewer: 0, cover: null, mode: $("mode").value,
    people: seatKinds() });
  forget();
  $("log").replaceChildren();
  $("bonus").hidden = true;
  $("banner").hidden = true;
  const players = Number($("players").value);
  const request = { variant: $("variant").value, players, ...chosenRules() };
  const seed = $("seed").value.trim();
  if (seed) request.seed = seed;
  try {
    const first = await call("NewGame", request);
    if (generation !== game.generation) return;
    game.record = { state: first.state, moves: [] };
    await accept(first, generation);
  } catch (error) {
    if (generation === game.generation) showError(error, newGame);
  }
}

// From a hand's result to the next hand.
function nextHand() {
  if (game.over) return;
  game.paused = false;
  game.finished = null;
  game.lastPlaced = null;
  game.lastTrick = null;
  save();
  render();
  scheduleBot();
}
// How long a watcher's page shows a hand's result before it follows the
// table into the next hand by itself.
const WATCHED_RESULT_MS = Number(params.get("result-ms") ?? 6000);

// ---- keeping the game across reloads ---------------------------------------
// The page keeps what a reload needs in local storage: the options, the
// state, the hand just finished, the log, the score sheet and the record.
// The state is the full one, as a backend keeps it; the page still shows
// you only your seat's view.
const SAVED = "pips.playground.v1";
function setup() {
  return { variant: $("variant").value, players: $("players").value, teams: $("teams").value, rounds: $("rounds").value,
    extras: $("extras").value, level: $("level").value, seed: $("seed").value, mode: $("mode").value };
}
function save() {
  if (atTable()) return keepTable();
  if (!game.state) return;
  const kept = { setup: setup(), state: game.state, toAct: game.toAct, paused: game.paused, finished: game.finished,
    over: game.over, lastPlaced: game.lastPlaced, lastTrick: game.lastTrick, sheet: game.sheet, log: game.logItems, record: game.record,
    mode: game.mode, people: game.people, viewer: game.viewer, cover: game.cover };
  try { localStorage.setItem(SAVED, JSON.stringify(kept)); } catch { /* storage full or off: not kept */ }
}
function forget() {
  try { localStorage.removeItem(SAVED); } catch { /* storage off */ }
}
function saved() {
  try { return JSON.parse(localStorage.getItem(SAVED) ?? "null"); } catch { return null; }
}

// Resumes the game kept by `save`; false when there is none, or the
// server no longer takes its state (then it is dropped).
async function resume() {
  if (atTable()) {
    joinTable();
    return true;
  }
  const kept = saved();
  if (!kept?.state || !kept.setup) return false;
  // A link that names another game opens that game's options instead (the
  // kept one stays until a new game replaces it).
  const asked = { variant: params.get("variant"), players: params.get("players"), seed: params.get("seed") };
  if (Object.entries(asked).some(([key, value]) => value !== null && value !== String(kept.setup[key] ?? ""))) return false;
  let view;
  try {
    view = await call("View", { state: kept.state, seat: kept.viewer ?? 0 });
  } catch (error) {
    // Only a state the server refuses is dropped; an unreachable server
    // leaves it kept for the retry.
    if (!(error instanceof PlaygroundError) || !error.reason) throw error;
    forget();
    return false;
  }
  const { variant, players, teams, rounds, extras, level, seed } = kept.setup;
  if (game.variants.some((v) => v.id === variant)) $("variant").value = variant;
  fillPlayers();
  $("players").value = players;
  fillTeams();
  $("teams").value = teams;
  if (rounds) $("rounds").value = rounds;
  if (extras !== undefined) $("extras").value = extras;
  $("level").value = level;
  $("seed").value = seed ?? "";
  $("mode").value = kept.mode ?? "computer";
  fillPeople(kept.people);
  describeSetup();
  document.body.classList.add("playing");
  game.generation++;
  Object.assign(game, { state: kept.state, view, toAct: kept.toAct, busy: false, paused: Boolean(kept.paused),
    finished: kept.finished ?? null, over: kept.over ?? null, choosing: null, hint: null,
    lastPlaced: kept.lastPlaced ?? null, lastTrick: kept.lastTrick ?? null, names: [], record: kept.record ?? null, sheet: kept.sheet ?? [], logItems: [],
    mode: kept.mode ?? "computer", people: kept.people ?? [true], viewer: kept.viewer ?? 0, cover: kept.cover ?? null });
  nameSeats(view);
  $("log").replaceChildren();
  showLog(kept.log ?? []);
  render();
  scheduleBot();
  return true;
}
