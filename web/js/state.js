"use strict";
// The page's state: the game shown, its options from the address.

// The playground uses only the public HTTP/JSON API: POST /v1/<RpcName> with
// the proto3 JSON of the pips.v1 messages. Seat 0 is you; the computer
// plays the other seats through SuggestMove at the chosen level. The page
// holds the full state, as a backend would, and shows you only seat 0's
// View (and, at the end of a hand, what the server turns face up).
const params = new URLSearchParams(location.search);
const botDelay = Number(params.get("delay") ?? 650);
const $ = (id) => document.getElementById(id);
// A new element: its tag, its class and its text.
function element(tag, className = "", text = "") {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text) el.textContent = text;
  return el;
}
const game = {
  variants: [], state: null, view: null, toAct: undefined,
  // A move is on its way to the server.
  busy: false,
  // Between hands (or after the match) until "Next hand" is pressed.
  paused: false,
  // The hand that just ended: its HandEnded event and its settlement.
  finished: null,
  // The MatchEnded event, once the match is over.
  over: null,
  // A tile of yours that fits more than one end: its plays, until you pick.
  choosing: null,
  // The expert's suggestion for you: { move, value }.
  hint: null,
  // The last tile placed, to mark it on the table.
  lastPlaced: null,
  // A trick game's last trick won (its TrickWon event), shown until the
  // next trick is led.
  lastTrick: null,
  // Counts games started, so that an answer for an abandoned game is dropped.
  generation: 0,
  // Each seat's name, as a key of `seatName`; which side each seat is on.
  names: [], sideOfSeat: [],
  keyboard: false,
  // The match's record, as `Replay` takes it: its first state and every
  // move since, yours and the computer's.
  record: null,
  // The score sheet: each finished hand with every side's score after it.
  sheet: [],
  // The match's review once asked for: its record, each decision as the
  // server streams it, the seats' summaries, the decision shown (null: the
  // match's end) and the view at the end to come back to.
  review: null,
  // What the log shows, kept with the game across reloads.
  logItems: [],
  // The developer switch: the state panel shows the full state.
  devFull: false,
  // "computer" (you against the computer) or "people" (pass and play).
  mode: "computer",
  // Which seats people play (the others the computer), by seat.
  people: [true],
  // The seat whose view the page shows: the person holding the device.
  viewer: 0,
  // The seat the device is to be passed to: its hand stays hidden until
  // that person says they hold it.
  cover: null,
};
window.pipsPlayground = game;
