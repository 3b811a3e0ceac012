"use strict";
// The score sheet, the match's record and its notation.

// ---- the score sheet and the record ------------------------------------------
function renderSheet() {
  const rows = game.sheet;
  $("sheet-section").hidden = !game.record && !rows.length;
  const sheet = $("sheet");
  sheet.replaceChildren();
  const head = sheet.insertRow();
  // Five sides or more: initials ("NW"), the full name on hover, and each
  // round's gain above its total, so that the sheet fits its column.
  const many = sideCount() > 4;
  sheet.classList.toggle("many", many);
  const short = (label, you) => (you ? label : label.split(/[- ]/).map((w) => w.charAt(0).toLocaleUpperCase(i18n.lang)).join(""));
  const order = sideOrder(sideCount());
  const labels = [[tr(roundKey("sheet.hand", "sheet.round")), true], ...order.map((side) => [sideName(side), seatsOf(side).some(isYou)])];
  for (const [label, you] of labels) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = many ? short(label, you) : label;
    if (many) th.title = label;
    head.append(th);
  }
  rows.forEach((row, i) => {
    const line = sheet.insertRow();
    line.insertCell().textContent = row.inPlay ? tr("sheet.won_in_play", { n: row.hand }) : number(row.hand);
    const before = rows[i - 1]?.scores ?? [];
    order.forEach((side) => {
      const total = row.scores[side] ?? 0;
      const gain = total - (before[side] ?? 0);
      const cell = line.insertCell();
      const small = document.createElement("span");
      small.className = "gain";
      small.textContent = gain ? `${gain > 0 ? "+" : ""}${num(gain)}` : "";
      cell.append(small, num(total));
    });
  });
  $("download").disabled = !game.record && !(atTable() && game.over);
  $("download-notation").disabled = $("download").disabled;
  $("review").disabled = !game.over || Boolean(game.review?.running);
}
async function download() {
  if (atTable()) {
    try {
      game.record = await call("Record", { link: table.link });
    } catch (error) {
      showError(error);
      return;
    }
  }
  if (!game.record) return;
  saveFile(`pips-${game.record.state?.variant ?? "match"}-${game.record.state?.seed ?? ""}.json`,
    JSON.stringify(game.record, null, 1), "application/json");
}

// The match's record as `Replay` takes it, and its notation (empty when
// the server cannot write one: a match it would not deal again from its
// seed). At a table, the server's record of it; here, the page's own.
async function matchRecord() {
  if (atTable()) {
    const answer = await call("Record", { link: table.link });
    return { record: answer.record, notation: answer.notation ?? "" };
  }
  const replayed = await call("Replay", game.record);
  return { record: game.record, notation: replayed.notation ?? "" };
}

// Saves `text` as the file `name`.
function saveFile(name, text, type) {
  const blob = new Blob([text], { type });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function downloadNotation() {
  try {
    const { record, notation } = await matchRecord();
    if (!notation) {
      showError(new PlaygroundError(tr("record.no_notation")));
      return;
    }
    saveFile(`pips-${record.state?.variant ?? "match"}.txt`, notation, "text/plain");
  } catch (error) {
    showError(error, downloadNotation);
  }
}
