"use strict";
// Drawing a table with a hub: trains, a chicken foot.

// ---- a table with a hub ---------------------------------------------------
// The hub at the top of the felt, then one row per train (a chicken foot:
// per arm, toes under their foot), each row's tiles outward from the hub
// and wrapping inside the felt; a place to tap at the end of each row the
// chosen tile fits. See docs/design/playground-hub.md.
function drawHub(view, ghosts = []) {
  const box = $("layout");
  box.replaceChildren();
  box.classList.remove("empty-table");
  box.classList.add("hub-table");
  box.style.height = "";
  const trains = view.trains, foot = view.foot;
  const hub = (trains ?? foot)?.hub;
  const head = document.createElement("div");
  head.className = "hub";
  const [h] = pipsOf(hub);
  head.append(element("span", "hub-label", tr("hub.label")));
  const hubTile = tileEl(h, h, true);
  // The hub itself waits for arms at a chicken foot's start.
  if (foot?.waiting?.hub) hubTile.classList.add("unsatisfied");
  head.append(hubTile);
  const waiting = hubWaiting(view);
  if (waiting) head.append(element("p", "waiting", waiting));
  box.append(head);
  const row = (label, placed, ghost, opts = {}) => {
    const el = document.createElement("div");
    el.className = `row${opts.className ? ` ${opts.className}` : ""}`;
    el.append(element("span", "row-label", label));
    const line = document.createElement("span");
    line.className = "row-tiles";
    placed.forEach((p, i) => {
      const a = p.inner ?? 0, b = p.outer ?? 0;
      const t = tileEl(a, b, a === b);
      t.classList.add("placed");
      if (opts.marked === i) t.classList.add("unsatisfied");
      if (opts.last && i === placed.length - 1) t.classList.add("last");
      line.append(t);
    });
    for (const g of ghost) {
      const [inner, outer] = touching(g.move.play.tile, opts.open ?? 0);
      line.append(ghostButton(g, inner, outer, inner === outer));
    }
    el.append(line);
    return el;
  };
  if (trains) {
    for (const t of trains.trains ?? []) {
      const tiles = t.tiles ?? [];
      const mexican = Boolean(t.train?.mexican);
      const own = capital(owned(t.train?.seat ?? 0, "train.yours", "train.of"));
      const label = mexican ? tr("train.row.mexican") : t.marker ? tr("train.row.open", { train: own }) : own;
      const unsatisfied = trains.unsatisfied && sameTrain(trains.unsatisfied, t.train);
      box.append(row(label, tiles, ghosts.filter((g) => sameTrain(g.move.play.train, t.train)), {
        className: [mexican ? "mexican" : "", t.marker ? "marker" : ""].filter(Boolean).join(" "),
        marked: unsatisfied ? tiles.length - 1 : -1,
        last: Boolean(game.lastPlaced?.train) && sameTrain(game.lastPlaced.train, t.train),
        open: t.openEnd ?? 0,
      }));
    }
  } else if (foot) {
    const waiting = foot.waiting;
    const arms = foot.arms ?? [];
    const last = game.lastPlaced?.footArm;
    // Each arm, then the toes growing from its foot, so that the tree reads
    // top to bottom (arms keep the numbers the moves and the log use).
    const draw = (i, depth = 0) => {
      const arm = arms[i];
      const toe = arm.toeOf !== undefined;
      const label = toe ? tr("foot.toe", { arm: i + 1, of: arm.toeOf + 1 }) : tr("foot.arm", { arm: i + 1 });
      const waits = waiting && !waiting.hub && (waiting.toesOf ?? 0) === i;
      const line = row(label, arm.tiles ?? [], ghosts.filter((g) => !g.move.play.arm?.newArm && (g.move.play.arm?.arm ?? 0) === i), {
        className: toe ? "toe" : "",
        marked: waits ? (arm.tiles ?? []).length - 1 : -1,
        last: last === i,
        open: arm.openEnd ?? 0,
      });
      // A toe's toes sit deeper than it.
      line.style.setProperty("--depth", String(depth));
      box.append(line);
      arms.forEach((other, j) => { if (other.toeOf === i) draw(j, depth + 1); });
    };
    arms.forEach((arm, i) => { if (arm.toeOf === undefined) draw(i); });
    const fresh = ghosts.filter((g) => g.move.play.arm?.newArm);
    if (fresh.length) box.append(row(tr("foot.new_arm"), [], fresh, { className: "new-arm", open: foot.waiting?.number ?? 0 }));
  }
}

// What the table waits for, in words, with who must answer it (the seat
// to act): the double that must be satisfied, the toes a chicken foot
// still takes, the hub's arms still to come.
function hubWaiting(view) {
  const trains = view.trains, foot = view.foot;
  const answer = view.toAct === undefined || game.over ? ""
    : tr("hub.answer", { who: lowerWho(view.toAct) });
  if (trains?.unsatisfied) {
    const train = (trains.trains ?? []).find((t) => sameTrain(t.train, trains.unsatisfied));
    const d = train?.tiles?.at(-1)?.outer ?? 0;
    return tr("hub.double", { double: `${d}-${d}`, train: trainName(trains.unsatisfied), n: d, answer });
  }
  if (foot?.waiting) {
    const w = foot.waiting;
    const more = w.missing ?? 0, number = w.number ?? 0;
    return w.hub
      ? tr("foot.hub_waits", { count: more, n: number, answer })
      : tr("foot.toes_wait", { count: more, arm: (w.toesOf ?? 0) + 1, n: number, answer });
  }
  return "";
}
// Whether two TrainIds name the same train.
const sameTrain = (a, b) => (a?.mexican ? Boolean(b?.mexican) : !b?.mexican && (a?.seat ?? 0) === (b?.seat ?? 0));
