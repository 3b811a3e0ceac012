"use strict";
// Seats, moves and targets in words.

// Passing one device round, every seat is named by where it sits, play
// passing to the left (clockwise seen from above); at five seats or more
// the table is round. Seats are named by key (`seat.<key>` in the
// catalogs), so that a name follows the language.
const COMPASS = {
  2: ["south", "north"], 3: ["south", "west", "east"], 4: ["south", "west", "north", "east"],
  5: ["south", "west", "north_west", "north_east", "east"],
  6: ["south", "south_west", "north_west", "north", "north_east", "south_east"],
  7: ["south", "south_west", "west", "north_west", "north_east", "east", "south_east"],
  8: ["south", "south_west", "west", "north_west", "north", "north_east", "east", "south_east"],
};
// Against the computer, the seat holding the device is "You".
const SEAT_NAMES = Object.fromEntries(Object.entries(COMPASS).map(([n, names]) => [n, ["you", ...names.slice(1)]]));
// Each seat key's name and its possessive form ("West", "West's").
const SEAT_KEYS = {
  you: ["seat.you", "seat.you.of"], partner: ["seat.partner", "seat.partner.of"],
  south: ["seat.south", "seat.south.of"], north: ["seat.north", "seat.north.of"],
  west: ["seat.west", "seat.west.of"], east: ["seat.east", "seat.east.of"],
  north_west: ["seat.north_west", "seat.north_west.of"], north_east: ["seat.north_east", "seat.north_east.of"],
  south_west: ["seat.south_west", "seat.south_west.of"], south_east: ["seat.south_east", "seat.south_east.of"],
};
const together = () => game.mode === "people";
// Every seat's name seen from seat `me`: "You", "Your partner", and the
// others by where they sit from you (the next to play after you sits to
// your left, West); `sideOfSeat` pairs partners. The form, the invitations
// and the table all name seats by it. Passing one device round (`compass`)
// or watching, every seat is named by where it sits. The names are keys;
// `seatName` says them.
function seatNames(players, me, sideOfSeat, compass = false) {
  const names = (compass ? COMPASS : SEAT_NAMES)[players] ?? Array.from({ length: players }, (_, s) => (s === 0 && !compass ? "you" : `${s + 1}`));
  const named = names.map((_, seat) => names[(seat - me + players) % players]);
  const partner = sideOfSeat.findIndex((side, seat) => seat !== me && side === sideOfSeat[me]);
  if (partner >= 0 && !compass) named[partner] = "partner";
  return named;
}
// A seat key's name ("West", "Seat 3"), or its possessive ("West's").
function seatName(key, possessive = false) {
  const keys = SEAT_KEYS[key];
  if (keys) return tr(keys[possessive ? 1 : 0]);
  return tr(possessive ? "seat.numbered.of" : "seat.numbered", { n: Number(key) || 0 });
}
function nameSeats(view) {
  const players = view.players;
  // At a table by link you sit at your link's seat; a watch link sits
  // nowhere.
  const me = atTable() ? game.viewer : 0;
  game.sideOfSeat = view.sideOfSeat ?? Array.from({ length: players }, (_, s) => s);
  game.names = seatNames(players, me, game.sideOfSeat, together() || table.watching);
}
// The key of `seat`'s name.
const nameKey = (seat) => game.names[seat] ?? `${seat + 1}`;
const who = (seat) => seatName(nameKey(seat));
// Whether `seat` is the one holding this device, named "You".
const isYou = (seat) => nameKey(seat) === "you";
// The seats of `side`, in seat order.
const seatsOf = (side) => game.sideOfSeat.map((s, seat) => [s, seat]).filter(([s]) => s === side).map(([, seat]) => seat);
// A name inside a sentence: "you", "your partner", "West".
function lowerWho(seat) {
  const key = nameKey(seat), name = seatName(key);
  return key === "you" || key === "partner" ? name.charAt(0).toLocaleLowerCase(i18n.lang) + name.slice(1) : name;
}
// "your", "West's".
const whose = (seat) => seatName(nameKey(seat), true);
// `key` said of `seat`'s thing: `<key>.yours` for yours ("your train"),
// else `<key>` with its owner's possessive (`{of}`: "West's train").
// (The seat's name comes with its possessive, `{who}` beside `{of}`,
// for languages that say "the train of West" with the name alone.)
const owned = (seat, yours, others, vars = {}) => (isYou(seat) ? tr(yours, vars) : tr(others, { of: whose(seat), who: lowerWho(seat), ...vars }));
// A side's name: a seat's, or partners' joined ("West & East"); `inside`
// a sentence, "you & your partner".
function sideName(side, inside = false) {
  const seats = seatsOf(side);
  if (!seats.length) return tr("side.numbered", { n: side + 1 });
  return seats.map((seat, i) => (i === 0 && !inside ? who(seat) : lowerWho(seat))).join(" & ");
}
const lowerSide = (side) => sideName(side, true);
// How many sides there are.
const sideCount = () => Math.max(0, ...game.sideOfSeat) + 1;
const mySide = () => game.sideOfSeat[game.viewer] ?? 0;
// Whether a person (not the computer) plays `seat`.
const person = (seat) => (atTable() ? !table.watching && seat === game.viewer : Boolean(game.people[seat]));
// Whether the person holding the device may act now.
const viewerActs = () => game.toAct === game.viewer && person(game.viewer) && game.cover === null;
const num = (n) => number(n);
const pipsOf = (t) => [t?.a ?? 0, t?.b ?? 0];
// Tiles are written as the server's messages and the rule book write them.
const tileText = (t) => pipsOf(t).join("-");
// Whether the match is a number of rounds (a table with a hub).
const rounds = () => game.view?.rules?.matchEnd === "MATCH_END_ROUNDS";
// `hand` or `round` (a table with a hub plays rounds): the key of the
// string's variant.
const roundKey = (hand, round) => (rounds() ? round : hand);
const scoring = () => (game.view?.rules?.inPlayScoring ?? "IN_PLAY_SCORING_NONE") !== "IN_PLAY_SCORING_NONE";
const scoreLine = (scores) => scores.map((points, side) => `${sideName(side)} ${num(points ?? 0)}`).join(" · ");

