//! The playground in a real browser: headless Chromium, driven over
//! chromedriver (WebDriver), at a desktop's width (1280 px) and at a phone's
//! (390 px, with touch), plays whole matches of muggins 2p, all_fives 2p
//! (spinner), block 4p and dominican 4p (whose bonuses must be called out)
//! against the computer, the way a person would: it
//! taps highlighted tiles, picks an end when a tile fits two, draws and
//! passes with the buttons, asks for a hint and plays it from the table,
//! presses *Next hand* and reads the banners. It checks that nothing
//! overflows the viewport, that touch targets are at least 44 px on the
//! phone, that each hand's banner names the winner the server reported and
//! turns every seat's tiles face up, that the hint is a legal move, that the
//! final scores are the server's, and that a server that has gone away is
//! reported in words. Screenshots of the start, mid-hand, the end of a hand
//! and the end of the match at both widths go to `target/screenshots/`.
//!
//! At the tables with a hub it plays a two-round `mexican_train` match
//! at four seats and a one-round `chicken_foot` at eight, by clicking:
//! the hub and a row per train (the Mexican one apart) are drawn, eight
//! seats are named, what must be answered is said and lit, a tile that
//! fits several trains or arms has a mark on the table for each, every
//! seat's pips and running total at a round's end are the server's (the
//! page's record replayed), and the match ends on the ranking; nothing
//! overflows and touch targets are 44 px. Screenshots mid-round, of what
//! waits, of a choice, at a round's end and the match's end.
//!
//! At the trick games it plays a whole `texas42` match (with nello,
//! plunge, splash and sevens on) and a whole `moon` match, by clicking
//! bids, contracts, the widow's discard and tiles: the auction is drawn
//! call by call with the standing bid lit and a button for each bid the
//! server allows, the contract chooser offers exactly the server's
//! contracts (nello and sevens among them), exactly the tiles that may be
//! played are lit (those that follow suit), the trick shows each tile by
//! its player with the led suit and what wins, each hand's end says made
//! or set and why with the tricks and points the server counted, and the
//! marks (a tally) are the server's; a Texas 42 hand is played with the
//! partner at the same device and a whole match with the partner by link.
//! Screenshots of the auction, the contract chooser, a trick, a set hand
//! and the match's end at both widths.
//!
//! In each language the page speaks but English it plays a one-hand
//! `draw` match, chosen with the switcher and remembered across a reload,
//! and finds no English word left on the page (outside proper names and
//! what is marked English) at the start, mid-hand, at the match's end and
//! in the rules card; screenshots at both widths.
//!
//! Ignored by default, as it needs Debian's `chromium` and
//! `chromium-driver`; `.ci/run` installs them and runs it with
//! `cargo test --test browser -- --ignored`. Run without them, it fails.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

mod server;
use server::{Binary, TestServer, post_json};

/// How long one match may take before the test gives up (a guard against
/// hanging, not a speed requirement).
const PATIENCE: Duration = Duration::from_secs(300);

/// The first of `candidates` that exists, or of the `PATH` lookups.
fn find_program(env: &str, candidates: &[&str]) -> PathBuf {
    if let Some(path) = std::env::var_os(env) {
        return PathBuf::from(path);
    }
    for candidate in candidates {
        if Path::new(candidate).is_file() {
            return PathBuf::from(candidate);
        }
        let found = std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(candidate))
                .find(|path| path.is_file())
        });
        if let Some(found) = found {
            return found;
        }
    }
    panic!(
        "{} not found: install Debian's chromium and chromium-driver packages \
         (or set {env})",
        candidates.join(" / ")
    );
}

