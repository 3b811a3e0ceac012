"use strict";
// Drawing a line table: the line laid out as on a real table.

// ---- the table ------------------------------------------------------------
// A place to tap on the table: the ghost of the tile `ghost.move` places,
// showing `first` then `second`, playing the move when pressed.
function ghostButton(ghost, first, second, vertical) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = `ghost-spot ${ghost.kind}`;
  el.dataset.tile = `${first}-${second}`;
  el.setAttribute("aria-label", capital(moveText(ghost.move, true)));
  el.addEventListener("click", () => play(ghost.move));
  const tile = tileEl(first, second, vertical);
  tile.classList.add("ghost", ghost.kind);
  tile.removeAttribute("role");
  tile.removeAttribute("aria-label");
  el.append(tile);
  return el;
}
// The line is laid out as on a real table, in units of a quarter tile (a
// half is 2×2 units): the lead in the middle, each arm running outward
// and, at the felt's edge, turning. Without a spinner an arm snakes (the
// right arm turns down and comes back, the left arm up), so that a whole
// hand fits the felt's width; with a spinner the side arms run on along
// the edge (down on the right, up on the left) and the spinner's arms
// straight up and down. A double lies crosswise, except where the line
// turns on it.
const STEP = { E: [1, 0], W: [-1, 0], S: [0, 1], N: [0, -1] };
const HORIZONTAL = (d) => d === "E" || d === "W";

// The rectangle a tile takes when its inner side is the point (x, y) and it
// runs in direction `d`; crosswise for a double.
function rectAt(x, y, d, cross) {
  const [dx, dy] = STEP[d];
  const long = cross ? 2 : 4, wide = cross ? 4 : 2;
  if (HORIZONTAL(d)) return { x: dx > 0 ? x : x - long, y: y - wide / 2, w: long, h: wide, d, cross };
  return { x: x - wide / 2, y: dy > 0 ? y : y - long, w: wide, h: long, d, cross };
}
// The point where the next tile goes after `r`, running on in `d`.
function endOf(r) {
  switch (r.d) {
    case "E": return [r.x + r.w, r.y + r.h / 2];
    case "W": return [r.x, r.y + r.h / 2];
    case "S": return [r.x + r.w / 2, r.y + r.h];
    default: return [r.x + r.w / 2, r.y];
  }
}
// The point on the side of `r`'s outer half that faces `d` (a turn).
function sideOf(r, d) {
  const [ox, oy] = endOf(r);
  const [bx, by] = STEP[r.d];
  // The outer half's centre: one unit back from the end.
  const cx = ox - bx, cy = oy - by;
  switch (d) {
    case "E": return [r.x + r.w, cy];
    case "W": return [r.x, cy];
    case "S": return [cx, r.y + r.h];
    default: return [cx, r.y];
  }
}
const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

// Lays out `cells` (outward, each { a: inner half, b: outer half }) from
// the point (x, y) in direction `d`, within `width` units and clear of the
// rectangles `taken` (to which it adds its own). At the edge the arm turns
// to `advance` with one tile; then, if it `snakes`, it runs back across,
// else it runs on in `advance`. Returns each cell with its rectangle.
function layArm(cells, x, y, d, width, taken, { advance, snakes }) {
  const placed = [];
  const fits = (r) => r.x >= 0 && r.x + r.w <= width && !taken.some((t) => overlaps(t, r));
  const back = { E: "W", W: "E", N: "S", S: "N" };
  let last = null, run = d, turned = false;
  for (const cell of cells) {
    const double = cell.a === cell.b;
    let r;
    if (!last) {
      r = rectAt(x, y, run, double);
    } else if (turned && snakes) {
      // Back across, from the side of the turning tile.
      run = back[run];
      r = rectAt(...sideOf(last, run), run, false);
      turned = false;
    } else {
      r = rectAt(...endOf(last), last.d, double && last.d === run);
      if (!fits(r) && HORIZONTAL(last.d) && advance !== last.d) {
        // The edge: one tile turns the line.
        r = rectAt(...sideOf(last, advance), advance, false);
        turned = true;
      }
    }
    taken.push(r);
    placed.push({ ...cell, r });
    last = r;
  }
  return placed;
}

