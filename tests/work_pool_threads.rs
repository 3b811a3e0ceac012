//! A flood of searches runs on the work pool's threads and no others: the
//! server's thread count stays within the pool's size plus a constant,
//! however many searches are asked for at once. (Its own test binary, so
//! that no other test's threads are counted.)

mod server;

use std::time::Duration;

use pips::proto;
use pips::server::Config;
use pips::service::pool::PoolSize;
use server::TestServer;
use tokio::task::JoinSet;

/// The process's threads, and those of them that are the work pool's.
fn threads() -> (usize, usize) {
    let mut all = 0;
    let mut pool = 0;
    for task in std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .flatten()
    {
        all += 1;
        let name = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if name.starts_with("pips-work-") {
            pool += 1;
        }
    }
    (all, pool)
}

#[tokio::test]
async fn a_flood_of_searches_runs_on_the_pools_threads_alone() {
    let server = TestServer::start_with(Config {
        work_pool: PoolSize {
            threads: 2,
            queue: 6,
        },
        ..Config::default()
    })
    .await;
    let (state, seat) = server::a_choice(&server).await;
    let (before, _) = threads();
    let request = proto::SuggestMoveRequest {
        state_source: Some(state.into()),
        seat,
        level: proto::BotLevel::Expert as i32,
        playouts: Some(1_000_000),
        ..Default::default()
    };
    // 64 searches at once over eight connections.
    let mut clients = Vec::new();
    for _ in 0..8 {
        clients.push(server.client().await);
    }
    let mut calls = JoinSet::new();
    for i in 0..64 {
        let (mut client, request) = (clients[i % 8].clone(), request.clone());
        calls.spawn(async move { client.suggest_move(request).await });
    }
    let mut most = (0, 0);
    for _ in 0..10 {
        tokio::time::sleep(Duration::from_millis(30)).await;
        let (all, pool) = threads();
        most = (most.0.max(all), most.1.max(pool));
    }
    let (mut answered, mut refused) = (0, 0);
    while let Some(call) = calls.join_next().await {
        match call.expect("joined") {
            Ok(_) => answered += 1,
            Err(status) if status.code() == tonic::Code::ResourceExhausted => refused += 1,
            Err(status) => panic!("{status:?}"),
        }
    }
    assert_eq!(most.1, 2, "the pool's threads");
    assert!(
        most.0 <= before + 2 + 4,
        "{before} threads before, {} during",
        most.0
    );
    // The pool holds eight (two running, six waiting); the rest are
    // refused at once.
    assert_eq!(answered + refused, 64);
    assert!((8..=16).contains(&answered), "{answered} answered");
    server.stop().await;
}
