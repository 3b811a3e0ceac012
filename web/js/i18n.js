"use strict";
// The page's words in the player's language: one catalog per language
// (`/web/i18n/<code>.json`, one key per string), the language chosen by
// the player (remembered on this device) or else by the browser, and the
// platform's `Intl` for plurals, numbers, lists and units.
//
// A catalog's value is a string with `{name}` placeholders, or, for a
// string that depends on a number, an object with one string per plural
// category of the language (`one`, `few`, `many`, `other`, as
// `Intl.PluralRules` names them), chosen by the placeholder `count`.
// Elements of the page's markup name their key in `data-i18n` (their
// text) and `data-i18n-<attribute>` (an attribute's value).

const LANGUAGE_KEPT = "pips.language";
const i18n = {
  // The language shown, its catalog, and English's for a key a catalog
  // lacks (the check in CI keeps every catalog whole).
  lang: "en", catalog: {}, english: {},
  // The languages the server has catalogs for.
  codes: ["en"],
  // What is drawn again when the language changes.
  changed: [],
};

// The string of `key` with `vars` put in (numbers written the language's
// way); the key itself when no catalog has it, so that a missing string
// shows and never breaks the page.
function tr(key, vars = {}) {
  let entry = entryOf(key) ?? key;
  if (typeof entry === "object") {
    const count = Number(vars.count ?? 0);
    entry = entry[new Intl.PluralRules(i18n.lang).select(count)] ?? entry.other ?? "";
  }
  return entry.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = vars[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? number(value) : String(value);
  });
}

// A number as the language writes it: "1 250", "99,5", a minus sign.
function number(n, digits = 0) {
  const text = new Intl.NumberFormat(i18n.lang, { maximumFractionDigits: digits }).format(Math.abs(n));
  return n < 0 ? `−${text}` : text;
}

// "a, b and c" as the language joins them.
function listing(items) {
  return new Intl.ListFormat(i18n.lang, { style: "long", type: "conjunction" }).format(items.map(String));
}

// A length of time in the language's units: "45 sec", "2 min", "1 day"
// ("45 seconds" when `long`).
function durationText(seconds, long = false) {
  const [value, unit] = seconds >= 86400 && seconds % 86400 === 0 ? [seconds / 86400, "day"]
    : seconds >= 60 && seconds % 60 === 0 ? [seconds / 60, "minute"] : [seconds, "second"];
  return new Intl.NumberFormat(i18n.lang, { style: "unit", unit, unitDisplay: long || unit === "day" ? "long" : "short" }).format(value);
}

// A language's own name for itself ("suomi", "español").
function languageName(code) {
  try {
    const name = new Intl.DisplayNames([code], { type: "language" }).of(code) ?? code;
    return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
  } catch {
    return code;
  }
}

// The language to show: the one chosen here before, else the first of the
// browser's languages the page speaks (by its whole tag, then by its
// language alone: "sr-RS" is spoken as "sr-Latn"), else English.
function preferredLanguage() {
  let kept = null;
  try { kept = localStorage.getItem(LANGUAGE_KEPT); } catch { kept = null; }
  if (kept && i18n.codes.includes(kept)) return kept;
  for (const wanted of navigator.languages ?? [navigator.language]) {
    const tag = String(wanted ?? "");
    const exact = i18n.codes.find((code) => code.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const base = tag.split("-")[0].toLowerCase();
    const near = i18n.codes.find((code) => code.split("-")[0].toLowerCase() === base);
    if (near) return near;
  }
  return "en";
}

async function fetchCatalog(code) {
  const answer = await fetch(`/web/i18n/${code}.json`);
  if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
  return answer.json();
}

// Loads the languages the server speaks and the one to show. A catalog
// that cannot be loaded leaves the page in English.
async function startLanguages() {
  try {
    const answer = await fetch("/web/i18n/languages.json");
    if (answer.ok) i18n.codes = await answer.json();
  } catch { /* English only */ }
  try { i18n.english = await fetchCatalog("en"); } catch { i18n.english = {}; }
  await useLanguage(preferredLanguage(), false);
  const select = document.getElementById("language");
  select.replaceChildren(...i18n.codes.map((code) => {
    const option = new Option(languageName(code), code);
    option.lang = code;
    return option;
  }));
  select.value = i18n.lang;
  select.addEventListener("change", () => useLanguage(select.value, true));
}

// Shows the page in `code` (remembered on this device when the player
// chose it).
async function useLanguage(code, chosen) {
  let catalog = i18n.english;
  if (code !== "en") {
    try { catalog = await fetchCatalog(code); } catch { code = "en"; }
  }
  i18n.lang = code;
  i18n.catalog = catalog;
  if (chosen) {
    try { localStorage.setItem(LANGUAGE_KEPT, code); } catch { /* storage off */ }
  }
  document.documentElement.lang = code;
  translateMarkup(document);
  for (const redraw of i18n.changed) redraw();
}

// The markup's own words: `data-i18n` keys for text, `data-i18n-<name>`
// for an attribute.
function translateMarkup(root) {
  for (const el of root.querySelectorAll("*")) {
    for (const attribute of el.getAttributeNames()) {
      if (attribute === "data-i18n") el.textContent = tr(el.getAttribute(attribute));
      else if (attribute === "data-seconds") el.textContent = durationText(Number(el.getAttribute(attribute)), true);
      else if (attribute.startsWith("data-i18n-")) el.setAttribute(attribute.slice(10), tr(el.getAttribute(attribute)));
    }
  }
  document.title = tr("page.title");
}

// The string of `key` when a catalog has it (a key made from the
// server's data, such as a preset's id, may have none).
function known(key) {
  const entry = entryOf(key);
  return typeof entry === "string" ? entry : undefined;
}

// `key`'s entry in the page's catalog, else in English's.
const entryOf = (key) => i18n.catalog[key] ?? i18n.english[key];
