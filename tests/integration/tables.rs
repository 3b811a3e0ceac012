//! Tables by link against the real server: a table created with its seats,
//! each seat opened by its link and seeing only what it may (the watch
//! link: no hand, acting for nobody), moves made at the table's move
//! number (a stale or repeated one never applied twice), a link that acts
//! for another seat or opens nothing refused, computer seats that move on
//! their own, live updates and presence, a late seat played by the
//! computer, a rematch, a whole match played by links whose record
//! replays to the same digest, expiry, the limits per address and table,
//! tables that outlive a restart of the server on the same database, and
//! a server killed with SIGKILL mid-match that loses no acknowledged move
//! and resumes.

use crate::server;

use std::time::Duration;

use pips::proto::table_service_client::TableServiceClient;
use pips::proto::{self, ErrorReason};
use pips::server::Config;
use server::{Binary, TestServer, post_json, reason};
use tonic::transport::Channel;

/// The database the tests keep tables on: `PIPS_TEST_TABLES_DB` if set
/// (CI sets a PostgreSQL database), else SQLite in memory.
fn test_database() -> String {
    std::env::var("PIPS_TEST_TABLES_DB").unwrap_or_else(|_| "sqlite::memory:".to_owned())
}

/// A server keeping its tables on the test database.
async fn with_tables() -> TestServer {
    TestServer::start_with(Config {
        tables_db: Some(test_database()),
        ..Config::default()
    })
    .await
}

async fn tables(server: &TestServer) -> TableServiceClient<Channel> {
    TableServiceClient::connect(server.url())
        .await
        .expect("connect")
}

/// A person's seat.
fn person() -> proto::SeatPlan {
    proto::SeatPlan {
        who: Some(proto::seat_plan::Who::Person(proto::PersonSeat {})),
    }
}

/// A computer player's seat.
fn computer(level: proto::BotLevel) -> proto::SeatPlan {
    proto::SeatPlan {
        who: Some(proto::seat_plan::Who::Computer(proto::ComputerSeat {
            level: level as i32,
        })),
    }
}

fn create(variant: &str, seats: Vec<proto::SeatPlan>) -> proto::CreateTableRequest {
    proto::CreateTableRequest {
        variant: variant.to_owned(),
        players: u32::try_from(seats.len()).expect("seats"),
        rules: None,
        seats,
        ..Default::default()
    }
}

/// A new table at `variant` with `seats`.
async fn new_table(
    client: &mut TableServiceClient<Channel>,
    variant: &str,
    seats: Vec<proto::SeatPlan>,
) -> proto::CreateTableResponse {
    client
        .create_table(create(variant, seats))
        .await
        .expect("created")
        .into_inner()
}

/// A new table of two people at `variant`, and its links.
async fn two_people(
    client: &mut TableServiceClient<Channel>,
    variant: &str,
) -> (proto::CreateTableResponse, Vec<String>) {
    let created = new_table(client, variant, vec![person(), person()]).await;
    let links = created.seat_links.iter().map(|l| l.link.clone()).collect();
    (created, links)
}

/// A new muggins table of two people: the link of the seat to act first,
/// and the other's.
async fn actor_and_other(client: &mut TableServiceClient<Channel>) -> (String, String) {
    let (created, links) = two_people(client, "muggins").await;
    let first = created.update.expect("an update");
    let to_act = usize::try_from(view(&first).to_act.expect("a seat to act")).expect("seat");
    (links[to_act].clone(), links[1 - to_act].clone())
}

/// The table as the seat of `link` sees it.
async fn open(client: &mut TableServiceClient<Channel>, link: &str) -> proto::TableUpdate {
    client
        .open_seat(proto::OpenSeatRequest {
            link: link.to_owned(),
        })
        .await
        .expect("open")
        .into_inner()
        .update
        .expect("an update")
}

/// The watch of the seat (or watcher) `link` opens.
async fn watch(
    client: &mut TableServiceClient<Channel>,
    link: &str,
) -> tonic::Streaming<proto::WatchResponse> {
    client
        .watch(proto::WatchRequest {
            link: link.to_owned(),
        })
        .await
        .expect("watching")
        .into_inner()
}

/// The next update of a watch, within [`WITHIN`].
async fn next_update(watch: &mut tonic::Streaming<proto::WatchResponse>) -> proto::TableUpdate {
    tokio::time::timeout(WITHIN, watch.message())
        .await
        .expect("an update in time")
        .expect("a message")
        .expect("an update")
        .update
        .expect("an update")
}

fn view(update: &proto::TableUpdate) -> &proto::ViewResponse {
    update.view.as_ref().expect("a view")
}

