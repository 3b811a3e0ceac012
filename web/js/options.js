"use strict";
// The options: the game, its players and who plays each seat.

// The seats people play, from the options: seat 0 always, the others as
// chosen (computer opponents unless the game is played at one device).
function seatKinds() {
  const players = Number($("players").value);
  const people = [true];
  for (let seat = 1; seat < players; seat++) {
    people.push(["people", "friends"].includes($("mode").value) && $(`seat-${seat}`)?.value === "person");
  }
  return people;
}
// The "who plays each seat" choices, for the player count (as `kinds`
// says, else as they were, else as the address asks).
function fillPeople(kinds) {
  const box = $("people");
  const players = Number($("players").value);
  const before = kinds ?? (box.querySelectorAll("select").length ? seatKinds() : null);
  const asked = (params.get("people") ?? "").split(",").filter(Boolean).map(Number);
  box.replaceChildren();
  box.hidden = !["people", "friends"].includes($("mode").value);
  const friends = $("mode").value === "friends";
  // Named as the table will name them: from your seat, or passing the
  // device round, by where each sits.
  const names = seatNames(players, 0, chosenSides(players), !friends);
  for (let seat = 1; seat < players; seat++) {
    const label = document.createElement("label");
    label.textContent = seatName(names[seat]);
    const select = document.createElement("select");
    select.id = `seat-${seat}`;
    select.append(new Option(friends ? tr("people.friend") : tr("people.person"), "person"), new Option(tr("people.computer"), "computer"));
    const isPerson = before ? before[seat] : asked.length ? asked.includes(seat) : seat === players - 1 || players === 2;
    select.value = isPerson ? "person" : "computer";
    select.addEventListener("change", showChoices);
    label.append(select);
    box.append(label);
  }
  showChoices();
}
// The side of each seat the options choose: partners sit across.
function chosenSides(players) {
  const partners = players === 4 && (tricksChosen() ? texas(chosenDefaults()) : !hubChosen() && $("teams").value === "partners");
  return Array.from({ length: players }, (_, seat) => (partners ? seat % 2 : seat));
}
// The choices that apply: the computer's strength when it plays a seat,
// a turn timer at a table by link.
function showChoices() {
  const mode = $("mode").value;
  const computers = mode === "computer" || seatKinds().some((isPerson) => !isPerson);
  $("level-label").hidden = !computers;
  $("timer-label").hidden = mode !== "friends";
  $("timeout-label").hidden = mode !== "friends" || $("timer").value === "0";
}

// ---- the options ----------------------------------------------------------
function fillPlayers() {
  const variant = game.variants.find((v) => v.id === $("variant").value);
  const select = $("players");
  const before = select.value || params.get("players");
  select.replaceChildren();
  for (const n of variant?.players ?? []) select.append(new Option(`${n}`, `${n}`));
  if (before && [...select.options].some((o) => o.value === before)) select.value = before;
  fillTeams();
  fillPeople();
}
// The preset's rules at the chosen player count.
function chosenDefaults() {
  const variant = game.variants.find((v) => v.id === $("variant").value);
  const players = Number($("players").value);
  return variant?.defaults?.find((d) => d.players === players)?.rules;
}
// Whether the chosen game is played at a table with a hub (trains, a
// chicken foot): no partners, a number of rounds.
const hubChosen = () => !["TABLE_KIND_LINE", "TABLE_KIND_TRICKS"].includes(chosenDefaults()?.table ?? "TABLE_KIND_LINE");
// Whether the chosen game is played to tricks (Texas 42, Moon).
const tricksChosen = () => tricksRules(chosenDefaults());
// The house rules the options choose, as `NewGame` and `CreateTable`
// take them: rounds at a table with a hub, partners or not at four on a
// line, Texas 42's extra contracts.
function chosenRules() {
  if (tricksChosen()) return texasExtras();
  if (hubChosen()) return { rules: { rounds: Number($("rounds").value) } };
  return Number($("players").value) === 4 ? { rules: { partnerships: $("teams").value === "partners" } } : {};
}
function texasExtras() {
  if (!texas(chosenDefaults())) return {};
  const on = $("extras").value.split(",").filter(Boolean);
  return on.length ? { rules: Object.fromEntries(on.map((name) => [name, true])) } : {};
}
function fillTeams() {
  const defaults = chosenDefaults();
  $("teams-label").hidden = Number($("players").value) !== 4 || hubChosen() || tricksChosen();
  $("extras-label").hidden = !texas(defaults);
  $("teams").value = params.get("teams") ?? (defaults?.partnerships ? "partners" : "solo");
  fillRounds();
}
// How many rounds a game at a table with a hub lasts: one per hub double,
// from the highest down, so at most one more than the set's highest pip.
function fillRounds() {
  const defaults = chosenDefaults();
  const select = $("rounds");
  const before = select.value || params.get("rounds");
  $("rounds-label").hidden = !hubChosen();
  select.replaceChildren();
  if (!hubChosen()) return;
  const most = (defaults?.maxPip ?? 12) + 1;
  for (let n = 1; n <= most; n++) select.append(new Option(`${n}`, `${n}`));
  select.value = `${defaults?.rounds ?? most}`;
  if (before && [...select.options].some((o) => o.value === before)) select.value = before;
}

async function start() {
  await startLanguages();
  try {
    game.variants = (await call("ListVariants", {})).variants ?? [];
  } catch (error) {
    showError(error, () => { clearError(); start(); });
    return;
  }
  const select = $("variant");
  select.replaceChildren();
  for (const v of game.variants) {
    const option = new Option(gameTitle(v.id), v.id);
    option.title = gameAbout(v.id);
    select.append(option);
  }
  if (params.get("variant")) select.value = params.get("variant");
  if (params.get("seed")) $("seed").value = params.get("seed");
  if (params.get("extras")) $("extras").value = params.get("extras");
  if (params.get("level")) $("level").value = params.get("level");
  if (params.get("mode")) $("mode").value = params.get("mode");
  if (params.get("timer")) $("timer").value = params.get("timer");
  if (params.get("timeout")) $("on-timeout").value = params.get("timeout");
  fillPlayers();
  nameQuickStart();
  try {
    await resume();
  } catch (error) {
    showError(error, () => { clearError(); start(); });
  }
  document.body.dataset.ready = "true";
}

// The welcome button names the game it starts: the one the form (or the
// address, ?variant=) names.
function nameQuickStart() {
  $("quick-start").textContent = tr("welcome.quick_start", { game: gameTitle($("variant").value) });
}
