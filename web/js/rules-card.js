"use strict";
// The rules card: the game's section of the rule book.

// ---- the rules card ---------------------------------------------------------
// The rule book is the server's `/rules.md` (the project's docs/rules.md):
// the card shows the game's own section, then what every game shares.
let ruleBook = null;
// Shows the rules of `id`: the game being played (the options may already
// name the next one), or the one the options name.
async function showRules(id) {
  $("rules-title").textContent = tr("rules.title", { game: gameTitle(id) });
  const body = $("rules-body");
  if (!ruleBook) {
    try {
      const answer = await fetch("/rules.md");
      if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
      ruleBook = await answer.text();
    } catch {
      body.textContent = tr("rules.unavailable");
      $("rules-card").showModal();
      return;
    }
  }
  const book = [...markdown(section(ruleBook, id)), ...markdown(`### What every game shares\n\n${section(ruleBook, "What every game shares")}`)];
  if (i18n.lang === "en") {
    body.replaceChildren(...book);
  } else {
    // In another language: the game's short rules in it, then the rule
    // book (written in English), folded and marked as English.
    const about = document.createElement("p");
    about.textContent = gameAbout(id);
    const more = document.createElement("details");
    more.lang = "en";
    const summary = document.createElement("summary");
    summary.lang = i18n.lang;
    summary.textContent = tr("rules.full");
    more.append(summary, ...book);
    body.replaceChildren(about, more);
  }
  $("rules-card").showModal();
  $("rules-close").focus();
}
// The text under `## name`, up to the next section.
function section(book, name) {
  const lines = book.split("\n");
  const start = lines.indexOf(`## ${name}`);
  if (start < 0) return "";
  const end = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
}
// The little Markdown the rule book uses: paragraphs, "- " lists (with
// wrapped lines), ### headings, **bold**, *italic*, `code`.
function markdown(text) {
  const blocks = [];
  let list = null, para = null;
  const inline = (el, source) => {
    for (const part of source.split(/(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`)/)) {
      if (!part) continue;
      let node;
      if (part.startsWith("**")) { node = document.createElement("strong"); node.textContent = part.slice(2, -2); }
      else if (part.startsWith("*") && part.length > 2) { node = document.createElement("em"); node.textContent = part.slice(1, -1); }
      else if (part.startsWith("`")) { node = document.createElement("code"); node.textContent = part.slice(1, -1); }
      else node = document.createTextNode(part);
      el.append(node);
    }
  };
  let pending = null;
  const flush = () => {
    if (pending) { inline(pending.el, pending.text); pending = null; }
  };
  for (const line of text.split("\n")) {
    if (!line.trim()) { flush(); list = null; para = null; continue; }
    if (line.startsWith("### ")) {
      flush(); list = null; para = null;
      const h = document.createElement("h3");
      inline(h, line.slice(4));
      blocks.push(h);
    } else if (line.startsWith("- ")) {
      flush(); para = null;
      if (!list) { list = document.createElement("ul"); blocks.push(list); }
      const li = document.createElement("li");
      list.append(li);
      pending = { el: li, text: line.slice(2) };
    } else if (pending) {
      pending.text += ` ${line.trim()}`;
    } else {
      para = document.createElement("p");
      blocks.push(para);
      pending = { el: para, text: line.trim() };
    }
  }
  flush();
  return blocks;
}
