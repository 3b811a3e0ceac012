//! The playground in a real browser: headless Chromium, driven over
//! chromedriver (WebDriver), opens the page on the real server, starts a
//! `muggins` game, plays by clicking until the first hand ends, and checks
//! that the page shows the scores the server reports. It saves a screenshot
//! under `target/`.
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
use server::{TestServer, post_json};

/// How long the whole game may take before the test gives up (a guard
/// against hanging, not a speed requirement).
const PATIENCE: Duration = Duration::from_secs(120);

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
async fn open_browser(port: u16, profile: &Path) -> Client {
    let chromium = find_program("CHROMIUM", &["/usr/bin/chromium", "chromium"]);
    let capabilities = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1280,1100",
                format!("--user-data-dir={}", profile.display()),
            ],
        },
    });
    let Value::Object(capabilities) = capabilities else {
        unreachable!("an object literal")
    };
    ClientBuilder::new(HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a Chromium session")
}

/// Whether the page has an element matching `css`.
async fn has(browser: &Client, css: &str) -> bool {
    browser
        .find_all(Locator::Css(css))
        .await
        .map(|found| !found.is_empty())
        .unwrap_or(false)
}

/// The scores the page shows, by side.
async fn shown_scores(browser: &Client) -> Vec<i64> {
    let rows = browser
        .find_all(Locator::Css("#scores tr[data-side] .points"))
        .await
        .expect("score rows");
    let mut scores = Vec::new();
    for row in rows {
        let text = row.text().await.expect("score text");
        scores.push(text.trim().parse().expect("a number"));
    }
    scores
}

#[tokio::test]
#[ignore = "needs chromium and chromium-driver; run with --ignored (.ci/run does)"]
async fn playground_plays_the_first_muggins_hand_in_chromium() {
    let server = TestServer::start().await;
    let (port, _chromedriver) = start_chromedriver().await;
    let profile = Path::new(env!("CARGO_TARGET_TMPDIR")).join("chromium-profile");
    let _ = std::fs::remove_dir_all(&profile);
    let browser = open_browser(port, &profile).await;

    browser
        .goto(&format!("{}/?delay=0&seed=20261129", server.url()))
        .await
        .expect("open the playground");
    browser
        .wait()
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .expect("the page loads the variants");
    browser
        .find(Locator::Css("#variant option[value='muggins']"))
        .await
        .expect("muggins is offered")
        .click()
        .await
        .expect("pick muggins");
    browser
        .find(Locator::Css("#players option[value='2']"))
        .await
        .expect("2 players offered")
        .click()
        .await
        .expect("pick 2 players");
    browser
        .find(Locator::Css("#new-game"))
        .await
        .expect("new game button")
        .click()
        .await
        .expect("start");

    // Play: click the first legal move whenever it is our turn, until the
    // page announces the end of the hand.
    let started = Instant::now();
    let mut clicks = 0;
    while !has(&browser, "#log li.hand-ended").await {
        assert!(
            started.elapsed() < PATIENCE,
            "the first hand did not end ({clicks} clicks)"
        );
        assert!(
            !has(&browser, "#error:not([hidden])").await,
            "the page shows an error"
        );
        if let Ok(button) = browser.find(Locator::Css("#moves button.move")).await {
            // The page may redraw between finding and clicking; then try
            // again.
            if button.click().await.is_ok() {
                clicks += 1;
            }
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    assert!(clicks > 0, "seat 0 moved by clicking");
    assert!(has(&browser, "#banner:not([hidden]) #next-hand").await);
    assert!(has(&browser, "#log li.played").await);

    let screenshot = browser.screenshot().await.expect("screenshot");
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("playground-muggins.png");
    std::fs::write(&shot, screenshot).expect("save the screenshot");

    // The scores on the page are the scores the server reports for the
    // page's state.
    let state = browser
        .execute("return window.pipsPlayground.state;", vec![])
        .await
        .expect("the page's state");
    let view = post_json(
        &format!("{}/v1/View", server.url()),
        json!({ "state": state, "seat": 0 }).to_string(),
    )
    .await;
    assert!(view.status.is_success(), "{}", view.json());
    let reported: Vec<i64> = view.json()["scores"]
        .as_array()
        .expect("scores")
        .iter()
        .map(|s| s.as_i64().unwrap_or(0))
        .collect();
    let shown = shown_scores(&browser).await;
    assert_eq!(shown, reported, "the page shows the server's scores");
    assert_eq!(shown.len(), 2);
    assert!(
        reported.iter().any(|&s| s > 0),
        "someone scored in the first hand: {reported:?}"
    );
    // The hand-over banner quotes the same scores.
    let banner = browser
        .find(Locator::Css("#banner-text"))
        .await
        .expect("banner")
        .text()
        .await
        .expect("banner text");
    let quoted: Vec<String> = reported.iter().map(i64::to_string).collect();
    assert!(banner.contains(&quoted.join(" – ")), "{banner}");

    browser.close().await.expect("close the browser");
    server.stop().await;
    println!("screenshot: {}", shot.display());
}