// The line in words, for a screen reader: its tiles from the left end to
// the right end, then a spinner's arms, each tile as it lies.
function lineWords(layout) {
  if (!layout?.lead) return "";
  const said = (placed, outward) => (outward ? tileWords(placed.inner ?? 0, placed.outer ?? 0) : tileWords(placed.outer ?? 0, placed.inner ?? 0));
  const tiles = [...[...(layout.left ?? [])].reverse().map((p) => said(p, false)), tileWords(...pipsOf(layout.lead)),
    ...(layout.right ?? []).map((p) => said(p, true))];
  const parts = [tr("line.words", { tiles: tiles.join(", ") })];
  if ((layout.up ?? []).length) parts.push(tr("line.up", { tiles: layout.up.map((p) => said(p, true)).join(", ") }));
  if ((layout.down ?? []).length) parts.push(tr("line.down", { tiles: layout.down.map((p) => said(p, true)).join(", ") }));
  return parts.join(" ");
}

// Draws `layout`, with `ghosts` ({ move, kind }) as buttons where their
// tiles would go.
function drawLayout(layout, ghosts = []) {
  const box = $("layout");
  box.replaceChildren();
  const phone = $("table").clientWidth < 600;
  // The felt between the seats (on a desktop West and East sit beside it).
  const widthPx = Math.max(200, box.clientWidth - 8);
  // A half is 2 units; tiles as large as reads well, smaller on a phone.
  const unit = phone ? 10 : 16;
  const width = Math.floor(widthPx / unit);
  if (!layout?.lead) {
    const lead = ghosts.find((g) => !g.move.play.end || g.move.play.end === "END_UNSPECIFIED");
    box.style.height = "";
    box.classList.add("empty-table");
    box.style.setProperty("--half", `${unit * 2 - 4}px`);
    if (lead) {
      const [a, b] = pipsOf(lead.move.play.tile);
      const el = ghostButton(lead, a, b, a === b);
      const w = (a === b ? 2 : 4) * unit - 2, h = (a === b ? 4 : 2) * unit - 2;
      el.style.setProperty("--w", `${w}px`);
      el.style.setProperty("--h", `${h}px`);
      el.style.width = `${Math.max(44, w)}px`;
      el.style.height = `${Math.max(44, h)}px`;
      box.append(el);
    } else {
      const p = document.createElement("p");
      p.className = "empty";
      p.textContent = viewerActs() ? tr("table.empty.you_lead") : tr("table.empty");
      box.append(p);
    }
    return;
  }
  box.classList.remove("empty-table");
  const ghostAt = (end) => ghosts.find((g) => g.move.play.end === end);
  const endPips = (end) => (layout.openEnds ?? []).find((e) => e.end === end)?.pips ?? 0;
  // Each arm outward, its ghost last.
  const arm = (name, end) => {
    const cells = (layout[name] ?? []).map((p, i) => ({ a: p.inner ?? 0, b: p.outer ?? 0, arm: end, index: i }));
    const g = ghostAt(end);
    if (g) { const [inner, outer] = touching(g.move.play.tile, endPips(end)); cells.push({ a: inner, b: outer, ghost: g }); }
    return cells;
  };
  const spinner = layout.spinner;
  const spun = Boolean(spinner) || (layout.up ?? []).length > 0 || (layout.down ?? []).length > 0;
  const [la, lb] = pipsOf(layout.lead);
  const leadCross = la === lb;
  const taken = [];
  const lead = rectAt(Math.floor(width / 2) - (leadCross ? 1 : 2), 0, "E", leadCross);
  taken.push(lead);
  const cells = [{ a: la, b: lb, arm: "END_UNSPECIFIED", index: 0, r: lead }];
  const [rx, ry] = endOf(lead);
  cells.push(...layArm(arm("right", "END_RIGHT"), rx, ry, "E", width, taken, { advance: "S", snakes: !spun }));
  cells.push(...layArm(arm("left", "END_LEFT"), lead.x, ry, "W", width, taken, { advance: "N", snakes: !spun }));
  if (spun) {
    const at = cells.find((c) => !c.ghost && c.arm === (spinner?.arm ?? "END_UNSPECIFIED") && c.index === (spinner?.index ?? 0)) ?? cells[0];
    at.spinner = true;
    const across = HORIZONTAL(at.r.d);
    // Its arms start from its middle, on its long sides.
    const mx = at.r.x + at.r.w / 2, my = at.r.y + at.r.h / 2;
    const [ux, uy] = across ? [mx, at.r.y] : [at.r.x, my];
    const [dx, dy] = across ? [mx, at.r.y + at.r.h] : [at.r.x + at.r.w, my];
    // The spinner's arms run on straight: inner half nearest the spinner.
    cells.push(...layArm(arm("up", "END_UP"), ux, uy, across ? "N" : "W", width, taken, { advance: "N", snakes: false }));
    cells.push(...layArm(arm("down", "END_DOWN"), dx, dy, across ? "S" : "E", width, taken, { advance: "S", snakes: false }));
  }
  const top = Math.min(...cells.map((c) => c.r.y)), bottom = Math.max(...cells.map((c) => c.r.y + c.r.h));
  const left = Math.min(...cells.map((c) => c.r.x)), right = Math.max(...cells.map((c) => c.r.x + c.r.w));
  // Centred in the felt; a line that still outgrows it (a spinner's arm
  // turned sideways) is drawn smaller rather than scrolled.
  const shift = Math.max(0, Math.floor((width - (right - left)) / 2)) - left;
  const u = Math.min(unit, widthPx / Math.max(1, right - left));
  // (Room above and below for the places to tap, which may be taller
  // than a tile.)
  box.style.height = `${(bottom - top) * u + 28}px`;
  box.style.setProperty("--half", `${Math.max(8, u * 2 - 4)}px`);
  for (const c of cells) {
    const { r } = c;
    const vertical = !HORIZONTAL(r.d) !== Boolean(r.cross);
    // The halves in reading order: inner first going E or S, outer first
    // going W or N.
    const [first, second] = r.d === "E" || r.d === "S" ? [c.a, c.b] : [c.b, c.a];
    const w = r.w * u - 2, h = r.h * u - 2;
    let x = (r.x + shift) * u, y = (r.y - top) * u + 14;
    let el;
    if (c.ghost) {
      // The place to tap is at least 44 px each way, centred on the tile,
      // and stays inside the felt.
      el = ghostButton(c.ghost, first, second, vertical);
      el.style.setProperty("--w", `${w}px`);
      el.style.setProperty("--h", `${h}px`);
      const spotW = Math.max(44, w), spotH = Math.max(44, h);
      x = Math.min(Math.max(0, x - (spotW - w) / 2), widthPx - spotW);
      y -= (spotH - h) / 2;
      el.style.width = `${spotW}px`;
      el.style.height = `${spotH}px`;
    } else {
      el = tileEl(first, second, vertical);
      el.style.width = `${w}px`;
      el.style.height = `${h}px`;
      el.classList.add("placed");
      if (c.spinner) el.classList.add("spinner");
      if (game.lastPlaced && c.arm === game.lastPlaced.arm && c.index === game.lastPlaced.index) el.classList.add("last");
    }
    el.style.position = "absolute";
    el.style.left = `${x}px`;
    el.style.top = `${y}px`;
    box.append(el);
  }
}

// Where the last tile went, from a TilePlayed event and the layout after it.
function lastPlaced(event, layout) {
  const end = event?.end;
  // At a table with a hub: the train or arm it went on (a new arm's tile
  // says which arm it started).
  if (event?.train) return { train: event.train };
  if (event?.arm) return { footArm: event.startedArm ?? event.arm.arm ?? 0 };
  if (!event || !layout?.lead) return null;
  if (!end || end === "END_UNSPECIFIED") return { arm: "END_UNSPECIFIED", index: 0 };
  const arm = { END_LEFT: "left", END_RIGHT: "right", END_UP: "up", END_DOWN: "down" }[end];
  return { arm: end, index: (layout[arm] ?? []).length - 1 };
}