#[tokio::test]
async fn seats_open_by_their_links_and_moves_are_made_once() {
    let server = with_tables().await;
    let mut client = tables(&server).await;
    let (created, links) = two_people(&mut client, "muggins").await;
    assert_eq!(links.len(), 2);
    assert!(links.iter().all(|link| link.len() == 22));
    let zero = open(&mut client, &links[0]).await;
    let one = open(&mut client, &links[1]).await;
    assert_eq!((zero.seat, one.seat, zero.number), (0, 1, 0));
    assert_eq!(zero.table_id, created.table_id);
    // Each seat sees its own hand, and only the other's size.
    let (hand0, hand1) = (&view(&zero).hand, &view(&one).hand);
    assert!(!hand0.is_empty() && hand0.iter().all(|tile| !hand1.contains(tile)));
    assert_eq!(view(&zero).hand_sizes, view(&one).hand_sizes);
    // The seat to act moves at number 0.
    let (actor, actor_link, other_link) = match view(&zero).to_act {
        Some(0) => (&zero, &links[0], &links[1]),
        _ => (&one, &links[1], &links[0]),
    };
    let mv = view(actor).legal_moves[0];
    let act = |link: &str, number, mv| proto::ActRequest {
        link: link.to_owned(),
        number,
        r#move: Some(mv),
    };
    let acted = client
        .act(act(actor_link, 0, mv))
        .await
        .expect("acted")
        .into_inner();
    assert!(!acted.stale);
    let after = acted.update.expect("an update");
    assert_eq!(after.number, 1);
    // The other seat sees the move, its events, and that it is its turn.
    let other = open(&mut client, other_link).await;
    assert_eq!(other.number, 1);
    assert_eq!(view(&other).to_act, Some(other.seat));
    assert!(!other.events.is_empty());
    // The same move sent again, or a move at an old number: answered with
    // where the table stands, never applied twice.
    let again = client
        .act(act(actor_link, 0, mv))
        .await
        .expect("answered")
        .into_inner();
    assert!(again.stale);
    assert_eq!(again.update.expect("an update").number, 1);
    let next = view(&other).legal_moves[0];
    let old = client
        .act(act(other_link, 0, next))
        .await
        .expect("answered")
        .into_inner();
    assert!(old.stale);
    // A link acting for another seat, a link that opens nothing, an
    // illegal move.
    let mut other_seats = next;
    other_seats.seat = 1 - other.seat;
    let status = client
        .act(act(other_link, 1, other_seats))
        .await
        .expect_err("another seat's move");
    assert_eq!(status.code(), tonic::Code::PermissionDenied);
    for bad in ["", "not-a-link", "AAAAAAAAAAAAAAAAAAAAAA"] {
        let request = proto::OpenSeatRequest {
            link: bad.to_owned(),
        };
        let status = client.open_seat(request).await.expect_err("no table");
        assert_eq!(status.code(), tonic::Code::NotFound, "{bad:?}");
        assert_eq!(reason(&status), ErrorReason::TableNotFound.as_str_name());
    }
    let status = client
        .act(act(actor_link, 1, mv))
        .await
        .expect_err("not its turn");
    assert_eq!(status.code(), tonic::Code::FailedPrecondition);
    server.stop().await;
}

/// Plays the match at the table of `links` (every seat a person's) to its
/// end, each seat by its own link: the table at the end and the moves
/// made.
async fn play_to_end(
    client: &mut TableServiceClient<Channel>,
    links: &[String],
) -> (proto::TableUpdate, usize) {
    let mut moves = 0;
    let last = loop {
        let seat_zero = open(client, &links[0]).await;
        let Some(to_act) = view(&seat_zero).to_act else {
            break seat_zero;
        };
        let link = &links[usize::try_from(to_act).expect("seat")];
        let update = open(client, link).await;
        let acted = client
            .act(proto::ActRequest {
                link: link.clone(),
                number: update.number,
                r#move: Some(view(&update).legal_moves[moves % view(&update).legal_moves.len()]),
            })
            .await
            .expect("acted")
            .into_inner();
        assert!(!acted.stale);
        moves += 1;
        assert!(moves < 5_000, "the match ends");
    };
    (last, moves)
}