// A move in words, as an instruction ("play 6-4 on the left end"); its
// tile in words when `spoken` (for a screen reader: "play six–four").
const END_MOVES = { END_LEFT: "move.play.left", END_RIGHT: "move.play.right", END_UP: "move.play.up", END_DOWN: "move.play.down" };
function moveText(move, spoken = false) {
  const said = spoken ? tileSaid : tileText;
  if (move.play) {
    const tile = said(move.play.tile);
    if (move.play.train) return tr("move.play.train", { tile, train: trainName(move.play.train) });
    if (move.play.arm) return move.play.arm.newArm ? tr("move.play.new_arm", { tile }) : tr("move.play.arm", { tile, arm: (move.play.arm.arm ?? 0) + 1 });
    return tr(END_MOVES[move.play.end] ?? "move.play.lead", { tile });
  }
  if (move.endTurn) return tr("move.end_turn");
  if (move.bid) return tr("move.bid", { bid: bidText(move.bid) });
  if (move.contract) return tr("move.contract", { contract: contractText(move.contract) });
  if (move.discard) return tr("move.discard", { tile: said(move.discard) });
  if (move.trick) return tr("move.trick", { tile: said(move.trick) });
  return move.draw ? tr("move.draw") : tr("move.pass");
}
// The tile a move puts down (a line's, a trick's, the widow's discard).
const moveTile = (move) => move?.play?.tile ?? move?.trick ?? move?.discard ?? null;
// "your train", "West's train", "the Mexican train".
function trainName(train) {
  if (train?.mexican) return tr("train.mexican");
  return owned(train?.seat ?? 0, "train.yours", "train.of");
}
const capital = (text) => text.charAt(0).toLocaleUpperCase(i18n.lang) + text.slice(1);

function targetText(rules) {
  const target = rules?.target ?? 0;
  if (marksScored(rules)) return tr("target.marks", { count: target });
  if (rules?.bidding === "TRICK_BIDDING_MOON") return tr("target.moon", { count: target });
  switch (rules?.matchEnd) {
    case "MATCH_END_EXACT_TARGET": return tr("target.exact", { count: target });
    case "MATCH_END_LOSE_AT_TARGET": return tr("target.lowest", { count: target });
    case "MATCH_END_SINGLE_HAND": return tr("target.single_hand");
    case "MATCH_END_ROUNDS": return tr("target.rounds", { count: rules?.rounds ?? 0 });
    default: return tr("target.points", { count: target });
  }
}

// A game's name as its players name it ("Viitoset" in Finnish), and its
// short rules: the catalog's (`game.<id>`, `game.<id>.about`), else the
// server's own title and description (a preset the page does not know).
function gameTitle(id) {
  return known(`game.${id}`) ?? game.variants.find((v) => v.id === id)?.title ?? id;
}
function gameAbout(id) {
  return known(`game.${id}.about`) ?? game.variants.find((v) => v.id === id)?.description ?? "";
}
