"use strict";
// Reviewing a match: the expert's verdict on every move.

// ---- reviewing a match -------------------------------------------------------
// The grades, in the contract's order: each one's name (its badge's class),
// its word and its word counted ("2 mistakes").
const GRADES = {
  MOVE_GRADE_BEST: ["best", "grade.best", "grade.count.best"],
  MOVE_GRADE_GOOD: ["good", "grade.good", "grade.count.good"],
  MOVE_GRADE_INACCURACY: ["inaccuracy", "grade.inaccuracy", "grade.count.inaccuracy"],
  MOVE_GRADE_MISTAKE: ["mistake", "grade.mistake", "grade.count.mistake"],
  MOVE_GRADE_BLUNDER: ["blunder", "grade.blunder", "grade.count.blunder"],
};
// A forced move (the only legal one) has no grade.
const FORCED = ["forced", "grade.forced", ""];
const percent = (x) => number(x, 1);

// Asks the server to review the match (every seat's decisions, streamed),
// and lists each decision as it comes.
async function review() {
  if (!game.over || game.review?.running) return;
  const generation = game.generation;
  clearError();
  game.review = { generation, record: null, steps: [], seats: [], complete: null, running: true, shown: null, end: null };
  render();
  try {
    const { record } = await matchRecord();
    if (generation !== game.generation) return;
    game.review.record = record;
    await stream("StreamReviewMatch", { record }, (step) => {
      if (generation !== game.generation || !game.review) return;
      if (step.move) game.review.steps.push(step.move);
      if (step.end) {
        game.review.seats = step.end.seats ?? [];
        game.review.complete = Boolean(step.end.complete);
      }
      renderReview();
    });
  } catch (error) {
    if (generation === game.generation) showError(error, review);
  }
  if (game.review && generation === game.generation) {
    game.review.running = false;
    render();
    gradeTheLog();
  }
}

// Writes each move's grade beside its line in What happened, when the log
// holds every move of the record in order (a log kept from the match's
// start; a page that joined a table later shows the grades in the review
// alone).
function gradeTheLog() {
  const steps = game.review?.steps ?? [];
  const tokens = [...document.querySelectorAll("#log li code.token")];
  if (tokens.length !== steps.length || tokens.some((code, i) => code.textContent !== steps[i].token)) return;
  tokens.forEach((code, i) => {
    const [, grade] = decisionText(steps[i]);
    code.after(" ", gradeBadge(grade));
  });
}

// Shows the table as it was at decision `at` of the review (from the
// deciding seat's view), the move played and the expert's best marked;
// `null`: back to the match's end.
async function showReviewAt(at) {
  const r = game.review;
  if (!r?.record) return;
  if (at === null || at < 0 || at >= r.steps.length) {
    if (r.end) Object.assign(game, r.end);
    r.end = null;
    r.shown = null;
    render();
    return;
  }
  const step = r.steps[at];
  const generation = game.generation;
  try {
    // (A table's record on a server with a state key holds a sealed
    // token instead of the state: the token goes back as it came.)
    const replayed = await call("Replay", { ...r.record, moves: (r.record.moves ?? []).slice(0, step.index ?? 0) });
    const source = replayed.state ? { state: replayed.state } : { stateToken: replayed.stateToken };
    const view = await call("View", { ...source, seat: step.seat ?? 0 });
    if (generation !== game.generation || game.review !== r) return;
    r.end ??= { view: game.view, lastPlaced: game.lastPlaced, lastTrick: game.lastTrick };
    game.view = view;
    game.lastPlaced = null;
    game.lastTrick = null;
    r.shown = { at, step };
    render();
  } catch (error) {
    showError(error, () => showReviewAt(at));
  }
}

// A grade in words, marked for its colour ("mistake").
function gradeBadge(grade) {
  const badge = document.createElement("span");
  badge.className = `grade grade-${grade[0]}`;
  badge.textContent = grade[1] ? tr(grade[1]) : "";
  return badge;
}

