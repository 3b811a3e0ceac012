//! The real server against clients that aim at what costs it real work:
//! long replays whose answers nobody reads, searches by the dozen, calls
//! that hold waiting places, a deadline shorter than the search cap, the
//! metrics listener held open, and oversize bodies. Each must be refused
//! or bounded at once, and leave well-behaved callers served.

use crate::server;

use std::time::Duration;

use bytes::Bytes;
use http::header;
use http_body_util::Full;
use pips::proto::{self, ErrorReason};
use pips::server::Config;
use pips::service::Engine;
use pips::service::pool::PoolSize;
use prost::Message;
use server::{
    TestServer, a_choice, grpc_frame, http2, http2_watched, post_json, reason, record, send,
    stalled_http2_calls,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::task::JoinSet;

/// Waits at most this long for the server to close a connection or answer:
/// far above the short timeouts the tests configure, so a pass is not a
/// race.
const WITHIN: Duration = Duration::from_secs(15);

/// An `expert` suggestion request for `seat` searching up to `budget_ms`.
fn expert(state: &proto::GameState, seat: u32, budget_ms: u32) -> proto::SuggestMoveRequest {
    proto::SuggestMoveRequest {
        state_source: Some(state.clone().into()),
        seat,
        level: proto::BotLevel::Expert as i32,
        playouts: Some(1_000_000),
        time_budget_ms: Some(budget_ms),
        ..Default::default()
    }
}

fn overloaded(status: &tonic::Status) -> bool {
    status.code() == tonic::Code::ResourceExhausted
        && reason(status) == ErrorReason::Overloaded.as_str_name()
}

#[tokio::test]
async fn a_long_replay_over_grpc_answers_what_the_engine_answers() {
    let server = TestServer::start().await;
    let mut client = server.client().await;
    for moves in [40, 2_000] {
        let request = record(moves);
        let expected = Engine::default().replay(&request).expect("replayed");
        let answer = client
            .replay(request.clone())
            .await
            .expect("answered")
            .into_inner();
        assert_eq!(answer, expected, "{moves} moves");
        // An illegal move is refused naming it, on either path.
        let mut bad = request;
        let last = bad.moves.len() - 1;
        bad.moves[last] = bad.moves[0];
        let status = client.replay(bad).await.expect_err("illegal");
        assert_eq!(status.code(), tonic::Code::FailedPrecondition, "{status:?}");
    }
    // Malformed protobuf is the caller's fault.
    let answer = send(
        http::Request::post(format!(
            "{}/pips.v1.DominoEngineService/Replay",
            server.url()
        ))
        .header(header::CONTENT_TYPE, "application/grpc-web+proto")
        .body(Full::new(Bytes::from_static(&[0, 0, 0, 0, 2, 0xff, 0xff])))
        .expect("request"),
    )
    .await;
    let status = tonic::Status::from_header_map(&answer.headers).expect("a status");
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert_eq!(reason(&status), "ERROR_REASON_MALFORMED_REQUEST");
    server.stop().await;
}

/// A server whose work pool is one thread and no queue (a search may take
/// three seconds): whatever else comes while it searches is refused.
async fn one_thread_no_queue() -> TestServer {
    TestServer::start_with(Config {
        work_pool: PoolSize {
            threads: 1,
            queue: 0,
        },
        max_suggest: Duration::from_secs(3),
        ..Config::default()
    })
    .await
}

#[tokio::test]
async fn searches_and_long_replays_share_a_bounded_pool() {
    let server = one_thread_no_queue().await;
    let (state, seat) = a_choice(&server).await;
    // A search takes the pool's one thread for two seconds ...
    let mut searcher = server.client().await;
    let search =
        tokio::spawn(async move { searcher.suggest_move(expert(&state, seat, 2_000)).await });
    // ... so a long replay from another connection is refused at once
    // (once the search has reached the pool) ...
    let long = record(2_000);
    let mut other = server.client().await;
    let mut refusal = None;
    for _ in 0..15 {
        if let Err(status) = other.replay(long.clone()).await {
            refusal = Some(status);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let status = refusal.expect("refused while the search ran");
    assert!(overloaded(&status), "{status:?}");
    assert!(!search.is_finished(), "refused while the search ran");
    // ... while short replays and cheap calls are served.
    other.replay(record(40)).await.expect("a short replay");
    other
        .list_variants(proto::ListVariantsRequest {})
        .await
        .expect("a cheap call");
    let suggestion = search.await.expect("joined").expect("a move").into_inner();
    assert!(suggestion.playouts > 0, "the search ran");
    other.replay(long).await.expect("room again");
    server.stop().await;
}

#[tokio::test]
async fn one_connection_gets_a_share_of_the_pool_and_others_still_get_in() {
    let server = TestServer::start_with(Config {
        // Room for 8, a quarter of it (2) for one connection.
        work_pool: PoolSize {
            threads: 1,
            queue: 7,
        },
        ..Config::default()
    })
    .await;
    let (state, seat) = a_choice(&server).await;
    let greedy = server.client().await;
    let mut calls = JoinSet::new();
    for _ in 0..6 {
        let (mut client, request) = (greedy.clone(), expert(&state, seat, 1_000));
        calls.spawn(async move { client.suggest_move(request).await });
    }
    let mut other = server.client().await;
    let mine = other.suggest_move(expert(&state, seat, 50)).await;
    assert!(mine.is_ok(), "another connection gets in: {mine:?}");
    let (mut answered, mut refused) = (0, 0);
    while let Some(call) = calls.join_next().await {
        match call.expect("joined") {
            Ok(_) => answered += 1,
            Err(status) if overloaded(&status) => {
                assert!(status.message().contains("share"), "{}", status.message());
                refused += 1;
            }
            Err(status) => panic!("{status:?}"),
        }
    }
    assert_eq!((answered, refused), (2, 4));
    server.stop().await;
}

#[tokio::test]
async fn suggestions_are_answered_with_a_move_before_their_deadline() {
    let server = TestServer::start_with(Config {
        work_pool: PoolSize {
            threads: 1,
            queue: 4,
        },
        max_suggest: Duration::from_secs(1),
        ..Config::default()
    })
    .await;
    let (state, seat) = a_choice(&server).await;
    let mut client = server.client().await;
    // Deadlines at and under the server's cap.
    for deadline_ms in [1_000, 200, 100, 50] {
        let mut request = tonic::Request::new(expert(&state, seat, 1_000));
        request.set_timeout(Duration::from_millis(deadline_ms));
        let answer = client.suggest_move(request).await;
        let answer = answer.unwrap_or_else(|s| panic!("{deadline_ms} ms: {s:?}"));
        assert!(answer.get_ref().r#move.is_some());
    }
    // With the pool's thread busy, a call with a deadline is answered with
    // greedy's move (no playouts) before it rather than waiting.
    let mut busy = server.client().await;
    let taken = expert(&state, seat, 1_000);
    let search = tokio::spawn(async move { busy.suggest_move(taken).await });
    let mut fallback = None;
    for _ in 0..8 {
        let mut request = tonic::Request::new(expert(&state, seat, 1_000));
        request.set_timeout(Duration::from_millis(100));
        let answer = client.suggest_move(request).await.expect("a move");
        assert!(answer.get_ref().r#move.is_some());
        if answer.get_ref().playouts == 0 {
            fallback = Some(answer);
            break;
        }
    }
    assert!(
        fallback.is_some(),
        "answered with greedy's move while the pool was busy"
    );
    search.await.expect("joined").expect("answered");
    server.stop().await;
}

/// Sends a gRPC Replay of `request` on `sender` and waits for the answer's
/// head only (its body is left unread); the status, if the head carries one.
async fn unread_replay(
    sender: &h2::client::SendRequest<Bytes>,
    addr: std::net::SocketAddr,
    request: &proto::ReplayRequest,
) -> (h2::RecvStream, Option<tonic::Status>) {
    let mut sender = sender.clone().ready().await.expect("a stream");
    let head = http::Request::post(format!("http://{addr}/pips.v1.DominoEngineService/Replay"))
        .header(header::CONTENT_TYPE, "application/grpc")
        .header("te", "trailers")
        .body(())
        .expect("request");
    let (answer, mut body) = sender.send_request(head, false).expect("sent");
    let frame = grpc_frame(0, &request.encode_to_vec());
    body.send_data(Bytes::from(frame), true).expect("data");
    let answer = tokio::time::timeout(WITHIN, answer)
        .await
        .expect("a head in time")
        .expect("a head");
    let status = tonic::Status::from_header_map(answer.headers());
    (answer.into_body(), status)
}

#[tokio::test]
async fn unread_answers_hold_a_bounded_budget_that_frees_when_they_go() {
    let request = record(2_500);
    // What an unread answer holds: its gRPC frame, in KiB.
    let answer_units = (Engine::default()
        .replay(&request)
        .expect("replayed")
        .encoded_len()
        + 5)
    .div_ceil(1024);
    let small_units = pips::service::engine::list_variants()
        .encoded_len()
        .div_ceil(1024);
    assert!(answer_units > 64, "a large answer: {answer_units} KiB");
    assert!(small_units > 4, "ListVariants: {small_units} KiB");
    // The server holds twelve answers and 4 KiB more, a connection an
    // eighth of it (one and a half answers).
    let server = TestServer::start_with(Config {
        max_answer_bytes: 1024 * (12 * answer_units + 4),
        ..Config::default()
    })
    .await;
    let (first, first_driver) = http2_watched(server.addr, 0).await;
    let (_held, status) = unread_replay(&first, server.addr, &request).await;
    assert!(status.is_none(), "{status:?}");
    let (_, status) = unread_replay(&first, server.addr, &request).await;
    let status = status.expect("refused");
    assert!(overloaded(&status), "{status:?}");
    assert!(status.message().contains("this connection"), "{status:?}");
    // Eleven more connections that read nothing fill the server's budget.
    let mut connections = Vec::new();
    for _ in 0..11 {
        let (sender, driver) = http2_watched(server.addr, 0).await;
        let (held, status) = unread_replay(&sender, server.addr, &request).await;
        assert!(status.is_none(), "{status:?}");
        connections.push((sender, driver, held));
    }
    // The budget is spent: a call from a client that reads its answers
    // closes the connection holding the most unread ones, and is served.
    let mut client = server.client().await;
    client
        .list_variants(proto::ListVariantsRequest {})
        .await
        .expect("served once a hoarder is closed");
    let mut closed = 0;
    for _ in 0..50 {
        closed = connections
            .iter()
            .map(|(_, driver, _)| driver)
            .chain([&first_driver])
            .filter(|driver| driver.is_finished())
            .count();
        if closed > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(closed, 1, "one hoarder closed");
    // Closing the connections frees theirs: a long answer fits again, for
    // a client that reads it.
    for (_, driver, _) in &connections {
        driver.abort();
    }
    first_driver.abort();
    client.replay(request).await.expect("room again");
    server.stop().await;
}

#[tokio::test]
async fn one_connection_cannot_take_every_waiting_place() {
    let server = TestServer::start_with(Config {
        max_waiting_bodies_per_connection: 4,
        body_timeout: Duration::from_secs(5),
        ..Config::default()
    })
    .await;
    // One connection: ten calls whose bodies never finish.
    let (_sender, mut answers, bodies) = stalled_http2_calls(server.addr, 10).await;
    // Six are refused at once (their connection has its share) ...
    let mut refused = 0;
    for answer in answers.iter_mut().rev().take(6) {
        let head = tokio::time::timeout(WITHIN, answer).await.expect("in time");
        let status = tonic::Status::from_header_map(head.expect("a head").headers());
        let status = status.expect("refused");
        assert!(overloaded(&status), "{status:?}");
        assert!(status.message().contains("this connection"), "{status:?}");
        refused += 1;
    }
    assert_eq!(refused, 6);
    // ... while a client on another connection whose body comes in a
    // second write (as Python's http.client sends it) is served.
    let mut split = TcpStream::connect(server.addr).await.expect("connect");
    split
        .write_all(
            b"POST /v1/ListVariants HTTP/1.1\r\nhost: pips\r\ncontent-length: 2\r\n\
              content-type: application/json\r\n\r\n",
        )
        .await
        .expect("head");
    tokio::time::sleep(Duration::from_millis(100)).await;
    split.write_all(b"{}").await.expect("body");
    let mut answer = [0u8; 12];
    tokio::time::timeout(WITHIN, split.read_exact(&mut answer))
        .await
        .expect("in time")
        .expect("an answer");
    assert_eq!(&answer, b"HTTP/1.1 200");
    drop(bodies);
    server.stop().await;
}

#[tokio::test]
async fn oversize_bodies_are_refused_at_once_naming_the_configured_limit() {
    let server = TestServer::start_with(Config {
        body_timeout: Duration::from_secs(60),
        ..Config::default()
    })
    .await;
    // A declared length far over the limit, no body sent: answered at once.
    let mut stream = TcpStream::connect(server.addr).await.expect("connect");
    stream
        .write_all(
            b"POST /v1/Replay HTTP/1.1\r\nhost: pips\r\ncontent-type: application/json\r\n\
              content-length: 1000000000000\r\n\r\n",
        )
        .await
        .expect("head");
    let mut answer = vec![0u8; 2048];
    let read = tokio::time::timeout(WITHIN, stream.read(&mut answer))
        .await
        .expect("answered before the body timeout")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer[..read]);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    // A JSON body just over the limit names the limit itself.
    let body = format!(r#"{{"variant":"{}"}}"#, "a".repeat(1_100_000));
    let answer = post_json(&format!("{}/v1/NewGame", server.url()), body).await;
    assert_eq!(answer.status, http::StatusCode::PAYLOAD_TOO_LARGE);
    let message = answer.json()["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(message.contains("1048576 bytes"), "{message}");
    server.stop().await;
}

/// A metrics listener served with `config` on a loopback port: its
/// address, what stops it, and its task.
async fn metrics_listener(
    config: Config,
) -> (
    std::net::SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let metrics = tokio::spawn(async move {
        pips::server::serve_metrics(listener, &config, async {
            let _ = stopped.await;
        })
        .await;
    });
    (addr, stop, metrics)
}

#[tokio::test]
async fn a_scrape_gets_through_a_metrics_listener_held_by_idle_connections() {
    // (A header timeout longer than the test waits for a scrape: only
    // making way for it can serve it.)
    let (addr, stop, metrics) = metrics_listener(Config {
        header_timeout: Duration::from_secs(2 * WITHIN.as_secs()),
        idle_timeout: Duration::from_secs(2),
        ..Config::default()
    })
    .await;
    // Twice as many half-sent requests as the listener serves at once ...
    let mut held = Vec::new();
    for _ in 0..2 * pips::server::METRICS_MAX_CONNECTIONS {
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        stream
            .write_all(b"GET /metrics HTTP/1.1\r\nho")
            .await
            .expect("write");
        held.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    // ... and yet each scrape is served, the connection idle longest
    // closed to make way for it, long before any header timeout.
    for _ in 0..5 {
        let url = format!("http://{addr}/metrics");
        let scraped = tokio::time::timeout(WITHIN, server::call(http::Method::GET, &url))
            .await
            .expect("served in time");
        assert_eq!(scraped.status, http::StatusCode::OK);
        assert!(String::from_utf8_lossy(&scraped.body).contains("pips_calls"));
        // A held connection is replaced as soon as it is closed.
        held.push(TcpStream::connect(addr).await.expect("connect"));
    }
    // The connections replaced were closed: at least one per scrape and
    // per connection beyond the cap.
    let mut closed = 0;
    for stream in &mut held {
        let mut rest = Vec::new();
        let read = stream.read_to_end(&mut rest);
        if tokio::time::timeout(Duration::from_millis(200), read)
            .await
            .is_ok()
        {
            closed += 1;
        }
    }
    assert!(
        closed >= 5 + pips::server::METRICS_MAX_CONNECTIONS,
        "{closed} closed"
    );
    let _ = stop.send(());
    metrics.await.expect("stopped");
}

/// How long a scrape may take: Prometheus' own default scrape timeout.
/// Far below the listener's 30 s wait for a silent connection's request,
/// so that a scrape answered within it was made way for; and room enough
/// for a machine busy with the rest of the suite.
const SCRAPE_TIMEOUT: Duration = Duration::from_secs(10);

/// A scrape of `addr` from a client of its own (a thread, as Prometheus
/// is a process of its own): whether it was answered within
/// [`SCRAPE_TIMEOUT`].
fn scrape_in_time(addr: std::net::SocketAddr) -> bool {
    use std::io::{Read as _, Write as _};
    let started = std::time::Instant::now();
    let Ok(mut stream) = std::net::TcpStream::connect_timeout(&addr, SCRAPE_TIMEOUT) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(SCRAPE_TIMEOUT));
    if stream
        .write_all(b"GET /metrics HTTP/1.1\r\nhost: pips\r\nconnection: close\r\n\r\n")
        .is_err()
    {
        return false;
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    answer.starts_with(b"HTTP/1.1 200") && started.elapsed() < SCRAPE_TIMEOUT
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scrape_gets_through_a_burst_of_silent_connections() {
    let (addr, stop, metrics) = metrics_listener(Config {
        header_timeout: Duration::from_secs(30),
        ..Config::default()
    })
    .await;
    // Five times, a hundred silent connections opened at once (and held)
    // as a scrape is asked: each scrape is answered within Prometheus'
    // timeout (the silent connections' own wait is 30 s), the listener
    // making way for it.
    let answered = tokio::task::spawn_blocking(move || {
        let mut held = Vec::new();
        let mut answered = 0;
        for _ in 0..5 {
            let burst = std::thread::spawn(move || {
                (0..100)
                    .filter_map(|_| std::net::TcpStream::connect(addr).ok())
                    .collect::<Vec<_>>()
            });
            if scrape_in_time(addr) {
                answered += 1;
            }
            held.extend(burst.join().expect("the burst"));
        }
        answered
    })
    .await
    .expect("scrapes");
    assert_eq!(answered, 5, "scrapes answered within {SCRAPE_TIMEOUT:?}");
    let _ = stop.send(());
    metrics.await.expect("stopped");
}

/// A state padded with moves nobody made (a thousand passes; 300,000 to
/// 450,000 in a token just under the request limit) is refused by every RPC that reads a state, as a readable
/// state and as an open token, over gRPC and JSON, before any search or
/// render: the padding the line games once carried forward.
#[tokio::test]
async fn padded_histories_are_refused_by_every_rpc() {
    let server = TestServer::start().await;
    let mut engine = server.client().await;
    for (variant, players) in [
        ("muggins", 2),
        ("draw", 3),
        ("block", 2),
        ("dominican", 4),
        ("mexican_train", 4),
        ("chicken_foot", 2),
    ] {
        let deal = |as_token| proto::NewGameRequest {
            variant: variant.to_owned(),
            players,
            seed: Some(42),
            as_token,
            ..Default::default()
        };
        let update = engine
            .new_game(deal(false))
            .await
            .expect("deal")
            .into_inner();
        let mut state = update.state.expect("state");
        let seat = update.to_act.expect("a seat to act");
        let pass = proto::HistoryEntry {
            seat,
            action: Some(proto::history_entry::Action::Pass(proto::Pass {})),
        };
        state.history.extend(std::iter::repeat_n(pass, 1000));
        let token = engine
            .new_game(deal(true))
            .await
            .expect("deal")
            .into_inner()
            .state_token;
        let mut packed = proto::PackedState::decode(token.as_slice()).expect("an open token");
        let width = if variant.ends_with("train") || variant.ends_with("foot") {
            3
        } else {
            2
        };
        let mut padding = vec![0u8; width];
        padding[0] = 2 | (u8::try_from(seat).expect("seat") << 2);
        packed
            .history
            .extend(padding.iter().cycle().take(900_000 / width * width));
        let token = packed.encode_to_vec();
        let sources: [(proto::play_request::StateSource, &str); 2] = [
            (state.clone().into(), "state.history"),
            (token.clone().into(), "state_token.history"),
        ];
        for (source, field) in sources {
            let (view_source, suggest_source) = match &source {
                proto::play_request::StateSource::State(s) => (
                    proto::view_request::StateSource::State(s.clone()),
                    proto::suggest_move_request::StateSource::State(s.clone()),
                ),
                proto::play_request::StateSource::StateToken(t) => (
                    proto::view_request::StateSource::StateToken(t.clone()),
                    proto::suggest_move_request::StateSource::StateToken(t.clone()),
                ),
            };
            let play = engine
                .play(proto::PlayRequest {
                    state_source: Some(source),
                    r#move: update.legal_moves.first().copied(),
                    ..Default::default()
                })
                .await;
            let view = engine
                .view(proto::ViewRequest {
                    state_source: Some(view_source),
                    seat,
                })
                .await;
            let suggest = engine
                .suggest_move(proto::SuggestMoveRequest {
                    state_source: Some(suggest_source),
                    seat,
                    level: proto::BotLevel::Expert as i32,
                    time_budget_ms: Some(100),
                    ..Default::default()
                })
                .await;
            for status in [play.map(|_| ()), view.map(|_| ()), suggest.map(|_| ())] {
                let status = status.expect_err("a padded state is refused");
                assert_eq!(
                    status.code(),
                    tonic::Code::InvalidArgument,
                    "{variant}: {status:?}"
                );
                assert_eq!(
                    reason(&status),
                    ErrorReason::InconsistentState.as_str_name(),
                    "{variant}: {status:?}"
                );
                assert!(
                    status.message().contains(field),
                    "{variant}: {}",
                    status.message()
                );
            }
        }
        // Over JSON too.
        let body = serde_json::json!({ "state": serde_json::to_value(&state).expect("json"), "seat": seat });
        let answer = post_json(&format!("{}/v1/View", server.url()), body.to_string()).await;
        assert_eq!(answer.status, http::StatusCode::BAD_REQUEST, "{variant}");
        assert_eq!(
            answer.json()["reason"],
            "ERROR_REASON_INCONSISTENT_STATE",
            "{variant}"
        );
    }
    server.stop().await;
}

/// Small answers count too: connections that open every stream they may
/// for `ListVariants` (8 KiB an answer) and read nothing hold no more than
/// the server's budget; once it is spent they are closed, the fattest
/// first, while a client that reads is served.
#[tokio::test]
async fn small_unread_answers_count_against_the_budget() {
    let server = TestServer::start_with(Config {
        max_answer_bytes: 2 * 1024 * 1024,
        ..Config::default()
    })
    .await;
    let mut hoarders = Vec::new();
    for _ in 0..20 {
        let (sender, driver) = http2_watched(server.addr, 0).await;
        let mut heads = Vec::new();
        for _ in 0..100 {
            let Ok(mut ready) = sender.clone().ready().await else {
                break;
            };
            let head = http::Request::post(format!(
                "http://{}/pips.v1.DominoEngineService/ListVariants",
                server.addr
            ))
            .header(header::CONTENT_TYPE, "application/grpc")
            .header("te", "trailers")
            .body(())
            .expect("request");
            let Ok((answer, mut body)) = ready.send_request(head, false) else {
                break;
            };
            let _ = body.send_data(Bytes::from(grpc_frame(0, &[])), true);
            heads.push(answer);
        }
        // Each answer's head comes (its body never read).
        for head in heads {
            let _ = tokio::time::timeout(WITHIN, head).await;
        }
        hoarders.push(driver);
        // A client that reads is served throughout.
        let mut client = server.client().await;
        client
            .list_variants(proto::ListVariantsRequest {})
            .await
            .expect("a reading client is served");
    }
    // 20 connections asked for 2,000 answers of 8 KiB (16 MB); the budget
    // holds 2 MiB, about two and a half connections' worth.
    let open = hoarders
        .iter()
        .filter(|driver| !driver.is_finished())
        .count();
    assert!(open <= 4, "{open} hoarding connections still open");
    for driver in hoarders {
        driver.abort();
    }
    server.stop().await;
}

/// A body over the limit is refused before it is read, and the rest of it
/// read and discarded: a client that sends its whole body before reading
/// (as Python's `http.client` and `requests` and Node's `fetch` do) reads
/// the 413 and its reason rather than a broken pipe; so does an HTTP/2
/// client (gRPC) that sends a message over the limit.
#[tokio::test]
async fn an_early_refusal_is_read_by_a_client_that_sends_its_whole_body_first() {
    let server = TestServer::start().await;
    // (Larger than loopback's socket buffers take before the server reads.)
    let body = format!(r#"{{"variant":"{}"}}"#, "a".repeat(8_000_000));
    for _ in 0..10 {
        let mut stream = TcpStream::connect(server.addr).await.expect("connect");
        let head = format!(
            "POST /v1/NewGame HTTP/1.1\r\nhost: pips\r\ncontent-type: application/json\r\n\
             content-length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).await.expect("head");
        stream
            .write_all(body.as_bytes())
            .await
            .expect("the whole body is taken");
        let mut answer = vec![0u8; 4096];
        let read = tokio::time::timeout(WITHIN, stream.read(&mut answer))
            .await
            .expect("answered")
            .expect("read");
        let answer = String::from_utf8_lossy(&answer[..read]);
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        assert!(
            answer.contains("ERROR_REASON_REQUEST_TOO_LARGE"),
            "{answer}"
        );
    }
    // gRPC: a message over the limit, sent whole, then the status read.
    let sender = http2(server.addr).await;
    let mut sender = sender.ready().await.expect("a stream");
    let head = http::Request::post(format!(
        "http://{}/pips.v1.DominoEngineService/NewGame",
        server.addr
    ))
    .header(header::CONTENT_TYPE, "application/grpc")
    .header("te", "trailers")
    .body(())
    .expect("request");
    let (answer, mut outgoing) = sender.send_request(head, false).expect("sent");
    let message = proto::NewGameRequest {
        variant: "a".repeat(2_000_000),
        ..Default::default()
    };
    let frame = Bytes::from(grpc_frame(0, &message.encode_to_vec()));
    let mut sent = 0;
    while sent < frame.len() {
        outgoing.reserve_capacity(frame.len() - sent);
        let room = std::future::poll_fn(|cx| outgoing.poll_capacity(cx))
            .await
            .expect("room")
            .expect("capacity");
        let end = (sent + room).min(frame.len());
        outgoing
            .send_data(frame.slice(sent..end), end == frame.len())
            .expect("sent");
        sent = end;
    }
    let head = tokio::time::timeout(WITHIN, answer)
        .await
        .expect("answered")
        .expect("a head");
    let status = tonic::Status::from_header_map(head.headers()).expect("a status");
    assert_eq!(status.code(), tonic::Code::OutOfRange, "{status:?}");
    assert_eq!(reason(&status), ErrorReason::RequestTooLarge.as_str_name());
    server.stop().await;
}

/// A large request (here a state padded with 40 KB of JSON whitespace, or
/// of a protobuf field no message has) is parsed, run and answered on the
/// work pool, never on the threads that carry every connection: while
/// the pool's one thread is busy with a search, the large `View` (JSON and
/// gRPC) is refused at once as the pool refuses (and served once it is
/// free), and the same call in its usual size is served meanwhile.
#[tokio::test]
async fn large_requests_are_served_on_the_work_pool() {
    let server = one_thread_no_queue().await;
    let (state, seat) = a_choice(&server).await;
    let view =
        serde_json::json!({ "state": serde_json::to_value(&state).expect("json"), "seat": seat })
            .to_string();
    let padded_view = format!("{view}{}", " ".repeat(40_000));
    let grpc_view = proto::ViewRequest {
        state_source: Some(state.clone().into()),
        seat,
    }
    .encode_to_vec();
    // Field 1000 (no field of `ViewRequest`: skipped by the decoder), 40 KB.
    let mut padded_grpc = grpc_view.clone();
    let unknown = vec![b'x'; 40_000];
    prost::encoding::bytes::encode(1000, &unknown, &mut padded_grpc);
    let grpc_view_call = |body: Vec<u8>| {
        let addr = server.addr;
        async move {
            let mut sender = http2(addr).await.ready().await.expect("a stream");
            let head =
                http::Request::post(format!("http://{addr}/pips.v1.DominoEngineService/View"))
                    .header(header::CONTENT_TYPE, "application/grpc")
                    .header("te", "trailers")
                    .body(())
                    .expect("request");
            let (answer, mut outgoing) = sender.send_request(head, false).expect("sent");
            outgoing
                .send_data(Bytes::from(grpc_frame(0, &body)), true)
                .expect("data");
            let answer = tokio::time::timeout(WITHIN, answer)
                .await
                .expect("in time")
                .expect("a head");
            // A refusal is trailers-only: its status is in the head.
            tonic::Status::from_header_map(answer.headers())
        }
    };
    // The search takes the pool's one thread.
    let mut searcher = server.client().await;
    let search_state = state.clone();
    let search = tokio::spawn(async move {
        searcher
            .suggest_move(expert(&search_state, seat, 2_000))
            .await
    });
    let url = format!("{}/v1/View", server.url());
    let mut refused = false;
    for _ in 0..20 {
        let answer = post_json(&url, padded_view.clone()).await;
        if answer.status == http::StatusCode::TOO_MANY_REQUESTS {
            refused = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(refused, "a large View waited for the pool");
    let status = grpc_view_call(padded_grpc.clone()).await.expect("refused");
    assert!(overloaded(&status), "{status:?}");
    assert!(!search.is_finished(), "refused while the search ran");
    // The usual sizes are served meanwhile, on the calling task.
    assert_eq!(
        post_json(&url, view.clone()).await.status,
        http::StatusCode::OK
    );
    assert!(
        grpc_view_call(grpc_view).await.is_none(),
        "a small gRPC View is served"
    );
    search.await.expect("joined").expect("a move");
    // The pool free, the large ones are served alike.
    let small = post_json(&url, view).await;
    let large = post_json(&url, padded_view).await;
    assert_eq!(large.status, http::StatusCode::OK);
    assert_eq!(large.json(), small.json());
    assert!(grpc_view_call(padded_grpc).await.is_none(), "served");
    server.stop().await;
}