/// A child process killed when dropped, so a failing test leaves no
/// chromedriver behind.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts chromedriver on a free port; the port and the process.
async fn start_chromedriver() -> (u16, KillOnDrop) {
    let driver = find_program("CHROMEDRIVER", &["/usr/bin/chromedriver", "chromedriver"]);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = Command::new(&driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map(KillOnDrop)
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", driver.display()));
    let started = Instant::now();
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "chromedriver did not start listening"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (port, child)
}

/// A headless Chromium session. The flags keep Chromium from reaching out
/// to the network (this test needs loopback only) and from needing a
/// sandbox or GPU, which containers lack.
async fn open_browser(port: u16, profile: &Path, width: &Width) -> Client {
    open_browser_in(port, profile, width, "en-US").await
}

/// A headless Chromium session whose user speaks `language` (the
/// browser's languages, as a page reads them from `navigator.languages`).
async fn open_browser_in(port: u16, profile: &Path, width: &Width, language: &str) -> Client {
    let chromium = find_program("CHROMIUM", &["/usr/bin/chromium", "chromium"]);
    let mut options = json!({
        "binary": chromium,
        "args": [
            "--headless=new", "--no-sandbox", "--disable-gpu",
            "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update",
            "--disable-sync", format!("--window-size={},{}", width.width, width.height),
            format!("--user-data-dir={}", profile.display()),
            format!("--lang={language}"),
        ],
        "prefs": { "intl.accept_languages": language },
    });
    if width.phone {
        // A phone's viewport: its width in CSS pixels, a dense screen and
        // touch events.
        options["mobileEmulation"] = json!({
            "deviceMetrics": { "width": width.width, "height": width.height, "pixelRatio": 2, "touch": true },
        });
    }
    let capabilities = json!({ "browserName": "chrome", "goog:chromeOptions": options });
    let Value::Object(capabilities) = capabilities else {
        unreachable!("an object literal")
    };
    ClientBuilder::new(HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a Chromium session")
}

/// Opens the playground at `url` and waits until it has loaded the
/// variants (and resumed a kept game, if the address is its setup's).
async fn open_page(browser: &Client, url: &str) {
    browser.goto(url).await.expect("open the playground");
    browser
        .wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .expect("the page loads the variants");
}

/// Whether the page has an element matching `css`.
async fn has(browser: &Client, css: &str) -> bool {
    browser
        .find_all(Locator::Css(css))
        .await
        .map(|found| !found.is_empty())
        .unwrap_or(false)
}

/// A screen the playground is tried on.
struct Width {
    /// Names the screenshots.
    name: &'static str,
    /// The viewport, in CSS pixels.
    width: u32,
    height: u32,
    /// A phone: mobile emulation with touch, and the 44 px check.
    phone: bool,
}

const DESKTOP: Width = Width {
    name: "desktop",
    width: 1280,
    height: 800,
    phone: false,
};
const PHONE: Width = Width {
    name: "phone",
    width: 390,
    height: 844,
    phone: true,
};

/// A match the test plays: preset, seats, seed.
struct Table {
    variant: &'static str,
    players: u32,
    seed: u64,
}

const TABLES: [Table; 4] = [
    Table {
        variant: "muggins",
        players: 2,
        seed: 20261201,
    },
    Table {
        variant: "all_fives",
        players: 2,
        seed: 7,
    },
    Table {
        variant: "block",
        players: 4,
        seed: 11,
    },
    Table {
        variant: "dominican",
        players: 4,
        seed: 5,
    },
];

/// The names the page should give each side: seat 0 is "You"; two seats
/// face each other (North), four sit West, North, East; partners are named
/// together.
fn side_names(players: u32, partnerships: bool) -> Vec<&'static str> {
    match (players, partnerships) {
        (2, _) => vec!["You", "North"],
        (4, true) => vec!["You & your partner", "West & East"],
        (4, false) => vec!["You", "West", "North", "East"],
        _ => panic!("no names for {players} seats"),
    }
}

/// What the page shows, read in one round trip.
const PROBE: &str = r#"
const g = window.pipsPlayground;
const shown = (sel) => { const el = document.querySelector(sel); return !!el && !el.closest('[hidden]') && el.getClientRects().length > 0; };
return {
  error: shown('#error') ? document.querySelector('#error-text').textContent : null,
  nextHand: shown('#next-hand'),
  again: shown('#again'),
  playable: document.querySelectorAll('#hand button.playable').length,
  choosing: shown('#choose-end'),
  other: document.querySelectorAll('#other-moves button').length,
  busy: g.busy,
  toAct: g.toAct ?? null,
  hand: g.view ? g.view.handNumber : 0,
  onTable: document.querySelectorAll('#layout .tile:not(.ghost)').length,
  cover: shown('#cover'),
  coverTitle: document.querySelector('#cover-title').textContent,
  handTiles: shown('#hand') ? document.querySelectorAll('#hand .tile').length : 0,
  panel: document.querySelector('#state-json').value,
  viewer: g.viewer,
  overflow: document.documentElement.scrollWidth - window.innerWidth,
  turnLine: shown('#turn') ? document.querySelector('#turn').textContent : null,
  inView: (() => {
    const within = (el) => {
      if (!el) return false;
      const r = el.getBoundingClientRect();
      return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
    };
    return {
      turn: within(document.querySelector('#turn')),
      move: within(document.querySelector('#hand button.playable, #other-moves button')),
    };
  })(),
  scoreOrder: [...document.querySelectorAll('#scores li')].map((li) => Number(li.dataset.side)),
  quickStart: [document.querySelector('#variant').value, document.querySelector('#variant').selectedOptions[0]?.textContent ?? '', document.querySelector('#quick-start').textContent],
};
"#;

/// When it is the player's turn, the turn line and a move to make are on
/// screen without scrolling, however long the table has grown: the hand
/// docks at the foot of the screen.
fn assert_turn_in_view(page: &Value, width: &Width, variant: &str) {
    if page["choosing"] == true || (page["playable"] == 0 && page["other"] == 0) {
        return;
    }
    let line = page["turnLine"].as_str().unwrap_or_default();
    assert!(
        line.starts_with("Your turn"),
        "{} {variant}: the turn line says so: {line:?}",
        width.name
    );
    assert_eq!(
        page["inView"],
        json!({ "turn": true, "move": true }),
        "{} {variant}: the turn line and a move to make are on screen",
        width.name
    );
}

/// The start page's button names the game the form (from the address)
/// names, and the scoreboard lists the player's side first, then the
/// others clockwise.
fn assert_named_and_ordered(page: &Value, variant: &str) {
    let [chosen, title, button] =
        [0, 1, 2].map(|i| page["quickStart"][i].as_str().unwrap_or_default());
    assert_eq!(chosen, variant, "the address chose the game");
    assert_eq!(button, format!("Play {title} against the computer"));
    let order: Vec<u64> = page["scoreOrder"]
        .as_array()
        .map(|sides| sides.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let sides = order.len() as u64;
    let first = order.first().copied().unwrap_or(0);
    assert!(
        order
            .iter()
            .enumerate()
            .all(|(k, &side)| side == (first + k as u64) % sides),
        "the scores in seat order from the player's side: {order:?}"
    );
}

/// Runs [`PROBE`].
async fn probe(browser: &Client) -> Value {
    browser
        .execute(PROBE, vec![])
        .await
        .expect("probe the page")
}

/// Reads the page once its match is under way (waiting while it starts),
/// failing on an error shown or a match that outlasts [`PATIENCE`].
async fn probe_playing(browser: &Client, started: Instant, what: &str) -> Value {
    loop {
        assert!(
            started.elapsed() < PATIENCE,
            "{what}: the match did not end"
        );
        let page = probe(browser).await;
        assert!(
            page["error"].is_null(),
            "the page shows an error: {}",
            page["error"]
        );
        if !(page["toAct"].is_null() && page["hand"] == 0) {
            return page;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Asserts that the page does not overflow the viewport sideways, and on a
/// phone that every control one can press is at least 44 px each way.
async fn assert_fits(browser: &Client, width: &Width, when: &str) {
    let found = browser
        .execute(
            r#"
const small = [...document.querySelectorAll('button, select, input, summary')]
  .filter((el) => !el.closest('[hidden]') && el.getClientRects().length > 0)
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44)
  .map(([el, r]) => `${el.tagName}#${el.id}.${el.className} ${Math.round(r.width)}x${Math.round(r.height)}`);
const felt = document.querySelector('#table');
const feltShown = !!felt && !felt.closest('[hidden]');
return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, small,
  feltOver: feltShown ? felt.scrollWidth - felt.clientWidth : 0 };
"#,
            vec![],
        )
        .await
        .expect("measure the page");
    let scroll = found["scrollWidth"].as_i64().expect("scrollWidth");
    let inner = found["innerWidth"].as_i64().expect("innerWidth");
    assert!(
        scroll <= inner,
        "{} at {when}: the page is {scroll} px wide in a {inner} px viewport",
        width.name
    );
    let felt = found["feltOver"].as_i64().expect("the felt's overflow");
    assert!(
        felt <= 0,
        "{} at {when}: the table scrolls sideways by {felt} px",
        width.name
    );
    if width.phone {
        assert_eq!(inner, i64::from(width.width), "the phone's viewport");
        let small = found["small"].as_array().expect("a list");
        assert!(
            small.is_empty(),
            "{} at {when}: touch targets under 44 px: {small:?}",
            width.name
        );
    }
}

/// Saves a screenshot as `target/screenshots/<name>.png`.
async fn screenshot(browser: &Client, name: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory")
        .join("screenshots");
    std::fs::create_dir_all(&dir).expect("the screenshot directory");
    let png = browser.screenshot().await.expect("screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("save the screenshot");
}

/// Clicks the first element matching `css`; false if there was none or it
/// went away before the click (the page redraws after every answer).
async fn click(browser: &Client, css: &str) -> bool {
    match browser.find(Locator::Css(css)).await {
        Ok(element) => element.click().await.is_ok(),
        Err(_) => false,
    }
}

/// Plays a move as `page` (a [`PROBE`]) offers: the first playable tile of
/// the hand, else at a trick game the first contract or the lowest bid,
/// else the first other move (draw, pass, end the turn); whether a click
/// landed.
async fn click_a_move(browser: &Client, page: &Value) -> bool {
    if page["playable"].as_u64().unwrap_or(0) > 0 {
        click(browser, "#hand button.playable").await
    } else if page["other"].as_u64().unwrap_or(0) > 0 {
        for css in [
            "#other-moves button.contract",
            "#other-moves button.bid",
            "#other-moves button",
        ] {
            if has(browser, css).await {
                return click(browser, css).await;
            }
        }
        false
    } else {
        false
    }
}

/// The text of the first element matching `css`.
async fn text(browser: &Client, css: &str) -> String {
    browser
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .expect("its text")
}

/// The scores the page shows, by side.
async fn shown_scores(browser: &Client) -> Vec<i64> {
    let shown = browser
        .execute(
            "return [...document.querySelectorAll('#scores li[data-side]')].sort((a, b) => a.dataset.side - b.dataset.side).map((li) => Number(li.dataset.points));",
            vec![],
        )
        .await
        .expect("the scores");
    shown
        .as_array()
        .expect("a list")
        .iter()
        .map(|s| s.as_i64().expect("a number"))
        .collect()
}

/// Asks for a hint, checks it is one of the server's legal moves for the
/// page's state, saves the screenshot `shot` with the hint on the table,
/// and plays it from the table (or from the move buttons).
async fn take_hint(browser: &Client, server: &TestServer, shot: &str) {
    assert!(click(browser, "#hint").await, "the hint button");
    let started = Instant::now();
    let hint = loop {
        let found = browser
            .execute(
                "const el = document.querySelector('#hint-text'); return el.hidden ? null : el.dataset.move;",
                vec![],
            )
            .await
            .expect("the hint");
        if let Some(hint) = found.as_str() {
            break serde_json::from_str::<Value>(hint).expect("the hint's move");
        }
        assert!(started.elapsed() < Duration::from_secs(30), "no hint shown");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let state = page_state(browser).await;
    let legal = post_json(
        &format!("{}/v1/LegalMoves", server.url()),
        json!({ "state": state }).to_string(),
    )
    .await;
    assert!(legal.status.is_success(), "{}", legal.json());
    let legal = legal.json();
    let moves = legal["legalMoves"].as_array().expect("legal moves");
    assert!(
        moves.contains(&hint),
        "the hint {hint} is not among {moves:?}"
    );
    if hint.get("play").is_some() {
        assert!(
            has(browser, "#layout button.ghost-spot.hint").await,
            "the hint is shown on the table"
        );
    }
    screenshot(browser, shot).await;
    let played = if hint.get("play").is_some() {
        click(browser, "#layout button.ghost-spot.hint").await
    } else if hint.get("trick").is_some() || hint.get("discard").is_some() {
        // A trick game's tile: marked in the hand.
        click(browser, "#hand button.hinted").await
    } else {
        // A move of the buttons: its button marked.
        click(browser, "#other-moves button.hinted").await
    };
    assert!(played, "the hint can be played from the page");
}

/// What a seat must not see in its panel: every tile `{a, b}` anywhere in
/// `value`, as "a-b".
fn tiles_in(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let (Some(a), Some(b), 2) = (map.get("a"), map.get("b"), map.len()) {
                found.push(format!("{a}-{b}"));
                found.push(format!("{b}-{a}"));
            }
            map.values().for_each(|v| tiles_in(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| tiles_in(v, found)),
        _ => {}
    }
}

/// Opens the rules card with the button `css`: its title and its text.
async fn open_rules(browser: &Client, css: &str) -> (String, String) {
    assert!(click(browser, css).await, "{css}");
    browser
        .wait()
        .for_element(Locator::Css("#rules-card[open] #rules-body li"))
        .await
        .expect("the rules card opens");
    (
        text(browser, "#rules-title").await,
        text(browser, "#rules-body").await,
    )
}

/// Mid-hand, on the player's turn: the state panel shows the seat's view
/// and none of the other seats' tiles until the developer switch is on;
/// the rules card shows the game's section of the rule book; a reload
/// resumes the same position (the same match digest, the same hand).
async fn check_panel_rules_and_reload(browser: &Client, variant: &str) {
    let page = browser
        .execute(
            "const g = window.pipsPlayground; \
             return { panel: document.querySelector('#state-json').value, state: g.state };",
            vec![],
        )
        .await
        .expect("the panel");
    let panel: Value = serde_json::from_str(page["panel"].as_str().expect("text")).expect("JSON");
    let mut hidden = Vec::new();
    for hand in page["state"]["hands"]
        .as_array()
        .expect("hands")
        .iter()
        .skip(1)
    {
        tiles_in(hand, &mut hidden);
    }
    assert!(!hidden.is_empty(), "the other seats hold tiles");
    let mut shown = Vec::new();
    tiles_in(&panel, &mut shown);
    let leaked: Vec<&String> = shown.iter().filter(|t| hidden.contains(t)).collect();
    assert!(
        leaked.is_empty(),
        "{variant}: the state panel shows other seats' tiles {leaked:?}"
    );
    assert!(panel.get("hands").is_none() && panel.get("seed").is_none());
    // The developer switch shows the full state, and says what it reveals.
    assert!(
        click(browser, "#state-panel summary").await,
        "open the panel"
    );
    assert!(click(browser, "#dev-full").await, "the developer switch");
    let full = browser
        .execute(
            "return document.querySelector('#state-json').value;",
            vec![],
        )
        .await
        .expect("the panel");
    let full: Value = serde_json::from_str(full.as_str().expect("text")).expect("JSON");
    assert_eq!(full, page["state"], "the switch shows the full state");
    let warning = text(browser, "#state-panel .dev").await;
    assert!(warning.contains("every hidden tile"), "{warning}");
    assert!(click(browser, "#dev-full").await, "the switch back");
    // The rules card: the game's own section of the rule book.
    let (title, rules) = open_rules(browser, "#rules-button").await;
    assert!(title.starts_with("Rules: "), "{title}");
    assert!(
        rules.contains("What every game shares") && rules.len() > 400,
        "{variant}: {rules}"
    );
    assert!(click(browser, "#rules-close").await, "close the rules card");
    // A reload resumes the same position.
    let before = page["state"]["matchDigest"].clone();
    assert!(before.is_string(), "a match digest");
    browser.refresh().await.expect("reload");
    browser
        .wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .expect("the page loads again");
    let after = browser
        .execute(
            "const g = window.pipsPlayground; \
             return { digest: g.state?.matchDigest ?? null, hand: g.view?.handNumber ?? null, \
                      shown: !document.querySelector('#game').hidden };",
            vec![],
        )
        .await
        .expect("the page after the reload");
    assert_eq!(
        after["digest"], before,
        "{variant}: the reload resumes the match"
    );
    assert_eq!(after["hand"], page["state"]["handNumber"]);
    assert_eq!(after["shown"], true, "the game is on the page");
}

/// The full state the page holds.
async fn page_state(browser: &Client) -> Value {
    browser
        .execute("return window.pipsPlayground.state;", vec![])
        .await
        .expect("the page's state")
}

/// The match record the page offers (`Replay`'s request), replayed by the
/// server: its answer.
async fn replay_record(browser: &Client, server: &TestServer) -> Value {
    let record = browser
        .execute("return window.pipsPlayground.record;", vec![])
        .await
        .expect("the record");
    let replayed = post_json(&format!("{}/v1/Replay", server.url()), record.to_string()).await;
    assert!(replayed.status.is_success(), "{}", replayed.json());
    replayed.json()
}

/// At a match's end, *Review* lists every decision the server streams
/// (each with its grade in words, or forced) and each player's accuracy;
/// a decision pressed shows that seat's hand before it, the move played
/// and the expert's best marked; *Back to the end* shows the end again.
/// The notation the page offers replays to the page's state.
/// At a table (`local` false) the record is the server's, and has no
/// notation unless the table was dealt from a seed.
async fn review_the_match(
    browser: &Client,
    server: &TestServer,
    width: &Width,
    name: &str,
    local: bool,
) {
    assert!(click(browser, "#review").await, "the review button");
    until(
        browser,
        "const r = window.pipsPlayground.review; return Boolean(r && !r.running && r.seats.length);",
        120,
        "the review's end",
    )
    .await;
    let review = browser
        .execute("return window.pipsPlayground.review;", vec![])
        .await
        .expect("the review");
    let moves = review["record"]["moves"].as_array().map_or(0, Vec::len) as u64;
    assert!(moves > 0, "the record's moves");
    assert_eq!(review["complete"], true, "{review}");
    let steps = review["steps"].as_array().expect("steps");
    assert_eq!(steps.len() as u64, moves, "every decision reviewed");
    let listed = browser
        .execute(
            "return [...document.querySelectorAll('#review-moves li')].map((li) => li.textContent);",
            vec![],
        )
        .await
        .expect("the list");
    let listed = listed.as_array().expect("items");
    assert_eq!(listed.len(), steps.len());
    for (item, step) in listed.iter().zip(steps) {
        let item = item.as_str().unwrap_or_default();
        let said = ["forced", "best", "good", "inaccuracy", "mistake", "blunder"];
        assert!(
            said.iter().any(|word| item.contains(word)),
            "a grade in words: {item}"
        );
        assert!(
            item.contains(step["token"].as_str().unwrap_or("?")),
            "{item}"
        );
    }
    let accuracy = text(browser, "#review-accuracy").await;
    assert!(accuracy.contains("accuracy"), "{accuracy}");
    // A graded tile play, shown on the table.
    let at = steps
        .iter()
        .position(|s| {
            !s["forced"].as_bool().unwrap_or(false)
                && (s["played"]["play"].is_object() || s["played"]["trick"].is_object())
        })
        .expect("a graded tile play");
    let css = format!("#review-moves li:nth-child({}) button", at + 1);
    assert!(click(browser, &css).await, "a decision");
    until(
        browser,
        &format!("return window.pipsPlayground.review.shown?.at === {at};"),
        30,
        "the decision shown",
    )
    .await;
    assert!(
        has(browser, "#hand .tile.review-played").await,
        "the played tile marked"
    );
    let label = browser
        .execute(
            "return document.querySelector('#hand .tile.review-played').getAttribute('aria-label');",
            vec![],
        )
        .await
        .expect("a label");
    assert!(
        label.as_str().unwrap_or_default().contains("played"),
        "{label}"
    );
    assert_fits(browser, width, "a reviewed move").await;
    screenshot(browser, name).await;
    assert!(click(browser, "#review-leave").await, "back to the end");
    until(
        browser,
        "return window.pipsPlayground.review.shown === null && window.pipsPlayground.view.phase === 'PHASE_MATCH_OVER';",
        30,
        "the end again",
    )
    .await;
    if !local {
        return;
    }
    // What happened names each move by its token, in the order played.
    let logged = browser
        .execute(
            "return [...document.querySelectorAll('#log li code.token')].map((c) => c.textContent);",
            vec![],
        )
        .await
        .expect("the log's tokens");
    let tokens: Vec<&str> = steps.iter().filter_map(|s| s["token"].as_str()).collect();
    let logged: Vec<&str> = logged
        .as_array()
        .expect("tokens")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(logged, tokens, "the log's tokens are the moves'");
    // ... each with its grade beside it, in words.
    let graded = browser
        .execute(
            "return [...document.querySelectorAll('#log li code.token')].map((c) => c.nextElementSibling?.textContent.trim() ?? '');",
            vec![],
        )
        .await
        .expect("the log's grades");
    let graded: Vec<&str> = graded
        .as_array()
        .expect("grades")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let words = |step: &Value| match step["grade"].as_str() {
        _ if step["forced"].as_bool() == Some(true) => "forced",
        Some("MOVE_GRADE_BEST") => "best",
        Some("MOVE_GRADE_GOOD") => "good",
        Some("MOVE_GRADE_INACCURACY") => "inaccuracy",
        Some("MOVE_GRADE_MISTAKE") => "mistake",
        Some("MOVE_GRADE_BLUNDER") => "blunder",
        _ => "?",
    };
    let expected: Vec<&str> = steps.iter().map(words).collect();
    assert_eq!(graded, expected, "each move's grade beside it in the log");
    // The notation the page would download replays to the same match.
    let record = browser
        .execute("return window.pipsPlayground.record;", vec![])
        .await
        .expect("the record");
    let replayed = post_json(&format!("{}/v1/Replay", server.url()), record.to_string()).await;
    let notation = replayed.json()["notation"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(notation.starts_with("[Preset "), "{notation}");
    let again = post_json(
        &format!("{}/v1/Replay", server.url()),
        json!({ "notation": notation }).to_string(),
    )
    .await;
    assert_eq!(again.json()["matchDigest"], replayed.json()["matchDigest"]);
    assert!(
        click(browser, "#download-notation").await,
        "the notation button"
    );
    assert!(
        has(browser, "#error[hidden]").await,
        "no error downloading the notation"
    );
}

/// The page's state at the end of a match and the server's view of it
/// from seat 0, which must say that the match is over.
async fn finished_match(browser: &Client, server: &TestServer) -> (Value, Value) {
    let state = page_state(browser).await;
    let view = post_json(
        &format!("{}/v1/View", server.url()),
        json!({ "state": state, "seat": 0 }).to_string(),
    )
    .await;
    assert!(view.status.is_success(), "{}", view.json());
    let view = view.json();
    assert_eq!(view["phase"], "PHASE_MATCH_OVER");
    (state, view)
}

/// The playground's address for a match against greedy computer seats,
/// played without pauses: the game, its seats and seed, and `more` of the
/// options (`&rounds=2`).
fn match_url(server: &TestServer, variant: &str, players: u32, seed: u64, more: &str) -> String {
    format!(
        "{}/?delay=0&variant={variant}&players={players}&seed={seed}{more}&level=BOT_LEVEL_GREEDY",
        server.url()
    )
}

/// Plays one whole match at `table` by clicking, with screenshots of the
/// first hand's middle and end and of the match's end.
async fn play_match(
    browser: &Client,
    server: &TestServer,
    width: &Width,
    table: &Table,
    quick_start: bool,
) {
    let shot = |stage: &str| format!("{}-{}-{stage}", width.name, table.variant);
    let url = match_url(server, table.variant, table.players, table.seed, "");
    open_page(browser, &url).await;
    if quick_start {
        // The start page: an invitation and one button to a muggins game.
        assert!(has(browser, "#welcome:not([hidden]) #quick-start").await);
        assert_fits(browser, width, "the start").await;
        // The rules of the game the options name, before playing it.
        let (title, _) = open_rules(browser, "#form-rules").await;
        assert!(title.starts_with("Rules: Muggins"), "{title}");
        screenshot(browser, &format!("{}-rules", width.name)).await;
        assert!(click(browser, "#rules-close").await, "close the rules card");
        screenshot(browser, &format!("{}-start", width.name)).await;
        assert!(click(browser, "#quick-start").await, "one click to play");
    } else {
        assert!(click(browser, "#new-game").await, "new game");
    }
    let started = Instant::now();
    let (mut hands, mut hinted, mut keyboard, mut choices) = (0, false, false, 0);
    let mut checked = false;
    let names = loop {
        let page = probe_playing(browser, started, table.variant).await;
        let partnerships = browser
            .execute(
                "return window.pipsPlayground.view.rules.partnerships;",
                vec![],
            )
            .await
            .expect("the rules")
            .as_bool()
            .unwrap_or(false);
        let names = side_names(table.players, partnerships);
        if page["nextHand"] == true || page["again"] == true {
            // The end of a hand: the banner names the winner the server
            // reported and shows every seat's tiles.
            hands += 1;
            let ended = browser
                .execute(
                    "return window.pipsPlayground.finished?.ended ?? null;",
                    vec![],
                )
                .await
                .expect("the hand's end");
            if !ended.is_null() {
                let title = text(browser, "#banner-title").await;
                let winner = ended["winner"].as_u64();
                match winner {
                    Some(side) => {
                        let name = names[usize::try_from(side).expect("a side")];
                        let expected = format!("{name} won");
                        assert!(
                            title.contains(&expected),
                            "banner {title:?} should name {expected:?}"
                        );
                    }
                    None => assert!(
                        title.contains("nobody won") || title.contains("draw"),
                        "{title}"
                    ),
                }
                let shown = browser
                    .execute(
                        "return document.querySelectorAll('#revealed li').length;",
                        vec![],
                    )
                    .await
                    .expect("revealed hands");
                assert_eq!(shown, json!(table.players), "every seat's tiles face up");
                let how = text(browser, "#banner-text").await;
                assert!(
                    ["went out", "Blocked", "closed"]
                        .iter()
                        .any(|w| how.contains(w)),
                    "how the hand ended: {how}"
                );
            }
            assert_fits(browser, width, "the end of a hand").await;
            if page["again"] == true {
                break names;
            }
            if hands == 1 {
                screenshot(browser, &shot("hand-end")).await;
            }
            assert!(click(browser, "#next-hand").await, "next hand");
            continue;
        }
        if page["busy"] == true || page["toAct"] != 0 {
            tokio::time::sleep(Duration::from_millis(15)).await;
            continue;
        }
        assert_turn_in_view(&page, width, table.variant);
        if page["choosing"] == true {
            choices += 1;
            click(browser, "#choose-buttons button").await;
        } else if !checked && page["onTable"].as_u64().unwrap_or(0) >= 2 {
            checked = true;
            assert_named_and_ordered(&page, table.variant);
            check_panel_rules_and_reload(browser, table.variant).await;
        } else if !hinted && page["onTable"].as_u64().unwrap_or(0) >= 3 {
            hinted = true;
            assert_fits(browser, width, "mid-hand").await;
            take_hint(browser, server, &shot("mid-hand")).await;
        } else if page["playable"].as_u64().unwrap_or(0) > 0 {
            if keyboard {
                click(browser, "#hand button.playable").await;
            } else if let Ok(tile) = browser.find(Locator::Css("#hand button.playable")).await {
                // The first tile by keyboard: Enter on a focused tile.
                keyboard = tile
                    .send_keys(&fantoccini::key::Key::Enter.to_string())
                    .await
                    .is_ok();
            }
        } else if page["other"].as_u64().unwrap_or(0) > 0 {
            click(browser, "#other-moves button").await;
        }
        tokio::time::sleep(Duration::from_millis(15)).await;
    };
    assert!(
        hinted && keyboard && checked,
        "{}: a hint, a keyboard move, the panel and a reload",
        table.variant
    );
    // The end of the match: the winner, the final scores (the server's).
    let title = text(browser, "#banner-title").await;
    let (state, view) = finished_match(browser, server).await;
    let reported: Vec<i64> = view["scores"]
        .as_array()
        .expect("scores")
        .iter()
        .map(|s| s.as_i64().expect("a score"))
        .collect();
    assert_eq!(
        shown_scores(browser).await,
        reported,
        "the page shows the server's scores"
    );
    assert!(
        title.contains("won the match") || title.contains("draw"),
        "{title}"
    );
    // The match record the page offers replays to the match's end.
    let replayed = replay_record(browser, server).await;
    assert_eq!(
        replayed["matchDigest"], state["matchDigest"],
        "{}: the record replays to the page's state",
        table.variant
    );
    assert!(click(browser, "#download").await, "the download button");
    // The score sheet's last line is the final score.
    let sheet = browser
        .execute(
            "const rows = document.querySelectorAll('#sheet tr'); \
             return [rows.length - 1, [...rows[rows.length - 1].cells].slice(1).map((c) => c.lastChild.textContent)];",
            vec![],
        )
        .await
        .expect("the score sheet");
    assert!(sheet[0].as_u64().unwrap_or(0) >= 1, "a line a hand");
    let last: Vec<i64> = sheet[1]
        .as_array()
        .expect("cells")
        .iter()
        .map(|c| {
            c.as_str()
                .expect("text")
                .replace('−', "-")
                .parse()
                .expect("a number")
        })
        .collect();
    assert_eq!(last, reported, "the sheet ends on the final score");
    assert!(
        names.iter().any(|name| title.contains(name)) || title.contains("draw"),
        "the match banner names the winner: {title}"
    );
    assert_fits(browser, width, "the end of the match").await;
    if table.variant == "dominican" {
        // Every bonus the server scored was called out above the scores,
        // and this match has some.
        let called = browser
            .execute(
                "return [window.pipsPlayground.bonusesCalled ?? 0, \
                 document.querySelectorAll('#log li.bonus').length];",
                vec![],
            )
            .await
            .expect("the bonuses");
        assert_eq!(called[0], called[1], "bonuses called out and logged");
        assert!(called[0].as_u64().unwrap_or(0) > 0, "a bonus in the match");
    }
    screenshot(browser, &shot("match-end")).await;
    if quick_start {
        review_the_match(browser, server, width, &shot("review"), true).await;
    }
    println!(
        "{} {}: {hands} hands, {choices} end choices, {:.1} s",
        width.name,
        table.variant,
        started.elapsed().as_secs_f64()
    );
}

/// A game two people play at one device: preset, seats, seed, and the
/// seat other than seat 0 a person plays (the computer the rest).
struct Together {
    variant: &'static str,
    players: u32,
    seed: u64,
    person: u32,
}

/// Muggins for two people at one device: the computer plays no seat.
const MUGGINS_TOGETHER: Together = Together {
    variant: "muggins",
    players: 2,
    seed: 31,
    person: 1,
};

/// Two people at one device play a whole hand by clicking: before each
/// turn of the other person a screen asks to pass the device and hides
/// the hand (and the state panel) until it is taken.
async fn pass_and_play(browser: &Client, server: &TestServer, width: &Width, game: &Together) {
    let people = format!("&mode=people&people={}", game.person);
    let url = match_url(server, game.variant, game.players, game.seed, &people);
    open_page(browser, &url).await;
    assert!(click(browser, "#new-game").await, "new game");
    let started = Instant::now();
    let (mut covers, mut clicks) = (0, 0);
    loop {
        assert!(started.elapsed() < PATIENCE, "the hand did not end");
        let page = probe(browser).await;
        assert!(
            page["error"].is_null(),
            "the page shows an error: {}",
            page["error"]
        );
        if page["nextHand"] == true || page["again"] == true {
            break;
        }
        if page["cover"] == true {
            // The next person's tiles stay hidden until they take it.
            assert_eq!(page["handTiles"], 0, "a hand shown behind the cover");
            assert_eq!(page["panel"], "", "the state panel behind the cover");
            let title = page["coverTitle"].as_str().unwrap_or_default();
            assert!(title.starts_with("Pass the device to "), "{title}");
            if covers == 0 {
                assert_fits(browser, width, "passing the device").await;
                screenshot(
                    browser,
                    &format!("{}-{}-pass-and-play", width.name, game.variant),
                )
                .await;
            }
            covers += 1;
            assert!(click(browser, "#uncover").await, "take the device");
        } else if page["busy"] == true || page["toAct"] != page["viewer"] {
            // (A computer seat's turn, or a cover's.)
        } else if page["choosing"] == true {
            clicks += u32::from(click(browser, "#choose-buttons button").await);
        } else {
            clicks += u32::from(click_a_move(browser, &page).await);
        }
        tokio::time::sleep(Duration::from_millis(15)).await;
    }
    // Both people moved, every move of theirs by a click at this device.
    let people = json!([0, game.person]);
    let moved = browser
        .execute(
            "const seats = arguments[0]; \
             const moves = window.pipsPlayground.record.moves.filter((m) => seats.includes(m.seat ?? 0)); \
             return [[...new Set(moves.map((m) => m.seat ?? 0))].sort(), moves.length];",
            vec![people.clone()],
        )
        .await
        .expect("the record");
    assert_eq!(moved[0], people, "both people played");
    let moves = moved[1].clone();
    assert!(
        moves.as_u64().unwrap_or(0) <= u64::from(clicks),
        "every move was a click: {moves} moves, {clicks} clicks"
    );
    assert!(covers >= 2, "the device changed hands {covers} times");
    assert_fits(browser, width, "the end of a pass-and-play hand").await;
    screenshot(
        browser,
        &format!("{}-{}-pass-and-play-end", width.name, game.variant),
    )
    .await;
    println!(
        "{} {} pass and play: {covers} handovers, {moves} moves",
        width.name, game.variant
    );
}

/// A match at a table with a hub the test plays: preset, seats, seed,
/// rounds (a house rule, so that the match ends within the test).
struct HubTable {
    variant: &'static str,
    players: u32,
    seed: u64,
    rounds: u32,
}

/// Mexican Train at four seats over two rounds (the next round is dealt
/// from the page), and a chicken foot at eight seats, one round.
const HUB_TABLES: [HubTable; 2] = [
    HubTable {
        variant: "mexican_train",
        players: 4,
        seed: 3,
        rounds: 2,
    },
    HubTable {
        variant: "chicken_foot",
        players: 8,
        seed: 5,
        rounds: 1,
    },
];

/// The seats' names at a round table of five to eight: the device's seat
/// is "You", the others by where they sit, clockwise.
const EIGHT_NAMES: [&str; 8] = [
    "You",
    "South-west",
    "West",
    "North-west",
    "North",
    "North-east",
    "East",
    "South-east",
];

/// What the page shows of a table with a hub, read in one round trip.
const HUB_PROBE: &str = r#"
const rows = [...document.querySelectorAll('#layout.hub-table .row')];
return {
  rows: rows.length,
  labels: rows.map((r) => r.querySelector('.row-label').textContent),
  mexican: document.querySelectorAll('#layout .row.mexican').length,
  hub: document.querySelectorAll('#layout .hub .tile').length,
  waiting: document.querySelector('#layout .waiting')?.textContent ?? null,
  highlighted: document.querySelectorAll('#layout .tile.unsatisfied, #layout .row.waits').length,
  choices: document.querySelectorAll('#layout button.ghost-spot.choice').length,
  chooseButtons: document.querySelectorAll('#choose-buttons button').length,
  seats: [...document.querySelectorAll('#seats .seat .name')].map((n) => n.textContent),
  revealed: [...document.querySelectorAll('#revealed li')].map((li) => [Number(li.dataset.pips), Number(li.dataset.total)]),
};
"#;

/// The server's account of the page's match so far: the record replayed,
/// its last `HandEnded` (the pips each seat was left with) and the scores.
async fn replayed_round(browser: &Client, server: &TestServer) -> (Vec<i64>, Vec<i64>) {
    let replayed = replay_record(browser, server).await;
    let numbers = |value: &Value| -> Vec<i64> {
        value
            .as_array()
            .map(|items| items.iter().map(|n| n.as_i64().unwrap_or(0)).collect())
            .unwrap_or_default()
    };
    let ended = replayed_events(&replayed)
        .into_iter()
        .rev()
        .find(|event| event.get("handEnded").is_some())
        .expect("a round ended");
    (
        numbers(&ended["handEnded"]["pips"]),
        numbers(&replayed["state"]["scores"]),
    )
}

/// Plays a match at a table with a hub by clicking: every tile fitting
/// several trains or arms is placed from the table's marks after checking
/// that each place is marked; at every round's end the pips the page shows
/// for each seat, and the running totals, are the server's (the record
/// replayed). Screenshots mid-round, at the first round's end and at the
/// match's end, with the ranking.
async fn play_hub_match(browser: &Client, server: &TestServer, width: &Width, table: &HubTable) {
    let shot = |stage: &str| format!("{}-{}-{stage}", width.name, table.variant);
    let rounds = format!("&rounds={}", table.rounds);
    let url = match_url(server, table.variant, table.players, table.seed, &rounds);
    open_page(browser, &url).await;
    assert!(click(browser, "#new-game").await, "new game");
    let started = Instant::now();
    let (mut rounds, mut moves, mut choices, mut waits) = (0, 0, 0, 0);
    let mut shot_mid = false;
    loop {
        let page = probe_playing(browser, started, table.variant).await;
        let hub = browser.execute(HUB_PROBE, vec![]).await.expect("the table");
        // The hub, a row per train (the Mexican one apart) or per arm, and
        // every other seat named.
        assert_eq!(hub["hub"], 1, "the hub is drawn: {hub}");
        if table.variant == "mexican_train" {
            assert_eq!(
                hub["rows"],
                json!(table.players + 1),
                "a row per train: {hub}"
            );
            assert_eq!(hub["mexican"], 1, "the Mexican train apart: {hub}");
        }
        if table.players == 8 {
            assert_eq!(hub["seats"], json!(EIGHT_NAMES[1..]), "the seats named");
        }
        if !hub["waiting"].is_null() {
            // What must be answered is said, with who must answer it, and
            // marked on the table.
            if waits == 0 {
                screenshot_table(browser, &shot("waiting")).await;
            }
            waits += 1;
            let said = hub["waiting"].as_str().unwrap_or_default();
            assert!(said.contains("must"), "{said}");
            assert!(
                hub["highlighted"].as_u64().unwrap_or(0) >= 1,
                "the tile waiting is highlighted: {hub}"
            );
        }
        if page["nextHand"] == true || page["again"] == true {
            rounds += 1;
            let (pips, totals) = replayed_round(browser, server).await;
            let shown: Vec<(i64, i64)> = hub["revealed"]
                .as_array()
                .expect("the revealed hands")
                .iter()
                .map(|p| (p[0].as_i64().unwrap_or(-1), p[1].as_i64().unwrap_or(-1)))
                .collect();
            assert_eq!(
                shown.iter().map(|p| p.0).collect::<Vec<_>>(),
                pips,
                "{}: every seat's pips at the round's end are the server's",
                table.variant
            );
            assert_eq!(
                shown.iter().map(|p| p.1).collect::<Vec<_>>(),
                totals,
                "{}: the running totals are the server's",
                table.variant
            );
            assert_fits(browser, width, "the end of a round").await;
            if rounds == 1 {
                screenshot(browser, &shot("round-end")).await;
                screenshot_table(browser, &shot("round-end-table")).await;
            }
            if page["again"] == true {
                break;
            }
            assert!(click(browser, "#next-hand").await, "next round");
            continue;
        }
        if page["busy"] == true || page["toAct"] != 0 {
            tokio::time::sleep(Duration::from_millis(15)).await;
            continue;
        }
        assert_turn_in_view(&page, width, table.variant);
        // An opening chain says what it is, and its end is a button of
        // its own.
        let chain = browser
            .execute(
                "const legal = window.pipsPlayground.view?.legalMoves ?? [];                  return legal.some((m) => m.endTurn) && !window.pipsPlayground.busy                    ? [document.querySelector('#turn').textContent, [...document.querySelectorAll('#other-moves button')].map((b) => b.textContent)] : null;",
                vec![],
            )
            .await
            .expect("the opening chain");
        if !chain.is_null() && page["choosing"] != true {
            assert!(
                chain[0]
                    .as_str()
                    .unwrap_or_default()
                    .contains("opening chain")
                    && chain[1]
                        .as_array()
                        .is_some_and(|b| b.contains(&json!("End your opening chain"))),
                "{}: the opening chain said: {chain}",
                table.variant
            );
        }
        if !shot_mid && page["onTable"].as_u64().unwrap_or(0) >= 10 {
            shot_mid = true;
            assert_named_and_ordered(&page, table.variant);
            screenshot_table(browser, &shot("mid-round")).await;
            assert_fits(browser, width, "mid-round").await;
        }
        if page["choosing"] == true {
            // Each place the tile fits is marked on the table: tap one.
            assert_eq!(
                hub["choices"], hub["chooseButtons"],
                "a mark on the table for each place: {hub}"
            );
            assert_fits(browser, width, "choosing a train").await;
            if choices == 0 {
                screenshot(browser, &shot("choosing")).await;
            }
            choices += 1;
            moves += u32::from(click(browser, "#layout button.ghost-spot.choice").await);
        } else {
            moves += u32::from(click_a_move(browser, &page).await);
        }
        tokio::time::sleep(Duration::from_millis(15)).await;
    }
    assert_eq!(
        rounds, table.rounds,
        "{}: every round played",
        table.variant
    );
    assert!(
        choices > 0,
        "{}: a tile that fitted several places",
        table.variant
    );
    // The match's end: the ranking, lowest total first, as the server has it.
    let (_, view) = finished_match(browser, server).await;
    let title = text(browser, "#banner-title").await;
    let said = text(browser, "#banner-text").await;
    let names = if table.players == 8 {
        EIGHT_NAMES.to_vec()
    } else {
        side_names(table.players, false)
    };
    let mut totals: Vec<(i64, &str)> = view["scores"]
        .as_array()
        .expect("scores")
        .iter()
        .zip(&names)
        .map(|(s, name)| (s.as_i64().expect("a score"), *name))
        .collect();
    totals.sort_by_key(|(total, _)| *total);
    for (rank, (total, _)) in totals.iter().enumerate() {
        // (Seats level on points may be ranked either way round.)
        let level: Vec<String> = totals
            .iter()
            .filter(|(t, _)| t == total)
            .map(|(t, name)| format!("{}. {name} {t}", rank + 1))
            .collect();
        assert!(
            level.iter().any(|entry| said.contains(entry.as_str())),
            "{}: the ranking names one of {level:?}: {said}",
            table.variant
        );
    }
    assert!(
        title.contains("won the match") || title.contains("draw"),
        "{title}"
    );
    assert_fits(browser, width, "the end of the match").await;
    screenshot(browser, &shot("match-end")).await;
    println!(
        "{} {} {}p: {rounds} rounds, {moves} moves by click, {choices} choices, {waits} waits seen, {:.1} s",
        width.name,
        table.variant,
        table.players,
        started.elapsed().as_secs_f64()
    );
}

/// Scrolls the table into view and saves a screenshot of it.
async fn screenshot_table(browser: &Client, name: &str) {
    browser
        .execute(
            "document.querySelector('#table').scrollIntoView({ block: 'start' });",
            vec![],
        )
        .await
        .expect("scroll to the table");
    screenshot(browser, name).await;
}

/// Plays both tables with a hub at `width`.
async fn play_hubs_at(width: Width) {
    let server = TestServer::start().await;
    let (port, _chromedriver) = start_chromedriver().await;
    let profile =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chromium-hub-{}", width.name));
    let _ = std::fs::remove_dir_all(&profile);
    let browser = open_browser(port, &profile, &width).await;
    for table in &HUB_TABLES {
        play_hub_match(&browser, &server, &width, table).await;
    }
    browser.close().await.expect("close the browser");
}

/// Plays every table at `width`; on the desktop, then stops the server and
/// checks that the page says so.
async fn play_at(width: Width) {
    // (A review's searches run at the lowest priority: on a busy machine
    // a whole match's may take longer than the default minute.)
    let server = TestServer::start_with(pips::server::Config {
        max_review: Duration::from_secs(600),
        ..pips::server::Config::default()
    })
    .await;
    let (port, _chromedriver) = start_chromedriver().await;
    let profile = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chromium-{}", width.name));
    let _ = std::fs::remove_dir_all(&profile);
    let browser = open_browser(port, &profile, &width).await;
    // (Pass and play first: the matches then start from a page holding a
    // kept game of another setup, which a link to theirs does not resume.)
    pass_and_play(&browser, &server, &width, &MUGGINS_TOGETHER).await;
    for (i, table) in TABLES.iter().enumerate() {
        play_match(&browser, &server, &width, table, i == 0).await;
    }
    // The favicon the page links is served.
    let icon = server::call(http::Method::GET, &format!("{}/favicon.svg", server.url())).await;
    assert!(icon.status.is_success());
    // The server goes away: the page says so in words, with a way to retry.
    server.stop().await;
    // The page may first finish a computer seat's turn under way; a longer
    // wait than the default. A tap that lands while the page still scrolls
    // the button into view can miss it (seen once at a phone's width): the
    // page then still shows the finished match, and the test taps again.
    let mut shown = false;
    for _ in 0..3 {
        assert!(click(&browser, "#again").await, "new game");
        if browser
            .wait()
            .at_most(Duration::from_secs(30))
            .for_element(Locator::Css("#error:not([hidden])"))
            .await
            .is_ok()
        {
            shown = true;
            break;
        }
    }
    if !shown {
        let page = text(&browser, "body").await;
        panic!("no error shown after the server stopped; the page says: {page}");
    }
    let error = text(&browser, "#error-text").await;
    assert!(error.contains("cannot be reached"), "{error}");
    assert!(
        has(&browser, "#retry:not([hidden])").await,
        "a retry button"
    );
    browser.close().await.expect("close the browser");
}

/// Creates a table from the playground at `url` (its options: friends
/// by link) by pressing *New game*, and answers the links the page lists
/// (each friend's seat, then the watch link).
async fn create_friends_table(host: &Client, url: &str) -> Vec<String> {
    open_page(host, url).await;
    host.execute("document.querySelector('#new-game').click();", vec![])
        .await
        .expect("create the table");
    host.wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css("#invite-links input"))
        .await
        .expect("the links are shown");
    let links = host
        .execute(
            "return [...document.querySelectorAll('#invite-links input')].map((i) => i.value);",
            vec![],
        )
        .await
        .expect("the links");
    links
        .as_array()
        .expect("a list")
        .iter()
        .map(|l| l.as_str().expect("a link").to_owned())
        .collect()
}

/// One round of the pages at a table by link: each page that may act
/// does (a tile, a choice of end or train, a draw or pass, the next
/// hand), and none shows an error; how many pages show the match over.
/// The moves that landed are counted in `steps`.
async fn take_turns(pages: &[(&Client, &Width)], steps: &mut u32) -> usize {
    let mut over = 0;
    for (browser, width) in pages {
        let page = probe(browser).await;
        assert!(
            page["error"].is_null(),
            "{}: the page shows an error: {}",
            width.name,
            page["error"]
        );
        if page["again"] == true {
            over += 1;
        } else if page["nextHand"] == true {
            click(browser, "#next-hand").await;
        } else if page["choosing"] == true {
            click(browser, "#choose-buttons button").await;
        } else if click_a_move(browser, &page).await {
            *steps += 1;
        }
    }
    over
}

/// The hand a page's state panel shows (its seat's view), as tile texts,
/// with the seat it is of and the number of the hand (the deal) it is in.
async fn panel_hand(browser: &Client) -> (u64, u64, Vec<String>) {
    let page = probe(browser).await;
    let view: Value =
        serde_json::from_str(page["panel"].as_str().unwrap_or("null")).unwrap_or(Value::Null);
    let mut tiles = Vec::new();
    tiles_in(&view["hand"], &mut tiles);
    (
        view["seat"].as_u64().unwrap_or(0),
        view["handNumber"].as_u64().unwrap_or(0),
        tiles,
    )
}

/// Play with a friend by link: one page (a desktop's) creates a muggins
/// table for two people and shows the other seat's link; a second page,
/// in a browser profile of its own (a phone's), opens it; they play the
/// match to its end by clicking, each page showing only its own hand at
/// every step (and the second reloaded mid-match, resuming its seat),
/// and both pages' final scores are the server's.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; run with --ignored (.ci/run does)"]
async fn playground_plays_with_a_friend_by_link() {
    play_with_a_friend("muggins", "variant=muggins&players=2").await;
}

/// Texas 42 by link: you and your partner across the table, a person on
/// each link, against two computer seats, the whole match.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; run with --ignored (.ci/run does)"]
async fn playground_plays_texas42_with_a_friend_by_link() {
    play_with_a_friend("texas42", "variant=texas42&players=4&people=2").await;
}

/// A desktop page creates a table of the game `query` chooses (people on
/// two seats), a phone page opens the other person's link, and they play
/// the match to its end: see [`playground_plays_with_a_friend_by_link`].
async fn play_with_a_friend(name: &str, query: &str) {
    let server = TestServer::start_with(pips::server::Config {
        tables_db: Some("sqlite::memory:".to_owned()),
        ..pips::server::Config::default()
    })
    .await;
    let (port, _chromedriver) = start_chromedriver().await;
    let profile = |name: &str| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chromium-friends-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    };
    let host = open_browser(port, &profile(&format!("{name}-host")), &DESKTOP).await;
    let friend = open_browser(port, &profile(&format!("{name}-friend")), &PHONE).await;
    let links = create_friends_table(
        &host,
        &format!(
            "{}/?{query}&mode=friends&level=BOT_LEVEL_GREEDY",
            server.url()
        ),
    )
    .await;
    let friend_url = links[0].clone();
    // A seat's link travels after `#`: no request line holds it.
    assert!(friend_url.contains("/#t="), "{friend_url}");
    let host_url = host
        .current_url()
        .await
        .expect("the host's address")
        .to_string();
    assert_ne!(host_url, friend_url, "each seat its own link");
    screenshot(&host, &format!("friends-{name}-invite-desktop")).await;
    // An address of the old form (`?table=`) is rewritten to carry the
    // link after `#`.
    open_page(&friend, &friend_url.replace("/#t=", "/?table=")).await;
    let rewritten = friend
        .current_url()
        .await
        .expect("the friend's address")
        .to_string();
    assert_eq!(rewritten, friend_url, "the old form rewritten");
    // Only the creator's device keeps the other seats' links.
    let host_link = host_url.split("#t=").nth(1).expect("the host's link");
    let friend_link = friend_url.split("#t=").nth(1).expect("the friend's link");
    let kept = |browser: &Client| {
        let browser = browser.clone();
        async move {
            browser
                .execute(
                    "return Object.keys(localStorage).filter((k) => k.startsWith('pips.table.'))\
                     .map((k) => k + localStorage.getItem(k)).join(' ');",
                    vec![],
                )
                .await
                .expect("the page's storage")
                .as_str()
                .unwrap_or_default()
                .to_owned()
        }
    };
    assert!(
        kept(&host).await.contains(friend_link),
        "the creator keeps the invitations"
    );
    assert!(
        !kept(&friend).await.contains(host_link),
        "a friend keeps no other seat's link"
    );
    let started = Instant::now();
    let mut steps = 0u32;
    let mut reloaded = false;
    loop {
        assert!(started.elapsed() < PATIENCE, "the match did not end");
        let over = take_turns(&[(&host, &DESKTOP), (&friend, &PHONE)], &mut steps).await;
        if over == 2 {
            break;
        }
        // Each page shows its own seat's hand only. Within one deal a
        // tile leaves a hand only for the layout, so two pages showing the
        // same deal (even a move apart) never share a tile; a page still
        // showing the last deal's end may share one with the next deal.
        let ((host_seat, host_deal, host_hand), (friend_seat, friend_deal, friend_hand)) =
            (panel_hand(&host).await, panel_hand(&friend).await);
        assert_ne!(host_seat, friend_seat, "two seats");
        if host_deal == friend_deal {
            assert!(
                host_hand.iter().all(|tile| !friend_hand.contains(tile)),
                "a tile in both hands in deal {host_deal}: {host_hand:?} and {friend_hand:?}"
            );
        }
        if steps >= 6 && !reloaded {
            assert_fits(&friend, &PHONE, "a table by link").await;
            screenshot(&friend, &format!("friends-{name}-mid-match-phone")).await;
            screenshot(&host, &format!("friends-{name}-mid-match-desktop")).await;
            // A reload resumes the seat where the table stands.
            friend.refresh().await.expect("reload");
            friend
                .wait()
                .for_element(Locator::Css("body[data-ready='true']"))
                .await
                .expect("reloaded");
            reloaded = true;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    assert!(reloaded, "the friend's page was reloaded mid-match");
    screenshot(&host, &format!("friends-{name}-match-over-desktop")).await;
    screenshot(&friend, &format!("friends-{name}-match-over-phone")).await;
    // Both pages' final scores are the server's.
    let (phase, scores) = table_scores(&server.url(), &host_url).await;
    assert_eq!(phase, "PHASE_MATCH_OVER");
    assert_eq!(shown_scores(&host).await, scores, "the host's scores");
    assert_eq!(shown_scores(&friend).await, scores, "the friend's scores");
    // The friend reviews the table's match.
    review_the_match(
        &friend,
        &server,
        &PHONE,
        &format!("friends-{name}-review-phone"),
        false,
    )
    .await;
    host.close().await.expect("close");
    friend.close().await.expect("close");
    server.stop().await;
}

/// The scores the server has for the table a page's address names.
async fn table_scores(base: &str, page_url: &str) -> (Value, Vec<i64>) {
    let link = page_url.split("#t=").nth(1).expect("a table's link");
    let answer = api(base, "OpenSeat", json!({ "link": link })).await;
    let scores = answer["update"]["view"]["scores"]
        .as_array()
        .expect("scores")
        .iter()
        .map(|s| s.as_i64().unwrap_or(0))
        .collect();
    (answer["update"]["view"]["phase"].clone(), scores)
}

/// A server's SQLite file in a folder of its own under the test's temporary
/// folder (emptied first), on a free port: a server on it can be killed
/// and started again on the same file.
struct FileServer {
    dir: PathBuf,
    addr: std::net::SocketAddr,
    database: String,
    base: String,
}

impl FileServer {
    fn new(name: &str) -> FileServer {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder");
        let database = format!("sqlite://{}?mode=rwc", dir.join("tables.db").display());
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port");
        FileServer {
            dir,
            addr,
            database,
            base: format!("http://{addr}"),
        }
    }

    /// A browser profile's folder, emptied.
    fn profile(&self, name: &str) -> PathBuf {
        let dir = self.dir.join(format!("chromium-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }
}

/// Waits until a server at `addr` accepts connections.
async fn wait_up(addr: std::net::SocketAddr) {
    for _ in 0..200 {
        if tokio::net::TcpStream::connect(addr).await.is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server never answered");
}

/// A Mexican Train table by link: three people (three browser profiles,
/// two desktops and a phone) and a computer seat, and a fourth page on the
/// watch link that never shows a hand; the server is killed with SIGKILL
/// mid-match and started again on the same file, and every page goes on
/// from the last acknowledged move to the match's end, where all show the
/// server's scores.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; run with --ignored (.ci/run does)"]
async fn playground_plays_a_train_table_by_link_through_a_server_kill() {
    let served = FileServer::new("friends-trains");
    let (addr, database, base) = (served.addr, served.database.clone(), served.base.clone());
    let mut binary = Some(Binary::start(addr, &database, &[]));
    wait_up(addr).await;
    let (port, _chromedriver) = start_chromedriver().await;
    let profile = |name: &str| served.profile(name);
    let host = open_browser(port, &profile("host"), &DESKTOP).await;
    let second = open_browser(port, &profile("second"), &PHONE).await;
    let third = open_browser(port, &profile("third"), &DESKTOP).await;
    let watcher = open_browser(port, &profile("watcher"), &DESKTOP).await;
    let links = create_friends_table(
        &host,
        &format!("{base}/?variant=mexican_train&players=4&rounds=1&mode=friends&people=1,2"),
    )
    .await;
    assert_eq!(
        links.len(),
        3,
        "two friends' seats and the watch link: {links:?}"
    );
    let started_at = Instant::now();
    open_page(&second, &links[0]).await;
    open_page(&third, &links[1]).await;
    open_page(&watcher, &links[2]).await;
    // A page opened by a link shows the table's game in its options, not
    // the page's defaults.
    let form = "return [document.querySelector('#variant').value, document.querySelector('#players').value, \
                document.querySelector('#mode').value, document.querySelector('#seat-3')?.value ?? ''];";
    let expected = serde_json::json!(["mexican_train", "4", "friends", "computer"]);
    let shown = loop {
        let shown = second.execute(form, vec![]).await.expect("the options");
        if shown == expected || started_at.elapsed() > Duration::from_secs(20) {
            break shown;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(shown, expected, "the options of a page opened by its link");
    let host_url = host.current_url().await.expect("the address").to_string();
    let players = [(&host, &DESKTOP), (&second, &PHONE), (&third, &DESKTOP)];
    let started = Instant::now();
    let mut steps = 0u32;
    let mut killed = false;
    loop {
        assert!(started.elapsed() < PATIENCE, "the match did not end");
        let over = take_turns(&players, &mut steps).await;
        // The watch link's page shows the table and never a hand.
        let seen = probe(&watcher).await;
        assert!(
            seen["error"].is_null(),
            "the watcher's page: {}",
            seen["error"]
        );
        assert_eq!(seen["handTiles"], 0, "the watcher sees no hand");
        assert_eq!(seen["playable"], 0, "the watcher has no move");
        let (_, _, watched) = panel_hand(&watcher).await;
        assert!(
            watched.is_empty(),
            "the watcher's view holds tiles: {watched:?}"
        );
        if over == players.len() {
            break;
        }
        if steps >= 8 && !killed {
            // Between two clicks (no move of a page in flight), the server
            // dies with SIGKILL and comes back on the same file.
            tokio::time::sleep(Duration::from_millis(300)).await;
            screenshot(&watcher, "friends-trains-watcher").await;
            screenshot(&second, "friends-trains-phone").await;
            if let Some(running) = binary.take() {
                running.kill();
            }
            binary = Some(Binary::start(addr, &database, &[]));
            wait_up(addr).await;
            killed = true;
            // Every page has its watch again before it is asked to move.
            tokio::time::sleep(Duration::from_secs(3)).await;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    assert!(killed, "the server was killed mid-match");
    let (phase, scores) = table_scores(&base, &host_url).await;
    assert_eq!(phase, "PHASE_MATCH_OVER");
    for (browser, width) in players {
        assert_eq!(
            shown_scores(browser).await,
            scores,
            "{}'s scores",
            width.name
        );
    }
    screenshot(&host, "friends-trains-over").await;
    for browser in [host, second, third, watcher] {
        browser.close().await.expect("close");
    }
    drop(binary);
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; run with --ignored (.ci/run does)"]
async fn playground_plays_whole_matches_on_a_desktop() {
    play_at(DESKTOP).await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; run with --ignored (.ci/run does)"]
async fn playground_plays_whole_matches_on_a_phone() {
    play_at(PHONE).await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; run with --ignored (.ci/run does)"]
async fn playground_plays_train_games_on_a_desktop() {
    play_hubs_at(DESKTOP).await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; run with --ignored (.ci/run does)"]
async fn playground_plays_train_games_on_a_phone() {
    play_hubs_at(PHONE).await;
}

/// A trick game the test plays against the computer: preset, seats, seed,
/// Texas 42's extra contracts (the playground's `extras`).
struct TrickTable {
    variant: &'static str,
    players: u32,
    seed: u64,
    extras: &'static str,
}

/// Texas 42 with every extra contract, and Moon.
const TRICK_TABLES: [TrickTable; 2] = [
    TrickTable {
        variant: "texas42",
        players: 4,
        seed: 42,
        extras: "nello,plunge,splash,sevens",
    },
    TrickTable {
        variant: "moon",
        players: 3,
        seed: 9,
        extras: "",
    },
];

/// Texas 42 with your partner at the same device.
const TEXAS_TOGETHER: Together = Together {
    variant: "texas42",
    players: 4,
    seed: 12,
    person: 2,
};

/// What the page shows of a trick table, read in one round trip, with
/// what the server's view says it should.
const TRICK_PROBE: &str = r#"
const g = window.pipsPlayground;
const v = g.view ?? {};
const t = v.tricks ?? {};
const legal = (v.legalMoves ?? []);
const texts = (sel) => [...document.querySelectorAll(sel)].map((el) => el.textContent);
return {
  ready: !g.busy && !g.paused && g.toAct === 0 && g.cover === null,
  turn: document.querySelector('#turn').textContent,
  stage: t.stage ?? null,
  calls: document.querySelectorAll('#layout .auction .call:not(.next)').length,
  auction: (t.auction ?? []).length,
  standing: [...document.querySelectorAll('#layout .auction .call.standing')].map((el) => Number(el.dataset.seat)),
  standingSeat: (t.auction ?? []).findLast((c) => c.bid)?.seat ?? null,
  bids: document.querySelectorAll('#other-moves button.bid').length,
  plunges: texts('#other-moves button.bid').filter((b) => /^(Plunge|Splash)/.test(b)).length,
  legalBids: legal.filter((m) => m.bid).length,
  contracts: texts('#other-moves button.contract'),
  legalContracts: legal.filter((m) => m.contract).length,
  lit: [...document.querySelectorAll('#hand button.playable')].map((el) => el.dataset.tile),
  legalTiles: legal.filter((m) => m.trick || m.discard).map((m) => { const x = m.trick ?? m.discard; return `${x.a ?? 0}-${x.b ?? 0}`; }),
  hand: (v.hand ?? []).length,
  trick: (t.trick ?? []).length,
  spots: document.querySelectorAll('#layout .trick:not(.past) .spot .tile').length,
  centre: document.querySelector('#layout .trick .centre')?.textContent ?? '',
  taken: [...document.querySelectorAll('#layout .taken li')].map((li) => [Number(li.dataset.tricks), Number(li.dataset.points)]),
  wonBySide: (v.sideOfSeat ?? []).reduce((sums, side, seat) => { sums[side] = (sums[side] ?? 0) + (t.tricksWon?.[seat] ?? 0); return sums; }, []),
  tally: [...document.querySelectorAll('#scores li[data-side]')].sort((a, b) => a.dataset.side - b.dataset.side)
    .map((li) => li.querySelectorAll('.tally .stroke').length + li.querySelectorAll('.tally .group.five').length),
  banner: [document.querySelector('#banner-title').textContent, document.querySelector('#banner-text').textContent],
  revealed: [...document.querySelectorAll('#revealed li')].map((li) => [Number(li.dataset.tricks), Number(li.dataset.points)]),
  // On your turn: every bid inside the screen, the trick's lead above
  // the docked hand, and nothing to scroll inside the hand's panel.
  followable: (() => {
    const panel = document.querySelector('#mine');
    const top = panel.getBoundingClientRect().top;
    const inside = (el) => { const r = el.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; };
    const lead = document.querySelector(`#layout .trick:not(.past) .spot[data-seat="${t.leader ?? 0}"] .tile`);
    const r = lead?.getBoundingClientRect();
    return {
      bids: [...document.querySelectorAll('#other-moves button')].every(inside),
      lead: !lead || (r.top >= 0 && r.bottom <= top),
      innerScroll: panel.scrollHeight > panel.clientHeight + 1,
    };
  })(),
};
"#;

/// Every event of a replayed record (`Replay`'s answer), in order.
fn replayed_events(replayed: &Value) -> Vec<Value> {
    replayed["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .flat_map(|step| step["events"].as_array().cloned().unwrap_or_default())
        .collect()
}

/// Plays a whole trick-game match against the computer by clicking: bids
/// (the lowest open bid one hand, 42 or a pass the next), contracts (nello
/// and sevens the first times they are offered, else the first), the
/// widow's discard and the tiles. On every turn the page must show the
/// auction call by call with the standing bid lit, a button for each bid
/// and contract the server allows, exactly the tiles it allows lit (those
/// that follow suit), the trick tile by tile with the led suit and what
/// wins, and the tricks each side took; at each hand's end, made or set
/// and why, and the taken points the server reported; at the match's end
/// the server's scores (in marks, a tally of them). Screenshots of the
/// auction, the contract chooser, a trick, a set hand and the match's end.
async fn play_trick_match(
    browser: &Client,
    server: &TestServer,
    width: &Width,
    table: &TrickTable,
) {
    let shot = |stage: &str| format!("{}-{}-{stage}", width.name, table.variant);
    let extras = format!("&extras={}", table.extras);
    let url = match_url(server, table.variant, table.players, table.seed, &extras);
    open_page(browser, &url).await;
    assert!(click(browser, "#new-game").await, "new game");
    let texas = table.variant == "texas42";
    let started = Instant::now();
    let (mut hands, mut sets, mut bids, mut named, mut tricks, mut follows) = (0, 0, 0, 0, 0, 0);
    let (mut shot_auction, mut shot_contract, mut shot_trick, mut checked, mut hinted) =
        (false, false, false, false, false);
    let mut special = Vec::new();
    let mut shot_lead = false;
    // Plunge and splash bids offered (your doubles allowing).
    let mut plunges = 0;
    loop {
        let page = probe_playing(browser, started, table.variant).await;
        let seen = browser
            .execute(TRICK_PROBE, vec![])
            .await
            .expect("the table");
        if page["nextHand"] == true || page["again"] == true {
            let ended = browser
                .execute(
                    "return window.pipsPlayground.finished?.ended ?? null;",
                    vec![],
                )
                .await
                .expect("the hand's end");
            if !ended.is_null() {
                hands += 1;
                let [title, how] =
                    [0, 1].map(|i| seen["banner"][i].as_str().unwrap_or_default().to_owned());
                let reason = ended["reason"].as_str().unwrap_or_default();
                // The server's account: the record replayed, once.
                let replayed = replay_record(browser, server).await;
                let events = replayed_events(&replayed);
                let decided = events
                    .iter()
                    .rev()
                    .find_map(|e| e.get("handDecided"))
                    .cloned()
                    .unwrap_or(Value::Null);
                // The winning bid, when it was a points bid.
                let points_bid = events
                    .iter()
                    .rev()
                    .find_map(|e| e.get("auctionWon"))
                    .and_then(|won| won["bid"]["points"].as_u64());
                match reason {
                    "HAND_END_REASON_ALL_PASSED" => {
                        assert!(title.contains("everyone passed"), "{title}")
                    }
                    "HAND_END_REASON_MADE" | "HAND_END_REASON_SET" => {
                        let made = reason == "HAND_END_REASON_MADE";
                        assert_eq!(decided["made"].as_bool(), Some(made), "{decided}");
                        // (At the match's end the title names the winner.)
                        assert!(
                            page["again"] == true
                                || title.contains(if made { " made " } else { " set." }),
                            "the banner says made or set: {title}"
                        );
                        assert!(
                            how.contains(if made { ": made: " } else { ": set: " }),
                            "and why: {how}"
                        );
                        // What each side took, as the server counted it.
                        let taken: Vec<(u64, u64)> = seen["revealed"]
                            .as_array()
                            .expect("sides")
                            .iter()
                            .map(|p| (p[0].as_u64().unwrap_or(0), p[1].as_u64().unwrap_or(0)))
                            .collect();
                        let bidder = ended["bidder"].as_u64().unwrap_or(0);
                        if texas {
                            // (Play stops once decided: the hand's end is its decision.)
                            let side = usize::try_from(bidder % 2).expect("a side");
                            assert_eq!(
                                taken[side],
                                (
                                    decided["biddersTricks"].as_u64().unwrap_or(0),
                                    decided["biddersPoints"].as_u64().unwrap_or(0)
                                ),
                                "the bidders' tricks and points: {how}"
                            );
                            assert_eq!(
                                taken[1 - side],
                                (
                                    decided["othersTricks"].as_u64().unwrap_or(0),
                                    decided["othersPoints"].as_u64().unwrap_or(0)
                                ),
                                "the others' tricks and points: {how}"
                            );
                            if let (false, Some(b)) = (made, points_bid) {
                                // A points bid set: "more than 42 − b".
                                let more = format!("more than 42 − {b}");
                                assert!(how.contains(&more), "{how}");
                            }
                        } else {
                            // Moon plays every trick out.
                            assert_eq!(taken.iter().map(|t| t.0).sum::<u64>(), 7, "{taken:?}");
                        }
                        if !made {
                            if sets == 0 {
                                screenshot(browser, &shot("set-hand")).await;
                            }
                            sets += 1;
                        }
                    }
                    other => panic!("a trick hand ended by {other}"),
                }
                // The scores (a tally of marks at Texas 42) are the server's.
                let scores = &replayed["state"]["scores"];
                let shown = shown_scores(browser).await;
                assert_eq!(json!(shown), *scores, "the scores after hand {hands}");
                if texas {
                    assert_eq!(seen["tally"], *scores, "the marks' tally");
                }
                assert_fits(browser, width, "the end of a hand").await;
            }
            if page["again"] == true {
                break;
            }
            assert!(click(browser, "#next-hand").await, "next hand");
            continue;
        }
        // (Everything checked below is read in one round trip, `seen`.)
        if seen["ready"] != true {
            tokio::time::sleep(Duration::from_millis(15)).await;
            continue;
        }
        assert_turn_in_view(&page, width, table.variant);
        assert_eq!(
            seen["followable"],
            json!({ "bids": true, "lead": true, "innerScroll": false }),
            "{} {}: what you must follow or answer is in view: {seen}",
            width.name,
            table.variant
        );
        if seen["trick"].as_u64().unwrap_or(0) > 0 && !shot_lead {
            shot_lead = true;
            screenshot(browser, &shot("lead-in-view")).await;
        }
        // The auction, a call each, the standing bid lit.
        assert_eq!(seen["calls"], seen["auction"], "a call each: {seen}");
        let standing = if seen["standingSeat"].is_null() {
            json!([])
        } else {
            json!([seen["standingSeat"]])
        };
        assert_eq!(seen["standing"], standing, "the standing bid lit: {seen}");
        let hand = page["hand"].as_u64().unwrap_or(0);
        match seen["stage"].as_str().unwrap_or_default() {
            "TRICK_STAGE_BIDDING" => {
                assert_eq!(seen["bids"], seen["legalBids"], "a button a bid: {seen}");
                let offered = seen["plunges"].as_u64().unwrap_or(0);
                if offered > 0 && plunges == 0 {
                    screenshot(browser, &shot("auction-splash")).await;
                }
                plunges += offered;
                if !shot_auction && seen["auction"].as_u64().unwrap_or(0) >= 2 {
                    shot_auction = true;
                    assert_fits(browser, width, "the auction").await;
                    screenshot(browser, &shot("auction")).await;
                }
                bids += 1;
                // The lowest bid; at Texas 42 every third hand 42 (a
                // marks bid, after which nello and sevens may be named);
                // else a pass.
                let called = browser
                    .execute(
                        "const [hand, texas] = arguments; \
                         const bids = [...document.querySelectorAll('#other-moves button.bid')]; \
                         const pass = document.querySelector('#other-moves button.move.primary'); \
                         const choice = hand % 3 === 1 && texas ? bids.find((b) => b.textContent === '42') ?? bids[0] \
                           : hand % 3 === 2 ? pass : bids[0] ?? pass; \
                         if (choice) choice.click(); return !!choice;",
                        vec![json!(hand), json!(texas)],
                    )
                    .await
                    .expect("a call");
                assert_eq!(called, json!(true), "a call to make: {seen}");
            }
            "TRICK_STAGE_NAMING" => {
                let offered: Vec<String> = seen["contracts"]
                    .as_array()
                    .expect("contracts")
                    .iter()
                    .map(|c| c.as_str().unwrap_or_default().to_owned())
                    .collect();
                assert_eq!(
                    json!(offered.len()),
                    seen["legalContracts"],
                    "a button a contract: {seen}"
                );
                let wanted = ["Nello", "Sevens"]
                    .into_iter()
                    .find(|c| offered.iter().any(|o| o == c) && !special.contains(c));
                if !shot_contract && (wanted.is_some() || !texas) {
                    shot_contract = true;
                    assert_fits(browser, width, "the contract chooser").await;
                    screenshot(browser, &shot("contract")).await;
                }
                named += 1;
                let index = wanted
                    .and_then(|c| offered.iter().position(|o| o == c))
                    .unwrap_or(0);
                if let Some(c) = wanted {
                    special.push(c);
                }
                let chosen = browser
                    .execute(
                        "const b = document.querySelectorAll('#other-moves button.contract')[arguments[0]]; if (b) b.click(); return !!b;",
                        vec![json!(index)],
                    )
                    .await
                    .expect("name the contract");
                assert_eq!(chosen, json!(true));
            }
            _ => {
                // The widow's discard or a trick: exactly the server's tiles lit.
                let mut lit: Vec<String> = seen["lit"]
                    .as_array()
                    .expect("lit")
                    .iter()
                    .map(|t| t.as_str().unwrap_or_default().to_owned())
                    .collect();
                let mut legal: Vec<String> = seen["legalTiles"]
                    .as_array()
                    .expect("legal")
                    .iter()
                    .map(|t| t.as_str().unwrap_or_default().to_owned())
                    .collect();
                lit.sort();
                legal.sort();
                assert_eq!(lit, legal, "the tiles lit are the legal ones: {seen}");
                if seen["stage"] == "TRICK_STAGE_PLAYING" {
                    tricks += 1;
                    assert_eq!(
                        seen["spots"], seen["trick"],
                        "each tile of the trick by its player: {seen}"
                    );
                    let centre = seen["centre"].as_str().unwrap_or_default();
                    if seen["trick"].as_u64().unwrap_or(0) > 0 {
                        assert!(centre.contains("wins so far"), "what wins: {centre}");
                        let turn = seen["turn"].as_str().unwrap_or_default();
                        if (lit.len() as u64) < seen["hand"].as_u64().unwrap_or(0)
                            && !centre.contains("No suits")
                        {
                            follows += 1;
                            assert!(
                                turn.contains("follow") && centre.contains("Led: "),
                                "{turn} / {centre}"
                            );
                        }
                    }
                    // The tricks each side took, as the view counts them.
                    let taken: Vec<Value> = seen["taken"]
                        .as_array()
                        .expect("taken")
                        .iter()
                        .map(|p| p[0].clone())
                        .collect();
                    assert_eq!(json!(taken), seen["wonBySide"], "the tricks taken: {seen}");
                    if !shot_trick && seen["trick"].as_u64().unwrap_or(0) >= 2 {
                        shot_trick = true;
                        assert_fits(browser, width, "a trick").await;
                        screenshot(browser, &shot("trick")).await;
                    }
                    if !checked && seen["trick"].as_u64().unwrap_or(0) >= 1 {
                        checked = true;
                        check_panel_rules_and_reload(browser, table.variant).await;
                        continue;
                    }
                    if !hinted && seen["trick"].as_u64().unwrap_or(0) >= 1 && hands >= 1 {
                        hinted = true;
                        take_hint(browser, server, &shot("hint")).await;
                        continue;
                    }
                }
                // (A click may miss a tile the page just redrew: the loop
                // then reads the page again.)
                click(browser, "#hand button.playable").await;
            }
        }
        tokio::time::sleep(Duration::from_millis(15)).await;
    }
    // The end of the match: the winner, and the server's scores.
    let title = text(browser, "#banner-title").await;
    assert!(
        title.contains("won the match") || title.contains("draw"),
        "{title}"
    );
    let (_, view) = finished_match(browser, server).await;
    assert_eq!(
        json!(shown_scores(browser).await),
        view["scores"],
        "the page's scores are the server's"
    );
    assert!(
        shot_auction && shot_trick && sets > 0,
        "{}: an auction, a trick and a set hand seen",
        table.variant
    );
    assert!(
        shot_contract,
        "{}: the contract chooser seen",
        table.variant
    );
    assert!(
        checked && hinted,
        "{}: the panel, a reload and a hint",
        table.variant
    );
    if texas {
        assert!(plunges > 0, "a plunge or splash bid offered");
        assert!(
            special.len() == 2,
            "nello and sevens named from the chooser: {special:?}"
        );
    }
    assert_fits(browser, width, "the end of the match").await;
    screenshot(browser, &shot("match-end")).await;
    println!(
        "{} {}: {hands} hands ({sets} set), {bids} calls ({plunges} plunge or splash bids offered), {named} contracts, {tricks} tiles ({follows} following suit) by click, {:.1} s",
        width.name,
        table.variant,
        started.elapsed().as_secs_f64()
    );
}

/// Plays both trick games against the computer at `width`, and a Texas 42
/// hand with your partner at the same device.
async fn play_tricks_at(width: Width) {
    let server = TestServer::start().await;
    let (port, _chromedriver) = start_chromedriver().await;
    let profile =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chromium-tricks-{}", width.name));
    let _ = std::fs::remove_dir_all(&profile);
    let browser = open_browser(port, &profile, &width).await;
    for table in &TRICK_TABLES {
        play_trick_match(&browser, &server, &width, table).await;
    }
    pass_and_play(&browser, &server, &width, &TEXAS_TOGETHER).await;
    browser.close().await.expect("close the browser");
    server.stop().await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; run with --ignored (.ci/run does)"]
async fn playground_plays_trick_games_on_a_desktop() {
    play_tricks_at(DESKTOP).await;
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; run with --ignored (.ci/run does)"]
async fn playground_plays_trick_games_on_a_phone() {
    play_tricks_at(PHONE).await;
}

/// Posts `body` to the JSON API's `rpc` at `base`, answering the JSON.
async fn api(base: &str, rpc: &str, body: Value) -> Value {
    let answer = post_json(&format!("{base}/v1/{rpc}"), body.to_string()).await;
    assert!(
        answer.status.is_success(),
        "{rpc}: {}",
        String::from_utf8_lossy(&answer.body)
    );
    serde_json::from_slice(&answer.body).expect("JSON")
}

/// Runs `script` on `browser` every 50 ms until it answers true, for at
/// most `seconds`.
async fn until(browser: &Client, script: &str, seconds: u64, what: &str) {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(seconds) {
        if browser.execute(script, vec![]).await.expect(what) == json!(true) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let page = text(browser, "body").await;
    panic!("{what}: not within {seconds} s; the page says: {page}");
}

/// The link of each person seat of a table `CreateTable` answered, by seat.
fn seat_links(created: &Value) -> Vec<(u64, String)> {
    created["seatLinks"]
        .as_array()
        .expect("links")
        .iter()
        .map(|l| {
            (
                l["seat"].as_u64().unwrap_or(0),
                l["link"].as_str().expect("a link").to_owned(),
            )
        })
        .collect()
}

/// Presses the first thing a page may do now at its turn (a tile, its end
/// or train, a draw or pass, a bid): whether there was one.
const ACT: &str = "const b = document.querySelector('#choose-buttons button, #hand button.playable, #other-moves button'); \
                   if (b) { b.click(); return true; } return false;";

/// The table as people use it, in real browsers: the invitations on a
/// phone (one line a link, the table in view), the seats named alike on
/// the form and the table, a turn timer chosen and counted down; a
/// timed-out player taking the seat back; the watch link's page through a
/// hand's end; and an outage, with a tile pressed during it.
#[tokio::test]
#[ignore = "needs chromium and chromium-driver; run with --ignored (.ci/run does)"]
async fn playground_tables_as_people_use_them() {
    let served = FileServer::new("tables-in-use");
    let (addr, database, base) = (served.addr, served.database.clone(), served.base.clone());
    let mut binary = Some(Binary::start(addr, &database, &[]));
    wait_up(addr).await;
    let (port, _chromedriver) = start_chromedriver().await;
    let profile = |name: &str| served.profile(name);
    let phone = open_browser(port, &profile("phone"), &PHONE).await;
    let desktop = open_browser(port, &profile("desktop"), &DESKTOP).await;

    // 1. A Texas 42 table of three friends, created on a phone with a turn
    // timer: the form names the seats as the table will, and asks no
    // computer's strength; the invitations are a line each, and the table
    // is in view below them.
    open_page(
        &phone,
        &format!("{base}/?variant=texas42&players=4&mode=friends&people=1,2,3&timer=45"),
    )
    .await;
    let form = phone
        .execute(
            "return [[...document.querySelectorAll('#people label')].map((l) => l.firstChild.textContent), \
             document.querySelector('#level-label').hidden, document.querySelector('#timer-label').hidden];",
            vec![],
        )
        .await
        .expect("the form");
    assert_eq!(
        form,
        json!([["West", "Your partner", "East"], true, false]),
        "the form's seats, no strength asked, a timer offered"
    );
    let links = create_friends_table(
        &phone,
        &format!("{base}/?variant=texas42&players=4&mode=friends&people=1,2,3&timer=45"),
    )
    .await;
    assert_eq!(links.len(), 4, "three friends and the watch link");
    let invite = phone
        .execute(
            r#"
const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
return {
  rows: [...document.querySelectorAll('#invite-links li')].map(box),
  names: [...document.querySelectorAll('#invite-links .who')].map((el) => el.textContent),
  table: box(document.querySelector('#table')),
  presence: document.querySelector('#presence').textContent,
  clock: [...document.querySelectorAll('.clock')].filter((el) => !el.hidden).map((el) => el.textContent),
  width: innerWidth, height: innerHeight,
};"#,
            vec![],
        )
        .await
        .expect("the invitations");
    screenshot(&phone, "tables-invite-phone").await;
    assert_eq!(
        invite["names"],
        json!(["West", "Your partner", "East", "Watch link"]),
        "the invitations name the seats as the form did"
    );
    let width = invite["width"].as_f64().expect("width");
    for row in invite["rows"].as_array().expect("rows") {
        let [left, top, right, bottom] = [0, 1, 2, 3].map(|i| row[i].as_f64().unwrap_or(0.0));
        assert!(
            bottom - top <= 56.0 && left >= 0.0 && right <= width,
            "a link's line is one line, inside the screen: {row}"
        );
    }
    assert!(
        invite["table"][1].as_f64().unwrap_or(f64::MAX)
            < invite["height"].as_f64().unwrap_or(0.0) - 150.0,
        "the table is in view below the invitations: {invite}"
    );
    assert!(
        invite["presence"]
            .as_str()
            .unwrap_or_default()
            .starts_with("You: here"),
        "the page's own player is here from the start: {}",
        invite["presence"]
    );
    let clock = invite["clock"][0].as_str().unwrap_or_default();
    assert!(
        clock.ends_with(" left") && clock.starts_with("0:4"),
        "the seat to act's time is counted down: {invite}"
    );
    // The watch link, on a desktop: watching, no hand, no "you", every
    // seat round the felt.
    open_page(&desktop, &links[3]).await;
    until(
        &desktop,
        "return document.querySelectorAll('#seats li').length === 4;",
        20,
        "the watcher's seats",
    )
    .await;
    let watched = desktop
        .execute(
            "return [!document.querySelector('#watching-label').hidden, document.querySelector('#mine').hidden, \
             document.querySelectorAll('#scores li.mine').length, document.body.innerText.includes('Your hand')];",
            vec![],
        )
        .await
        .expect("the watcher's page");
    assert_eq!(
        watched,
        json!([true, true, 0, false]),
        "the watch page reads as watching"
    );
    screenshot(&desktop, "tables-watching-texas42-desktop").await;

    // 2. A timed-out player takes the seat back: a muggins table on
    // 3-second timers; one seat's person is away, the other plays at once.
    let created = api(
        &base,
        "CreateTable",
        json!({ "variant": "muggins", "players": 2, "seats": [{ "person": {} }, { "person": {} }],
                "settings": { "turnSeconds": 3 } }),
    )
    .await;
    let late = created["update"]["view"]["toAct"].as_u64().unwrap_or(0);
    let seats = seat_links(&created);
    let link_of = |seat: u64| {
        seats
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, link)| format!("{base}/#t={link}"))
            .expect("a seat's link")
    };
    open_page(&phone, &link_of(late)).await;
    open_page(&desktop, &link_of(1 - late)).await;
    let started = Instant::now();
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the computer never took the late seat over"
        );
        desktop
            .execute(ACT, vec![])
            .await
            .expect("the other seat plays");
        if phone
            .execute("return !document.querySelector('#away').hidden;", vec![])
            .await
            .expect("away")
            == json!(true)
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let away = phone
        .execute(
            "const r = document.querySelector('#take-back').getBoundingClientRect(); \
             return [document.querySelector('#away-text').textContent, r.top >= 0 && r.bottom <= innerHeight];",
            vec![],
        )
        .await
        .expect("the away notice");
    assert!(
        away[0]
            .as_str()
            .unwrap_or_default()
            .contains("the computer is playing your seat"),
        "{away}"
    );
    assert_eq!(away[1], json!(true), "the way back is in view");
    screenshot(&phone, "tables-taken-over-phone").await;
    assert!(click(&phone, "#take-back").await, "take the seat back");
    let started = Instant::now();
    let played = loop {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the seat never came back"
        );
        desktop
            .execute(ACT, vec![])
            .await
            .expect("the other seat plays");
        let mine = phone
            .execute(
                "return [document.querySelector('#away').hidden, document.querySelectorAll('#hand button.playable').length > 0 \
                 || document.querySelectorAll('#other-moves button').length > 0];",
                vec![],
            )
            .await
            .expect("the seat");
        if mine == json!([true, true])
            && phone.execute(ACT, vec![]).await.expect("play") == json!(true)
        {
            break true;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    };
    assert!(played, "the person plays their own seat again");

    // 3. The watch link's page follows a hand's end into the next hand by
    // itself: a block-game table whose two seats play by the API.
    let created = api(
        &base,
        "CreateTable",
        json!({ "variant": "block", "players": 2, "seats": [{ "person": {} }, { "person": {} }] }),
    )
    .await;
    let seats = seat_links(&created);
    let watch = created["watchLink"]
        .as_str()
        .expect("a watch link")
        .to_owned();
    open_page(&desktop, &format!("{base}/?result-ms=1500#t={watch}")).await;
    let mut hand_ended = false;
    for _ in 0..500 {
        let opened = api(&base, "OpenSeat", json!({ "link": seats[0].1 })).await;
        let view = &opened["update"]["view"];
        if view["handNumber"].as_u64().unwrap_or(1) > 1 {
            hand_ended = true;
            break;
        }
        let seat = view["toAct"].as_u64().unwrap_or(0);
        let link = &seats.iter().find(|(s, _)| *s == seat).expect("a seat").1;
        let mine = api(&base, "OpenSeat", json!({ "link": link })).await;
        let legal = mine["update"]["view"]["legalMoves"][0].clone();
        api(
            &base,
            "Act",
            json!({ "link": link, "number": mine["update"]["number"], "move": legal }),
        )
        .await;
    }
    assert!(hand_ended, "the first hand ended");
    until(
        &desktop,
        "return !document.querySelector('#banner').hidden && !!window.pipsPlayground.finished;",
        10,
        "the watcher sees the hand's result",
    )
    .await;
    screenshot(&desktop, "tables-watching-hand-end-desktop").await;
    until(
        &desktop,
        "return document.querySelector('#banner').hidden && window.pipsPlayground.view?.handNumber === 2;",
        10,
        "the watcher's page follows into the next hand by itself",
    )
    .await;

    // 4. An outage: the server is killed at the phone's turn; the page
    // says so at the top of the screen and in the hand, offers no tile,
    // refuses one pressed in words, and gives the turn back once the
    // server is up again.
    let created = api(
        &base,
        "CreateTable",
        json!({ "variant": "muggins", "players": 2, "seats": [{ "person": {} }, { "person": {} }] }),
    )
    .await;
    let first = created["update"]["view"]["toAct"].as_u64().unwrap_or(0);
    let link = seat_links(&created)
        .into_iter()
        .find(|(s, _)| *s == first)
        .expect("the first seat's link")
        .1;
    open_page(&phone, &format!("{base}/#t={link}")).await;
    until(
        &phone,
        "return document.querySelectorAll('#hand button.playable').length > 0;",
        20,
        "the phone's turn",
    )
    .await;
    if let Some(running) = binary.take() {
        running.kill();
    }
    until(
        &phone,
        "return !document.querySelector('#connection').hidden;",
        10,
        "the outage is said",
    )
    .await;
    let lost = phone
        .execute(
            "const r = document.querySelector('#connection').getBoundingClientRect(); \
             return [r.top >= 0 && r.bottom <= innerHeight, document.querySelectorAll('#hand button.playable').length, \
             document.querySelector('#turn').textContent.startsWith('Connection lost')];",
            vec![],
        )
        .await
        .expect("the outage");
    assert_eq!(
        lost,
        json!([true, 0, true]),
        "said in view, no tile offered"
    );
    phone
        .execute("document.querySelector('#hand button').click();", vec![])
        .await
        .expect("press a tile");
    let refused = text(&phone, "#turn").await;
    assert!(
        refused.starts_with("Not sent:"),
        "the tile is refused in words: {refused}"
    );
    screenshot(&phone, "tables-outage-phone").await;
    binary = Some(Binary::start(addr, &database, &[]));
    wait_up(addr).await;
    until(
        &phone,
        "return document.querySelector('#connection').hidden && document.querySelectorAll('#hand button.playable').length > 0;",
        20,
        "the turn comes back with the table",
    )
    .await;
    assert_eq!(phone.execute(ACT, vec![]).await.expect("play"), json!(true));
    until(
        &phone,
        "return [...document.querySelectorAll('#log li')].some((li) => li.textContent.startsWith('You played'));",
        10,
        "the move is played once the table is back",
    )
    .await;
    for browser in [phone, desktop] {
        browser.close().await.expect("close");
    }
    drop(binary);
}

/// English words left on the page in another language: every word of the
/// page's visible text (outside what is marked English, `lang="en"`: the
/// rule book, folded away; and outside the state panel and the moves'
/// notation tokens) that English's catalog has and the page's language's
/// catalog does not. Proper names (the games, ¡Capicúa!) are in both.
const ENGLISH_LEFT: &str = r#"
const lang = document.documentElement.lang;
const [en, here] = await Promise.all(['en', lang].map((code) => fetch(`/web/i18n/${code}.json`).then((r) => r.json())));
const words = (text) => text.toLowerCase().match(/\p{L}[\p{L}'’]*/gu) ?? [];
const all = (catalog) => new Set(Object.values(catalog).flatMap((v) => (typeof v === 'string' ? [v] : Object.values(v))).flatMap(words));
const theirs = all(here);
const english = [...all(en)].filter((w) => !theirs.has(w) && w.length > 1);
const skip = '[lang="en"], #state-panel, code, script, style, [hidden], option';
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const seen = [];
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const el = node.parentElement;
  if (!el || el.closest(skip) || !el.getClientRects().length) continue;
  seen.push(node.textContent);
}
for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
  if (el.closest(skip)) continue;
  for (const name of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(name)) seen.push(el.getAttribute(name));
}
// (The switcher names each language in itself: "English" is a proper name.)
for (const option of document.querySelectorAll('#options option:not(#language option)')) seen.push(option.textContent);
const set = new Set(english);
return [...new Set(seen.flatMap(words).filter((w) => set.has(w)))];
"#;

/// Asserts that the page shows no English outside the proper names.
async fn assert_no_english(browser: &Client, code: &str, when: &str) {
    let left = browser
        .execute(
            &format!("return (async () => {{ {ENGLISH_LEFT} }})();"),
            vec![],
        )
        .await
        .expect("read the page's words");
    assert_eq!(
        left,
        json!([]),
        "{code}, {when}: English words left on the page"
    );
}

/// Presses `css`, waits until `ready` (a script) is true, and asserts that
/// the page, in `code`, shows no English: [`assert_no_english`].
async fn press_and_check(browser: &Client, code: &str, css: &str, ready: &str, what: &str) {
    assert!(click(browser, css).await, "{code}: {what}");
    until(browser, ready, 30, what).await;
    assert_no_english(browser, code, what).await;
}

/// Chooses `code` with the page's language switcher.
async fn choose_language(browser: &Client, code: &str) {
    browser
        .execute(
            "const s = document.getElementById('language'); s.value = arguments[0]; \
             s.dispatchEvent(new Event('change'));",
            vec![json!(code)],
        )
        .await
        .expect("choose the language");
    until(
        browser,
        &format!("return document.documentElement.lang === {code:?};"),
        10,
        "the page in the chosen language",
    )
    .await;
}

/// The playground in each language it speaks: chosen with the switcher
/// and remembered across a reload; a whole `draw` match (one hand) played
/// against the computer, the page checked for English left at the start,
/// mid-hand and at the match's end (its banner, the score sheet and the
/// log), the rules card open; a screenshot at the end at a desktop's and a
/// phone's width.
#[tokio::test]
#[ignore = "needs chromium and chromedriver"]
async fn playground_speaks_each_language() {
    let server = TestServer::start().await;
    let (port, _chromedriver) = start_chromedriver().await;
    let listed = server::call(
        http::Method::GET,
        &format!("{}/web/i18n/languages.json", server.url()),
    )
    .await;
    let languages: Vec<String> = serde_json::from_slice(&listed.body).expect("the languages");
    assert!(languages.len() >= 2, "{languages:?}");
    for width in [DESKTOP, PHONE] {
        let profile = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("chromium-languages-{}", width.name));
        let _ = std::fs::remove_dir_all(&profile);
        let browser = open_browser(port, &profile, &width).await;
        for code in languages.iter().filter(|code| *code != "en") {
            let url = match_url(&server, "draw", 2, 11, "");
            open_page(&browser, &url).await;
            // (A new match each time: the one kept from the language
            // before is forgotten; the language chosen is kept.)
            browser
                .execute("localStorage.removeItem('pips.playground.v1');", vec![])
                .await
                .expect("forget the kept match");
            open_page(&browser, &url).await;
            choose_language(&browser, code).await;
            assert_no_english(&browser, code, "the start screen").await;
            // A refusal is said by its reason in the language; a reason the
            // catalog has no words for keeps the server's own message.
            let said = browser
                .execute(
                    "return [refusal('Play', 400, { reason: 'ERROR_REASON_NOT_YOUR_TURN', message: 'seat 1 is not to act' }).message, \
                     refusal('Play', 400, { reason: 'ERROR_REASON_MALFORMED_MOVE', message: 'the move names no tile' }).message];",
                    vec![],
                )
                .await
                .expect("the refusals");
            let catalog: Value = serde_json::from_slice(
                &server::call(
                    http::Method::GET,
                    &format!("{}/web/i18n/{code}.json", server.url()),
                )
                .await
                .body,
            )
            .expect("the catalog");
            let words = catalog["reason.ERROR_REASON_NOT_YOUR_TURN"]
                .as_str()
                .expect("the reason's words");
            assert!(
                said[0]
                    .as_str()
                    .is_some_and(|m| m.contains(words) && !m.contains("not to act")),
                "{code}: {said}"
            );
            assert!(
                said[1]
                    .as_str()
                    .is_some_and(|m| m.contains("the move names no tile")),
                "{code}: {said}"
            );
            // Remembered: a reload opens in it.
            open_page(&browser, &url).await;
            until(
                &browser,
                &format!("return document.documentElement.lang === {code:?};"),
                10,
                "remembered",
            )
            .await;
            assert!(click(&browser, "#new-game").await, "new game");
            let started = Instant::now();
            let mut moves = 0;
            loop {
                let page = probe_playing(&browser, started, code).await;
                if page["again"] == json!(true) {
                    break;
                }
                if page["busy"] == json!(false) && click_a_move(&browser, &page).await {
                    moves += 1;
                    if moves == 3 {
                        assert_no_english(&browser, code, "mid-hand").await;
                    }
                }
                if page["choosing"] == json!(true) {
                    click(&browser, "#choose-buttons button").await;
                }
                tokio::time::sleep(Duration::from_millis(30)).await;
            }
            assert_no_english(&browser, code, "the match's end").await;
            // The match's review, in the language too.
            assert!(click(&browser, "#review").await, "review the match");
            until(
                &browser,
                "const r = window.pipsPlayground.review; return !!r && !r.running && r.steps.length > 0;",
                120,
                "the review",
            )
            .await;
            press_and_check(
                &browser,
                code,
                "#review-moves button",
                "return !!window.pipsPlayground.review?.shown;",
                "a reviewed move",
            )
            .await;
            assert!(click(&browser, "#review-leave").await, "back to the end");
            screenshot(&browser, &format!("language-{code}-{}", width.name)).await;
            press_and_check(
                &browser,
                code,
                "#rules-button",
                "return document.getElementById('rules-card').open;",
                "the rules card",
            )
            .await;
            assert!(click(&browser, "#rules-close").await, "close the rules");
        }
        browser.close().await.expect("close the browser");
    }
}

/// axe-core's script (npm's `axe-core`; `.ci/run` installs it under
/// `target/ci-tools`, `AXE_CORE` may name another copy).
fn axe_source() -> String {
    let path = std::env::var_os("AXE_CORE").map_or_else(
        || {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("target/ci-tools/node_modules/axe-core/axe.min.js")
        },
        PathBuf::from,
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "axe-core at {} ({e}): npm install --prefix target/ci-tools axe-core",
            path.display()
        )
    })
}

/// Runs axe-core on the page as it is and asserts that it finds no
/// serious or critical violation of WCAG 2.1 A and AA (contrast among
/// them) or of its best practices.
async fn assert_accessible(browser: &Client, axe: &str, what: &str) {
    browser.execute(axe, vec![]).await.expect("inject axe-core");
    let found = browser
        .execute(
            "return axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'tag', \
             values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }).then((r) => \
             r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => \
             ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ')) })));",
            vec![],
        )
        .await
        .expect("run axe-core");
    assert_eq!(
        found,
        json!([]),
        "{what}: axe-core finds serious or critical violations"
    );
}

/// A view of the page checked: axe-core finds nothing serious or critical
/// ([`assert_accessible`]), no English is left in another `language`
/// ([`assert_no_english`]), and a screenshot named `shot` is taken.
async fn check_view(browser: &Client, axe: &str, language: &str, what: &str, shot: &str) {
    assert_accessible(browser, axe, what).await;
    if language != "en" {
        assert_no_english(browser, language, what).await;
    }
    screenshot(browser, shot).await;
}

/// Starts a new game of the options at `url` and waits for the player's
/// turn (or a computer seat's, at a trick table's auction).
async fn start_and_wait(browser: &Client, url: &str) {
    open_page(browser, url).await;
    browser
        .execute("localStorage.removeItem('pips.playground.v1'); document.querySelector('#new-game').click();", vec![])
        .await
        .expect("a new game");
    until(
        browser,
        "return !!document.querySelector('#hand button.playable, #other-moves button');",
        60,
        "the player's turn",
    )
    .await;
}

/// The playground under axe-core, in English and in another language (in
/// which no English may be left): the start screen, a line table, a train
/// table and a trick table on the player's turn, the invite panel of a
/// table by link, and its watch page;
/// and a friend's link, opened by a browser in another language, opens in
/// the friend's language (not its creator's). Screenshots of each.
#[tokio::test]
#[ignore = "needs chromium and chromedriver"]
async fn playground_passes_axe_core_in_every_view() {
    let axe = axe_source();
    let server = TestServer::start_with(pips::server::Config {
        tables_db: Some("sqlite::memory:".to_owned()),
        ..pips::server::Config::default()
    })
    .await;
    let (port, _chromedriver) = start_chromedriver().await;
    // At a desktop's width in English, at a phone's in every other language.
    let runs = [
        (DESKTOP, "en"),
        (PHONE, "es"),
        (PHONE, "fi"),
        (PHONE, "pl"),
        (PHONE, "sr-Latn"),
    ];
    for (width, language) in runs {
        let profile = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("chromium-axe-{}-{language}", width.name));
        let _ = std::fs::remove_dir_all(&profile);
        let browser = open_browser(port, &profile, &width).await;
        let base = server.url();
        open_page(&browser, &format!("{base}/")).await;
        choose_language(&browser, language).await;
        let shot = |view: &str| format!("axe-{view}-{language}-{}", width.name);
        check_view(&browser, &axe, language, "the start screen", &shot("start")).await;
        for (view, query) in [
            ("line", "variant=muggins&players=2"),
            ("train", "variant=mexican_train&players=4"),
            ("trick", "variant=texas42&players=4"),
        ] {
            start_and_wait(&browser, &format!("{base}/?delay=0&seed=3&{query}")).await;
            check_view(
                &browser,
                &axe,
                language,
                &format!("a {view} table"),
                &shot(view),
            )
            .await;
        }
        let links = create_friends_table(
            &browser,
            &format!("{base}/?variant=muggins&players=3&mode=friends&people=1,2"),
        )
        .await;
        check_view(
            &browser,
            &axe,
            language,
            "the invite panel",
            &shot("invite"),
        )
        .await;
        let watch = links.last().expect("a watch link").clone();
        open_page(&browser, &watch).await;
        until(
            &browser,
            "return !document.getElementById('watching-label').hidden;",
            20,
            "the watch page",
        )
        .await;
        check_view(&browser, &axe, language, "the watch page", &shot("watch")).await;
        // A friend's browser in another language opens the link in the
        // friend's language, not in its creator's.
        let theirs = if language == "es" { "fi" } else { "es" };
        let friend_profile = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("chromium-axe-friend-{}-{language}", width.name));
        let _ = std::fs::remove_dir_all(&friend_profile);
        let friend = open_browser_in(port, &friend_profile, &width, theirs).await;
        open_page(&friend, &links[0]).await;
        until(
            &friend,
            &format!("return document.documentElement.lang === {theirs:?};"),
            20,
            "the friend's language",
        )
        .await;
        assert_no_english(&friend, theirs, "a friend's seat").await;
        friend.close().await.expect("close the friend's browser");
        browser.close().await.expect("close the browser");
    }
}

/// Presses `key` on whatever has the focus, as a keyboard does.
async fn press(browser: &Client, key: fantoccini::key::Key) {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let actions = KeyActions::new("keyboard".to_owned())
        .then(KeyAction::Down { value: key.into() })
        .then(KeyAction::Up { value: key.into() });
    browser.perform_actions(actions).await.expect("press a key");
}

/// Moves the focus with Tab until it is on an element matching `css`
/// (shown with a visible focus ring), and presses Enter there; false when
/// a whole round of the page's controls passed without one.
async fn tab_to_and_press(browser: &Client, css: &str) -> bool {
    let focused = format!(
        "const el = document.activeElement; return !!el && el.matches({css:?}) && el.matches(':focus-visible');"
    );
    for _ in 0..150 {
        if browser.execute(&focused, vec![]).await.expect("the focus") == json!(true) {
            press(browser, fantoccini::key::Key::Enter).await;
            return true;
        }
        press(browser, fantoccini::key::Key::Tab).await;
    }
    false
}

/// Plays at the page by keyboard alone until `done` (a script) is true:
/// whatever the page offers (the next hand, a choice of end, a lit tile,
/// a bid, a contract, a draw or a pass) is reached with Tab and pressed
/// with Enter. Answers how many moves it made.
async fn play_by_keyboard(browser: &Client, done: &str, what: &str) -> u32 {
    let started = Instant::now();
    let mut moves = 0;
    loop {
        assert!(started.elapsed() < PATIENCE, "{what}: not over in time");
        if browser.execute(done, vec![]).await.expect("the page") == json!(true) {
            return moves;
        }
        let page = probe(browser).await;
        assert!(
            page["error"].is_null(),
            "{what}: the page shows an error: {}",
            page["error"]
        );
        let target = if page["nextHand"] == json!(true) {
            Some("#next-hand")
        } else if page["choosing"] == json!(true) {
            Some("#choose-buttons button")
        } else if page["busy"] == json!(false) && page["playable"].as_u64().unwrap_or(0) > 0 {
            Some("#hand button.playable")
        } else if page["busy"] == json!(false) && page["other"].as_u64().unwrap_or(0) > 0 {
            Some("#other-moves button")
        } else {
            None
        };
        match target {
            Some(css) => {
                if tab_to_and_press(browser, css).await && css != "#next-hand" {
                    moves += 1;
                    if moves == 5 {
                        screenshot(browser, &format!("keyboard-{what}")).await;
                    }
                }
            }
            None => tokio::time::sleep(Duration::from_millis(30)).await,
        }
    }
}

/// The playground by keyboard alone, as someone who cannot use a pointer
/// plays it: a new game started from the form with Tab and Enter, a whole
/// muggins match (tiles, ends, draws, passes, the next hand) in Finnish,
/// and a Texas 42 hand (bids, the contract, the tricks) in Serbian, every
/// control reached with Tab and shown with a visible focus ring, and no
/// English left at the end.
#[tokio::test]
#[ignore = "needs chromium and chromedriver"]
async fn playground_plays_by_keyboard_alone() {
    let server = TestServer::start().await;
    let (port, _chromedriver) = start_chromedriver().await;
    let profile = Path::new(env!("CARGO_TARGET_TMPDIR")).join("chromium-keyboard");
    let _ = std::fs::remove_dir_all(&profile);
    let browser = open_browser(port, &profile, &DESKTOP).await;
    // (Each in another language, set before the game: the English flows
    // are the clicking tests'.)
    for (variant, players, language, done) in [
        (
            "muggins",
            2,
            "fi",
            "return !document.getElementById('again').closest('[hidden]') && !document.getElementById('again').hidden;",
        ),
        (
            "texas42",
            4,
            "sr-Latn",
            "return !!window.pipsPlayground.finished || !!window.pipsPlayground.over;",
        ),
    ] {
        open_page(&browser, &match_url(&server, variant, players, 5, "")).await;
        browser
            .execute("localStorage.removeItem('pips.playground.v1');", vec![])
            .await
            .expect("forget the kept match");
        open_page(&browser, &match_url(&server, variant, players, 5, "")).await;
        choose_language(&browser, language).await;
        assert!(
            tab_to_and_press(&browser, "#new-game").await,
            "{variant}: New game by keyboard"
        );
        let moves = play_by_keyboard(&browser, done, variant).await;
        let state = browser
            .execute(
                "const g = window.pipsPlayground; return [!!g.over, g.finished?.ended?.hand ?? g.view?.handNumber ?? 0, g.sheet.length];",
                vec![],
            )
            .await
            .expect("the page's state");
        eprintln!("{variant}: {moves} moves by keyboard; over, hand, sheet: {state}");
        assert!(moves >= 5, "{variant}: {moves} moves by keyboard");
        if variant == "muggins" {
            assert_eq!(state[0], json!(true), "the whole match by keyboard");
        }
        let page = probe(&browser).await;
        assert!(page["error"].is_null(), "{variant}: {}", page["error"]);
        assert_no_english(&browser, language, &format!("{variant}'s end")).await;
    }
    browser.close().await.expect("close the browser");
}
