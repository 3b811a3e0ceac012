#!/usr/bin/env node
// The playground's language catalogs (web/i18n/<code>.json), checked:
// - every catalog has exactly English's keys, each with English's
//   placeholders and no others (a language's grammar may leave out
//   `{count}`, saying the number in words, and one of `{who}` and `{of}`,
//   a seat's name and its possessive);
// - a string that depends on a number has one form per plural category
//   the language has (as the platform's `Intl.PluralRules` names them),
//   and no other;
// - every key is used: named in the page's code (web/js/*.js) or markup
//   (web/playground.html), or one of the families made from the server's
//   data: `game.<preset>` and `game.<preset>.about` for every preset (all
//   of them, so that every game has a name in every language) and
//   `reason.<ErrorReason>` for reasons the contract has;
// - every key the code names is in the catalogs.
// Run from the repository's root: `node scripts/i18n-check.mjs`.
import { readFileSync, readdirSync } from "node:fs";

const problems = [];
const fail = (message) => problems.push(message);

const catalogs = Object.fromEntries(readdirSync("web/i18n")
  .filter((name) => name.endsWith(".json"))
  .map((name) => [name.slice(0, -5), JSON.parse(readFileSync(`web/i18n/${name}`, "utf8"))]));
const english = catalogs.en;
if (!english) throw new Error("web/i18n/en.json is missing");

const placeholders = (entry) => new Set((typeof entry === "string" ? [entry] : Object.values(entry))
  .flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])));
// The placeholders a translation may leave out.
const OPTIONAL = new Set(["count", "of", "who"]);

for (const [code, catalog] of Object.entries(catalogs)) {
  let categories;
  try {
    categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
  } catch {
    fail(`${code}: not a language tag the platform knows`);
    continue;
  }
  for (const key of Object.keys(english)) {
    if (!(key in catalog)) fail(`${code}: missing ${key}`);
  }
  for (const [key, entry] of Object.entries(catalog)) {
    if (!(key in english)) {
      fail(`${code}: ${key} is not in en.json`);
      continue;
    }
    const isString = typeof entry === "string";
    if (!isString && (typeof entry !== "object" || entry === null || Object.values(entry).some((v) => typeof v !== "string"))) {
      fail(`${code}: ${key} is neither a string nor plural forms`);
      continue;
    }
    if (typeof english[key] === "object" && isString) fail(`${code}: ${key} needs plural forms (${categories.join(", ")})`);
    if (!isString) {
      const forms = Object.keys(entry);
      const lacking = categories.filter((c) => !forms.includes(c));
      const extra = forms.filter((f) => !categories.includes(f));
      if (lacking.length) fail(`${code}: ${key} lacks the plural forms ${lacking.join(", ")}`);
      if (extra.length) fail(`${code}: ${key} has plural forms the language has not: ${extra.join(", ")}`);
    }
    // A translation says what English says: the same placeholders, but
    // for those a language's grammar may leave out (the number in words,
    // a seat named once rather than also in its possessive form).
    const wanted = placeholders(english[key]);
    const found = placeholders(entry);
    // (Wherever the code gives a seat's possessive, `{of}`, it gives its
    // name too: a language may say "6 (West)" for "West's 6".)
    const unknown = [...found].filter((name) => !wanted.has(name) && !(name === "who" && wanted.has("of")));
    const lost = [...wanted].filter((name) => !found.has(name) && !(code !== "en" && OPTIONAL.has(name)));
    if (unknown.length || lost.length) {
      fail(`${code}: ${key} has the placeholders {${[...found].join("}, {")}}, English {${[...wanted].join("}, {")}}`);
    }
  }
}

// The keys the page names: string literals shaped as keys in its code, and
// its markup's data-i18n attributes.
const code = readdirSync("web/js").filter((name) => name.endsWith(".js"))
  .map((name) => readFileSync(`web/js/${name}`, "utf8")).join("\n");
const markup = readFileSync("web/playground.html", "utf8");
const named = new Set([
  ...[...code.matchAll(/"([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)"/g)].map((m) => m[1]),
  ...[...markup.matchAll(/data-i18n(?:-[a-z-]+)?="([^"]+)"/g)].map((m) => m[1]),
]);
// The code's calls of `tr` with a literal key: each must be a key.
for (const [, key] of code.matchAll(/\btr\("([^"]+)"/g)) {
  if (!(key in english)) fail(`the code names ${key}, which en.json lacks`);
}
for (const [, key] of markup.matchAll(/data-i18n(?:-[a-z-]+)?="([^"]+)"/g)) {
  if (!(key in english)) fail(`the markup names ${key}, which en.json lacks`);
}

// The families: every preset (docs/rules.md has a section per preset id,
// the same ids the server lists), and the contract's error reasons.
const presets = [...readFileSync("src/rules/presets.rs", "utf8").matchAll(/^\s+id: "([a-z0-9_]+)",$/gm)].map((m) => m[1]);
if (presets.length < 19) fail(`found only ${presets.length} presets in src/rules/presets.rs`);
const reasons = new Set([...readFileSync("proto/pips/v1/engine.proto", "utf8").matchAll(/^\s+(ERROR_REASON_[A-Z_]+) = \d+;/gm)].map((m) => m[1]));
for (const id of presets) {
  for (const key of [`game.${id}`, `game.${id}.about`]) {
    if (!(key in english)) fail(`en.json lacks ${key}: every game is named in every language`);
    named.add(key);
  }
}
for (const key of Object.keys(english)) {
  if (key.startsWith("reason.")) {
    if (reasons.has(key.slice(7))) named.add(key);
    else fail(`${key} names no ErrorReason of the contract`);
  }
  if (!named.has(key)) fail(`${key} is used nowhere in the page`);
}

if (problems.length) {
  console.error(problems.join("\n"));
  console.error(`${problems.length} problem(s) in the playground's catalogs`);
  process.exit(1);
}
console.log(`catalogs: ${Object.keys(catalogs).sort().join(", ")}; ${Object.keys(english).length} keys each, all used`);