// A `tag` element saying `text`, the decision's notation tokens in it (the
// move played, the expert's best) set as code: they are the notation's,
// the same in every language.
function withTokens(tag, text, step) {
  const el = document.createElement(tag);
  const tokens = [step.token, step.bestToken].filter(Boolean);
  if (!tokens.length) {
    el.textContent = text;
    return el;
  }
  const escaped = tokens.map((token) => token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  for (const part of text.split(new RegExp(`(${escaped.join("|")})`))) {
    if (tokens.includes(part)) el.append(element("code", "token", part));
    else if (part) el.append(part);
  }
  return el;
}

// One decision in words: who, the move's token, its grade and loss, the
// best move when another.
function decisionText(step) {
  const seat = who(step.seat ?? 0);
  const what = tr("review.decision", { who: seat, token: step.token });
  if (step.forced) return [what, FORCED, ""];
  const grade = GRADES[step.grade] ?? ["", "", ""];
  const given = (step.bestPoints ?? 0) - (step.playedPoints ?? 0);
  const chance = percent(step.loss ?? 0);
  const loss = !step.loss ? ""
    : given >= 0.05 ? ` ${tr(marksScored(game.view?.rules) ? "review.loss.marks" : "review.loss.points", { chance, points: percent(given) })}`
    : ` ${tr("review.loss", { chance })}`;
  const best = step.loss && step.bestToken && step.bestToken !== step.token ? tr("review.best", { token: step.bestToken }) : "";
  return [what, grade, `${loss}${best}`];
}

function renderReview() {
  const r = game.review;
  const section = $("review-section");
  if (r && r.generation !== game.generation) game.review = null;
  section.hidden = !game.review;
  if (!game.review) return;
  const total = game.review.record?.moves?.length;
  $("review-status").textContent = r.running
    ? (total ? tr("review.running.of", { count: r.steps.length, total }) : tr("review.running", { count: r.steps.length }))
    : r.complete === false ? tr("review.out_of_time", { count: r.steps.length })
    : tr("review.done", { count: r.steps.length });
  const accuracy = $("review-accuracy");
  accuracy.replaceChildren();
  for (const seat of r.seats) {
    const li = document.createElement("li");
    const counts = Object.values(GRADES).map(([, , key], i) => [key, seat.grades?.[i] ?? 0]);
    const grades = counts.filter(([, n]) => n).map(([key, n]) => tr(key, { count: n })).join(", ");
    const vars = { who: who(seat.seat ?? 0), accuracy: percent(seat.accuracy ?? 0), grades };
    li.textContent = grades ? tr("review.accuracy.grades", vars) : tr("review.accuracy", vars);
    accuracy.append(li);
  }
  const list = $("review-moves");
  if (list.children.length > r.steps.length || list.dataset.lang !== i18n.lang) list.replaceChildren();
  list.dataset.lang = i18n.lang;
  r.steps.forEach((step, i) => {
    let li = list.children[i];
    if (!li) {
      li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      const [what, grade, more] = decisionText(step);
      button.append(withTokens("span", `${what} `, step), gradeBadge(grade), withTokens("span", more, step));
      button.addEventListener("click", () => showReviewAt(i));
      li.append(button);
      list.append(li);
    }
    li.classList.toggle("at", r.shown?.at === i);
  });
  const at = r.shown?.at ?? null;
  $("review-prev").disabled = !r.steps.length || at === 0;
  $("review-next").disabled = !r.steps.length || (at !== null && at >= r.steps.length - 1);
  $("review-leave").disabled = at === null;
  if (at === null) {
    $("review-at").replaceChildren();
  } else {
    const { step } = r.shown;
    const [what, grade, more] = decisionText(step);
    const said = tr(roundKey("review.at.hand", "review.at.round"), { n: (step.index ?? 0) + 1, hand: step.hand ?? 1, what, grade: tr(grade[1] || "grade.forced"), more });
    $("review-at").replaceChildren(...withTokens("span", said, step).childNodes);
  }
}

// The reviewed seat's hand at the decision shown: the tile played and the
// expert's best marked in words and by an outline.
function reviewHand(view, hand) {
  const { step } = game.review.shown;
  $("hand-title").textContent = capital(owned(step.seat ?? 0, "review.hand.yours", "review.hand", { n: (step.index ?? 0) + 1 }));
  const played = moveTile(step.played);
  const best = moveTile(step.best);
  for (const t of view.hand ?? []) {
    const [a, b] = pipsOf(t);
    const el = tileEl(a, b, true, true);
    el.disabled = true;
    const notes = [];
    if (played && tileText(played) === `${a}-${b}`) { el.classList.add("review-played"); notes.push(tr("review.played")); }
    if (best && tileText(best) === `${a}-${b}`) { el.classList.add("review-best"); notes.push(tr("review.expert_best")); }
    if (notes.length) el.setAttribute("aria-label", tr("hand.tile.plays", { tile: tileWords(a, b), moves: notes.join(", ") }));
    hand.append(el);
  }
}
