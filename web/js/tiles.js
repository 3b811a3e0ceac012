"use strict";
// A tile drawn with its pips.

// ---- tiles ----------------------------------------------------------------
const PIPS = {
  0: [], 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9],
  6: [1, 3, 4, 6, 7, 9], 7: [1, 3, 4, 5, 6, 7, 9], 8: [1, 2, 3, 4, 6, 7, 8, 9], 9: [1, 2, 3, 4, 5, 6, 7, 8, 9],
};
function half(n) {
  const el = document.createElement("span");
  el.className = "half";
  if (PIPS[n]) {
    for (const cell of PIPS[n]) {
      const pip = document.createElement("span");
      pip.className = "pip";
      pip.style.gridArea = `${Math.ceil(cell / 3)} / ${((cell - 1) % 3) + 1}`;
      el.append(pip);
    }
  } else {
    const label = document.createElement("span");
    label.className = "num";
    label.textContent = `${n}`;
    el.append(label);
  }
  return el;
}
// A half's number in words ("blank", "six"); past twelve, its digits.
const PIP_WORDS = ["pip.0", "pip.1", "pip.2", "pip.3", "pip.4", "pip.5", "pip.6", "pip.7", "pip.8", "pip.9", "pip.10", "pip.11", "pip.12"];
const pipWord = (n) => (PIP_WORDS[n] ? tr(PIP_WORDS[n]) : number(n));
// A tile in words, as a screen reader says it: "six–four", "double five".
const tileWords = (a, b) => (a === b ? tr("tile.double", { a: pipWord(a) }) : tr("tile.words", { a: pipWord(a), b: pipWord(b) }));
// A tile's words from its message.
const tileSaid = (tile) => tileWords(...pipsOf(tile));

// A tile showing `first` then `second` (left→right, or top→bottom); a
// button when it can be pressed.
function tileEl(first, second, vertical, asButton = false) {
  const el = document.createElement(asButton ? "button" : "span");
  if (asButton) el.type = "button";
  el.className = `tile ${vertical ? "v" : "h"}`;
  el.dataset.tile = `${first}-${second}`;
  // Said in words ("six–four"), written as digits when pointed at.
  el.title = `${first}-${second}`;
  el.setAttribute("aria-label", tileWords(first, second));
  if (!asButton) el.setAttribute("role", "img");
  el.append(half(first), half(second));
  return el;
}
// The halves of `tile` as it would lie against an open end of `pips`: the
// half that touches the end first.
function touching(tile, pips) {
  const [a, b] = pipsOf(tile);
  if (b === pips || (a !== pips && b + pips === 7)) return [b, a];
  return [a, b];
}