#[tokio::test]
async fn a_match_played_by_links_replays_to_its_digest_and_offers_a_rematch() {
    let server = with_tables().await;
    let mut client = tables(&server).await;
    let (created, links) = two_people(&mut client, "draw").await;
    // No record while the match is played: its first state shows every hand.
    let early = client
        .record(proto::RecordRequest {
            link: links[0].clone(),
        })
        .await
        .expect_err("in play");
    assert_eq!(early.code(), tonic::Code::FailedPrecondition);
    assert_eq!(reason(&early), ErrorReason::MatchInPlay.as_str_name());
    let (last, moves) = play_to_end(&mut client, &links).await;
    assert_eq!(last.number, moves as u64);
    assert_eq!(last.r#match, 1);
    let record = client
        .record(proto::RecordRequest {
            link: links[1].clone(),
        })
        .await
        .expect("a record")
        .into_inner();
    // (A table dealt from a random seed has no notation: it could not be
    // dealt again.)
    assert_eq!(record.notation, "");
    let record = record.record.expect("a record");
    assert_eq!(record.moves.len(), moves);
    let mut engine = server.client().await;
    let replayed = engine.replay(record).await.expect("replayed").into_inner();
    assert_eq!(replayed.match_digest, view(&last).match_digest);
    // The watch link may have the record too, once the match is over, and
    // review it.
    let watched = client
        .record(proto::RecordRequest {
            link: created.watch_link.clone(),
        })
        .await
        .expect("a record for the watch link")
        .into_inner();
    let reviewed = engine
        .review_match(proto::ReviewMatchRequest {
            record: watched.record,
            playouts: Some(10),
            ..Default::default()
        })
        .await
        .expect("reviewed")
        .into_inner();
    // (Reviewed in full unless a busy machine's work pool, which runs at
    // the lowest priority, ran out of the call's time first.)
    assert!(!reviewed.moves.is_empty());
    if reviewed.complete {
        assert_eq!(reviewed.moves.len(), moves);
    }
    // A rematch: asked twice at the same number, dealt once, for the same
    // seats and links; the watch link may not ask.
    let watcher = client
        .rematch(proto::RematchRequest {
            link: created.watch_link.clone(),
            number: last.number,
        })
        .await
        .expect_err("a watcher");
    assert_eq!(watcher.code(), tonic::Code::PermissionDenied);
    let ask = |link: &str| proto::RematchRequest {
        link: link.to_owned(),
        number: last.number,
    };
    let dealt = client
        .rematch(ask(&links[1]))
        .await
        .expect("dealt")
        .into_inner();
    let again = client
        .rematch(ask(&links[0]))
        .await
        .expect("answered")
        .into_inner();
    let dealt_update = dealt.update.expect("an update");
    assert!(!dealt.stale && again.stale);
    assert_eq!(
        (dealt_update.r#match, dealt_update.number),
        (2, last.number + 1)
    );
    let next = open(&mut client, &links[0]).await;
    assert_eq!((next.r#match, next.number), (2, last.number + 1));
    assert!(view(&next).to_act.is_some() && view(&next).history.is_empty());
    assert_ne!(view(&next).match_digest, view(&last).match_digest);
    // The new match, still in play, is not rematched.
    let early = client
        .rematch(proto::RematchRequest {
            link: links[0].clone(),
            number: next.number,
        })
        .await
        .expect_err("in play");
    assert_eq!(reason(&early), ErrorReason::MatchInPlay.as_str_name());
    server.stop().await;
}

/// The match digest of the deal `NewGame` makes of `variant` for two
/// players from `seed`, as seat 0 sees it.
async fn dealt_digest(server: &TestServer, variant: &str, seed: u64) -> Vec<u8> {
    let mut engine = server.client().await;
    let dealt = engine
        .new_game(proto::NewGameRequest {
            variant: variant.to_owned(),
            players: 2,
            seed: Some(seed),
            ..Default::default()
        })
        .await
        .expect("dealt")
        .into_inner();
    engine
        .view(proto::ViewRequest {
            state_source: dealt.state.map(proto::view_request::StateSource::State),
            seat: 0,
        })
        .await
        .expect("a view")
        .into_inner()
        .match_digest
}

#[tokio::test]
async fn a_seeded_table_deals_each_match_from_its_seed() {
    let server = with_tables().await;
    let mut client = tables(&server).await;
    let mut request = create("draw", vec![person(), person()]);
    request.seed = Some(u64::MAX);
    let created = client
        .create_table(request)
        .await
        .expect("created")
        .into_inner();
    let links: Vec<String> = created.seat_links.iter().map(|l| l.link.clone()).collect();
    let first = open(&mut client, &links[0]).await;
    assert_eq!(
        view(&first).match_digest,
        dealt_digest(&server, "draw", u64::MAX).await,
        "the first match is dealt as NewGame deals from the seed"
    );
    // (The clock the update was made at, to count a timer down from.)
    let now = u64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_millis(),
    )
    .expect("ms");
    assert!(
        first.server_time_ms.abs_diff(now) < 60_000,
        "the server's clock is sent"
    );
    let (last, _) = play_to_end(&mut client, &links).await;
    // A seeded table's record offers its notation, which replays to the
    // match's digest.
    let recorded = client
        .record(proto::RecordRequest {
            link: links[0].clone(),
        })
        .await
        .expect("a record")
        .into_inner();
    assert!(
        recorded
            .notation
            .starts_with("[Preset \"draw\"]\n[Seats \"2\"]\n[Seed \"18446744073709551615\"]\n1: "),
        "{}",
        recorded.notation
    );
    let mut engine = server.client().await;
    let replayed = engine
        .replay(proto::ReplayRequest {
            notation: recorded.notation.clone(),
            ..Default::default()
        })
        .await
        .expect("the notation replays")
        .into_inner();
    assert_eq!(replayed.match_digest, view(&last).match_digest);
    let dealt = client
        .rematch(proto::RematchRequest {
            link: links[1].clone(),
            number: last.number,
        })
        .await
        .expect("dealt")
        .into_inner()
        .update
        .expect("an update");
    assert_eq!(dealt.r#match, 2);
    let second = open(&mut client, &links[0]).await;
    assert_eq!(
        view(&second).match_digest,
        dealt_digest(&server, "draw", 0).await,
        "the rematch is dealt from the next seed (wrapping)"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_watch_link_sees_no_hand_and_acts_for_nobody() {
    let server = with_tables().await;
    let mut client = tables(&server).await;
    let (created, links) = two_people(&mut client, "draw").await;
    assert_eq!(created.watch_link.len(), 22);
    assert!(!links.contains(&created.watch_link));
    let mut watch = watch(&mut client, &created.watch_link).await;
    let public = open(&mut client, &created.watch_link).await;
    assert!(public.watching);
    assert!(view(&public).hand.is_empty() && view(&public).legal_moves.is_empty());
    assert_eq!(view(&public).hand_sizes, [7, 7]);
    let to_act = view(&public).to_act.expect("a seat to act");
    let link = &links[usize::try_from(to_act).expect("seat")];
    let seat = open(&mut client, link).await;
    // The watch link acts for nobody, whatever seat its move names.
    let refused = client
        .act(proto::ActRequest {
            link: created.watch_link.clone(),
            number: 0,
            r#move: Some(view(&seat).legal_moves[0]),
        })
        .await
        .expect_err("a watcher");
    assert_eq!(refused.code(), tonic::Code::PermissionDenied);
    assert_eq!(
        reason(&refused),
        ErrorReason::SeatNotPermitted.as_str_name()
    );
    // Moves, draws among them, reach the watch with no tile drawn named.
    let (_, moves) = play_to_end(&mut client, &links).await;
    let mut seen = 0;
    while seen < moves {
        let update = next_update(&mut watch).await;
        assert!(update.watching);
        assert!(view(&update).hand.is_empty() && view(&update).legal_moves.is_empty());
        let drawn = |event: &proto::Event| match &event.kind {
            Some(proto::event::Kind::TileDrawn(drawn)) => drawn.tile.is_some(),
            _ => false,
        };
        assert!(!update.events.iter().any(drawn), "a drawn tile shown");
        seen = usize::try_from(update.number).expect("a number");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_seat_whose_time_runs_out_is_played_by_the_computer_until_it_returns() {
    let server = with_tables().await;
    let mut client = tables(&server).await;
    let mut request = create("muggins", vec![person(), person()]);
    request.settings = Some(proto::TableSettings {
        turn_seconds: 1,
        on_timeout: proto::TimeoutRule::TakeOver as i32,
    });
    let created = client
        .create_table(request)
        .await
        .expect("created")
        .into_inner();
    let first = created.update.expect("an update");
    let late = view(&first).to_act.expect("a seat to act");
    assert!(first.turn_ends_at_ms > 0, "the timer runs");
    assert!(
        first.turn_ends_at_ms > first.server_time_ms
            && first.turn_ends_at_ms <= first.server_time_ms + 1_000,
        "the time left is counted from the server's clock: {} to {}",
        first.server_time_ms,
        first.turn_ends_at_ms
    );
    assert_eq!(
        first.settings.expect("settings").turn_seconds,
        1,
        "the settings are shown"
    );
    // Nobody moves: within the timer and a sweep, the computer has moved
    // for the late seat, and plays it from then on.
    let other = &created.seat_links[usize::from(late == 0)].link;
    let mut taken_over = None;
    for _ in 0..100 {
        let update = open(&mut client, other).await;
        if update.number > 0 && update.presence[late as usize].computer_plays {
            taken_over = Some(update);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let taken_over = taken_over.expect("the computer moved for the late seat");
    assert!(
        view(&taken_over)
            .history
            .iter()
            .any(|entry| entry.seat == late)
    );
    // The late seat's person comes back by opening their link.
    let back = open(&mut client, &created.seat_links[late as usize].link).await;
    assert!(!back.presence[late as usize].computer_plays);
    server.stop().await;
}

#[tokio::test]
async fn a_watched_seat_shows_as_connected() {
    let server = with_tables().await;
    let mut client = tables(&server).await;
    let (_, links) = two_people(&mut client, "muggins").await;
    let connected = |update: &proto::TableUpdate| {
        update
            .presence
            .iter()
            .map(|seat| seat.connected)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        connected(&open(&mut client, &links[1]).await),
        [false, false]
    );
    let mut watch = watch(&mut client, &links[0]).await;
    // The watch itself hears its seat arrive (within a sweep).
    let mut arrived = false;
    for _ in 0..4 {
        let update = next_update(&mut watch).await;
        if connected(&update) == [true, false] {
            arrived = true;
            break;
        }
    }
    assert!(arrived, "seat 0 shows as connected");
    assert_eq!(
        connected(&open(&mut client, &links[1]).await),
        [true, false]
    );
    drop(watch);
    let mut left = false;
    for _ in 0..50 {
        if connected(&open(&mut client, &links[1]).await) == [false, false] {
            left = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(left, "seat 0 shows as gone once its watch ends");
    server.stop().await;
}

#[tokio::test]
async fn a_table_nobody_plays_expires_however_often_it_is_opened_or_watched() {
    // (A database of its own: a short expiry on a shared one would delete
    // the other tests' tables.)
    let server = TestServer::start_with(Config {
        tables_db: Some("sqlite::memory:".to_owned()),
        tables_expire_after: Duration::from_millis(1_500),
        ..Config::default()
    })
    .await;
    let mut client = tables(&server).await;
    let (_, idle) = two_people(&mut client, "muggins").await;
    let (played, other) = actor_and_other(&mut client).await;
    // Both tables watched from a seat all along, the idle one opened
    // every tenth of a second as a script would; the other played by
    // its people every half second.
    let mut watched = watch(&mut client, &idle[0]).await;
    let _also = watch(&mut client, &played).await;
    let started = std::time::Instant::now();
    let mut gone = None;
    let mut last_move = started;
    let mut movers = [played.clone(), other.clone()];
    while started.elapsed() < Duration::from_secs(8) {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if last_move.elapsed() >= Duration::from_millis(500) {
            let update = open(&mut client, &movers[0]).await;
            if view(&update).to_act != Some(update.seat) {
                movers.swap(0, 1);
                continue;
            }
            play_first_legal(&mut client, &movers[0], &update).await;
            last_move = std::time::Instant::now();
        }
        if let Err(status) = client
            .open_seat(proto::OpenSeatRequest {
                link: idle[0].clone(),
            })
            .await
        {
            gone = Some((status, started.elapsed()));
            break;
        }
    }
    let (gone, after) = gone.expect("the table nobody played expired");
    assert_eq!(gone.code(), tonic::Code::NotFound);
    assert_eq!(reason(&gone), ErrorReason::TableNotFound.as_str_name());
    assert!(after >= Duration::from_millis(1_400), "after {after:?}");
    // Its watch ended with it; the played table is there.
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        while let Ok(Some(_)) = watched.message().await {}
    })
    .await;
    assert!(ended.is_ok(), "the expired table's watch ended");
    open(&mut client, &played).await;
    server.stop().await;
}

#[tokio::test]
async fn computer_seats_move_on_their_own() {
    let server = with_tables().await;
    let mut client = tables(&server).await;
    let created = new_table(
        &mut client,
        "muggins",
        vec![
            person(),
            computer(proto::BotLevel::Greedy),
            person(),
            computer(proto::BotLevel::Expert),
        ],
    )
    .await;
    assert_eq!(
        created
            .seat_links
            .iter()
            .map(|l| l.seat)
            .collect::<Vec<_>>(),
        [0, 2]
    );
    let update = created.update.expect("an update");
    assert_eq!(update.seats[1], computer(proto::BotLevel::Greedy));
    // Whoever leads, the computers move until a person is to act.
    let mut to_act = None;
    for _ in 0..100 {
        let update = open(&mut client, &created.seat_links[0].link).await;
        to_act = view(&update).to_act;
        if matches!(to_act, Some(0 | 2)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        matches!(to_act, Some(0 | 2)),
        "a person is to act: {to_act:?}"
    );
    // A table of computer players alone is refused.
    let status = client
        .create_table(create(
            "muggins",
            vec![
                computer(proto::BotLevel::Random),
                computer(proto::BotLevel::Random),
            ],
        ))
        .await
        .expect_err("no person");
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    server.stop().await;
}

#[tokio::test]
async fn tables_are_served_over_json_and_refused_where_none_are_kept() {
    let server = with_tables().await;
    let url = |rpc: &str| format!("{}/v1/{rpc}", server.url());
    let created = post_json(
        &url("CreateTable"),
        r#"{"variant": "block", "players": 2, "seats": [{"person": {}}, {"computer": {"level": "BOT_LEVEL_RANDOM"}}]}"#,
    )
    .await;
    assert_eq!(created.status, http::StatusCode::OK);
    let link = created.json()["seatLinks"][0]["link"]
        .as_str()
        .expect("a link")
        .to_owned();
    let opened = post_json(&url("OpenSeat"), format!(r#"{{"link": "{link}"}}"#)).await;
    assert_eq!(opened.status, http::StatusCode::OK);
    assert_eq!(opened.json()["update"]["seat"], 0);
    let missing = post_json(&url("OpenSeat"), r#"{"link": "nope"}"#).await;
    assert_eq!(missing.status, http::StatusCode::NOT_FOUND);
    assert_eq!(missing.json()["reason"], "ERROR_REASON_TABLE_NOT_FOUND");
    // The OpenAPI document describes the tables' routes where they are
    // served, and only there.
    let paths = |server: &TestServer| {
        let url = format!("{}/openapi.json", server.url());
        async move { server::call(http::Method::GET, &url).await.json()["paths"].clone() }
    };
    assert!(paths(&server).await["/v1/CreateTable"].is_object());
    server.stop().await;

    // A server without a tables database refuses their calls, naming the flag.
    let plain = TestServer::start().await;
    let refused = post_json(&format!("{}/v1/OpenSeat", plain.url()), r#"{"link": "x"}"#).await;
    assert_eq!(refused.status, http::StatusCode::NOT_FOUND);
    assert!(
        refused.json()["message"]
            .as_str()
            .unwrap_or_default()
            .contains("--tables-db")
    );
    assert!(paths(&plain).await["/v1/CreateTable"].is_null());
    plain.stop().await;
}

#[tokio::test]
async fn tables_outlive_a_restart_on_the_same_database() {
    let dir = std::env::temp_dir().join(format!("pips-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let file = dir.join("tables.db");
    let _ = std::fs::remove_file(&file);
    let config = || Config {
        tables_db: Some(format!("sqlite://{}?mode=rwc", file.display())),
        ..Config::default()
    };
    let server = TestServer::start_with(config()).await;
    let mut client = tables(&server).await;
    let created = new_table(&mut client, "muggins", vec![person(), person()]).await;
    let update = created.update.expect("an update");
    let to_act = view(&update).to_act.expect("a seat to act");
    let link = created.seat_links[usize::try_from(to_act).expect("seat")]
        .link
        .clone();
    let opened = open(&mut client, &link).await;
    client
        .act(proto::ActRequest {
            link: link.clone(),
            number: 0,
            r#move: Some(view(&opened).legal_moves[0]),
        })
        .await
        .expect("acted");
    server.stop().await;

    let server = TestServer::start_with(config()).await;
    let mut client = tables(&server).await;
    let resumed = client
        .open_seat(proto::OpenSeatRequest { link })
        .await
        .expect("the table is still there")
        .into_inner()
        .update
        .expect("an update");
    assert_eq!(resumed.number, 1);
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Waits at most this long for an update that a move just published.
const WITHIN: Duration = Duration::from_secs(15);

#[tokio::test]
async fn a_watch_sees_every_move_as_its_seat_may() {
    let server = with_tables().await;
    let mut client = tables(&server).await;
    let (actor, watcher) = &actor_and_other(&mut client).await;
    // The other seat watches over gRPC ...
    let mut watch = watch(&mut client, watcher).await;
    let now = watch
        .message()
        .await
        .expect("a message")
        .expect("an update");
    let now = now.update.expect("an update");
    assert_eq!((now.number, view(&now).hand.is_empty()), (0, false));
    // ... and over server-sent events.
    let mut events = tokio::net::TcpStream::connect(server.addr)
        .await
        .expect("connect");
    let body = format!(r#"{{"link": "{watcher}"}}"#);
    let head = format!(
        "POST /v1/Watch HTTP/1.1\r\nhost: pips\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    );
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    events.write_all(head.as_bytes()).await.expect("sent");
    let mut read = String::new();
    let mut event = async |read: &mut String, count: usize| {
        let mut buffer = vec![0u8; 65536];
        while read.matches("\ndata: ").count() < count {
            let n = tokio::time::timeout(WITHIN, events.read(&mut buffer))
                .await
                .expect("an event in time")
                .expect("read");
            assert!(n > 0, "the stream ended");
            read.push_str(&String::from_utf8_lossy(&buffer[..n]));
        }
    };
    event(&mut read, 1).await;
    assert!(read.starts_with("HTTP/1.1 200"), "{read}");
    assert!(read.contains("content-type: text/event-stream"), "{read}");
    // The seat to act moves: both watches hear of it, as the watcher's
    // seat sees it.
    let opened = open(&mut client, actor).await;
    play_first_legal(&mut client, actor, &opened).await;
    let next = next_update(&mut watch).await;
    assert_eq!(next.number, 1);
    assert_eq!(view(&next).to_act, Some(next.seat));
    assert!(!next.events.is_empty());
    event(&mut read, 2).await;
    let last = read.rsplit("\ndata: ").next().unwrap_or_default();
    let json: serde_json::Value =
        serde_json::from_str(last.trim_end_matches('\n').trim()).expect("an update as JSON");
    assert_eq!(json["update"]["number"], "1");
    assert!(json["update"]["view"]["boneyardSize"].is_number());
    // Connect carries no streams: refused, saying where Watch is served.
    let connect = post_json(
        &format!("{}/pips.v1.TableService/Watch", server.url()),
        format!(r#"{{"link": "{watcher}"}}"#),
    )
    .await;
    assert_ne!(connect.status, http::StatusCode::OK);
    assert!(String::from_utf8_lossy(&connect.body).contains("server-sent events"));
    drop((watch, events));
    server.stop().await;
}

#[tokio::test]
async fn a_watch_sees_the_computer_seats_move() {
    let server = with_tables().await;
    let mut client = tables(&server).await;
    let created = new_table(
        &mut client,
        "block",
        vec![person(), computer(proto::BotLevel::Random)],
    )
    .await;
    let link = created.seat_links[0].link.clone();
    let mut watch = watch(&mut client, &link).await;
    // Updates come until the person is to act after a computer's move.
    let mut seen_computer = false;
    loop {
        let update = next_update(&mut watch).await;
        if update.number > 0 && view(&update).to_act == Some(0) {
            seen_computer = true;
        }
        if view(&update).to_act == Some(0) {
            if seen_computer {
                break;
            }
            // The person moves; the computer answers.
            let mv = view(&update).legal_moves[0];
            client
                .act(proto::ActRequest {
                    link: link.clone(),
                    number: update.number,
                    r#move: Some(mv),
                })
                .await
                .expect("acted");
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn tables_and_watches_are_limited_per_address_and_table() {
    let server = TestServer::start_with(Config {
        tables_db: Some("sqlite::memory:".to_owned()),
        table_limits: pips::tables::limits::TableLimits {
            creations_per_minute: 2,
            most_tables: 100,
            tables_per_address: 100,
            watchers_per_table: 1,
            ..pips::tables::limits::TableLimits::default()
        },
        ..Config::default()
    })
    .await;
    let mut client = tables(&server).await;
    let (created, links) = two_people(&mut client, "muggins").await;
    two_people(&mut client, "muggins").await;
    // A third table from the same address within the minute: refused,
    // over gRPC and (429) over JSON.
    let refused = client
        .create_table(create("muggins", vec![person(), person()]))
        .await
        .expect_err("past the rate");
    assert_eq!(refused.code(), tonic::Code::ResourceExhausted);
    assert_eq!(reason(&refused), ErrorReason::TableLimit.as_str_name());
    assert!(
        refused.message().contains("2 tables a minute"),
        "{}",
        refused.message()
    );
    let json = post_json(
        &format!("{}/v1/CreateTable", server.url()),
        r#"{"variant": "muggins", "players": 2, "seats": [{"person": {}}, {"person": {}}]}"#
            .to_owned(),
    )
    .await;
    assert_eq!(json.status, http::StatusCode::TOO_MANY_REQUESTS);
    // One watch of the watch link at a time: a second waits for the
    // first.
    let first = watch(&mut client, &created.watch_link).await;
    let second = client
        .watch(proto::WatchRequest {
            link: created.watch_link.clone(),
        })
        .await
        .expect_err("one watch of the watch link");
    assert_eq!(second.code(), tonic::Code::ResourceExhausted);
    assert!(
        second.message().contains("watch link"),
        "{}",
        second.message()
    );
    // The seats' own watches do not count against it, nor it against
    // them: each seat watches, four times over.
    let mut seats = Vec::new();
    for link in &links {
        for _ in 0..4 {
            seats.push(watch(&mut client, link).await);
        }
    }
    // A seat's fifth takes the place of its oldest, which ends.
    let fifth = watch(&mut client, &links[0]).await;
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        while let Ok(Some(_)) = seats[0].message().await {}
    })
    .await;
    assert!(ended.is_ok(), "the seat's oldest watch ended");
    drop((fifth, seats));
    drop(first);
    let mut again = None;
    for _ in 0..50 {
        match client
            .watch(proto::WatchRequest {
                link: created.watch_link.clone(),
            })
            .await
        {
            Ok(watch) => {
                again = Some(watch);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    assert!(
        again.is_some(),
        "the watch's place is given back when it ends"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_seat_gets_its_live_updates_however_many_watch_the_others() {
    let server = with_tables().await;
    let mut client = tables(&server).await;
    let (created, links) = two_people(&mut client, "muggins").await;
    let to_act = usize::try_from(
        view(created.update.as_ref().expect("an update"))
            .to_act
            .expect("a seat to act"),
    )
    .expect("a seat");
    let (mine, theirs) = (&links[1 - to_act], &links[to_act]);
    // The watch link's 32 slots held, and the other seat's link watched
    // 28 times over (from one address: within the 64 it may hold, and
    // open in a burst).
    let mut held = Vec::new();
    for n in 0..32 {
        held.push(watch(&mut client, &created.watch_link).await);
        if n < 28 {
            held.push(watch(&mut client, theirs).await);
        }
    }
    let refused = client
        .watch(proto::WatchRequest {
            link: created.watch_link.clone(),
        })
        .await
        .expect_err("the watch link's slots are held");
    assert_eq!(refused.code(), tonic::Code::ResourceExhausted);
    // The seat's own watch is admitted, and sees the other's move.
    let mut own = watch(&mut client, mine).await;
    let before = next_update(&mut own).await;
    let update = open(&mut client, theirs).await;
    play_first_legal(&mut client, theirs, &update).await;
    // (Presence may change first, at the same number.)
    let mut after = next_update(&mut own).await;
    while after.number == before.number {
        after = next_update(&mut own).await;
    }
    assert_eq!(after.number, before.number + 1, "the seat saw the move");
    drop(held);
    server.stop().await;
}

/// `CreateTable` over JSON from `client`, behind the trusted proxy the
/// test server is (it forwards the client's address).
async fn create_from(server: &TestServer, client: &str) -> server::Answer {
    let request = http::Request::post(format!("{}/v1/CreateTable", server.url()))
        .header(http::header::CONTENT_TYPE, "application/json")
        .header("x-forwarded-for", client)
        .body(http_body_util::Full::new(bytes::Bytes::from_static(
            br#"{"variant": "muggins", "players": 2, "seats": [{"person": {}}, {"person": {}}]}"#,
        )))
        .expect("request");
    server::send(request).await
}

#[tokio::test]
async fn no_few_addresses_hold_the_cap_on_tables() {
    let server = TestServer::start_with(Config {
        tables_db: Some("sqlite::memory:".to_owned()),
        table_limits: pips::tables::limits::TableLimits {
            creations_per_minute: 100,
            most_tables: 20,
            tables_per_address: 5,
            ..pips::tables::limits::TableLimits::default()
        },
        trusted_proxies: pips::server::proxies::TrustedProxies::parse("127.0.0.1").expect("ranges"),
        ..Config::default()
    })
    .await;
    // Four addresses keep their share each: the cap.
    let mut links = Vec::new();
    for host in 1..=4 {
        for _ in 0..5 {
            let created = create_from(&server, &format!("10.0.0.{host}")).await;
            assert_eq!(created.status, http::StatusCode::OK);
            links.push(
                created.json()["seatLinks"][0]["link"]
                    .as_str()
                    .expect("a link")
                    .to_owned(),
            );
        }
    }
    let over = create_from(&server, "10.0.1.1").await;
    assert_eq!(
        over.status,
        http::StatusCode::OK,
        "room is made for a newcomer: {}",
        String::from_utf8_lossy(&over.body)
    );
    // One table of theirs went: the one played least recently, of the
    // largest address.
    let mut client = tables(&server).await;
    let mut gone = 0;
    for link in &links {
        let opened = client
            .open_seat(proto::OpenSeatRequest { link: link.clone() })
            .await;
        if let Err(status) = opened {
            assert_eq!(status.code(), tonic::Code::NotFound);
            gone += 1;
        }
    }
    assert_eq!(gone, 1);
    // At its share an address is refused; at the cap, one keeping as many
    // as anyone is too, while a newcomer is not.
    let share = create_from(&server, "10.0.0.2").await;
    assert_eq!(share.status, http::StatusCode::TOO_MANY_REQUESTS);
    assert!(
        share.json()["message"]
            .as_str()
            .is_some_and(|m| m.contains("one address may keep 5 tables")),
        "{}",
        String::from_utf8_lossy(&share.body)
    );
    let full = create_from(&server, "10.0.0.1").await;
    assert_eq!(full.status, http::StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(full.json()["reason"], "ERROR_REASON_TABLE_LIMIT");
    assert_eq!(
        create_from(&server, "192.0.2.1").await.status,
        http::StatusCode::OK
    );
    // What a client writes in the header itself is not believed: a call
    // that names a fresh address to the left of its own is still its own.
    let forged = create_from(&server, "198.51.100.9, 10.0.0.3").await;
    assert_eq!(forged.status, http::StatusCode::TOO_MANY_REQUESTS);
    server.stop().await;
}

/// A client of the binary at `addr`, once it answers.
async fn connect_when_up(addr: std::net::SocketAddr) -> TableServiceClient<Channel> {
    for _ in 0..200 {
        if let Ok(client) = TableServiceClient::connect(format!("http://{addr}")).await {
            return client;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server never answered");
}

#[tokio::test]
async fn a_server_killed_mid_match_loses_no_acknowledged_move_and_resumes() {
    let dir = std::env::temp_dir().join(format!("pips-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let file = dir.join("tables.db");
    let _ = std::fs::remove_file(&file);
    let database = format!("sqlite://{}?mode=rwc", file.display());
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port");
    // (An expert that searches long: a kill lands mid-search.)
    let server = Binary::start(addr, &database, &["--max-suggest-ms", "2000"]);
    let mut client = connect_when_up(addr).await;
    // A person against an expert computer seat, which searches after
    // each of their moves.
    let created = new_table(
        &mut client,
        "draw",
        vec![person(), computer(proto::BotLevel::Expert)],
    )
    .await;
    let link = created.seat_links[0].link.clone();
    // The person plays until six of their moves are acknowledged; the
    // server is killed at once after the sixth, the computer's answer
    // likely in flight.
    let mut acknowledged = 0;
    let mut number = 0;
    for _ in 0..2_000 {
        let update = open(&mut client, &link).await;
        if view(&update).to_act != Some(0) {
            assert!(view(&update).to_act.is_some(), "the match ended early");
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        number = play_first_legal(&mut client, &link, &update).await;
        acknowledged += 1;
        if acknowledged == 6 {
            break;
        }
    }
    assert_eq!(acknowledged, 6);
    server.kill();
    // Restarted on the same file: every acknowledged move is there, and
    // the computer seat moves on its own again (the sweeper finds its turn
    // due) until the person is to act.
    let server = Binary::start(addr, &database, &["--max-suggest-ms", "2000"]);
    let mut client = connect_when_up(addr).await;
    let resumed = open(&mut client, &link).await;
    assert!(resumed.number >= number, "{} < {number}", resumed.number);
    let mut to_act = view(&resumed).to_act;
    eprintln!(
        "after the restart: number {} (the last acknowledged {number}), seat to act {to_act:?}",
        resumed.number
    );
    for _ in 0..300 {
        if to_act != Some(1) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        to_act = view(&open(&mut client, &link).await).to_act;
    }
    assert_ne!(to_act, Some(1), "the computer seat moved after the restart");
    // The match goes on to its end, and its record replays to its digest:
    // no move was lost or applied twice.
    let (last, _) = play_to_end_against_computers(&mut client, &link).await;
    let record = client
        .record(proto::RecordRequest { link: link.clone() })
        .await
        .expect("a record")
        .into_inner()
        .record
        .expect("a record");
    assert_eq!(record.moves.len() as u64, last.number);
    let mut engine = pips::proto::domino_engine_service_client::DominoEngineServiceClient::connect(
        format!("http://{addr}"),
    )
    .await
    .expect("connect");
    let replayed = engine.replay(record).await.expect("replayed").into_inner();
    assert_eq!(replayed.match_digest, view(&last).match_digest);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays the first legal move of the seat of `link` where `update` shows
/// the table: the table's number after it.
async fn play_first_legal(
    client: &mut TableServiceClient<Channel>,
    link: &str,
    update: &proto::TableUpdate,
) -> u64 {
    let acted = client
        .act(proto::ActRequest {
            link: link.to_owned(),
            number: update.number,
            r#move: Some(view(update).legal_moves[0]),
        })
        .await
        .expect("acted")
        .into_inner();
    assert!(!acted.stale);
    acted.update.expect("an update").number
}

/// Plays seat 0 of the table of `link` (the other seats computers) to the
/// match's end: the table at the end, and the person's moves.
async fn play_to_end_against_computers(
    client: &mut TableServiceClient<Channel>,
    link: &str,
) -> (proto::TableUpdate, usize) {
    let mut moves = 0;
    for _ in 0..20_000 {
        let update = open(client, link).await;
        match view(&update).to_act {
            None => return (update, moves),
            Some(0) => {
                play_first_legal(client, link, &update).await;
                moves += 1;
            }
            Some(_) => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
    panic!("the match never ended");
}

/// Two servers sharing one PostgreSQL database (as behind a load
/// balancer): a seat watching from one hears the moves made through the
/// other, and sees the other seat's presence there. On SQLite, which one
/// server holds, there is nothing to share: `cargo test` skips it, and
/// `scripts/tables-postgres-check.sh` runs it.
#[tokio::test]
async fn servers_sharing_postgres_tell_each_other_of_every_move() {
    let database = test_database();
    if !database.starts_with("postgres") {
        eprintln!("skipped: PIPS_TEST_TABLES_DB names no PostgreSQL database");
        return;
    }
    let (one, two) = (with_tables().await, with_tables().await);
    let (mut through_one, mut through_two) = (tables(&one).await, tables(&two).await);
    let (created, links) = two_people(&mut through_one, "muggins").await;
    let first = created.update.expect("an update");
    let to_act = usize::try_from(view(&first).to_act.expect("a seat to act")).expect("seat");
    let (actor, watcher) = (&links[to_act], &links[1 - to_act]);
    let mut other_watch = watch(&mut through_two, watcher).await;
    assert_eq!(next_update(&mut other_watch).await.number, 0);
    // The actor watches through the first server: the second's watcher
    // sees it arrive.
    let actor_watch = watch(&mut through_one, actor).await;
    let mut arrived = false;
    for _ in 0..4 {
        let update = next_update(&mut other_watch).await;
        if update.presence.iter().all(|seat| seat.connected) {
            arrived = true;
            break;
        }
    }
    assert!(arrived, "the other server's seat shows as connected");
    // Every move, made by either seat through either server, reaches the
    // second server's watch.
    for number in 0..6 {
        let table = open(&mut through_one, actor).await;
        let Some(seat) = view(&table).to_act else {
            break;
        };
        let link = &links[usize::try_from(seat).expect("seat")];
        let opened = open(&mut through_one, link).await;
        let Some(mv) = view(&opened).legal_moves.first().copied() else {
            break;
        };
        let through = if number % 2 == 0 {
            &mut through_one
        } else {
            &mut through_two
        };
        through
            .act(proto::ActRequest {
                link: link.clone(),
                number,
                r#move: Some(mv),
            })
            .await
            .expect("acted");
        let mut heard = next_update(&mut other_watch).await;
        while heard.number < number + 1 {
            heard = next_update(&mut other_watch).await;
        }
        assert_eq!(
            heard.number,
            number + 1,
            "the watch through the other server"
        );
    }
    drop((other_watch, actor_watch));
    one.stop().await;
    two.stop().await;
}

/// A Connect stream's answer as read so far: its raw bytes (the head and
/// the chunked body) and how many bytes of the body's envelopes are taken.
#[derive(Default)]
struct ConnectRead {
    raw: Vec<u8>,
    taken: usize,
}

impl ConnectRead {
    /// The response's head, once read.
    fn head(&self) -> String {
        let end = self
            .raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or(0);
        String::from_utf8_lossy(&self.raw[..end]).into_owned()
    }

    /// The next envelope of `stream`: its flags and its message.
    async fn envelope(&mut self, stream: &mut tokio::net::TcpStream) -> (u8, Vec<u8>) {
        use tokio::io::AsyncReadExt;
        let mut buffer = vec![0u8; 65536];
        loop {
            if let Some(at) = self.raw.windows(4).position(|w| w == b"\r\n\r\n") {
                let body = dechunk(&self.raw[at + 4..]);
                let rest = &body[self.taken.min(body.len())..];
                if rest.len() >= 5 {
                    let length = u32::from_be_bytes([rest[1], rest[2], rest[3], rest[4]]) as usize;
                    if rest.len() >= 5 + length {
                        self.taken += 5 + length;
                        return (rest[0], rest[5..5 + length].to_vec());
                    }
                }
            }
            let n = tokio::time::timeout(WITHIN, stream.read(&mut buffer))
                .await
                .expect("an envelope in time")
                .expect("read");
            assert!(n > 0, "the stream ended");
            self.raw.extend_from_slice(&buffer[..n]);
        }
    }
}

/// The data of a chunked body read so far (an unfinished chunk: as much as
/// has come).
fn dechunk(mut chunked: &[u8]) -> Vec<u8> {
    let mut data = Vec::new();
    while let Some(line) = chunked.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(std::str::from_utf8(&chunked[..line]).unwrap_or("0"), 16)
            .unwrap_or(0);
        let start = line + 2;
        let end = (start + size).min(chunked.len());
        data.extend_from_slice(&chunked[start..end]);
        if start + size + 2 > chunked.len() {
            break;
        }
        chunked = &chunked[start + size + 2..];
    }
    data
}

#[tokio::test]
async fn a_connect_stream_watches_a_table() {
    use tokio::io::AsyncWriteExt;
    let server = with_tables().await;
    let mut client = tables(&server).await;
    let (actor, watcher) = &actor_and_other(&mut client).await;
    let open_stream = async |message: &[u8]| {
        let mut stream = tokio::net::TcpStream::connect(server.addr)
            .await
            .expect("connect");
        let mut body = vec![0u8];
        body.extend_from_slice(&u32::try_from(message.len()).expect("short").to_be_bytes());
        body.extend_from_slice(message);
        let head = format!(
            "POST /pips.v1.TableService/Watch HTTP/1.1\r\nhost: pips\r\n\
             content-type: application/connect+json\r\nconnect-protocol-version: 1\r\n\
             content-length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).await.expect("sent");
        stream.write_all(&body).await.expect("sent");
        stream
    };
    // The seat not to act watches over Connect: where the table stands ...
    let mut stream = open_stream(format!(r#"{{"link": "{watcher}"}}"#).as_bytes()).await;
    let mut read = ConnectRead::default();
    let (flags, message) = read.envelope(&mut stream).await;
    let head = read.head();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.contains("content-type: application/connect+json"),
        "{head}"
    );
    assert_eq!(flags, 0, "an update");
    let update: serde_json::Value = serde_json::from_slice(&message).expect("JSON");
    assert_eq!(update["update"]["number"], "0");
    assert!(update["update"]["view"]["hand"].is_array(), "its own hand");
    // ... then each move.
    let opened = open(&mut client, actor).await;
    play_first_legal(&mut client, actor, &opened).await;
    let mut number = serde_json::Value::Null;
    for _ in 0..4 {
        let (flags, message) = read.envelope(&mut stream).await;
        assert_eq!(flags, 0, "an update");
        let update: serde_json::Value = serde_json::from_slice(&message).expect("JSON");
        number = update["update"]["number"].clone();
        if number == "1" {
            break;
        }
    }
    assert_eq!(number, "1", "the move reaches the Connect stream");
    // A link that opens nothing: the stream's end says why.
    let mut refused = open_stream(br#"{"link": "AAAAAAAAAAAAAAAAAAAAAA"}"#).await;
    let (flags, message) = ConnectRead::default().envelope(&mut refused).await;
    assert_eq!(flags, 2, "the end of the stream");
    let end: serde_json::Value = serde_json::from_slice(&message).expect("JSON");
    assert_eq!(end["error"]["code"], "not_found", "{end}");
    drop(stream);
    server.stop().await;
}
