"use strict";
// The page's controls wired up, and the start.

$("variant").addEventListener("change", () => { fillPlayers(); nameQuickStart(); });
$("players").addEventListener("change", () => { fillTeams(); fillPeople(); });
$("teams").addEventListener("change", () => fillPeople());
$("timer").addEventListener("change", showChoices);
$("mode").addEventListener("change", () => fillPeople());
$("uncover").addEventListener("click", () => {
  game.cover = null;
  save();
  render();
});
$("options").addEventListener("submit", (event) => { event.preventDefault(); newGame(); });
$("quick-start").addEventListener("click", () => {
  $("mode").value = "computer";
  fillTeams();
  fillPeople();
  $("level").value = "BOT_LEVEL_GREEDY";
  newGame();
});
$("again").addEventListener("click", () => (atTable() ? rematch() : newGame()));
$("next-hand").addEventListener("click", nextHand);
$("take-back").addEventListener("click", takeBack);
$("invite-summary").addEventListener("click", () => { table.inviteFolded = true; });
$("rules-button").addEventListener("click", () => showRules(game.view?.variant ?? game.state?.variant ?? $("variant").value));
$("form-rules").addEventListener("click", () => showRules($("variant").value));
$("rules-close").addEventListener("click", () => $("rules-card").close());
$("download").addEventListener("click", download);
$("download-notation").addEventListener("click", downloadNotation);
$("review").addEventListener("click", review);
$("review-prev").addEventListener("click", () => showReviewAt((game.review?.shown?.at ?? game.review?.steps.length ?? 0) - 1));
$("review-next").addEventListener("click", () => showReviewAt((game.review?.shown?.at ?? -1) + 1));
$("review-leave").addEventListener("click", () => showReviewAt(null));
$("dev-full").addEventListener("click", () => {
  game.devFull = !game.devFull;
  $("dev-full").setAttribute("aria-pressed", String(game.devFull));
  $("dev-full").textContent = game.devFull ? tr("state.show_view") : tr("state.show_full");
  render();
});
$("hint").addEventListener("click", hint);
$("setup-toggle").addEventListener("click", () => {
  const open = document.body.classList.toggle("options-open");
  $("setup-toggle").setAttribute("aria-expanded", String(open));
});
$("choose-cancel").addEventListener("click", () => { game.choosing = null; render(); });
$("retry").addEventListener("click", () => retry?.());
document.addEventListener("keydown", (event) => {
  if (event.key === "Tab" || event.key === "Enter") game.keyboard = true;
  if (event.key === "Escape" && game.choosing) { game.choosing = null; render(); }
});
document.addEventListener("pointerdown", () => { game.keyboard = false; });
window.addEventListener("resize", () => { if (game.view) render(); });
// Another language chosen: everything the page says, said again in it.
i18n.changed.push(() => {
  for (const option of $("variant").options) {
    option.text = gameTitle(option.value);
    option.title = gameAbout(option.value);
  }
  nameQuickStart();
  if ($("people").querySelector("select")) fillPeople();
  if (document.body.classList.contains("playing")) describeSetup();
  $("dev-full").textContent = game.devFull ? tr("state.show_view") : tr("state.show_full");
  redrawLog();
  if (game.view) render();
});
start();
